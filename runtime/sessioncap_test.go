package runtime_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
)

// Caps on legacy sessions (issue 22, item 2): beyond a cap, an initialize
// ends the session idle the longest; when each one in the way is busy, it
// is refused.

// openSession initializes a session on the server at url with the
// headers hdr; it fails the test when the initialize is not served.
func openSession(t *testing.T, url string, hdr ...string) *httpPeer {
	t.Helper()
	p := &httpPeer{t: t, url: url}
	resp := p.do(http.MethodPost, initializeV2, hdr...)
	msgs := readAll(t, resp)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %v", resp.StatusCode, msgs)
	}
	p.session = resp.Header.Get("Mcp-Session-Id")
	mustStatus(t, p.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, hdr...), http.StatusAccepted)
	return p
}

// pingStatus is the status a ping gets on p's session.
func pingStatus(p *httpPeer, hdr ...string) int {
	resp, _ := p.call("ping", "", hdr...)
	readAll(p.t, resp)
	return resp.StatusCode
}

func TestMaxSessionsEvictsLongestIdle(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	url := serveHTTP(t, srv, runtime.WithMaxSessions(3)).url
	a, b, c := openSession(t, url), openSession(t, url), openSession(t, url)
	if s := pingStatus(a); s != 200 { // a was used last: b is now idle the longest
		t.Fatalf("a: %d", s)
	}
	d := openSession(t, url)
	for _, tc := range []struct {
		name string
		p    *httpPeer
		want int
	}{{"a", a, 200}, {"b", b, 404}, {"c", c, 200}, {"d", d, 200}} {
		if s := pingStatus(tc.p); s != tc.want {
			t.Errorf("%s after the fourth initialize: %d, want %d", tc.name, s, tc.want)
		}
	}
}

func TestMaxSessionsRefusesWhenAllBusy(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	url := serveHTTP(t, srv, runtime.WithMaxSessions(1)).url
	a := openSession(t, url)
	stream := a.do(http.MethodGet, "") // an open GET stream: a is busy
	defer stream.Body.Close()
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("GET: %d", stream.StatusCode)
	}
	p := &httpPeer{t: t, url: url}
	resp := p.do(http.MethodPost, initializeV2)
	msgs := readAll(t, resp)
	want := `"message":"too many sessions: this server has its maximum of 1 sessions open, each serving a request; retry later"`
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || len(msgs) != 1 || !strings.Contains(msgs[0].Data, want) {
		t.Errorf("initialize beyond the cap: %d %v", resp.StatusCode, msgs)
	}
	if s := pingStatus(a); s != 200 {
		t.Errorf("a after the refusal: %d", s)
	}
}

func TestMaxSessionsPerSubject(t *testing.T) {
	k := jwttest.TheKeys(t)
	url := serveAuth(t, authServer(), authConfig(t), runtime.WithMaxSessionsPerSubject(2)).url
	alice := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "mcp:access")))
	bob := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("bob", "mcp:access")))
	b1 := openSession(t, url, bob...)
	a1, a2 := openSession(t, url, alice...), openSession(t, url, alice...)
	a3 := openSession(t, url, alice...) // alice's third: her oldest, a1, ends
	for _, tc := range []struct {
		name string
		p    *httpPeer
		hdr  []string
		want int
	}{{"bob's", b1, bob, 200}, {"alice's first", a1, alice, 404}, {"alice's second", a2, alice, 200}, {"alice's third", a3, alice, 200}} {
		if s := pingStatus(tc.p, tc.hdr...); s != tc.want {
			t.Errorf("%s session: %d, want %d", tc.name, s, tc.want)
		}
	}

	// Both of alice's sessions busy: her next initialize is refused, bob's is not.
	for _, p := range []*httpPeer{a2, a3} {
		stream := p.do(http.MethodGet, "", alice...)
		defer stream.Body.Close()
		if stream.StatusCode != http.StatusOK {
			t.Fatalf("GET: %d", stream.StatusCode)
		}
	}
	p := &httpPeer{t: t, url: url}
	resp := p.do(http.MethodPost, initializeV2, alice...)
	msgs := readAll(t, resp)
	want := `"message":"too many sessions: this token's subject has its maximum of 2 sessions open, each serving a request; end one (DELETE) or retry later"`
	if resp.StatusCode != http.StatusTooManyRequests || len(msgs) != 1 || !strings.Contains(msgs[0].Data, want) {
		t.Errorf("alice's initialize beyond her cap: %d %v", resp.StatusCode, msgs)
	}
	openSession(t, url, bob...)
}

// TestMaxSessionsEvictsAnyonesIdle: with authorization, a server at its cap
// makes room by ending the session idle the longest, whoever's it is: a
// subject with no session yet is not refused because the idle sessions are
// others'.
func TestMaxSessionsEvictsAnyonesIdle(t *testing.T) {
	k := jwttest.TheKeys(t)
	url := serveAuth(t, authServer(), authConfig(t), runtime.WithMaxSessions(2)).url
	alice := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "mcp:access")))
	bob := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("bob", "mcp:access")))
	a1, a2 := openSession(t, url, alice...), openSession(t, url, alice...)
	if s := pingStatus(a1, alice...); s != 200 { // a1 was used last: a2 is idle the longest
		t.Fatalf("a1: %d", s)
	}
	b1 := openSession(t, url, bob...) // the server is full: a2 ends
	for _, tc := range []struct {
		name string
		p    *httpPeer
		hdr  []string
		want int
	}{{"alice's first", a1, alice, 200}, {"alice's second", a2, alice, 404}, {"bob's", b1, bob, 200}} {
		if s := pingStatus(tc.p, tc.hdr...); s != tc.want {
			t.Errorf("%s session: %d, want %d", tc.name, s, tc.want)
		}
	}
}
