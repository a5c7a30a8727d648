package runtime_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// spyQuotaStore records every Take and answers with after (a refusal)
// for the keys in refuse.
type spyQuotaStore struct {
	mu     sync.Mutex
	keys   []string
	limits []runtime.RateLimit
	refuse map[string]time.Duration
}

func (s *spyQuotaStore) Take(_ context.Context, key string, limit runtime.RateLimit) (bool, time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys, s.limits = append(s.keys, key), append(s.limits, limit)
	if after, ok := s.refuse[key]; ok {
		return false, after, nil
	}
	return true, 0, nil
}

func (s *spyQuotaStore) taken() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.keys
	s.keys = nil
	return out
}

func quotaContractServer(store runtime.QuotaStore, opts ...runtime.Option) *runtime.Server {
	srv := runtime.NewServer(testInfo(), append([]runtime.Option{runtime.WithQuotaStore(store),
		runtime.WithRateLimit(runtime.RateLimit{Requests: 7, Per: time.Minute, Burst: 2})}, opts...)...)
	limited := echoTool("limited")
	limited.RateLimit = &runtime.RateLimit{Requests: 3, Per: time.Hour}
	srv.AddTool(limited)
	srv.AddTool(echoTool("free"))
	srv.AddResource(runtime.Resource{URI: "test://a", Name: "a", Handler: func(_ context.Context, req *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return &runtime.ReadResourceResult{Contents: []runtime.ResourceContents{{URI: req.URI, Text: "A"}}}, nil
	}})
	srv.AddPrompt(runtime.Prompt{Name: "p", Arguments: []runtime.PromptArgument{{Name: "lang", Enum: []string{"en", "fr"}}},
		Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
			return textPrompt("x"), nil
		}})
	return srv
}

// TestQuotaMethodsAndKeys: which requests spend which buckets: every
// request that runs server code (tools/call, resources/read, prompts/get,
// completion/complete) the server's, a tool with a RateLimit its own first
// (with its limit), lists and ping none; a bucket's key names the limit,
// the tool and the caller, so that none two meet.
func TestQuotaMethodsAndKeys(t *testing.T) {
	store := &spyQuotaStore{}
	c := serve(t, quotaContractServer(store))
	c.initialize()
	store.taken()
	for _, tc := range []struct {
		method string
		params map[string]any
		want   []string
	}{
		{"tools/call", map[string]any{"name": "free"}, []string{"server\x00anonymous"}},
		{"tools/call", map[string]any{"name": "limited"}, []string{"tool\x00limited\x00anonymous", "server\x00anonymous"}},
		{"resources/read", map[string]any{"uri": "test://a"}, []string{"server\x00anonymous"}},
		{"prompts/get", map[string]any{"name": "p"}, []string{"server\x00anonymous"}},
		{"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "p"}, "argument": map[string]any{"name": "lang", "value": "e"}}, []string{"server\x00anonymous"}},
		{"tools/list", nil, nil},
		{"resources/list", nil, nil},
		{"prompts/list", nil, nil},
		{"ping", nil, nil},
	} {
		if r := c.request(tc.method, tc.params); r.Error != nil {
			t.Errorf("%s: %+v", tc.method, r.Error)
		}
		if got := store.taken(); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s %v spent %q, want %q", tc.method, tc.params, got, tc.want)
		}
	}
	store.mu.Lock()
	limits := store.limits
	store.mu.Unlock()
	if len(limits) < 3 || limits[0] != (runtime.RateLimit{Requests: 7, Per: time.Minute, Burst: 2}) ||
		limits[1] != (runtime.RateLimit{Requests: 3, Per: time.Hour}) || limits[2] != limits[0] {
		t.Errorf("limits handed to the store: %+v; want the server's, then the tool's and the server's", limits)
	}

	// Callers: a verified identity by its Owner (issuer and subject or
	// client, whatever WithQuotaKey says), else WithQuotaKey's name.
	keyed := &spyQuotaStore{}
	srv := quotaContractServer(keyed, runtime.WithQuotaKey(func(ctx context.Context) string { return "tenant" }))
	for _, info := range []*runtime.AuthInfo{
		nil,
		{Issuer: "https://a.example", Subject: "alice"},
		{Issuer: "https://b.example", Subject: "alice"},
		{Issuer: "https://a.example", ClientID: "alice"},
	} {
		ctx := context.Background()
		who := "key:tenant"
		if info != nil {
			ctx = runtime.ContextWithAuth(ctx, info)
			who = "sub:" + info.Owner()
		}
		ss := srv.NewSession(func([]byte) {})
		ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
		ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		keyed.taken()
		ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"limited"}}`))
		ss.Wait()
		ss.Close()
		if got, want := keyed.taken(), []string{"tool\x00limited\x00" + who, "server\x00" + who}; strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("caller %+v spent %q, want %q", info, got, want)
		}
	}
}

// TestQuotaRefusal: a refusal is CodeRateLimited whose retryAfterSeconds
// is the store's retryAfter rounded up, at least 1, and whose message names
// the refusing limit; the tool's refusal spends nothing of the server's
// bucket, and no handler runs.
func TestQuotaRefusal(t *testing.T) {
	for _, tc := range []struct {
		after time.Duration
		secs  int
	}{
		{0, 1}, {time.Nanosecond, 1}, {999 * time.Millisecond, 1}, {time.Second, 1},
		{time.Second + time.Nanosecond, 2}, {1500 * time.Millisecond, 2}, {2 * time.Second, 2}, {90 * time.Second, 90}, {time.Hour, 3600},
	} {
		for _, refused := range []string{"tool\x00limited\x00anonymous", "server\x00anonymous"} {
			store := &spyQuotaStore{refuse: map[string]time.Duration{refused: tc.after}}
			c := serve(t, quotaContractServer(store))
			c.initialize()
			store.taken()
			r := c.request("tools/call", map[string]any{"name": "limited"})
			if r.Error == nil || r.Error.Code != runtime.CodeRateLimited {
				t.Fatalf("refused by %q: %+v, want rate limited", refused, r)
			}
			var data struct {
				RetryAfterSeconds *int `json:"retryAfterSeconds"`
			}
			json.Unmarshal(r.Error.Data, &data)
			if data.RetryAfterSeconds == nil || *data.RetryAfterSeconds != tc.secs {
				t.Errorf("retryAfter %v: data %s, want retryAfterSeconds %d", tc.after, r.Error.Data, tc.secs)
			}
			want := "rate limited: 7 requests per 1m0s to this server are allowed; retry in " + strconv.Itoa(tc.secs) + " s"
			if strings.HasPrefix(refused, "tool") {
				want = `rate limited: 3 requests per 1h0m0s to tool "limited" are allowed; retry in ` + strconv.Itoa(tc.secs) + " s"
				if got := store.taken(); len(got) != 1 {
					t.Errorf("the tool's refusal spent %q, want only the tool's bucket", got)
				}
			}
			if r.Error.Message != want {
				t.Errorf("message %q, want %q", r.Error.Message, want)
			}
		}
	}
}

// TestRateLimitOptions: WithRateLimit refuses a limit that is not Valid;
// WithQuotaStore(nil) keeps the memory store.
func TestRateLimitOptions(t *testing.T) {
	for _, l := range []runtime.RateLimit{{Requests: 0, Per: time.Second}, {Requests: 1}, {Requests: 1, Per: -time.Second}, {Requests: 1, Per: time.Second, Burst: -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("WithRateLimit(%+v) accepted", l)
				}
			}()
			runtime.WithRateLimit(l)
		}()
	}
	runtime.WithRateLimit(runtime.RateLimit{Requests: 1, Per: time.Nanosecond})
	c := serve(t, quotaContractServer(nil))
	c.initialize()
	for i := range 2 {
		if r := c.request("tools/call", map[string]any{"name": "free"}); r.Error != nil {
			t.Fatalf("call %d: %+v", i+1, r.Error)
		}
	}
	if r := c.request("tools/call", map[string]any{"name": "free"}); r.Error == nil || r.Error.Code != runtime.CodeRateLimited {
		t.Errorf("3rd call past a burst of 2 with WithQuotaStore(nil): %+v, want the memory store's refusal", r.Error)
	}
}
