package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// The orders desk as an OAuth resource server, end to end: the options its
// flags make, the generated registration's scopes, and tokens signed with
// a key generated here and published in a JWK set file.

const issuer = "https://auth.orders.test"

type ordersAuth struct {
	t        *testing.T
	key      *ecdsa.PrivateKey
	base     string // http://127.0.0.1:PORT
	resource string
}

func startOrdersWithAuth(t *testing.T) *ordersAuth {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := key.PublicKey.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	set, _ := json.Marshal(map[string]any{"keys": []map[string]string{
		{"kty": "EC", "crv": "P-256", "kid": "k1", "use": "sig", "alg": "ES256", "x": b64(pub[1:33]), "y": b64(pub[33:])}}})
	jwksFile := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(jwksFile, set, 0o600); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	addr := ts.Listener.Addr().String()
	cfg, err := authConfig(issuer, jwksFile, "", addr)
	if err != nil {
		t.Fatal(err)
	}
	// What runtime.ListenAndServe mounts, on the test server's listener.
	srv := ordersmcp.NewServer(newDesk(sampleOrders()))
	resource := "http://" + addr + "/mcp"
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler(runtime.WithAuthorization(*cfg)))
	for _, p := range cfg.MetadataPaths() {
		mux.Handle(p, srv.ProtectedResourceMetadataHandler(*cfg))
	}
	ts.Config.Handler = mux
	ts.Start()
	t.Cleanup(ts.Close)
	return &ordersAuth{t: t, key: key, base: ts.URL, resource: resource}
}

// token signs an ES256 access token for sub with scopes.
func (o *ordersAuth) token(sub, scopes string) string {
	o.t.Helper()
	b64 := base64.RawURLEncoding.EncodeToString
	hdr, _ := json.Marshal(map[string]string{"alg": "ES256", "kid": "k1", "typ": "at+jwt"})
	claims, _ := json.Marshal(map[string]any{"iss": issuer, "sub": sub, "aud": o.resource,
		"exp": time.Now().Add(time.Hour).Unix(), "scope": scopes})
	input := b64(hdr) + "." + b64(claims)
	sum := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, o.key, sum[:])
	if err != nil {
		o.t.Fatal(err)
	}
	return input + "." + b64(append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...))
}

// post sends one JSON-RPC message (stateless enough for these checks: each
// call carries the session once there is one).
func (o *ordersAuth) post(token, session, body string) (*http.Response, string) {
	o.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, o.base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		o.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (o *ordersAuth) session(token string) string {
	o.t.Helper()
	resp, body := o.post(token, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || sid == "" {
		o.t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	o.post(token, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return sid
}

func TestOrdersAuthorization(t *testing.T) {
	o := startOrdersWithAuth(t)
	metadataURL := o.base + "/.well-known/oauth-protected-resource/mcp"

	resp, _ := o.post("", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`)
	if www := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 401 || !strings.Contains(www, `resource_metadata="`+metadataURL+`"`) ||
		!strings.Contains(www, `scope="orders:read"`) {
		t.Errorf("no token: %d %q", resp.StatusCode, www)
	}
	meta, err := http.Get(metadataURL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(meta.Body)
	meta.Body.Close()
	var doc struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		ScopesSupported      []string `json:"scopes_supported"`
	}
	if json.Unmarshal(b, &doc) != nil || doc.Resource != o.resource || doc.AuthorizationServers[0] != issuer ||
		strings.Join(doc.ScopesSupported, " ") != "orders:read orders:write orders:refund" {
		t.Errorf("metadata: %s", b)
	}

	reader := o.token("alice", "orders:read")
	sid := o.session(reader)
	if _, body := o.post(reader, sid, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"A-1042"}}}`); !strings.Contains(body, `"order_id":"A-1042"`) {
		t.Errorf("lookup_order with orders:read: %s", body)
	}
	note := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_note","arguments":{"order_id":"A-1042","text":"called the customer"}}}`
	resp, _ = o.post(reader, sid, note)
	if www := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 403 || !strings.Contains(www, `error="insufficient_scope"`) || !strings.Contains(www, `scope="orders:read orders:write"`) {
		t.Errorf("create_note with orders:read only: %d %q", resp.StatusCode, www)
	}
	writer := o.token("alice", "orders:read orders:write")
	if _, body := o.post(writer, sid, note); !strings.Contains(body, `"note_id"`) {
		t.Errorf("create_note after step-up: %s", body)
	}
	// The handler saw who wrote the note.
	if _, body := o.post(reader, sid, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"A-1042"}}}`); !strings.Contains(body, `[alice] called the customer`) {
		t.Errorf("the note does not name its author: %s", body)
	}
}

func TestOrdersAuthFlags(t *testing.T) {
	for _, tc := range []struct {
		name                         string
		issuer, jwks, resource, http string
		want                         string
	}{
		{"jwks without issuer", "", "keys.json", "", "127.0.0.1:1", "need -auth-issuer"},
		{"issuer without http", issuer, "keys.json", "", "", "needs -http"},
		{"issuer without jwks", issuer, "", "", "127.0.0.1:1", "needs -auth-jwks"},
		{"missing jwks file", issuer, filepath.Join(t.TempDir(), "none.json"), "", "127.0.0.1:1", "-auth-jwks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := authOptions(tc.issuer, tc.jwks, tc.resource, tc.http); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
	if opts, err := authOptions("", "", "", ""); err != nil || opts != nil {
		t.Errorf("no flags: %v %v", opts, err)
	}
}
