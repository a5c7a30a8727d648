package jwtauth_test

import (
	"context"
	"crypto"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
	"github.com/mcpgen/mcpgen/runtime/jwtauth"
)

// BenchmarkVerify is the cost of verifying one token, each time or
// remembered from an earlier request.
func BenchmarkVerify(b *testing.B) {
	t := b
	k := jwttest.TheKeys(t)
	set := jwttest.JWKS(t, map[string]crypto.PublicKey{"rsa-1": &k.RSA.PublicKey, "ec-1": &k.EC.PublicKey, "ed-1": k.Ed.Public()})
	for _, cache := range []struct {
		name string
		ttl  time.Duration
	}{{"uncached", -1}, {"cached", 0}} {
		v := jwttest.NewVerifier(b, jwtauth.Config{Issuer: jwttest.Issuer, JWKS: set, CacheTTL: cache.ttl})
		for _, tc := range []struct {
			alg, kid string
			key      any
		}{{"RS256", "rsa-1", k.RSA}, {"ES256", "ec-1", k.EC}, {"EdDSA", "ed-1", k.Ed}} {
			token := jwttest.Sign(t, tc.alg, tc.kid, tc.key, jwttest.Claims("alice", "mcp:access orders:write"))
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
