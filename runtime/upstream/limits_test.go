package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The tests at the edges of the upstream client's limits (RELIABILITY.md,
// "Limits and the tests at their edges").

// An error's excerpt shows 512 bytes of the answer: 511 and 512 whole,
// 513 cut to 512 with " …".
func TestExcerptLimitAtItsEdges(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 513} {
		body := strings.Repeat("x", n)
		got := excerpt([]byte(body))
		want := body
		if n > excerptBytes {
			want = body[:excerptBytes] + " …"
		}
		if got != want {
			t.Errorf("excerpt of %d bytes: %d bytes (%q…), want %d", n, len(got), got[:min(len(got), 8)], len(want))
		}
	}
}

// MaxResponseBytes: an answer of the bound − 1 and the bound is read, one
// byte more fails, on a 2xx; the default is 10 MiB.
func TestResponseBoundAtItsEdges(t *testing.T) {
	const bound = 100
	for _, n := range []int{bound - 1, bound, bound + 1} {
		srv, _ := recorder(t, 200, strings.Repeat("x", n))
		c := newClient(t, Config{BaseURL: srv.URL, MaxResponseBytes: bound})
		res, err := c.CallResult(context.Background(), NewRequest("GET", "/x"))
		if (err != nil) != (n > bound) {
			t.Errorf("an answer of %d bytes with MaxResponseBytes %d: %v", n, bound, err)
		}
		if err == nil && len(res.Content) == 0 {
			t.Errorf("an answer of %d bytes: no content", n)
		}
	}
	if c := newClient(t, Config{BaseURL: "http://example.com"}); c.cfg.MaxResponseBytes != 10<<20 {
		t.Errorf("default MaxResponseBytes %d", c.cfg.MaxResponseBytes)
	}
}

// 2xx is success, every other status a *StatusError with its code.
func TestStatusClassesAtTheirEdges(t *testing.T) {
	for _, code := range []int{200, 201, 204, 299, 300, 304, 399, 400, 401, 403, 404, 499, 500, 599} {
		srv, _ := recorder(t, code, "")
		c := newClient(t, Config{BaseURL: srv.URL, HTTPClient: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}})
		err := c.Call(context.Background(), NewRequest("GET", "/x"), nil)
		se, isStatus := errors.AsType[*StatusError](err)
		if ok := code >= 200 && code <= 299; ok != (err == nil) || !ok && (!isStatus || se.StatusCode != code) {
			t.Errorf("status %d: err %v", code, err)
		}
	}
}

// A token's lifetime: expires_in seconds, replaced expiryMargin (30 s)
// early; none (or 0) is 5 minutes; a lifetime within the margin is still
// kept for one second.
func TestTokenLifetimeAtItsEdges(t *testing.T) {
	for _, tc := range []struct {
		expiresIn any // nil: left out
		kept      time.Duration
	}{
		{nil, defaultLifetime - expiryMargin},
		{0, defaultLifetime - expiryMargin},
		{1, time.Second},
		{30, time.Second},
		{31, time.Second},
		{32, 2 * time.Second},
		{3600, time.Hour - expiryMargin},
	} {
		var issued atomic.Int32
		tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ans := map[string]any{"access_token": "tok" + string(rune('0'+issued.Add(1)))}
			if tc.expiresIn != nil {
				ans["expires_in"] = tc.expiresIn
			}
			json.NewEncoder(w).Encode(ans)
		}))
		t.Setenv("TEST_CLIENT_ID", "cid")
		t.Setenv("TEST_CLIENT_SECRET", "secret")
		start := time.Unix(1_000_000, 0)
		now := start
		cc := &ClientCredentials{TokenURL: tokens.URL, ClientIDEnv: "TEST_CLIENT_ID", ClientSecretEnv: "TEST_CLIENT_SECRET", now: func() time.Time { return now }}
		for _, step := range []struct {
			at   time.Duration
			want string
		}{{0, "tok1"}, {tc.kept - time.Millisecond, "tok1"}, {tc.kept, "tok2"}} {
			now = start.Add(step.at)
			if tok, err := cc.Token(context.Background()); err != nil || tok != step.want {
				t.Errorf("expires_in %v, at +%s: token %q (%v), want %s", tc.expiresIn, step.at, tok, err, step.want)
			}
		}
		tokens.Close()
	}
}
