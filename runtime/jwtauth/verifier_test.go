package jwtauth_test

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
	"github.com/mcpgen/mcpgen/runtime/jwtauth"
)

// verifierWithKeys trusts the test keys: RSA and EC by kid through a JWKS
// document, Ed25519 given directly.
func verifierWithKeys(t *testing.T, audience string) *jwtauth.Verifier {
	t.Helper()
	return jwttest.NewVerifier(t, jwtauth.Config{
		Issuer:   jwttest.Issuer,
		Audience: audience,
		JWKS:     jwttest.TrustedJWKS(t),
		Keys:     []crypto.PublicKey{jwttest.TheKeys(t).Ed.Public()},
	})
}

func TestVerifierAccepts(t *testing.T) {
	k := jwttest.TheKeys(t)
	v := verifierWithKeys(t, jwttest.Resource)
	for _, tc := range []struct {
		name  string
		token string
	}{
		{"RS256", jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "orders:read orders:write"))},
		{"PS256", jwttest.Sign(t, "PS256", "rsa-1", k.RSA, jwttest.Claims("alice", "orders:read orders:write"))},
		{"ES256", jwttest.Sign(t, "ES256", "ec-1", k.EC, jwttest.Claims("alice", "orders:read orders:write"))},
		{"EdDSA without kid", jwttest.Sign(t, "EdDSA", "", k.Ed, jwttest.Claims("alice", "orders:read orders:write"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info, err := v.VerifyToken(context.Background(), tc.token)
			if err != nil {
				t.Fatal(err)
			}
			if info.Subject != "alice" || info.Issuer != jwttest.Issuer || info.ClientID != "test-client" ||
				strings.Join(info.Scopes, " ") != "orders:read orders:write" || strings.Join(info.Audience, " ") != jwttest.Resource {
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

func TestVerifierScopeClaims(t *testing.T) {
	k := jwttest.TheKeys(t)
	v := verifierWithKeys(t, "")
	c := jwttest.Claims("alice", "")
	delete(c, "scope")
	c["scp"] = []string{"a", "b c"}
	c["aud"] = []string{"https://other.test", jwttest.Resource}
	info, err := v.VerifyToken(context.Background(), jwttest.Sign(t, "RS256", "rsa-1", k.RSA, c))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(info.Scopes, ",") != "a,b,c" || len(info.Audience) != 2 {
		t.Errorf("scopes %q audience %q", info.Scopes, info.Audience)
	}
}

// TestVerifierRefuses: every token here must be refused with an error
// wrapping ErrInvalidToken that says why.
func TestVerifierRefuses(t *testing.T) {
	k := jwttest.TheKeys(t)
	v := verifierWithKeys(t, jwttest.Resource)
	good := jwttest.Claims("alice", "orders:read")
	with := func(key string, val any) map[string]any {
		c := jwttest.Claims("alice", "orders:read")
		if val == nil {
			delete(c, key)
		} else {
			c[key] = val
		}
		return c
	}
	now := time.Now().Unix()
	valid := jwttest.Sign(t, "RS256", "rsa-1", k.RSA, good)
	parts := strings.Split(valid, ".")
	for _, tc := range []struct {
		name, token, why string
	}{
		{"expired", jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("exp", now-120)), "expired"},
		{"no exp", jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("exp", nil)), "no exp"},
		{"not yet valid", jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("nbf", now+600)), "not valid before"},
		{"issued in the future", jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("iat", now+600)), "future"},
		{"other issuer", jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("iss", "https://evil.test")), "issuer"},
		{"other audience", jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("aud", "https://other.test/mcp")), "not for"},
		{"no audience", jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("aud", nil)), "not for"},
		{"signed by an unknown key", jwttest.Sign(t, "RS256", "rsa-1", k.Other, good), "bad signature"},
		{"unknown kid", jwttest.Sign(t, "RS256", "rsa-9", k.RSA, good), `no RS256 key for kid "rsa-9"`},
		{"payload tampered", parts[0] + "." + jwttest.Segment(t, with("sub", "mallory")) + "." + parts[2], "bad signature"},
		{"alg none", jwttest.SignHeader(t, map[string]any{"alg": "none"}, nil, good), `"none" is not accepted`},
		{"alg none, signature kept", jwttest.SignHeader(t, map[string]any{"alg": "none", "kid": "rsa-1"}, nil, good) + parts[2], `"none" is not accepted`},
		{"HS256 with the RSA public key as secret", jwttest.Sign(t, "HS256", "rsa-1", jwttest.PublicDER(t, k.RSA), good), `"HS256" is not accepted`},
		{"ES256 naming an RSA key's kid", jwttest.Sign(t, "ES256", "rsa-1", k.EC, good), `no ES256 key for kid "rsa-1"`},
		{"EdDSA signed by another Ed25519 key", jwttest.Sign(t, "EdDSA", "", ed25519.NewKeyFromSeed(make([]byte, 32)), good), "bad signature"},
		{"crit header", jwttest.SignHeader(t, map[string]any{"alg": "RS256", "kid": "rsa-1", "crit": []string{"exp"}}, k.RSA, good), "crit"},
		{"typ JWT (an ID token, say)", jwttest.SignHeader(t, map[string]any{"alg": "RS256", "kid": "rsa-1", "typ": "JWT"}, k.RSA, good), `the token's typ "JWT" is not accepted (want "at+jwt"`},
		{"no typ", jwttest.SignHeader(t, map[string]any{"alg": "RS256", "kid": "rsa-1"}, k.RSA, good), "no typ header"},
		{"two parts", parts[0] + "." + parts[1], "compact form"},
		{"padded signature", valid + "=", "base64url"},
		{"signature with non-canonical trailing bits", nonCanonical(t, valid), "base64url"},
		{"header not JSON", base64.RawURLEncoding.EncodeToString([]byte("{alg")) + "." + parts[1] + "." + parts[2], "header"},
		{"scope not a string", jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("scope", []string{"a"})), "scope"},
		{"exp not a number", jwttest.Sign(t, "RS256", "rsa-1", k.RSA, with("exp", "tomorrow")), `"exp" has the wrong type`},
		{"payload null", jwttest.Sign(t, "RS256", "rsa-1", k.RSA, nil), "the claims are not a JSON object"},
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

// nonCanonical is token with its signature's last character changed in
// the bits base64url does not use: the same bytes, another string.
func nonCanonical(t *testing.T, token string) string {
	t.Helper()
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, token[len(token)-1])
	if (len(token[strings.LastIndexByte(token, '.')+1:]))%4 == 0 || last < 0 {
		t.Fatalf("the signature of %q has no unused bits", token)
	}
	other := token[:len(token)-1] + string(alphabet[last^1])
	a, errA := base64.RawURLEncoding.DecodeString(token[strings.LastIndexByte(token, '.')+1:])
	b, errB := base64.RawURLEncoding.DecodeString(other[strings.LastIndexByte(other, '.')+1:])
	if errA != nil || errB != nil || string(a) != string(b) {
		t.Fatalf("not the same signature bytes: %v %v", errA, errB)
	}
	return other
}

// TestVerifierClientID: Info.ClientID is the client_id claim, and azp
// only for a token without one.
func TestVerifierClientID(t *testing.T) {
	k := jwttest.TheKeys(t)
	v := verifierWithKeys(t, jwttest.Resource)
	for _, tc := range []struct {
		clientID, azp, want string
	}{
		{"c1", "a1", "c1"},
		{"c1", "", "c1"},
		{"", "a1", "a1"},
		{"", "", ""},
	} {
		c := jwttest.Claims("alice", "")
		delete(c, "client_id")
		if tc.clientID != "" {
			c["client_id"] = tc.clientID
		}
		if tc.azp != "" {
			c["azp"] = tc.azp
		}
		info, err := v.VerifyToken(context.Background(), jwttest.Sign(t, "RS256", "rsa-1", k.RSA, c))
		if err != nil {
			t.Fatal(err)
		}
		if info.ClientID != tc.want {
			t.Errorf("client_id %q, azp %q: ClientID %q, want %q", tc.clientID, tc.azp, info.ClientID, tc.want)
		}
	}
}

func TestVerifierLeeway(t *testing.T) {
	k := jwttest.TheKeys(t)
	v := verifierWithKeys(t, jwttest.Resource)
	c := jwttest.Claims("alice", "")
	c["exp"] = time.Now().Unix() - 5 // expired 5s ago: within the default 30s
	if _, err := v.VerifyToken(context.Background(), jwttest.Sign(t, "RS256", "rsa-1", k.RSA, c)); err != nil {
		t.Errorf("within leeway: %v", err)
	}
	strict := jwttest.NewVerifier(t, jwtauth.Config{Issuer: jwttest.Issuer, Keys: []crypto.PublicKey{&k.RSA.PublicKey}, Leeway: -1})
	if _, err := strict.VerifyToken(context.Background(), jwttest.Sign(t, "RS256", "", k.RSA, c)); !errors.Is(err, runtime.ErrInvalidToken) {
		t.Errorf("no leeway: %v", err)
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cfg  jwtauth.Config
		want string
	}{
		{"no issuer", jwtauth.Config{JWKSURL: "https://auth.test/jwks"}, "Issuer is required"},
		{"no keys", jwtauth.Config{Issuer: jwttest.Issuer}, "needs keys"},
		{"short RSA key", jwtauth.Config{Issuer: jwttest.Issuer, Keys: []crypto.PublicKey{&weak.PublicKey}}, "too short"},
		{"bad JWKS", jwtauth.Config{Issuer: jwttest.Issuer, JWKS: []byte(`{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}`)}, "no usable signing key"},
		{"JWKS of encryption keys only", jwtauth.Config{Issuer: jwttest.Issuer, JWKS: []byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","use":"enc","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}`)}, "no usable signing key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := jwtauth.New(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestVerifierJWKSURL: the key set is fetched once and cached; a token
// with a kid the set lacks makes it fetched again (a key rotation), but not
// twice in a row.
func TestVerifierJWKSURL(t *testing.T) {
	k := jwttest.TheKeys(t)
	var fetches atomic.Int32
	var doc atomic.Value
	doc.Store(jwttest.JWKS(t, map[string]crypto.PublicKey{"rsa-1": &k.RSA.PublicKey}))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write(doc.Load().([]byte))
	}))
	defer ts.Close()
	v := jwttest.NewVerifier(t, jwtauth.Config{Issuer: jwttest.Issuer, JWKSURL: ts.URL})
	verify := func(token string) error {
		_, err := v.VerifyToken(context.Background(), token)
		return err
	}
	if fetches.Load() != 0 {
		t.Fatal("fetched before the first token")
	}
	for range 3 {
		if err := verify(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", ""))); err != nil {
			t.Fatal(err)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d fetches for three tokens, want 1", n)
	}
	// The authorization server rotates: a new key appears.
	doc.Store(jwttest.JWKS(t, map[string]crypto.PublicKey{"rsa-1": &k.RSA.PublicKey, "ec-2": &k.EC.PublicKey}))
	if err := verify(jwttest.Sign(t, "ES256", "ec-2", k.EC, jwttest.Claims("alice", ""))); err != nil {
		t.Fatalf("token of the new key: %v", err)
	}
	if n := fetches.Load(); n != 2 {
		t.Errorf("%d fetches after a rotation, want 2", n)
	}
	// An unknown kid right after does not make the set fetched again.
	if err := verify(jwttest.Sign(t, "RS256", "rsa-9", k.Other, jwttest.Claims("alice", ""))); !errors.Is(err, runtime.ErrInvalidToken) {
		t.Errorf("unknown kid: %v", err)
	}
	if n := fetches.Load(); n != 2 {
		t.Errorf("%d fetches after an unknown kid, want still 2", n)
	}
}

// TestVerifierJWKSUnreachable: when the key set cannot be fetched, the
// token is not declared invalid (the client's token may be fine): the
// error does not wrap ErrInvalidToken, and the server answers 503.
func TestVerifierJWKSUnreachable(t *testing.T) {
	k := jwttest.TheKeys(t)
	v := jwttest.NewVerifier(t, jwtauth.Config{Issuer: jwttest.Issuer, JWKSURL: jwttest.UnreachableJWKS(t)})
	_, err := v.VerifyToken(context.Background(), jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "")))
	if err == nil || errors.Is(err, runtime.ErrInvalidToken) || !strings.Contains(err.Error(), "could not be fetched") {
		t.Errorf("error %v, want a fetch error that is not ErrInvalidToken", err)
	}
}

// TestVerifierJWKSUnreachableStaticKeys: keys given directly (Keys, or a
// JWKS document) still verify their tokens while JWKSURL cannot be
// fetched.
func TestVerifierJWKSUnreachableStaticKeys(t *testing.T) {
	k := jwttest.TheKeys(t)
	v := jwttest.NewVerifier(t, jwtauth.Config{
		Issuer:  jwttest.Issuer,
		JWKSURL: jwttest.UnreachableJWKS(t),
		JWKS:    jwttest.JWKS(t, map[string]crypto.PublicKey{"rsa-1": &k.RSA.PublicKey}),
		Keys:    []crypto.PublicKey{k.Ed.Public()},
	})
	for name, token := range map[string]string{
		"a key given directly": jwttest.Sign(t, "EdDSA", "", k.Ed, jwttest.Claims("alice", "")),
		"a key of the JWKS":    jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "")),
	} {
		if info, err := v.VerifyToken(context.Background(), token); err != nil || info.Subject != "alice" {
			t.Errorf("a token signed by %s: %+v, %v; want it verified", name, info, err)
		}
	}
}

// TestVerifierJWKSUnreachableBesideKeyWithoutKid: a key given directly
// without a kid may verify any token, but when it does not verify this
// one and the key set cannot be fetched, the verifier cannot tell: the
// token is not declared invalid (the server answers 503, not 401), as for
// a verifier with no direct key. A token the direct key verifies is
// accepted.
func TestVerifierJWKSUnreachableBesideKeyWithoutKid(t *testing.T) {
	k := jwttest.TheKeys(t)
	v := jwttest.NewVerifier(t, jwtauth.Config{
		Issuer:  jwttest.Issuer,
		JWKSURL: jwttest.UnreachableJWKS(t),
		Keys:    []crypto.PublicKey{k.Ed.Public()},
	})
	for name, token := range map[string]string{
		"another algorithm, a kid":   jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "")),
		"another algorithm, no kid":  jwttest.Sign(t, "ES256", "", k.EC, jwttest.Claims("alice", "")),
		"the same algorithm, a kid":  jwttest.Sign(t, "EdDSA", "ed-2", otherEd(t), jwttest.Claims("alice", "")),
		"the same algorithm, no kid": jwttest.Sign(t, "EdDSA", "", otherEd(t), jwttest.Claims("alice", "")),
	} {
		_, err := v.VerifyToken(context.Background(), token)
		if err == nil || errors.Is(err, runtime.ErrInvalidToken) || !strings.Contains(err.Error(), "could not be fetched") {
			t.Errorf("%s: error %v, want a fetch error that is not ErrInvalidToken", name, err)
		}
	}
	if info, err := v.VerifyToken(context.Background(), jwttest.Sign(t, "EdDSA", "", k.Ed, jwttest.Claims("alice", ""))); err != nil || info.Subject != "alice" {
		t.Errorf("a token of the direct key: %+v, %v; want it verified", info, err)
	}
}

func otherEd(t *testing.T) ed25519.PrivateKey {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return priv
}
