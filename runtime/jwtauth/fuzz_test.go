package jwtauth_test

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
	"github.com/mcpgen/mcpgen/runtime/jwtauth"
)

// FuzzVerifyToken feeds the JWT verifier any string. It must never panic,
// must refuse with ErrInvalidToken, and may accept only the one token the
// fuzzer's key really signed (the compact form has a single encoding of
// each token, so any other string that verifies would be a forgery).
func FuzzVerifyToken(f *testing.F) {
	key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)) // fixed: the corpus stays meaningful
	c := map[string]any{"iss": jwttest.Issuer, "sub": "alice", "aud": jwttest.Resource, "exp": 4102444800, "scope": "a b"}
	valid := jwttest.Sign(f, "EdDSA", "k", key, c)
	v := jwttest.NewVerifier(f, jwtauth.Config{Issuer: jwttest.Issuer, Keys: []crypto.PublicKey{key.Public()}, CacheTTL: -1})
	parts := strings.Split(valid, ".")
	for _, seed := range []string{
		valid,
		parts[0] + "." + parts[1] + ".",
		jwttest.SignHeader(f, map[string]any{"alg": "none"}, nil, c),
		jwttest.Sign(f, "HS256", "k", []byte(key.Public().(ed25519.PublicKey)), c),
		parts[0] + "." + jwttest.Segment(f, map[string]any{"iss": jwttest.Issuer, "sub": "mallory", "exp": 4102444800}) + "." + parts[2],
		"", ".", "..", "a.b.c", strings.Repeat(".", 100),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, token string) {
		info, err := v.VerifyToken(context.Background(), token)
		switch {
		case err == nil && token != valid:
			t.Fatalf("accepted a token the key did not sign: %q → %+v", token, info)
		case err != nil && !errors.Is(err, runtime.ErrInvalidToken):
			t.Fatalf("error not wrapping ErrInvalidToken: %v", err)
		case err == nil && info.Subject != "alice":
			t.Fatalf("identity %+v", info)
		}
	})
}
