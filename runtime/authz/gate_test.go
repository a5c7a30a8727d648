package authz_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/authz"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

const resource = "https://mcp.example.com:8443/mcp"

var metadataURL = "https://mcp.example.com:8443/.well-known/oauth-protected-resource/mcp"

// tokens is a verifier that answers by the token.
type tokens map[string]func() (*authz.Info, error)

func (v tokens) VerifyToken(_ context.Context, token string) (*authz.Info, error) {
	if f, ok := v[token]; ok {
		return f()
	}
	return nil, fmt.Errorf("%w: unknown token", authz.ErrInvalidToken)
}

func good(scopes ...string) func() (*authz.Info, error) {
	return func() (*authz.Info, error) {
		return &authz.Info{Issuer: "https://as", Subject: "alice", Audience: []string{"https://other", resource + "/"}, Scopes: scopes}, nil
	}
}

func newGate(t *testing.T, callScopes []string) *authz.Gate {
	t.Helper()
	long := strings.Repeat("t", 16<<10)
	v := tokens{
		"good": good("read"), "both": good("read", "write"), "none": good(), long: good("read"),
		"expired": func() (*authz.Info, error) {
			return nil, fmt.Errorf("%w: expired \"x\\y\" \x01 %s", authz.ErrInvalidToken, strings.Repeat("d", 300))
		},
		"down": func() (*authz.Info, error) { return nil, errors.New("JWKS unreachable") },
		"nil":  func() (*authz.Info, error) { return nil, nil },
		"anonymous": func() (*authz.Info, error) {
			return &authz.Info{Issuer: "https://as", Audience: []string{resource}, Scopes: []string{"read"}}, nil
		},
		"client": func() (*authz.Info, error) {
			return &authz.Info{Issuer: "https://as", ClientID: "app", Audience: []string{resource}, Scopes: []string{"read"}}, nil
		},
		"elsewhere": func() (*authz.Info, error) {
			return &authz.Info{Issuer: "https://as", Subject: "alice", Audience: []string{"https://mcp.example.com:8443/mc", "https://other"}, Scopes: []string{"read"}}, nil
		},
	}
	hooks := authz.Hooks{}
	if callScopes != nil {
		hooks.CallScopes = func(transport.Message) []string { return callScopes }
	}
	g, err := authz.NewGate(&authz.Config{Resource: resource, AuthorizationServers: []string{"https://as"}, Verifier: v, Scopes: []string{"read"}}, hooks)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGateAuthenticate: every way a request's Authorization can be, with
// the status, the challenge (RFC 6750 §3, the path-suffixed metadata URL)
// and the JSON-RPC code of its refusal, or the identity it passes with.
func TestGateAuthenticate(t *testing.T) {
	g := newGate(t, nil)
	rm := `resource_metadata="` + metadataURL + `"`
	long := strings.Repeat("t", 16<<10)
	for _, tc := range []struct {
		name      string
		headers   []string
		status    int // 0: passes
		challenge string
		code      int
	}{
		{"no header", nil, 401, `Bearer ` + rm + `, scope="read"`, -32600},
		{"another scheme", []string{"Basic YTpi"}, 401, `Bearer ` + rm + `, scope="read"`, -32600},
		{"the scheme alone", []string{"Bearer"}, 400, `Bearer error="invalid_request", error_description="malformed Authorization header", ` + rm, -32600},
		{"an empty token", []string{"Bearer "}, 400, `Bearer error="invalid_request", error_description="malformed Authorization header", ` + rm, -32600},
		{"two tokens", []string{"Bearer good good"}, 400, `Bearer error="invalid_request", error_description="malformed Authorization header", ` + rm, -32600},
		{"a tab inside", []string{"Bearer good\tgood"}, 400, `Bearer error="invalid_request", error_description="malformed Authorization header", ` + rm, -32600},
		{"two headers", []string{"Bearer good", "Bearer good"}, 400, `Bearer error="invalid_request", error_description="malformed Authorization header", ` + rm, -32600},
		{"a token past the bound", []string{"Bearer " + long + "t"}, 400, `Bearer error="invalid_request", error_description="malformed Authorization header", ` + rm, -32600},
		{"a token at the bound", []string{"Bearer " + long}, 0, "", 0},
		{"bearer in lower case", []string{"bearer good"}, 0, "", 0},
		{"spaces before the token", []string{"Bearer   good"}, 0, "", 0},
		{"an unknown token", []string{"Bearer nope"}, 401, `Bearer error="invalid_token", error_description="invalid token: unknown token", ` + rm + `, scope="read"`, -32600},
		{"a refused token", []string{"Bearer expired"}, 401, `Bearer error="invalid_token", error_description="invalid token: expired xy  ` + strings.Repeat("d", 200-len("invalid token: expired xy  ")) + `", ` + rm + `, scope="read"`, -32600},
		{"a verifier that fails", []string{"Bearer down"}, 503, "", -32603},
		{"a verifier without an identity", []string{"Bearer nil"}, 503, "", -32603},
		{"neither subject nor client", []string{"Bearer anonymous"}, 401, `Bearer error="invalid_token", error_description="the token names neither a subject (sub) nor a client (client_id)", ` + rm + `, scope="read"`, -32600},
		{"a client without a subject", []string{"Bearer client"}, 0, "", 0},
		{"another audience", []string{"Bearer elsewhere"}, 401, `Bearer error="invalid_token", error_description="the token is not for this resource", ` + rm + `, scope="read"`, -32600},
		{"without the server's scope", []string{"Bearer none"}, 403, `Bearer error="insufficient_scope", error_description="additional scopes are required", ` + rm + `, scope="read"`, -32600},
		{"good", []string{"Bearer good"}, 0, "", 0},
	} {
		r := httptest.NewRequest(http.MethodPost, resource, nil)
		for _, h := range tc.headers {
			r.Header.Add("Authorization", h)
		}
		got, refusal := g.Authenticate(r)
		if tc.status == 0 {
			if refusal != nil || got == nil {
				t.Errorf("%s: refused %+v, want it through", tc.name, refusal)
				continue
			}
			if info, ok := authz.FromContext(got.Context()); !ok || !info.HasIdentity() {
				t.Errorf("%s: no identity in the request's context", tc.name)
			}
			continue
		}
		if refusal == nil {
			t.Errorf("%s: let through, want %d", tc.name, tc.status)
			continue
		}
		if refusal.Status != tc.status || refusal.Challenge != tc.challenge || refusal.Error.Code != tc.code {
			t.Errorf("%s: %d %q (code %d), want %d %q (code %d)", tc.name, refusal.Status, refusal.Challenge, refusal.Error.Code, tc.status, tc.challenge, tc.code)
		}
		if tc.status == 503 && refusal.RetryAfter != "5" {
			t.Errorf("%s: Retry-After %q, want 5", tc.name, refusal.RetryAfter)
		}
		if tc.status == 503 && strings.Contains(refusal.Error.Message, "JWKS") {
			t.Errorf("%s: the verifier's failure reaches the client: %q", tc.name, refusal.Error.Message)
		}
	}
}

// TestGateCheckCall: a call that needs scopes its token lacks is 403
// naming every scope it needs (the server's, then the call's), whatever
// the token has; with them, or needing none, it passes.
func TestGateCheckCall(t *testing.T) {
	authed := func(g *authz.Gate, token string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, resource, nil)
		r.Header.Set("Authorization", "Bearer "+token)
		out, refusal := g.Authenticate(r)
		if refusal != nil {
			t.Fatalf("%s refused: %+v", token, refusal)
		}
		return out
	}
	g := newGate(t, []string{"write", "read", "admin"})
	want := `Bearer error="insufficient_scope", error_description="additional scopes are required", resource_metadata="` + metadataURL + `", scope="read write admin"`
	for _, token := range []string{"good", "both"} {
		refusal := g.CheckCall(authed(g, token), transport.Message{})
		if refusal == nil || refusal.Status != 403 || refusal.Challenge != want || !strings.Contains(refusal.Error.Message, `"read write admin"`) {
			t.Errorf("%s, a call needing write, read and admin: %+v; want 403 %q", token, refusal, want)
		}
	}
	if refusal := g.CheckCall(httptest.NewRequest(http.MethodPost, resource, nil), transport.Message{}); refusal == nil || refusal.Status != 403 {
		t.Errorf("a call needing scopes without an identity: %+v, want 403", refusal)
	}
	g = newGate(t, []string{"write"})
	if refusal := g.CheckCall(authed(g, "both"), transport.Message{}); refusal != nil {
		t.Errorf("a token with every scope: %+v", refusal)
	}
	g = newGate(t, []string{})
	if refusal := g.CheckCall(authed(g, "good"), transport.Message{}); refusal != nil {
		t.Errorf("a call needing no scopes: %+v", refusal)
	}
	g = newGate(t, nil)
	if refusal := g.CheckCall(httptest.NewRequest(http.MethodPost, resource, nil), transport.Message{}); refusal != nil {
		t.Errorf("no CallScopes hook: %+v", refusal)
	}
}

// TestConfigCheck: what a Config must have.
func TestConfigCheck(t *testing.T) {
	v := tokens{}
	ok := authz.Config{Resource: "https://h/mcp", AuthorizationServers: []string{"https://as"}, Verifier: v}
	for _, tc := range []struct {
		name string
		edit func(*authz.Config)
		bad  bool
	}{
		{"complete", func(*authz.Config) {}, false},
		{"http", func(c *authz.Config) { c.Resource = "http://localhost:8080/mcp" }, false},
		{"no resource", func(c *authz.Config) { c.Resource = "" }, true},
		{"a relative resource", func(c *authz.Config) { c.Resource = "/mcp" }, true},
		{"no host", func(c *authz.Config) { c.Resource = "https:///mcp" }, true},
		{"another scheme", func(c *authz.Config) { c.Resource = "ftp://h/mcp" }, true},
		{"a query", func(c *authz.Config) { c.Resource = "https://h/mcp?x=1" }, true},
		{"a fragment", func(c *authz.Config) { c.Resource = "https://h/mcp#x" }, true},
		{"no authorization server", func(c *authz.Config) { c.AuthorizationServers = nil }, true},
		{"a relative authorization server", func(c *authz.Config) { c.AuthorizationServers = []string{"https://as", "as"} }, true},
		{"no verifier", func(c *authz.Config) { c.Verifier = nil }, true},
	} {
		c := ok
		tc.edit(&c)
		if err := c.Check(); (err != nil) != tc.bad {
			t.Errorf("%s: Check() = %v, want an error %v", tc.name, err, tc.bad)
		}
		if _, err := authz.NewGate(&c, authz.Hooks{}); (err != nil) != tc.bad {
			t.Errorf("%s: NewGate: %v, want an error %v", tc.name, err, tc.bad)
		}
	}
}

// TestMetadataPlaces: the path-suffixed metadata path first (RFC 9728
// §3.1), then the root one; a resource without a path has only the root;
// the URL is on the resource's scheme and host (with its port).
func TestMetadataPlaces(t *testing.T) {
	for _, tc := range []struct {
		resource string
		paths    []string
		url      string
	}{
		{"https://h.example/mcp", []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"}, "https://h.example/.well-known/oauth-protected-resource/mcp"},
		{"http://h.example:8080/a/b", []string{"/.well-known/oauth-protected-resource/a/b", "/.well-known/oauth-protected-resource"}, "http://h.example:8080/.well-known/oauth-protected-resource/a/b"},
		{"https://h.example", []string{"/.well-known/oauth-protected-resource"}, "https://h.example/.well-known/oauth-protected-resource"},
		{"https://h.example/", []string{"/.well-known/oauth-protected-resource"}, "https://h.example/.well-known/oauth-protected-resource"},
	} {
		c := authz.Config{Resource: tc.resource}
		if got := c.MetadataPaths(); !slices.Equal(got, tc.paths) {
			t.Errorf("%s: MetadataPaths %q, want %q", tc.resource, got, tc.paths)
		}
		if got := c.MetadataURL(); got != tc.url {
			t.Errorf("%s: MetadataURL %q, want %q", tc.resource, got, tc.url)
		}
	}
}

// TestMetadataDocument: scopes_supported is ScopesSupported when set (an
// empty one too), else Scopes then every tool's, each once; the name is
// ResourceName's, else the server's; the handler serves GET and HEAD, 204
// to OPTIONS, 405 else, open to any origin.
func TestMetadataDocument(t *testing.T) {
	c := authz.Config{Resource: "https://h/mcp", AuthorizationServers: []string{"https://as"}, Scopes: []string{"read"}}
	m := c.Metadata("srv", []string{"write", "read"}, nil, []string{"admin", "write"})
	if !slices.Equal(m.ScopesSupported, []string{"read", "write", "admin"}) || m.ResourceName != "srv" || m.Resource != c.Resource ||
		!slices.Equal(m.BearerMethodsSupported, []string{"header"}) || !slices.Equal(m.AuthorizationServers, c.AuthorizationServers) {
		t.Errorf("Metadata: %+v", m)
	}
	c.ScopesSupported, c.ResourceName = []string{}, "Named"
	if m := c.Metadata("srv", []string{"write"}); len(m.ScopesSupported) != 0 || m.ResourceName != "Named" {
		t.Errorf("with ScopesSupported [] and a ResourceName: %+v", m)
	}
	h := authz.MetadataHandler(func() *authz.Metadata { return m })
	for _, tc := range []struct {
		method string
		status int
	}{{http.MethodGet, 200}, {http.MethodHead, 200}, {http.MethodOptions, 204}, {http.MethodPost, 405}, {http.MethodDelete, 405}} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(tc.method, "/.well-known/oauth-protected-resource", nil))
		if w.Code != tc.status || w.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: %d (CORS %q), want %d", tc.method, w.Code, w.Header().Get("Access-Control-Allow-Origin"), tc.status)
		}
		if tc.method == http.MethodGet {
			var doc map[string]any
			if json.Unmarshal(w.Body.Bytes(), &doc) != nil || doc["resource"] != "https://h/mcp" || w.Header().Get("Content-Type") != "application/json" {
				t.Errorf("GET: %s %q", w.Body, w.Header().Get("Content-Type"))
			}
		}
	}
}

// TestScopesAndUnion: HasAll of none is true; ScopeUnion keeps a's order,
// then b's new members, each once, and leaves a as it was.
func TestScopesAndUnion(t *testing.T) {
	info := &authz.Info{Scopes: []string{"a", "b"}}
	for _, tc := range []struct {
		scopes []string
		all    bool
	}{{nil, true}, {[]string{"a"}, true}, {[]string{"b", "a"}, true}, {[]string{"a", "c"}, false}, {[]string{"A"}, false}} {
		if got := info.HasAll(tc.scopes); got != tc.all {
			t.Errorf("HasAll(%q) = %v", tc.scopes, got)
		}
	}
	a := make([]string, 2, 8)
	copy(a, []string{"x", "y"})
	if got := authz.ScopeUnion(a, []string{"z", "x", "z", "w"}); !slices.Equal(got, []string{"x", "y", "z", "w"}) {
		t.Errorf("ScopeUnion = %q", got)
	}
	if got := authz.ScopeUnion(a, []string{"q"}); !slices.Equal(got, []string{"x", "y", "q"}) || !slices.Equal(a, []string{"x", "y"}) || a[:3][2] == "q" {
		t.Errorf("ScopeUnion wrote into a: %q, a %q", got, a[:3])
	}
}
