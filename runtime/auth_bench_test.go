package runtime_test

import (
	"bytes"
	"context"
	"crypto"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// The cost of resource-server mode: verifying one token (each time, or
// remembered from an earlier request), and one tools/call through the HTTP
// handler without authorization and with a token of each algorithm (the
// client sends the same token each time, as clients do).

func BenchmarkJWTVerify(b *testing.B) {
	t := b
	k := theKeys(t)
	set := jwks(t, map[string]crypto.PublicKey{"rsa-1": &k.rsa.PublicKey, "ec-1": &k.ec.PublicKey, "ed-1": k.ed.Public()})
	for _, cache := range []struct {
		name string
		ttl  time.Duration
	}{{"uncached", -1}, {"cached", 0}} {
		v := newVerifier(b, runtime.JWTConfig{Issuer: testIssuer, JWKS: set, CacheTTL: cache.ttl})
		for _, tc := range []struct {
			alg, kid string
			key      any
		}{{"RS256", "rsa-1", k.rsa}, {"ES256", "ec-1", k.ec}, {"EdDSA", "ed-1", k.ed}} {
			token := sign(t, tc.alg, tc.kid, tc.key, claims("alice", "mcp:access orders:write"))
			b.Run(cache.name+"/"+tc.alg, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := v.VerifyToken(context.Background(), token); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkToolsCallHTTPHandlerAuth(b *testing.B) {
	t := b
	k := theKeys(t)
	cfg := authConfig(t)
	cfg.Verifier = newVerifier(t, runtime.JWTConfig{Issuer: testIssuer,
		JWKS: jwks(t, map[string]crypto.PublicKey{"rsa-1": &k.rsa.PublicKey, "ec-1": &k.ec.PublicKey, "ed-1": k.ed.Public()})})
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami"}}`)
	for _, tc := range []struct {
		name, alg, kid string
		key            any
	}{{"none", "", "", nil}, {"RS256", "RS256", "rsa-1", k.rsa}, {"ES256", "ES256", "ec-1", k.ec}, {"EdDSA", "EdDSA", "ed-1", k.ed}} {
		b.Run(tc.name, func(b *testing.B) {
			var h http.Handler
			var auth string
			if tc.alg == "" {
				h = authServer().HTTPHandler()
			} else {
				h = authServer().HTTPHandler(runtime.WithAuthorization(cfg))
				auth = "Bearer " + sign(t, tc.alg, tc.kid, tc.key, claims("alice", "mcp:access"))
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
