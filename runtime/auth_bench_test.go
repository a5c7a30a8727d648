package runtime_test

import (
	"bytes"
	"crypto"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
	"github.com/mcpgen/mcpgen/runtime/jwtauth"
)

// The cost of resource-server mode: one tools/call through the HTTP handler
// without authorization and with a token of each algorithm (the client sends
// the same token each time, as clients do). jwtauth's BenchmarkVerify has
// the cost of the verification alone.

func BenchmarkToolsCallHTTPHandlerAuth(b *testing.B) {
	t := b
	k := jwttest.TheKeys(t)
	cfg := authConfig(t)
	cfg.Verifier = jwttest.NewVerifier(t, jwtauth.Config{Issuer: jwttest.Issuer,
		JWKS: jwttest.JWKS(t, map[string]crypto.PublicKey{"rsa-1": &k.RSA.PublicKey, "ec-1": &k.EC.PublicKey, "ed-1": k.Ed.Public()})})
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami"}}`)
	for _, tc := range []struct {
		name, alg, kid string
		key            any
	}{{"none", "", "", nil}, {"RS256", "RS256", "rsa-1", k.RSA}, {"ES256", "ES256", "ec-1", k.EC}, {"EdDSA", "EdDSA", "ed-1", k.Ed}} {
		b.Run(tc.name, func(b *testing.B) {
			var h http.Handler
			var auth string
			if tc.alg == "" {
				h = authServer().HTTPHandler()
			} else {
				h = authServer().HTTPHandler(runtime.WithAuthorization(cfg))
				auth = "Bearer " + jwttest.Sign(t, tc.alg, tc.kid, tc.key, jwttest.Claims("alice", "mcp:access"))
			}
			w := &benchWriter{h: http.Header{}} // bench_test.go's
			newReq := func(body string) *http.Request {
				req := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(body))
				req.Header["Accept"] = []string{"application/json, text/event-stream"}
				req.Header["Content-Type"] = []string{"application/json"}
				if auth != "" {
					req.Header["Authorization"] = []string{auth}
				}
				return req
			}
			h.ServeHTTP(w, newReq(initializeV2))
			req := newReq("")
			req.Header["Mcp-Session-Id"] = []string{w.h.Get("Mcp-Session-Id")}
			req.Header["Mcp-Protocol-Version"] = []string{"2025-11-25"}
			rd := bytes.NewReader(call)
			serve := func() {
				rd.Reset(call)
				req.Body = io.NopCloser(rd)
				clear(w.h)
				w.body = w.body[:0]
				h.ServeHTTP(w, req)
			}
			serve()
			if w.status > 200 || !bytes.Contains(w.body, []byte(`"text":"`)) { // 0: an implicit 200
				b.Fatalf("response %d %s", w.status, w.body)
			}
			b.ReportAllocs()
			for b.Loop() {
				serve()
			}
		})
	}
}
