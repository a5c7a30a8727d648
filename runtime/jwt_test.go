package runtime_test

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// verifierWithKeys trusts the test keys: RSA and EC by kid through a JWKS
// document, Ed25519 given directly.
func verifierWithKeys(t *testing.T, audience string) *runtime.JWTVerifier {
	t.Helper()
	return newVerifier(t, runtime.JWTConfig{
		Issuer:   testIssuer,
		Audience: audience,
		JWKS:     trustedJWKS(t),
		Keys:     []crypto.PublicKey{theKeys(t).ed.Public()},
	})
}

func TestJWTVerifierAccepts(t *testing.T) {
	k := theKeys(t)
	v := verifierWithKeys(t, testResource)
	for _, tc := range []struct {
		name  string
		token string
	}{
		{"RS256", sign(t, "RS256", "rsa-1", k.rsa, claims("alice", "orders:read orders:write"))},
		{"PS256", sign(t, "PS256", "rsa-1", k.rsa, claims("alice", "orders:read orders:write"))},
		{"ES256", sign(t, "ES256", "ec-1", k.ec, claims("alice", "orders:read orders:write"))},
		{"EdDSA without kid", sign(t, "EdDSA", "", k.ed, claims("alice", "orders:read orders:write"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info, err := v.VerifyToken(context.Background(), tc.token)
			if err != nil {
				t.Fatal(err)
			}
			if info.Subject != "alice" || info.Issuer != testIssuer || info.ClientID != "test-client" ||
				strings.Join(info.Scopes, " ") != "orders:read orders:write" || strings.Join(info.Audience, " ") != testResource {
				t.Errorf("identity %+v", info)
			}
			if !info.HasScope("orders:write") || info.HasScope("orders") {
				t.Errorf("HasScope wrong for %v", info.Scopes)
			}
			if string(info.Claims["sub"]) != `"alice"` || info.Expiry.IsZero() {
				t.Errorf("claims %s, expiry %v", info.Claims, info.Expiry)
			}
		})
	}
}

func TestJWTVerifierScopeClaims(t *testing.T) {
	k := theKeys(t)
	v := verifierWithKeys(t, "")
	c := claims("alice", "")
	delete(c, "scope")
	c["scp"] = []string{"a", "b c"}
	c["aud"] = []string{"https://other.test", testResource}
	info, err := v.VerifyToken(context.Background(), sign(t, "RS256", "rsa-1", k.rsa, c))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(info.Scopes, ",") != "a,b,c" || len(info.Audience) != 2 {
		t.Errorf("scopes %q audience %q", info.Scopes, info.Audience)
	}
}

// TestJWTVerifierRefuses: every token here must be refused with an error
// wrapping ErrInvalidToken that says why.
func TestJWTVerifierRefuses(t *testing.T) {
	k := theKeys(t)
	v := verifierWithKeys(t, testResource)
	good := claims("alice", "orders:read")
	with := func(key string, val any) map[string]any {
		c := claims("alice", "orders:read")
		if val == nil {
			delete(c, key)
		} else {
			c[key] = val
		}
		return c
	}
	now := time.Now().Unix()
	valid := sign(t, "RS256", "rsa-1", k.rsa, good)
	parts := strings.Split(valid, ".")
	for _, tc := range []struct {
		name, token, why string
	}{
		{"expired", sign(t, "RS256", "rsa-1", k.rsa, with("exp", now-120)), "expired"},
		{"no exp", sign(t, "RS256", "rsa-1", k.rsa, with("exp", nil)), "no exp"},
		{"not yet valid", sign(t, "RS256", "rsa-1", k.rsa, with("nbf", now+600)), "not valid before"},
		{"issued in the future", sign(t, "RS256", "rsa-1", k.rsa, with("iat", now+600)), "future"},
		{"other issuer", sign(t, "RS256", "rsa-1", k.rsa, with("iss", "https://evil.test")), "issuer"},
		{"other audience", sign(t, "RS256", "rsa-1", k.rsa, with("aud", "https://other.test/mcp")), "not for"},
		{"no audience", sign(t, "RS256", "rsa-1", k.rsa, with("aud", nil)), "not for"},
		{"signed by an unknown key", sign(t, "RS256", "rsa-1", k.other, good), "bad signature"},
		{"unknown kid", sign(t, "RS256", "rsa-9", k.rsa, good), `no RS256 key for kid "rsa-9"`},
		{"payload tampered", parts[0] + "." + segment(t, with("sub", "mallory")) + "." + parts[2], "bad signature"},
		{"alg none", signHeader(t, map[string]any{"alg": "none"}, nil, good), `"none" is not accepted`},
		{"alg none, signature kept", signHeader(t, map[string]any{"alg": "none", "kid": "rsa-1"}, nil, good) + parts[2], `"none" is not accepted`},
		{"HS256 with the RSA public key as secret", sign(t, "HS256", "rsa-1", publicDER(t, k.rsa), good), `"HS256" is not accepted`},
		{"ES256 naming an RSA key's kid", sign(t, "ES256", "rsa-1", k.ec, good), `no ES256 key for kid "rsa-1"`},
		{"EdDSA signed by another Ed25519 key", sign(t, "EdDSA", "", ed25519.NewKeyFromSeed(make([]byte, 32)), good), "bad signature"},
		{"crit header", signHeader(t, map[string]any{"alg": "RS256", "kid": "rsa-1", "crit": []string{"exp"}}, k.rsa, good), "crit"},
		{"two parts", parts[0] + "." + parts[1], "compact form"},
		{"padded signature", valid + "=", "base64url"},
		{"header not JSON", b64([]byte("{alg")) + "." + parts[1] + "." + parts[2], "header"},
		{"scope not a string", sign(t, "RS256", "rsa-1", k.rsa, with("scope", []string{"a"})), "scope"},
		{"exp not a number", sign(t, "RS256", "rsa-1", k.rsa, with("exp", "tomorrow")), `"exp" has the wrong type`},
		{"payload null", sign(t, "RS256", "rsa-1", k.rsa, nil), "the claims are not a JSON object"},
		{"too long", strings.Repeat("a", 17<<10), "too long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info, err := v.VerifyToken(context.Background(), tc.token)
			if err == nil {
				t.Fatalf("accepted: %+v", info)
			}
			if !errors.Is(err, runtime.ErrInvalidToken) || !strings.Contains(err.Error(), tc.why) {
				t.Errorf("error %q, want ErrInvalidToken saying %q", err, tc.why)
			}
		})
	}
}

func TestJWTVerifierLeeway(t *testing.T) {
	k := theKeys(t)
	v := verifierWithKeys(t, testResource)
	c := claims("alice", "")
	c["exp"] = time.Now().Unix() - 5 // expired 5s ago: within the default 30s
	if _, err := v.VerifyToken(context.Background(), sign(t, "RS256", "rsa-1", k.rsa, c)); err != nil {
		t.Errorf("within leeway: %v", err)
	}
	strict := newVerifier(t, runtime.JWTConfig{Issuer: testIssuer, Keys: []crypto.PublicKey{&k.rsa.PublicKey}, Leeway: -1})
	if _, err := strict.VerifyToken(context.Background(), sign(t, "RS256", "", k.rsa, c)); !errors.Is(err, runtime.ErrInvalidToken) {
		t.Errorf("no leeway: %v", err)
	}
}

func TestNewJWTVerifierRefusesBadConfig(t *testing.T) {
	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cfg  runtime.JWTConfig
		want string
	}{
		{"no issuer", runtime.JWTConfig{JWKSURL: "https://auth.test/jwks"}, "Issuer is required"},
		{"no keys", runtime.JWTConfig{Issuer: testIssuer}, "needs keys"},
		{"short RSA key", runtime.JWTConfig{Issuer: testIssuer, Keys: []crypto.PublicKey{&weak.PublicKey}}, "too short"},
		{"bad JWKS", runtime.JWTConfig{Issuer: testIssuer, JWKS: []byte(`{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}`)}, "no usable signing key"},
		{"JWKS of encryption keys only", runtime.JWTConfig{Issuer: testIssuer, JWKS: []byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","use":"enc","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}`)}, "no usable signing key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runtime.NewJWTVerifier(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestJWTVerifierJWKSURL: the key set is fetched once and cached; a token
// with a kid the set lacks makes it fetched again (a key rotation), but not
// twice in a row.
func TestJWTVerifierJWKSURL(t *testing.T) {
	k := theKeys(t)
	var fetches atomic.Int32
	var doc atomic.Value
	doc.Store(jwks(t, map[string]crypto.PublicKey{"rsa-1": &k.rsa.PublicKey}))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write(doc.Load().([]byte))
	}))
	defer ts.Close()
	v := newVerifier(t, runtime.JWTConfig{Issuer: testIssuer, JWKSURL: ts.URL})
	verify := func(token string) error {
		_, err := v.VerifyToken(context.Background(), token)
		return err
	}
	if fetches.Load() != 0 {
		t.Fatal("fetched before the first token")
	}
	for range 3 {
		if err := verify(sign(t, "RS256", "rsa-1", k.rsa, claims("alice", ""))); err != nil {
			t.Fatal(err)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d fetches for three tokens, want 1", n)
	}
	// The authorization server rotates: a new key appears.
	doc.Store(jwks(t, map[string]crypto.PublicKey{"rsa-1": &k.rsa.PublicKey, "ec-2": &k.ec.PublicKey}))
	if err := verify(sign(t, "ES256", "ec-2", k.ec, claims("alice", ""))); err != nil {
		t.Fatalf("token of the new key: %v", err)
	}
	if n := fetches.Load(); n != 2 {
		t.Errorf("%d fetches after a rotation, want 2", n)
	}
	// An unknown kid right after does not make the set fetched again.
	if err := verify(sign(t, "RS256", "rsa-9", k.other, claims("alice", ""))); !errors.Is(err, runtime.ErrInvalidToken) {
		t.Errorf("unknown kid: %v", err)
	}
	if n := fetches.Load(); n != 2 {
		t.Errorf("%d fetches after an unknown kid, want still 2", n)
	}
}

// TestJWTVerifierJWKSUnreachable: when the key set cannot be fetched, the
// token is not declared invalid (the client's token may be fine): the
// error does not wrap ErrInvalidToken, and the server answers 503.
func TestJWTVerifierJWKSUnreachable(t *testing.T) {
	k := theKeys(t)
	v := newVerifier(t, runtime.JWTConfig{Issuer: testIssuer, JWKSURL: unreachableJWKS(t)})
	_, err := v.VerifyToken(context.Background(), sign(t, "RS256", "rsa-1", k.rsa, claims("alice", "")))
	if err == nil || errors.Is(err, runtime.ErrInvalidToken) || !strings.Contains(err.Error(), "could not be fetched") {
		t.Errorf("error %v, want a fetch error that is not ErrInvalidToken", err)
	}
}
