package interop

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestOrdersAuthorizationWithTSSDK: the TypeScript SDK client (v1) finds
// its way to a token on its own, from examples/orders' 401 challenge and
// metadata to the authorization server below (authorization code with
// PKCE, for this resource), and steps up when a tool needs more scopes;
// examples/orders fetches the authorization server's key set from its
// jwks_uri.
func TestOrdersAuthorizationWithTSSDK(t *testing.T) {
	node := needNode(t)
	as := newTestAuthServer(t)
	endpoint := startHTTP(t, "orders", "-auth-issuer", as.issuer, "-auth-jwks", as.issuer+"/jwks")
	out := runNode(t, node, 90*time.Second, nil, "sdk-auth.mjs", "http", endpoint)
	var s tsSummary
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("summary: %v\n%s", err, out)
	}

	var meta struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		ScopesSupported      []string `json:"scopes_supported"`
	}
	if s.result(t, "discoverMetadata", &meta) && (meta.Resource != endpoint || len(meta.AuthorizationServers) != 1 ||
		meta.AuthorizationServers[0] != as.issuer || strings.Join(meta.ScopesSupported, " ") != "orders:read orders:write orders:refund") {
		t.Errorf("the SDK read the metadata as %+v", meta)
	}
	if st := s.Steps["withoutToken"]; st.Error == nil || st.Error.Code == nil || *st.Error.Code != 401 {
		t.Errorf("without a token: %s", jsonOf(t, st))
	}
	var connect struct {
		Scope          string
		Authorizations int
	}
	if s.result(t, "connect", &connect) && (connect.Scope != "orders:read" || connect.Authorizations != 1) {
		t.Errorf("connect: %+v, want one authorization for the 401 challenge's orders:read", connect)
	}
	s.result(t, "lookupOrder", &json.RawMessage{})
	var note struct {
		IsError        bool
		SteppedUpScope string
		Authorizations int
	}
	if s.result(t, "createNote", &note) && (note.IsError || note.SteppedUpScope != "orders:read orders:write" || note.Authorizations != 2) {
		t.Errorf("create_note with step-up: %s", jsonOf(t, s.Steps["createNote"]))
	}
	var after struct{ StructuredContent json.RawMessage }
	if s.result(t, "lookupAfterNote", &after) && !strings.Contains(string(after.StructuredContent), "[ts-agent] via the TypeScript SDK") {
		t.Errorf("the note does not name its author: %s", after.StructuredContent)
	}
	// What the authorization server was asked: the 401's scope, then the
	// scopes the 403 named, both for this resource (RFC 8707).
	got := as.requests()
	want := []string{"orders:read " + endpoint, "orders:read orders:write " + endpoint}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("authorizations (scope resource):\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// testAuthServer is just enough of an OAuth 2.1 authorization server for a
// public client: RFC 8414 metadata, an authorization endpoint that consents
// at once, a token endpoint that checks PKCE and issues EdDSA JWTs for the
// resource and scope authorized, and the key set.
type testAuthServer struct {
	issuer string

	mu    sync.Mutex
	seen  []string // "scope resource" of each authorization
	codes map[string]grant
}

type grant struct{ challenge, scope, resource, redirect string }

func newTestAuthServer(t *testing.T) *testAuthServer {
	t.Helper()
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	as := &testAuthServer{codes: map[string]grant{}}
	b64 := base64.RawURLEncoding.EncodeToString
	oauthError := func(w http.ResponseWriter, code string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"error": code})
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": as.issuer, "authorization_endpoint": as.issuer + "/authorize", "token_endpoint": as.issuer + "/token",
			"jwks_uri": as.issuer + "/jwks", "response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
			"grant_types_supported": []string{"authorization_code"}, "token_endpoint_auth_methods_supported": []string{"none"},
		})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{"kty": "OKP", "crv": "Ed25519", "kid": "as-1", "use": "sig", "x": b64(pub)}}})
	})
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("client_id") != "ts-agent" || q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
			oauthError(w, "invalid_request")
			return
		}
		code := b64([]byte(rand.Text()))
		as.mu.Lock()
		as.seen = append(as.seen, q.Get("scope")+" "+q.Get("resource"))
		as.codes[code] = grant{q.Get("code_challenge"), q.Get("scope"), q.Get("resource"), q.Get("redirect_uri")}
		as.mu.Unlock()
		http.Redirect(w, r, q.Get("redirect_uri")+"?code="+code, http.StatusFound)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		as.mu.Lock()
		g, ok := as.codes[r.PostFormValue("code")]
		delete(as.codes, r.PostFormValue("code")) // a code is used once
		as.mu.Unlock()
		sum := sha256.Sum256([]byte(r.PostFormValue("code_verifier")))
		if !ok || r.PostFormValue("grant_type") != "authorization_code" || b64(sum[:]) != g.challenge || r.PostFormValue("redirect_uri") != g.redirect {
			oauthError(w, "invalid_grant")
			return
		}
		hdr, _ := json.Marshal(map[string]string{"alg": "EdDSA", "kid": "as-1", "typ": "at+jwt"})
		claims, _ := json.Marshal(map[string]any{"iss": as.issuer, "sub": "ts-agent", "client_id": "ts-agent", "aud": g.resource,
			"exp": time.Now().Add(time.Hour).Unix(), "scope": g.scope})
		input := b64(hdr) + "." + b64(claims)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(map[string]any{"access_token": input + "." + b64(ed25519.Sign(key, []byte(input))),
			"token_type": "Bearer", "expires_in": 3600, "scope": g.scope})
	})
	// The issuer is known before the server starts: its handlers read it.
	ts := httptest.NewUnstartedServer(mux)
	as.issuer = "http://" + ts.Listener.Addr().String()
	ts.Start()
	t.Cleanup(ts.Close)
	return as
}

func (as *testAuthServer) requests() []string {
	as.mu.Lock()
	defer as.mu.Unlock()
	return append([]string(nil), as.seen...)
}
