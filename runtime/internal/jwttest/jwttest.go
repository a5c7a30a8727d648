// Package jwttest signs test tokens the way an authorization server does
// (RFC 7515 compact form) and publishes test keys as JWK sets, so that the
// tests of package jwtauth and of runtime's HTTP gate check the verifier
// against independent code. For tests only.
package jwttest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/jwtauth"
)

// Keys are the signing keys of the tests, generated at test time.
type Keys struct {
	RSA   *rsa.PrivateKey
	EC    *ecdsa.PrivateKey
	Ed    ed25519.PrivateKey
	Other *rsa.PrivateKey // a key the server does not know
}

var (
	keysOnce sync.Once
	keys     Keys
)

// TheKeys generates the test keys once per test binary (RSA is slow).
func TheKeys(t testing.TB) *Keys {
	t.Helper()
	keysOnce.Do(func() {
		var err error
		if keys.RSA, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
		if keys.Other, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
		if keys.EC, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
			panic(err)
		}
		if _, keys.Ed, err = ed25519.GenerateKey(rand.Reader); err != nil {
			panic(err)
		}
	})
	return &keys
}

// The issuer of the test tokens and the resource (audience) they are for.
const (
	Issuer   = "https://auth.test"
	Resource = "https://mcp.test/mcp"
)

// Claims returns valid claims for subject sub with scopes, expiring in an
// hour; callers change what a case needs.
func Claims(sub string, scopes string) map[string]any {
	now := time.Now().Unix()
	return map[string]any{
		"iss": Issuer, "sub": sub, "aud": Resource,
		"exp": now + 3600, "iat": now, "nbf": now,
		"scope": scopes, "client_id": "test-client",
	}
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// Segment is v as one base64url segment of JSON.
func Segment(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b64(b)
}

// Sign makes a JWS compact token with header {alg, kid (if any), typ}.
func Sign(t testing.TB, alg, kid string, key any, c map[string]any) string {
	t.Helper()
	hdr := map[string]any{"alg": alg, "typ": "at+jwt"}
	if kid != "" {
		hdr["kid"] = kid
	}
	return SignHeader(t, hdr, key, c)
}

// SignHeader signs with the algorithm hdr names, using key.
func SignHeader(t testing.TB, hdr map[string]any, key any, c map[string]any) string {
	t.Helper()
	input := Segment(t, hdr) + "." + Segment(t, c)
	alg, _ := hdr["alg"].(string)
	return input + "." + SignInput(t, alg, key, input)
}

// SignInput is the signature segment of input (header.payload, as
// written) with alg and key: for tokens whose segments a test writes by
// hand.
func SignInput(t testing.TB, alg string, key any, input string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(input))
	var sig []byte
	var err error
	switch alg {
	case "RS256":
		sig, err = rsa.SignPKCS1v15(rand.Reader, key.(*rsa.PrivateKey), crypto.SHA256, sum[:])
	case "PS256":
		sig, err = rsa.SignPSS(rand.Reader, key.(*rsa.PrivateKey), crypto.SHA256, sum[:], &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
	case "ES256":
		var r, s *big.Int
		r, s, err = ecdsa.Sign(rand.Reader, key.(*ecdsa.PrivateKey), sum[:])
		if err == nil {
			sig = append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
		}
	case "EdDSA":
		sig = ed25519.Sign(key.(ed25519.PrivateKey), []byte(input))
	case "HS256":
		m := hmac.New(sha256.New, key.([]byte))
		m.Write([]byte(input))
		sig = m.Sum(nil)
	case "none":
	default:
		t.Fatalf("Sign: algorithm %v", alg)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b64(sig)
}

// JWKS publishes public keys as a JWK set, each with its kid.
func JWKS(t testing.TB, kids map[string]crypto.PublicKey) []byte {
	t.Helper()
	var set []map[string]string
	for kid, k := range kids {
		switch k := k.(type) {
		case *rsa.PublicKey:
			set = append(set, map[string]string{"kty": "RSA", "kid": kid, "use": "sig",
				"n": b64(k.N.Bytes()), "e": b64(big.NewInt(int64(k.E)).Bytes())})
		case *ecdsa.PublicKey:
			b, err := k.Bytes() // 0x04 || X || Y
			if err != nil {
				t.Fatal(err)
			}
			set = append(set, map[string]string{"kty": "EC", "kid": kid, "crv": "P-256", "x": b64(b[1:33]), "y": b64(b[33:])})
		case ed25519.PublicKey:
			set = append(set, map[string]string{"kty": "OKP", "kid": kid, "crv": "Ed25519", "x": b64(k)})
		default:
			t.Fatalf("JWKS: %T", k)
		}
	}
	b, err := json.Marshal(map[string]any{"keys": set})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TrustedJWKS is the key set the tests' verifiers trust by kid: the RSA
// key as rsa-1, the EC key as ec-1.
func TrustedJWKS(t testing.TB) []byte {
	t.Helper()
	k := TheKeys(t)
	return JWKS(t, map[string]crypto.PublicKey{"rsa-1": &k.RSA.PublicKey, "ec-1": &k.EC.PublicKey})
}

// NewVerifier is jwtauth.New for a configuration the test
// means to be valid.
func NewVerifier(t testing.TB, cfg jwtauth.Config) *jwtauth.Verifier {
	t.Helper()
	v, err := jwtauth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// UnreachableJWKS returns the URL of a key set that cannot be fetched:
// every request answers 502. Cleanup closes it.
func UnreachableJWKS(t testing.TB) string {
	t.Helper()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusBadGateway)
	}))
	t.Cleanup(down.Close)
	return down.URL
}

// PublicDER is the RSA public key as an attacker finds it published: the
// "secret" of the HS256 key-confusion attack.
func PublicDER(t testing.TB, k *rsa.PrivateKey) []byte {
	t.Helper()
	b, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
