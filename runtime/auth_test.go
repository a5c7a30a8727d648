package runtime_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
	"github.com/mcpgen/mcpgen/runtime/jwtauth"
)

// End-to-end tests of resource-server mode: a server behind
// WithAuthorization, tokens signed by the test keys, requests as an MCP
// client sends them.

// authServer is a server with three tools: whoami (no scope of its own)
// answers with the identity it sees; refund needs orders:write; transfer
// needs orders:write and payments:write (every scope, not just the first).
func authServer(opts ...runtime.Option) *runtime.Server {
	srv := runtime.NewServer(runtime.Implementation{Name: "orders", Title: "Orders desk", Version: "1"}, opts...)
	whoami := func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		info, ok := runtime.AuthFromContext(ctx)
		if !ok {
			return runtime.TextResult("anonymous"), nil
		}
		return runtime.TextResult(info.Subject + " " + strings.Join(info.Scopes, ",")), nil
	}
	srv.AddTool(runtime.Tool{Name: "whoami", Description: "Who am I?", Handler: whoami})
	srv.AddTool(runtime.Tool{Name: "refund", Description: "Refund.", Scopes: []string{"orders:write"},
		Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("refunded"), nil
		}})
	srv.AddTool(runtime.Tool{Name: "transfer", Description: "Transfer.", Scopes: []string{"orders:write", "payments:write"},
		Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("transferred"), nil
		}})
	return srv
}

func authConfig(t testing.TB) runtime.AuthConfig {
	t.Helper()
	return runtime.AuthConfig{
		Resource:             jwttest.Resource,
		AuthorizationServers: []string{jwttest.Issuer},
		Verifier:             jwttest.NewVerifier(t, jwtauth.Config{Issuer: jwttest.Issuer, JWKS: jwttest.TrustedJWKS(t)}),
		Scopes:               []string{"mcp:access"},
	}
}

// serveAuth serves srv at /mcp with cfg, and its metadata at the
// well-known paths, as a user's own mux would.
func serveAuth(t *testing.T, srv *runtime.Server, cfg runtime.AuthConfig, opts ...runtime.HTTPOption) *httpPeer {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler(append(opts, runtime.WithAuthorization(cfg))...))
	for _, p := range cfg.MetadataPaths() {
		mux.Handle(p, srv.ProtectedResourceMetadataHandler(cfg))
	}
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return &httpPeer{t: t, url: ts.URL + "/mcp"}
}

func bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

// challenge reads a response's status, WWW-Authenticate and JSON-RPC error
// message.
func challenge(t *testing.T, resp *http.Response) (int, string, string) {
	t.Helper()
	// A request that should have been refused but opened a stream must
	// fail the test in seconds, not hang it: the body is cut after wait.
	cut := time.AfterFunc(wait, func() { resp.Body.Close() })
	defer cut.Stop()
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var body struct {
		Error struct{ Message string }
	}
	_ = json.Unmarshal(b, &body)
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body.Error.Message
}

const (
	metadataURL  = `resource_metadata="https://mcp.test/.well-known/oauth-protected-resource/mcp"`
	initializeV2 = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
)

// TestAuthRefusesTokens: each bad token is refused before anything else,
// with the status and challenge the MCP authorization spec asks for.
func TestAuthRefusesTokens(t *testing.T) {
	k := jwttest.TheKeys(t)
	p := serveAuth(t, authServer(), authConfig(t))
	now := time.Now().Unix()
	with := func(key string, val any) map[string]any {
		c := jwttest.Claims("alice", "mcp:access")
		c[key] = val
		return c
	}
	without := func(keys ...string) map[string]any {
		c := jwttest.Claims("alice", "mcp:access")
		for _, key := range keys {
			delete(c, key)
		}
		return c
	}
	good := jwttest.Claims("alice", "mcp:access")
	for _, tc := range []struct {
		name      string
		hdr       []string
		status    int
		challenge []string // parts the WWW-Authenticate header must have
		message   string
	}{
		{"no token", nil, 401, []string{"Bearer ", metadataURL, `scope="mcp:access"`}, "needs an OAuth bearer token"},
		{"another scheme", []string{"Authorization", "Basic YWxpY2U6c2VjcmV0"}, 401, []string{metadataURL}, "only the Bearer"},
		{"empty bearer", []string{"Authorization", "Bearer "}, 400, []string{`error="invalid_request"`, metadataURL}, "one Authorization header"},
		{"two tokens", []string{"Authorization", "Bearer a b"}, 400, []string{`error="invalid_request"`}, "one Authorization header"},
		{"a 17 KiB token", []string{"Authorization", "Bearer " + strings.Repeat("x", 17<<10)}, 400, []string{`error="invalid_request"`}, "one Authorization header"},
		{"hostile alg", bearer(jwttest.Segment(t, map[string]any{"alg": "x\"\\\u0001\r\né"}) + "." + jwttest.Segment(t, good) + "."), 401,
			// The challenge keeps printable ASCII only (no CR LF to split the header); the body escapes.
			[]string{`error_description="invalid token: the algorithm xu0001rn is not accepted`}, `the algorithm "x\"\\u0001\r\né" is not accepted`},
		{"garbage", []string{"Authorization", `Bearer "quoted"\é`}, 401, []string{`error="invalid_token"`, `error_description="invalid token: not a JWT in compact form (header.payload.signature)"`}, "compact form"},
		{"expired", bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("exp", now-300))), 401,
			[]string{`error="invalid_token"`, `error_description="invalid token: the token expired at `, metadataURL, `scope="mcp:access"`}, "expired"},
		{"for another resource", bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("aud", "https://other.test/mcp"))), 401,
			[]string{`error="invalid_token"`, `error_description="the token is not for this resource"`, metadataURL}, "audience does not include"},
		{"wrong signature", bearer(jwttest.Sign(t, "RS256", "rsa-1", k.Other, good)), 401, []string{`error="invalid_token"`}, "bad signature"},
		{"alg none", bearer(jwttest.SignHeader(t, map[string]any{"alg": "none"}, nil, good)), 401, []string{`error="invalid_token"`}, `"none" is not accepted`},
		{"HS256 key confusion", bearer(jwttest.Sign(t, "HS256", "rsa-1", jwttest.PublicDER(t, k.RSA), good)), 401, []string{`error="invalid_token"`}, `"HS256" is not accepted`},
		{"other issuer", bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("iss", "https://evil.test"))), 401, []string{`error="invalid_token"`}, "issuer"},
		{"no identity (neither sub nor client_id)", bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, without("sub", "client_id"))), 401,
			[]string{`error="invalid_token"`, `error_description="the token names neither a subject (sub) nor a client (client_id)"`, metadataURL}, "neither a subject"},
		{"without the server's scope", bearer(jwttest.Sign(t, "ES256", "ec-1", k.EC, jwttest.Claims("alice", "orders:read"))), 403,
			[]string{`error="insufficient_scope"`, `scope="mcp:access"`, metadataURL}, "insufficient scope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, www, msg := challenge(t, p.do(http.MethodPost, initializeV2, tc.hdr...))
			if status != tc.status {
				t.Errorf("status %d, want %d", status, tc.status)
			}
			for _, part := range tc.challenge {
				if !strings.Contains(www, part) {
					t.Errorf("WWW-Authenticate %q lacks %q", www, part)
				}
			}
			if !strings.HasPrefix(www, "Bearer ") {
				t.Errorf("WWW-Authenticate %q is not a Bearer challenge", www)
			}
			if !strings.Contains(msg, tc.message) {
				t.Errorf("message %q lacks %q", msg, tc.message)
			}
		})
	}
	// Two Authorization headers: which one counts is ambiguous, so neither.
	req, _ := http.NewRequest(http.MethodPost, p.url, strings.NewReader(initializeV2))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Add("Authorization", "Bearer "+jwttest.Sign(t, "RS256", "rsa-1", k.RSA, good))
	req.Header.Add("Authorization", "Bearer "+jwttest.Sign(t, "RS256", "rsa-1", k.RSA, good))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if status, www, _ := challenge(t, resp); status != 400 || !strings.Contains(www, `error="invalid_request"`) {
		t.Errorf("two Authorization headers: %d %q", status, www)
	}
	// GET and DELETE are guarded too.
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		if status, www, _ := challenge(t, p.do(method, "")); status != 401 || !strings.Contains(www, metadataURL) {
			t.Errorf("%s without a token: %d %q", method, status, www)
		}
	}
}

// TestAuthSession: a valid token opens a session; the handler sees the
// identity; a tool's scopes are enforced per call with a step-up
// challenge; another subject cannot use the session.
func TestAuthSession(t *testing.T) {
	k := jwttest.TheKeys(t)
	p := serveAuth(t, authServer(), authConfig(t))
	alice := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "mcp:access")))
	resp := p.do(http.MethodPost, initializeV2, alice...)
	readAll(t, resp)
	if resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d", resp.StatusCode)
	}
	p.session = resp.Header.Get("Mcp-Session-Id")
	mustStatus(t, p.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, alice...), 202)

	if got := toolText(t, p, `{"name":"whoami"}`, alice); got != "alice mcp:access" {
		t.Errorf("whoami: %q", got)
	}

	// refund needs orders:write: 403 naming every scope the call needs.
	resp, _ = p.call("tools/call", `{"name":"refund"}`, alice...)
	status, www, msg := challenge(t, resp)
	if status != 403 || !strings.Contains(www, `error="insufficient_scope"`) || !strings.Contains(www, `scope="mcp:access orders:write"`) ||
		!strings.Contains(www, metadataURL) || !strings.Contains(msg, "orders:write") {
		t.Errorf("refund without orders:write: %d %q %q", status, www, msg)
	}
	// Step-up: the client comes back with a token holding the scope, in
	// the same session.
	stepped := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "mcp:access orders:write")))
	if got := toolText(t, p, `{"name":"refund"}`, stepped); got != "refunded" {
		t.Errorf("refund after step-up: %q", got)
	}
	// transfer needs two scopes: holding the first is not enough, and the
	// challenge names both.
	resp, _ = p.call("tools/call", `{"name":"transfer"}`, stepped...)
	status, www, msg = challenge(t, resp)
	if status != 403 || !strings.Contains(www, `scope="mcp:access orders:write payments:write"`) || !strings.Contains(msg, "payments:write") {
		t.Errorf("transfer with orders:write only: %d %q %q", status, www, msg)
	}
	both := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "mcp:access orders:write payments:write")))
	if got := toolText(t, p, `{"name":"transfer"}`, both); got != "transferred" {
		t.Errorf("transfer with both scopes: %q", got)
	}
	// tools/list shows every tool, whatever the token's scopes.
	resp, _ = p.call("tools/list", `{}`, alice...)
	if msgs := readAll(t, resp); len(msgs) != 1 || !strings.Contains(msgs[0].Data, `"refund"`) {
		t.Errorf("tools/list: %v", msgs)
	}

	// Mallory holds a valid token of her own and alice's session id.
	mallory := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("mallory", "mcp:access orders:write")))
	for _, try := range []struct{ method, body string }{
		{http.MethodPost, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"whoami"}}`},
		{http.MethodGet, ""},
		{http.MethodDelete, ""},
	} {
		status, _, msg := challenge(t, p.do(try.method, try.body, mallory...))
		if status != 403 || !strings.Contains(msg, "belongs to another user") {
			t.Errorf("%s by another subject: %d %q", try.method, status, msg)
		}
	}
	// The session still serves alice.
	if got := toolText(t, p, `{"name":"whoami"}`, alice); got != "alice mcp:access" {
		t.Errorf("whoami after the intrusion: %q", got)
	}
}

// TestAuthOwnerUnambiguous: the owner of a session is a typed identity. A
// token whose sub is "client:x" and a token without sub whose client_id is
// "x" are two users; a token without sub is its client.
func TestAuthOwnerUnambiguous(t *testing.T) {
	k := jwttest.TheKeys(t)
	p := serveAuth(t, authServer(), authConfig(t))
	token := func(sub, clientID string) []string {
		c := jwttest.Claims(sub, "mcp:access")
		c["client_id"] = clientID
		if sub == "" {
			delete(c, "sub")
		}
		return bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, c))
	}
	resp := p.do(http.MethodPost, initializeV2, token("client:x", "other")...)
	readAll(t, resp)
	if resp.StatusCode != 200 {
		t.Fatalf("initialize: %d", resp.StatusCode)
	}
	p.session = resp.Header.Get("Mcp-Session-Id")
	mustStatus(t, p.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, token("client:x", "other")...), 202)
	status, _, msg := challenge(t, p.do(http.MethodPost, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"whoami"}}`, token("", "x")...))
	if status != 403 || !strings.Contains(msg, "belongs to another user") {
		t.Errorf("client x in the session of sub \"client:x\": %d %q", status, msg)
	}
	// A client acting for itself keeps its session across its tokens.
	p.session = ""
	resp = p.do(http.MethodPost, initializeV2, token("", "x")...)
	readAll(t, resp)
	p.session = resp.Header.Get("Mcp-Session-Id")
	mustStatus(t, p.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, token("", "x")...), 202)
	if got := toolText(t, p, `{"name":"whoami"}`, token("", "x")); got != " mcp:access" {
		t.Errorf("whoami of client x: %q", got)
	}
}

// toolText calls a tool and returns the text of its result.
func toolText(t *testing.T, p *httpPeer, params string, hdr []string) string {
	t.Helper()
	resp, id := p.call("tools/call", params, hdr...)
	msgs := readAll(t, resp)
	if resp.StatusCode != 200 || len(msgs) == 0 {
		t.Fatalf("tools/call %s: %d %v", params, resp.StatusCode, msgs)
	}
	r := parse(t, msgs[len(msgs)-1].Data)
	var res struct {
		Content []struct{ Text string }
	}
	if r.Error != nil || string(r.ID) != id || json.Unmarshal(r.Result, &res) != nil || len(res.Content) != 1 {
		t.Fatalf("tools/call %s: %s", params, msgs[len(msgs)-1].Data)
	}
	return res.Content[0].Text
}

func mustStatus(t *testing.T, resp *http.Response, want int) {
	t.Helper()
	resp.Body.Close()
	if resp.StatusCode != want {
		t.Fatalf("status %d, want %d", resp.StatusCode, want)
	}
}

// TestAuthStateless: without sessions every POST is checked on its own.
func TestAuthStateless(t *testing.T) {
	k := jwttest.TheKeys(t)
	p := serveAuth(t, authServer(), authConfig(t), runtime.WithStateless())
	bob := bearer(jwttest.Sign(t, "EdDSA", "", k.Ed, jwttest.Claims("bob", "mcp:access")))
	// Bob's key is not trusted by this server: 401.
	if status, _, _ := challenge(t, p.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami"}}`, bob...)); status != 401 {
		t.Errorf("unknown key: %d", status)
	}
	carol := bearer(jwttest.Sign(t, "ES256", "ec-1", k.EC, jwttest.Claims("carol", "mcp:access")))
	if got := toolText(t, p, `{"name":"whoami"}`, carol); got != "carol mcp:access" {
		t.Errorf("whoami: %q", got)
	}
	resp, _ := p.call("tools/call", `{"name":"refund"}`, carol...)
	if status, www, _ := challenge(t, resp); status != 403 || !strings.Contains(www, `scope="mcp:access orders:write"`) {
		t.Errorf("refund: %d %q", status, www)
	}
}

// TestAuthModern: a 2026-07-28 request is a stateless POST; the same rules
// apply, and the handler sees the identity.
func TestAuthModern(t *testing.T) {
	k := jwttest.TheKeys(t)
	srv := authServer(runtime.WithModernEra())
	cfg := authConfig(t)
	ts := httptest.NewServer(srv.HTTPHandler(runtime.WithAuthorization(cfg)))
	t.Cleanup(ts.Close)
	call := func(name string) string {
		return req(1, "tools/call", withMeta(`"name":"`+name+`","arguments":{}`))
	}
	status, h, _ := modernPost(t, ts.URL, call("whoami"), nil)
	if status != 401 || !strings.Contains(h.Get("WWW-Authenticate"), metadataURL) {
		t.Errorf("no token: %d %q", status, h.Get("WWW-Authenticate"))
	}
	dave := "Bearer " + jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("dave", "mcp:access"))
	status, h, body := modernPost(t, ts.URL, call("whoami"), map[string]string{"Authorization": dave})
	if status != 200 || !strings.Contains(strings.Join(sseData(h.Get("Content-Type"), body), ""), `"text":"dave mcp:access"`) {
		t.Errorf("whoami: %d %s", status, body)
	}
	status, h, body = modernPost(t, ts.URL, call("refund"), map[string]string{"Authorization": dave})
	if status != 403 || !strings.Contains(h.Get("WWW-Authenticate"), `scope="mcp:access orders:write"`) || !strings.Contains(body, `"id":1`) {
		t.Errorf("refund: %d %q %s", status, h.Get("WWW-Authenticate"), body)
	}
}

// TestAuthMetadata: the protected resource metadata document (RFC 9728)
// at both well-known paths.
func TestAuthMetadata(t *testing.T) {
	p := serveAuth(t, authServer(), authConfig(t))
	base := strings.TrimSuffix(p.url, "/mcp")
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: %d %v", path, resp.StatusCode, resp.Header)
		}
		jsonEqual(t, `{"resource":"https://mcp.test/mcp","authorization_servers":["https://auth.test"],`+
			`"scopes_supported":["mcp:access","orders:write","payments:write"],"bearer_methods_supported":["header"],"resource_name":"Orders desk"}`, b)
	}
	cfg := authConfig(t)
	if got := cfg.MetadataURL(); got != "https://mcp.test/.well-known/oauth-protected-resource/mcp" {
		t.Errorf("MetadataURL %q", got)
	}
	cfg.Resource = "https://mcp.test"
	if got := cfg.MetadataPaths(); len(got) != 1 || got[0] != "/.well-known/oauth-protected-resource" {
		t.Errorf("MetadataPaths of a resource without path: %q", got)
	}
}

// TestAuthVerifierUnavailable: a verifier that cannot tell answers 503, not
// 401 (the client's token may be good).
func TestAuthVerifierUnavailable(t *testing.T) {
	k := jwttest.TheKeys(t)
	cfg := authConfig(t)
	cfg.Verifier = jwttest.NewVerifier(t, jwtauth.Config{Issuer: jwttest.Issuer, JWKSURL: jwttest.UnreachableJWKS(t)})
	_, logOpt := newLog()
	p := serveAuth(t, authServer(logOpt), cfg)
	status, _, msg := challenge(t, p.do(http.MethodPost, initializeV2, bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "mcp:access")))...))
	if status != 503 || !strings.Contains(msg, "cannot be verified now") {
		t.Errorf("%d %q", status, msg)
	}
}

// TestAuthStdio: over stdio authorization does not apply: a tool with
// scopes runs, and no identity is seen.
func TestAuthStdio(t *testing.T) {
	c := serve(t, authServer())
	c.initialize()
	if got := string(c.callTool("refund", map[string]any{})); !strings.Contains(got, "refunded") {
		t.Errorf("refund over stdio: %s", got)
	}
	if got := string(c.callTool("whoami", map[string]any{})); !strings.Contains(got, "anonymous") {
		t.Errorf("whoami over stdio: %s", got)
	}
}

func TestAuthConfigIncomplete(t *testing.T) {
	srv := authServer()
	for _, tc := range []struct {
		name string
		edit func(*runtime.AuthConfig)
		want string
	}{
		{"no resource", func(c *runtime.AuthConfig) { c.Resource = "" }, "Resource is required"},
		{"relative resource", func(c *runtime.AuthConfig) { c.Resource = "/mcp" }, "absolute"},
		{"resource with fragment", func(c *runtime.AuthConfig) { c.Resource = "https://mcp.test/mcp#x" }, "no query or fragment"},
		{"resource with query", func(c *runtime.AuthConfig) { c.Resource = "https://mcp.test/mcp?tenant=a" }, "no query or fragment"},
		{"resource not http", func(c *runtime.AuthConfig) { c.Resource = "ftp://mcp.test/mcp" }, "absolute http(s)"},
		{"relative authorization server", func(c *runtime.AuthConfig) { c.AuthorizationServers = []string{"auth.test"} }, "not an absolute URL"},
		{"no authorization server", func(c *runtime.AuthConfig) { c.AuthorizationServers = nil }, "at least one"},
		{"no verifier", func(c *runtime.AuthConfig) { c.Verifier = nil }, "Verifier is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := authConfig(t)
			tc.edit(&cfg)
			defer func() {
				if v := recover(); v == nil || !strings.Contains(v.(string), tc.want) {
					t.Errorf("panic %v, want one saying %q", v, tc.want)
				}
			}()
			srv.HTTPHandler(runtime.WithAuthorization(cfg))
		})
	}
}

// TestAuthRequestStateBound: in the 2026-07-28 era a requestState plays the
// part of a session: it is bound to the user it was issued to.
func TestAuthRequestStateBound(t *testing.T) {
	k := jwttest.TheKeys(t)
	ts := httptest.NewServer(mrtrServer().HTTPHandler(runtime.WithAuthorization(authConfig(t))))
	t.Cleanup(ts.Close)
	as := func(sub string) map[string]string {
		return map[string]string{"Authorization": "Bearer " + jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims(sub, "mcp:access"))}
	}
	status, h, body := modernPost(t, ts.URL, req(1, "tools/call", callParams("rounds", allCaps, "")), as("alice"))
	msgs := sseData(h.Get("Content-Type"), body)
	if status != 200 || len(msgs) != 1 {
		t.Fatalf("first round: %d %s", status, body)
	}
	_, state := roundResult(t, msgs[0])
	if state == "" {
		t.Fatalf("no requestState: %s", msgs[0])
	}
	retry := req(2, "tools/call", callParams("rounds", allCaps,
		`,"inputResponses":{"input-0":{"action":"accept","content":{"name":"x"}}},"requestState":`+jsonString(state)))
	_, h, body = modernPost(t, ts.URL, retry, as("mallory"))
	if got := strings.Join(sseData(h.Get("Content-Type"), body), ""); !strings.Contains(got, "issued to another user") {
		t.Errorf("replay by another user: %s", got)
	}
	_, h, body = modernPost(t, ts.URL, retry, as("alice"))
	if got := strings.Join(sseData(h.Get("Content-Type"), body), ""); !strings.Contains(got, `Second, after x?`) {
		t.Errorf("retry by alice: %s", got)
	}
}
