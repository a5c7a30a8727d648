package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// spyIdempotencyStore records what the runtime asks of its store and can
// be made to fail.
type spyIdempotencyStore struct {
	mu    sync.Mutex
	inner runtime.IdempotencyStore
	fail  error
	keys  []runtime.IdempotencyKey
	ttls  []time.Duration
	kept  []bool
}

func (s *spyIdempotencyStore) Do(ctx context.Context, k runtime.IdempotencyKey, ttl time.Duration, call func() ([]byte, bool)) ([]byte, error) {
	s.mu.Lock()
	s.keys, s.ttls = append(s.keys, k), append(s.ttls, ttl)
	fail := s.fail
	s.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	return s.inner.Do(ctx, k, ttl, func() ([]byte, bool) {
		b, keep := call()
		s.mu.Lock()
		s.kept = append(s.kept, keep)
		s.mu.Unlock()
		return b, keep
	})
}

func (s *spyIdempotencyStore) last() (runtime.IdempotencyKey, time.Duration, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.keys) == 0 {
		return runtime.IdempotencyKey{}, 0, 0
	}
	return s.keys[len(s.keys)-1], s.ttls[len(s.ttls)-1], len(s.keys)
}

// idemTool answers "ok <n>" with n its run, or fails as args' "fail" says:
// "error" a Go error (an isError result), "result" an isError result,
// "protocol" a protocol error.
func idemTool(ttl time.Duration, runs *int) runtime.Tool {
	return runtime.Tool{
		Name:        "act",
		Description: "Act once.",
		Idempotency: &runtime.Idempotency{Key: "key", TTL: ttl},
		Handler: func(_ context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			*runs++
			var in struct{ Fail string }
			json.Unmarshal(req.Arguments, &in)
			switch in.Fail {
			case "error":
				return nil, errors.New("failed")
			case "result":
				return runtime.ErrorResult("failed"), nil
			case "protocol":
				return nil, &runtime.Error{Code: runtime.CodeInvalidParams, Message: "bad"}
			}
			return runtime.TextResult("ok " + strings.Repeat("I", *runs)), nil
		},
	}
}

// TestIdempotencyStoreContract: what the runtime hands its store: the
// tool's TTL (0 and below: DefaultIdempotencyTTL), the tool's name, the key
// argument, one fingerprint for the same arguments spelled otherwise; a
// store that fails makes the call an internal error (the handler does not
// run); only a successful result is kept.
func TestIdempotencyStoreContract(t *testing.T) {
	for _, tc := range []struct{ ttl, want time.Duration }{
		{0, runtime.DefaultIdempotencyTTL},
		{-time.Second, runtime.DefaultIdempotencyTTL},
		{time.Nanosecond, time.Nanosecond},
		{90 * time.Second, 90 * time.Second},
	} {
		spy := &spyIdempotencyStore{inner: runtime.NewMemoryIdempotencyStore(0)}
		runs := 0
		srv := runtime.NewServer(testInfo(), runtime.WithIdempotencyStore(spy))
		srv.AddTool(idemTool(tc.ttl, &runs))
		c := serve(t, srv)
		c.initialize()
		c.callTool("act", map[string]any{"key": "k-1", "a": 1, "b": []int{1, 2}})
		k, ttl, n := spy.last()
		if n != 1 || ttl != tc.want || k.Tool != "act" || k.Key != "k-1" || k.Owner != "" || k.Fingerprint == "" {
			t.Errorf("TTL %v: the store was asked %d times, last %+v for %v; want once, tool act, key k-1, for %v", tc.ttl, n, k, ttl, tc.want)
		}
		c.send(`{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"act","arguments":{ "b" : [1,2], "a":1, "key":"k-1"}}}`)
		c.recv()
		if again, _, _ := spy.last(); again != k || (tc.want >= time.Minute && runs != 1) {
			t.Errorf("TTL %v: the same arguments spelled otherwise: %+v after %d runs, want %+v and one run", tc.ttl, again, runs, k)
		}
	}

	spy := &spyIdempotencyStore{inner: runtime.NewMemoryIdempotencyStore(0)}
	runs := 0
	srv := runtime.NewServer(testInfo(), runtime.WithIdempotencyStore(spy))
	srv.AddTool(idemTool(0, &runs))
	c := serve(t, srv)
	c.initialize()
	for _, fail := range []string{"error", "result", "protocol"} {
		before := runs
		c.request("tools/call", map[string]any{"name": "act", "arguments": map[string]any{"key": "k-" + fail, "fail": fail}})
		c.request("tools/call", map[string]any{"name": "act", "arguments": map[string]any{"key": "k-" + fail, "fail": fail}})
		if runs != before+2 {
			t.Errorf("a failure (%s) was kept: %d runs for two calls", fail, runs-before)
		}
	}
	spy.mu.Lock()
	for i, keep := range spy.kept {
		if keep {
			t.Errorf("call %d of a failing tool: kept", i)
		}
	}
	spy.mu.Unlock()
	first := c.callTool("act", map[string]any{"key": "ok"})
	if again := c.callTool("act", map[string]any{"key": "ok"}); string(again) != string(first) || !strings.Contains(string(first), "ok ") {
		t.Errorf("a success and its retry: %s, %s; want the same result", first, again)
	}

	spy.fail = errors.New("store down")
	before := runs
	r := c.request("tools/call", map[string]any{"name": "act", "arguments": map[string]any{"key": "k-down"}})
	if r.Error == nil || r.Error.Code != runtime.CodeInternalError || !strings.Contains(r.Error.Message, "idempotency store failed") || runs != before {
		t.Errorf("with the store failing: %+v after %d runs; want an internal error naming the store, and no run", r, runs-before)
	}
	spy.fail = nil
	// Without the key as a string the store is not asked.
	_, _, n := spy.last()
	c.request("tools/call", map[string]any{"name": "act", "arguments": map[string]any{"key": 7}})
	if _, _, m := spy.last(); m != n {
		t.Errorf("a call without a string key reached the store")
	}
}

// TestIdempotencyOwnerIsTheIdentity: with a verified identity the store's
// Key has the identity's Owner, one per issuer and subject.
func TestIdempotencyOwnerIsTheIdentity(t *testing.T) {
	spy := &spyIdempotencyStore{inner: runtime.NewMemoryIdempotencyStore(0)}
	runs := 0
	srv := runtime.NewServer(testInfo(), runtime.WithIdempotencyStore(spy))
	srv.AddTool(idemTool(0, &runs))
	var owners []string
	for _, info := range []*runtime.AuthInfo{
		{Issuer: "https://a.example", Subject: "alice"},
		{Issuer: "https://b.example", Subject: "alice"},
		{Issuer: "https://a.example", Subject: "bob"},
	} {
		ss := srv.NewSession(func([]byte) {})
		ctx := runtime.ContextWithAuth(context.Background(), info)
		ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
		ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"act","arguments":{"key":"k"}}}`))
		ss.Wait()
		ss.Close()
		k, _, _ := spy.last()
		if k.Owner != info.Owner() {
			t.Errorf("%+v: the store's Owner %q, want %q", info, k.Owner, info.Owner())
		}
		owners = append(owners, k.Owner)
	}
	if owners[0] == owners[1] || owners[0] == owners[2] || runs != 3 {
		t.Errorf("owners %q after %d runs: one identity's key answered another", owners, runs)
	}
}
