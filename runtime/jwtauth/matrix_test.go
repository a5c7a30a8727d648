package jwtauth_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"hash"
	"math/big"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
	"github.com/mcpgen/mcpgen/runtime/jwtauth"
)

// signAny signs input with alg (every RSA and PSS size, ES256, EdDSA).
func signAny(t *testing.T, alg string, key any, input string) string {
	t.Helper()
	var h hash.Hash
	var ch crypto.Hash
	switch alg[2:] {
	case "256":
		h, ch = sha256.New(), crypto.SHA256
	case "384":
		h, ch = sha512.New384(), crypto.SHA384
	case "512":
		h, ch = sha512.New(), crypto.SHA512
	}
	var sig []byte
	var err error
	switch {
	case alg == "EdDSA":
		sig = ed25519.Sign(key.(ed25519.PrivateKey), []byte(input))
	case alg[:2] == "RS":
		h.Write([]byte(input))
		sig, err = rsa.SignPKCS1v15(rand.Reader, key.(*rsa.PrivateKey), ch, h.Sum(nil))
	case alg[:2] == "PS":
		h.Write([]byte(input))
		sig, err = rsa.SignPSS(rand.Reader, key.(*rsa.PrivateKey), ch, h.Sum(nil), &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
	case alg == "ES256":
		h.Write([]byte(input))
		var r, s *big.Int
		r, s, err = ecdsa.Sign(rand.Reader, key.(*ecdsa.PrivateKey), h.Sum(nil))
		if err == nil {
			sig = append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(sig)
}

// TestVerifierKeyMatrix crosses every accepted algorithm with every kid a
// token may name (the keys', none, an unknown one) and every signing key,
// against two verifiers: a JWKS of kid'd keys (one restricted by its alg to
// PS256) plus a key without kid, and bare Keys. A token is accepted
// exactly when some key of the verifier matches it (its kid absent or the
// token's, its alg absent or the token's, its kind the algorithm's) and
// signed it.
func TestVerifierKeyMatrix(t *testing.T) {
	k := jwttest.TheKeys(t)
	type key struct {
		kid, alg string
		pub      crypto.PublicKey
	}
	b64 := func(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
	ecBytes, _ := k.EC.PublicKey.Bytes()
	rsaJWK := func(kid, alg string) map[string]string {
		m := map[string]string{"kty": "RSA", "kid": kid, "n": b64(k.RSA.N.Bytes()), "e": b64(big.NewInt(int64(k.RSA.E)).Bytes())}
		if alg != "" {
			m["alg"] = alg
		}
		return m
	}
	set, _ := json.Marshal(map[string]any{"keys": []map[string]string{
		rsaJWK("r", ""), rsaJWK("rp", "PS256"),
		{"kty": "EC", "kid": "e", "crv": "P-256", "x": b64(ecBytes[1:33]), "y": b64(ecBytes[33:])},
		{"kty": "OKP", "crv": "Ed25519", "x": b64(k.Ed.Public().(ed25519.PublicKey))},
	}})
	verifiers := []struct {
		name string
		v    *jwtauth.Verifier
		keys []key
	}{
		{"JWKS", jwttest.NewVerifier(t, jwtauth.Config{Issuer: jwttest.Issuer, JWKS: set, CacheTTL: -1}), []key{
			{"r", "", &k.RSA.PublicKey}, {"rp", "PS256", &k.RSA.PublicKey}, {"e", "", &k.EC.PublicKey}, {"", "", k.Ed.Public()},
		}},
		{"Keys", jwttest.NewVerifier(t, jwtauth.Config{Issuer: jwttest.Issuer, Keys: []crypto.PublicKey{&k.RSA.PublicKey, k.Ed.Public()}, CacheTTL: -1}), []key{
			{"", "", &k.RSA.PublicKey}, {"", "", k.Ed.Public()},
		}},
	}
	kind := func(alg string, pub crypto.PublicKey) bool {
		switch pub.(type) {
		case *rsa.PublicKey:
			return alg[:2] == "RS" || alg[:2] == "PS"
		case *ecdsa.PublicKey:
			return alg == "ES256"
		case ed25519.PublicKey:
			return alg == "EdDSA"
		}
		return false
	}
	equal := func(a, b crypto.PublicKey) bool { return a.(interface{ Equal(crypto.PublicKey) bool }).Equal(b) }
	signers := map[string][]crypto.Signer{
		"RS": {k.RSA, k.Other}, "PS": {k.RSA, k.Other}, "ES": {k.EC}, "Ed": {k.Ed},
	}
	claims := jwttest.Segment(t, jwttest.Claims("alice", ""))
	for _, alg := range []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "EdDSA"} {
		for _, kid := range []string{"r", "rp", "e", "", "zz"} {
			for _, signer := range signers[alg[:2]] {
				hdr := map[string]any{"alg": alg, "typ": "at+jwt"}
				if kid != "" {
					hdr["kid"] = kid
				}
				input := jwttest.Segment(t, hdr) + "." + claims
				token := input + "." + signAny(t, alg, signer, input)
				for _, v := range verifiers {
					want := false
					for _, key := range v.keys {
						if (key.kid == "" || key.kid == kid) && (key.alg == "" || key.alg == alg) && kind(alg, key.pub) && equal(key.pub, signer.Public()) {
							want = true
						}
					}
					_, err := v.v.VerifyToken(context.Background(), token)
					if (err == nil) != want || (err != nil && !errors.Is(err, runtime.ErrInvalidToken)) {
						t.Errorf("%s, %s kid %q signed by %T (other key %v): %v, want accepted %v", v.name, alg, kid, signer, signer == k.Other, err, want)
					}
				}
			}
		}
	}
}
