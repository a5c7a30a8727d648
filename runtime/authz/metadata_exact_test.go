package authz_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/authz"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// TestMetadataPlacesExact: RFC 9728 §3.1 inserts the well-known prefix
// between the host and the resource's path, which is kept as written
// (its escaping and a trailing slash too); the URL is on the resource's
// scheme and host with its port, without user info, query or fragment.
func TestMetadataPlacesExact(t *testing.T) {
	const wk = "/.well-known/oauth-protected-resource"
	for _, tc := range []struct {
		resource string
		first    string // MetadataPaths()[0]; the root one follows when they differ
		url      string
	}{
		{"https://h.example/mcp/", wk + "/mcp/", "https://h.example" + wk + "/mcp/"},
		{"https://h.example/a/b/", wk + "/a/b/", "https://h.example" + wk + "/a/b/"},
		{"https://h.example:443/mcp", wk + "/mcp", "https://h.example:443" + wk + "/mcp"},
		{"http://127.0.0.1:8080/mcp", wk + "/mcp", "http://127.0.0.1:8080" + wk + "/mcp"},
		{"http://[::1]:9000/x", wk + "/x", "http://[::1]:9000" + wk + "/x"},
		{"https://h.example/a%20b/c%2Fd", wk + "/a%20b/c%2Fd", "https://h.example" + wk + "/a%20b/c%2Fd"},
		{"https://h.example/mcp?x=1#f", wk + "/mcp", "https://h.example" + wk + "/mcp"},
		{"https://u:p@h.example/mcp", wk + "/mcp", "https://h.example" + wk + "/mcp"},
		{"https://h.example:8443", wk, "https://h.example:8443" + wk},
		{"https://h.example?x=1", wk, "https://h.example" + wk},
		{"https://H.Example/MCP", wk + "/MCP", "https://H.Example" + wk + "/MCP"},
	} {
		c := authz.Config{Resource: tc.resource}
		want := []string{tc.first}
		if tc.first != wk {
			want = append(want, wk)
		}
		if got := c.MetadataPaths(); !slices.Equal(got, want) {
			t.Errorf("%s: MetadataPaths %q, want %q", tc.resource, got, want)
		}
		if got := c.MetadataURL(); got != tc.url {
			t.Errorf("%s: MetadataURL %q, want %q", tc.resource, got, tc.url)
		}
	}
}

// TestMetadataDocumentExact: the document's JSON byte for byte (omitted
// optional members, bearer_methods_supported ["header"]), and the
// handler's headers for each method.
func TestMetadataDocumentExact(t *testing.T) {
	for _, tc := range []struct {
		cfg   authz.Config
		tools [][]string
		want  string
	}{
		{
			authz.Config{Resource: "https://h/mcp", AuthorizationServers: []string{"https://as1", "https://as2/t"}},
			nil,
			`{"resource":"https://h/mcp","authorization_servers":["https://as1","https://as2/t"],"bearer_methods_supported":["header"],"resource_name":"srv"}`,
		},
		{
			authz.Config{Resource: "https://h/mcp", AuthorizationServers: []string{"https://as"}, Scopes: []string{"b", "a"}, ResourceName: "N <&>", ResourceDocumentation: "https://docs/x?y=1"},
			[][]string{{"c", "a"}, {"b", "d"}},
			`{"resource":"https://h/mcp","authorization_servers":["https://as"],"scopes_supported":["b","a","c","d"],"bearer_methods_supported":["header"],"resource_name":"N \u003c\u0026\u003e","resource_documentation":"https://docs/x?y=1"}`,
		},
		{
			authz.Config{Resource: "https://h/mcp", AuthorizationServers: []string{"https://as"}, Scopes: []string{"b"}, ScopesSupported: []string{"z"}},
			[][]string{{"c"}},
			`{"resource":"https://h/mcp","authorization_servers":["https://as"],"scopes_supported":["z"],"bearer_methods_supported":["header"],"resource_name":"srv"}`,
		},
	} {
		m := tc.cfg.Metadata("srv", tc.tools...)
		h := authz.MetadataHandler(func() *authz.Metadata { return m })
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/.well-known/oauth-protected-resource", nil))
		if got := w.Body.String(); got != tc.want {
			t.Errorf("document\n got %s\nwant %s", got, tc.want)
		}
		if w.Code != 200 || w.Header().Get("Content-Type") != "application/json" || w.Header().Get("Cache-Control") != "max-age=300" || w.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("GET headers: %d %v", w.Code, w.Header())
		}
	}
	h := authz.MetadataHandler(func() *authz.Metadata { return &authz.Metadata{} })
	for _, tc := range []struct {
		method        string
		status        int
		allow, methds string
	}{
		{http.MethodOptions, 204, "", "GET, OPTIONS"},
		{http.MethodPost, 405, "GET, HEAD, OPTIONS", ""},
		{http.MethodPut, 405, "GET, HEAD, OPTIONS", ""},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(tc.method, "/", nil))
		if w.Code != tc.status || w.Header().Get("Allow") != tc.allow || w.Header().Get("Access-Control-Allow-Methods") != tc.methds || w.Header().Get("Cache-Control") != "" {
			t.Errorf("%s: %d, headers %v; want %d Allow %q Allow-Methods %q", tc.method, w.Code, w.Header(), tc.status, tc.allow, tc.methds)
		}
	}
}

// TestMountServesEveryMetadataPath: the gate serves the document at each
// of MetadataPaths and nowhere else under the prefix.
func TestMountServesEveryMetadataPath(t *testing.T) {
	doc := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "doc") })
	g, err := authz.NewGate(&authz.Config{Resource: "https://h/a/mcp", AuthorizationServers: []string{"https://as"}, Verifier: tokens{}}, authz.Hooks{Metadata: doc})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	g.Mount(mux)
	for path, served := range map[string]bool{
		"/.well-known/oauth-protected-resource/a/mcp": true,
		"/.well-known/oauth-protected-resource":       true,
		"/.well-known/oauth-protected-resource/mcp":   false,
		"/.well-known/oauth-protected-resource/a":     false,
	} {
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if got := w.Code == 200 && w.Body.String() == "doc"; got != served {
			t.Errorf("%s: %d %q, want served %v", path, w.Code, w.Body, served)
		}
	}
}

// TestChallengeTextExact: the exact WWW-Authenticate of each refusal for
// a server with no scopes and one with several; a refused token's text is
// cut to 200 bytes of printable ASCII without quote or backslash (RFC 6750
// §3), at the boundary exactly; the JSON-RPC message of each.
func TestChallengeTextExact(t *testing.T) {
	const res = "https://h.example/mcp"
	const rm = `resource_metadata="https://h.example/.well-known/oauth-protected-resource/mcp"`
	refused := func(msg string) func() (*authz.Info, error) {
		return func() (*authz.Info, error) { return nil, fmt.Errorf("%w: %s", authz.ErrInvalidToken, msg) }
	}
	prefix := "invalid token: " // 15 bytes
	v := tokens{
		"ok":    func() (*authz.Info, error) { return &authz.Info{Subject: "s", Audience: []string{res}}, nil },
		"w199":  refused(strings.Repeat("a", 199-len(prefix))),
		"w200":  refused(strings.Repeat("a", 200-len(prefix))),
		"w201":  refused(strings.Repeat("a", 201-len(prefix)) + "Z"),
		"dirty": refused("é\"x\\y\x7f\tz ~"),
	}
	for _, tc := range []struct {
		scopes  []string
		token   string // "" sends no Authorization
		status  int
		want    string
		message string
	}{
		{nil, "", 401, `Bearer ` + rm, "unauthorized: this server needs an OAuth bearer token (Authorization: Bearer …)"},
		{[]string{"a:read", "b"}, "", 401, `Bearer ` + rm + `, scope="a:read b"`, "unauthorized: this server needs an OAuth bearer token (Authorization: Bearer …)"},
		{nil, "Basic x", 401, `Bearer ` + rm, "unauthorized: only the Bearer authorization scheme is accepted"},
		{[]string{"a"}, "Bearer", 400, `Bearer error="invalid_request", error_description="malformed Authorization header", ` + rm, `bad request: send one Authorization header, "Bearer" followed by one token`},
		{nil, "Bearer w199", 401, `Bearer error="invalid_token", error_description="invalid token: ` + strings.Repeat("a", 199-len(prefix)) + `", ` + rm, "unauthorized: invalid token: " + strings.Repeat("a", 199-len(prefix))},
		{nil, "Bearer w200", 401, `Bearer error="invalid_token", error_description="invalid token: ` + strings.Repeat("a", 200-len(prefix)) + `", ` + rm, ""},
		{nil, "Bearer w201", 401, `Bearer error="invalid_token", error_description="invalid token: ` + strings.Repeat("a", 200-len(prefix)) + `", ` + rm, ""},
		{[]string{"s"}, "Bearer dirty", 401, `Bearer error="invalid_token", error_description="invalid token: xyz ~", ` + rm + `, scope="s"`, ""},
		{[]string{"x", "y"}, "Bearer ok", 403, `Bearer error="insufficient_scope", error_description="additional scopes are required", ` + rm + `, scope="x y"`, `forbidden: insufficient scope; this request needs the scopes "x y"`},
	} {
		g, err := authz.NewGate(&authz.Config{Resource: res, AuthorizationServers: []string{"https://as"}, Verifier: v, Scopes: tc.scopes}, authz.Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest(http.MethodPost, res, nil)
		if tc.token != "" {
			r.Header.Set("Authorization", tc.token)
		}
		_, refusal := g.Authenticate(r)
		if refusal == nil {
			t.Errorf("%q with scopes %q: let through", tc.token, tc.scopes)
			continue
		}
		if refusal.Status != tc.status || refusal.Challenge != tc.want || refusal.Error.Code != -32600 || tc.message != "" && refusal.Error.Message != tc.message {
			t.Errorf("%q with scopes %q:\n got %d %s (%q)\nwant %d %s (%q)", tc.token, tc.scopes, refusal.Status, refusal.Challenge, refusal.Error.Message, tc.status, tc.want, tc.message)
		}
	}
	// A call's scopes follow the server's, each once, in the 403.
	g, _ := authz.NewGate(&authz.Config{Resource: res, AuthorizationServers: []string{"https://as"}, Verifier: v, Scopes: []string{"b"}},
		authz.Hooks{CallScopes: func(transport.Message) []string { return []string{"c", "b", "a"} }})
	r := httptest.NewRequest(http.MethodPost, res, nil)
	r.Header.Set("Authorization", "Bearer ok")
	r2, _ := g.Authenticate(r)
	if r2 == nil {
		r2 = r
	}
	want := `Bearer error="insufficient_scope", error_description="additional scopes are required", ` + rm + `, scope="b c a"`
	if refusal := g.CheckCall(r2, transport.Message{}); refusal == nil || refusal.Status != 403 || refusal.Challenge != want {
		t.Errorf("CheckCall: %+v, want 403 %s", refusal, want)
	}
}
