package runtime_test

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

	"github.com/mcpgen/mcpgen/runtime"
)

// Test keys and tokens: every key is generated at test time, and tokens
// are signed here the way an authorization server signs them (RFC 7515
// compact form), so the verifier is checked against independent code.

type testKeys struct {
	rsa   *rsa.PrivateKey
	ec    *ecdsa.PrivateKey
	ed    ed25519.PrivateKey
	other *rsa.PrivateKey // a key the server does not know
}

var (
	keysOnce sync.Once
	keys     testKeys
)

// theKeys generates the test keys once per test binary (RSA is slow).
func theKeys(t testing.TB) *testKeys {
	t.Helper()
	keysOnce.Do(func() {
		var err error
		if keys.rsa, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
		if keys.other, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
		if keys.ec, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
			panic(err)
		}
		if _, keys.ed, err = ed25519.GenerateKey(rand.Reader); err != nil {
			panic(err)
		}
	})
	return &keys
}

const (
	testIssuer   = "https://auth.test"
	testResource = "https://mcp.test/mcp"
)

// claims returns valid claims for subject sub with scopes, expiring in an
// hour; callers change what a case needs.
func claims(sub string, scopes string) map[string]any {
	now := time.Now().Unix()
	return map[string]any{
		"iss": testIssuer, "sub": sub, "aud": testResource,
		"exp": now + 3600, "iat": now, "nbf": now,
		"scope": scopes, "client_id": "test-client",
	}
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func segment(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b64(b)
}

// sign makes a JWS compact token with header {alg, kid (if any), typ}.
func sign(t testing.TB, alg, kid string, key any, c map[string]any) string {
	t.Helper()
	hdr := map[string]any{"alg": alg, "typ": "at+jwt"}
	if kid != "" {
		hdr["kid"] = kid
	}
	return signHeader(t, hdr, key, c)
}

// signHeader signs with the algorithm hdr names, using key.
func signHeader(t testing.TB, hdr map[string]any, key any, c map[string]any) string {
	t.Helper()
	input := segment(t, hdr) + "." + segment(t, c)
	sum := sha256.Sum256([]byte(input))
	var sig []byte
	var err error
	switch alg := hdr["alg"]; alg {
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
		t.Fatalf("sign: algorithm %v", alg)
	}
	if err != nil {
		t.Fatal(err)
	}
	return input + "." + b64(sig)
}

// jwks publishes public keys as a JWK set, each with its kid.
func jwks(t testing.TB, kids map[string]crypto.PublicKey) []byte {
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
			t.Fatalf("jwks: %T", k)
		}
	}
	b, err := json.Marshal(map[string]any{"keys": set})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// trustedJWKS is the key set the tests' verifiers trust by kid: the RSA
// key as rsa-1, the EC key as ec-1.
func trustedJWKS(t testing.TB) []byte {
	t.Helper()
	k := theKeys(t)
	return jwks(t, map[string]crypto.PublicKey{"rsa-1": &k.rsa.PublicKey, "ec-1": &k.ec.PublicKey})
}

// newVerifier is runtime.NewJWTVerifier for a configuration the test
// means to be valid.
func newVerifier(t testing.TB, cfg runtime.JWTConfig) *runtime.JWTVerifier {
	t.Helper()
	v, err := runtime.NewJWTVerifier(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// unreachableJWKS returns the URL of a key set that cannot be fetched:
// every request answers 502. Cleanup closes it.
func unreachableJWKS(t testing.TB) string {
	t.Helper()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusBadGateway)
	}))
	t.Cleanup(down.Close)
	return down.URL
}

// publicDER is the RSA public key as an attacker finds it published: the
// "secret" of the HS256 key-confusion attack.
func publicDER(t testing.TB, k *rsa.PrivateKey) []byte {
	t.Helper()
	b, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
