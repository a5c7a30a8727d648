package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

func limitedServer(opts ...runtime.Option) *runtime.Server {
	srv := runtime.NewServer(testInfo(), opts...)
	t := echoTool("search")
	t.RateLimit = &runtime.RateLimit{Requests: 3, Per: time.Hour}
	srv.AddTool(t)
	srv.AddTool(echoTool("free"))
	return srv
}

// Over stdio: the call after the limit is a JSON-RPC error saying when to
// retry; other tools are not limited.
func TestToolRateLimitStdio(t *testing.T) {
	c := serve(t, limitedServer())
	c.initialize()
	for range 3 {
		c.callTool("search", nil)
	}
	r := c.request("tools/call", map[string]any{"name": "search"})
	if r.Error == nil || r.Error.Code != runtime.CodeRateLimited || !strings.Contains(r.Error.Message, `rate limited: 3 requests per 1h0m0s to tool "search" are allowed; retry in`) {
		t.Fatalf("4th call: %+v", r.Error)
	}
	var data struct{ RetryAfterSeconds int }
	if json.Unmarshal(r.Error.Data, &data); data.RetryAfterSeconds < 1000 || data.RetryAfterSeconds > 1200 {
		t.Errorf("retryAfterSeconds %d, want about 1200 (a token every 20 min)", data.RetryAfterSeconds)
	}
	for range 5 {
		c.callTool("free", nil)
	}
}

// asUsers serves srv over HTTP to the user named in the URL's ?user=, a
// verified subject as an authorization middleware would set it.
func asUsers(srv *runtime.Server) http.Handler {
	h := srv.HTTPHandler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u := r.URL.Query().Get("user"); u != "" {
			r = r.WithContext(runtime.ContextWithAuth(r.Context(), &runtime.AuthInfo{Subject: u, Issuer: "https://issuer.test"}))
		}
		h.ServeHTTP(w, r)
	})
}

// peerAs is a new HTTP session of user on h.
func peerAs(t *testing.T, h http.Handler, user string) *httpPeer {
	p := serveHTTPHandler(t, h)
	p.url += "?user=" + user
	p.initialize(`{}`)
	return p
}

// refused checks that a call of tool is refused with 429 and Retry-After.
func refused(t *testing.T, p *httpPeer, tool string) {
	t.Helper()
	resp, _ := p.call("tools/call", `{"name":"`+tool+`"}`)
	msgs := readAll(t, resp)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("%d, Retry-After %q, %v", resp.StatusCode, resp.Header.Get("Retry-After"), msgs)
	}
	if r := parse(t, msgs[0].Data); r.Error == nil || r.Error.Code != runtime.CodeRateLimited {
		t.Fatalf("%s", msgs[0].Data)
	}
}

// Over HTTP: 429 with Retry-After; another subject is unaffected; a new
// session of the same subject does not reset its bucket.
func TestToolRateLimitHTTPPerSubject(t *testing.T) {
	h := asUsers(limitedServer())
	alice := peerAs(t, h, "alice")
	for range 3 {
		alice.result("tools/call", `{"name":"search"}`)
	}
	refused(t, alice, "search")
	bob := peerAs(t, h, "bob")
	bob.result("tools/call", `{"name":"search"}`)
	again := peerAs(t, h, "alice") // re-initialized: same subject, same bucket
	refused(t, again, "search")
}

// The server's limit counts every request that runs server code; without
// a verified subject, WithQuotaKey names the caller.
func TestServerRateLimitWithKey(t *testing.T) {
	srv := limitedServer(runtime.WithRateLimit(runtime.RateLimit{Requests: 2, Per: time.Minute}),
		runtime.WithQuotaKey(func(ctx context.Context) string { return runtime.RequestHeader(ctx).Get("X-Tenant") }))
	srv.AddResource(runtime.Resource{URI: "test://a", Name: "a", Handler: func(_ context.Context, req *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return &runtime.ReadResourceResult{Contents: []runtime.ResourceContents{{URI: req.URI, Text: "A"}}}, nil
	}})
	p := serveHTTP(t, srv)
	p.initialize(`{}`)
	call := func(method, params, tenant string) int {
		resp, _ := p.call(method, params, "X-Tenant", tenant)
		readAll(t, resp)
		return resp.StatusCode
	}
	if s := call("tools/call", `{"name":"free"}`, "acme"); s != http.StatusOK {
		t.Fatalf("1st: %d", s)
	}
	if s := call("resources/read", `{"uri":"test://a"}`, "acme"); s != http.StatusOK {
		t.Fatalf("2nd: %d", s)
	}
	if s := call("tools/call", `{"name":"free"}`, "acme"); s != http.StatusTooManyRequests {
		t.Fatalf("3rd: %d", s)
	}
	if s := call("tools/call", `{"name":"free"}`, "globex"); s != http.StatusOK {
		t.Fatalf("another tenant: %d", s)
	}
	if s := call("tools/list", ``, "acme"); s != http.StatusOK { // lists run no server code
		t.Fatalf("tools/list: %d", s)
	}
}

// Interceptors see a refusal like any error.
func TestRateLimitSeenByInterceptors(t *testing.T) {
	rec := &recorder{}
	c := serve(t, limitedServer(runtime.WithInterceptors(rec.intercept), runtime.WithRateLimit(runtime.RateLimit{Requests: 1, Per: time.Minute})))
	c.initialize()
	c.callTool("free", nil)
	c.request("tools/call", map[string]any{"name": "free"})
	if got := rec.last(); !strings.Contains(got.Err, "jsonrpc error -32005: rate limited: 1 requests per 1m0s to this server") {
		t.Errorf("%+v", got)
	}
}

// A verified subject keys the buckets even with WithQuotaKey: a client
// that sends another key (here a header it chooses) gets no fresh bucket.
func TestQuotaSubjectOverKey(t *testing.T) {
	srv := limitedServer(runtime.WithQuotaKey(func(ctx context.Context) string { return runtime.RequestHeader(ctx).Get("X-Tenant") }))
	alice := peerAs(t, asUsers(srv), "alice")
	for i := range 3 {
		resp, _ := alice.call("tools/call", `{"name":"search"}`, "X-Tenant", "t"+strconv.Itoa(i))
		if readAll(t, resp); resp.StatusCode != http.StatusOK {
			t.Fatalf("call %d: %d", i+1, resp.StatusCode)
		}
	}
	resp, _ := alice.call("tools/call", `{"name":"search"}`, "X-Tenant", "fresh")
	if readAll(t, resp); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("4th call of alice under a new X-Tenant: %d, want 429 (her bucket is spent)", resp.StatusCode)
	}
}

// Each tool's RateLimit is a bucket of its own: spending one tool's leaves
// another's full.
func TestToolRateLimitsApart(t *testing.T) {
	srv := limitedServer()
	other := echoTool("lookup")
	other.RateLimit = &runtime.RateLimit{Requests: 3, Per: time.Hour}
	srv.AddTool(other)
	c := serve(t, srv)
	c.initialize()
	for range 3 {
		c.callTool("search", nil)
	}
	if r := c.request("tools/call", map[string]any{"name": "search"}); r.Error == nil || r.Error.Code != runtime.CodeRateLimited {
		t.Fatalf("4th call of search: %+v, want rate limited", r.Error)
	}
	for i := range 3 {
		if r := c.request("tools/call", map[string]any{"name": "lookup"}); r.Error != nil {
			t.Fatalf("call %d of lookup, whose bucket is its own: %+v", i+1, r.Error)
		}
	}
}

// downQuotaStore fails every Take, as a store whose backend is down.
type downQuotaStore struct{ takes atomic.Int32 }

func (d *downQuotaStore) Take(context.Context, string, runtime.RateLimit) (bool, time.Duration, error) {
	d.takes.Add(1)
	return false, 0, errors.New("quota backend down")
}

// TestQuotaStoreDownLetsRequestsThrough: a quota store that fails must not
// take the server with it: every call goes through, past both limits, and
// the failure is logged.
func TestQuotaStoreDownLetsRequestsThrough(t *testing.T) {
	store := &downQuotaStore{}
	var log bytes.Buffer
	c := serve(t, limitedServer(
		runtime.WithQuotaStore(store),
		runtime.WithRateLimit(runtime.RateLimit{Requests: 1, Per: time.Hour}),
		runtime.WithLogger(slog.New(slog.NewTextHandler(&log, nil)))))
	c.initialize()
	for i := range 5 {
		if r := c.request("tools/call", map[string]any{"name": "search"}); r.Error != nil {
			t.Fatalf("call %d with the quota store down: %+v", i+1, r.Error)
		}
	}
	if n := store.takes.Load(); n < 5 {
		t.Errorf("the store was asked %d times for 5 limited calls", n)
	}
	if !strings.Contains(log.String(), "quota backend down") {
		t.Errorf("the store's failure is not logged:\n%s", log.String())
	}
}

// A rate limit without Requests or Per (or with a negative Burst) is a
// programming error: WithRateLimit and AddTool refuse it at once rather than
// serve a bucket that never refills or divides by zero.
func TestRateLimitRefusesInvalid(t *testing.T) {
	for name, limit := range map[string]runtime.RateLimit{
		"no requests":    {Per: time.Minute},
		"no period":      {Requests: 3},
		"negative burst": {Requests: 3, Per: time.Minute, Burst: -1},
	} {
		t.Run(name, func(t *testing.T) {
			mustPanic(t, "a rate limit needs Requests > 0 and Per > 0", func() { runtime.WithRateLimit(limit) })
			mustPanic(t, "a RateLimit needs Requests > 0 and Per > 0", func() {
				tool := echoTool("search")
				tool.RateLimit = &limit
				runtime.NewServer(testInfo()).AddTool(tool)
			})
		})
	}
	runtime.WithRateLimit(runtime.RateLimit{Requests: 1, Per: time.Second, Burst: 0})
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), want) {
			t.Errorf("panic %v, want one saying %q", v, want)
		}
	}()
	f()
}
