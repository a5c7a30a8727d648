package jwtauth_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
	"github.com/mcpgen/mcpgen/runtime/jwtauth"
)

// TestTokenVerdicts is the regression table of the audit's adversarial
// token cases (issue 22): each token's verdict, accepted or refused, was
// frozen before the JOSE parsing moved onto go-jose, and must not change.
// A refusal must wrap ErrInvalidToken.
func TestTokenVerdicts(t *testing.T) {
	k := jwttest.TheKeys(t)
	// rsa-ps only for PS256 (its JWK names the algorithm), plus the
	// trusted set and the Ed25519 key without kid.
	psOnly := jwttest.JWKS(t, map[string]crypto.PublicKey{"rsa-ps": &k.RSA.PublicKey})
	psOnly = []byte(strings.Replace(string(psOnly), `"kid":"rsa-ps"`, `"kid":"rsa-ps","alg":"PS256"`, 1))
	trusted := jwttest.NewVerifier(t, jwtauth.Config{
		Issuer: jwttest.Issuer, Audience: jwttest.Resource, JWKS: jwttest.TrustedJWKS(t),
		Keys: []crypto.PublicKey{k.Ed.Public()}, CacheTTL: -1,
	})
	lenient := jwttest.NewVerifier(t, jwtauth.Config{
		Issuer: jwttest.Issuer, JWKS: jwttest.TrustedJWKS(t), CacheTTL: -1, Types: []string{"at+jwt", "application/JWT", ""},
	})
	psVerifier := jwttest.NewVerifier(t, jwtauth.Config{Issuer: jwttest.Issuer, JWKS: psOnly, CacheTTL: -1})

	now := time.Now().Unix()
	claims := func(edit func(c map[string]any)) map[string]any {
		c := jwttest.Claims("alice", "orders:read")
		if edit != nil {
			edit(c)
		}
		return c
	}
	set := func(key string, val any) map[string]any {
		return claims(func(c map[string]any) { c[key] = val })
	}
	drop := func(key string) map[string]any {
		return claims(func(c map[string]any) { delete(c, key) })
	}
	rs := func(c map[string]any) string { return jwttest.Sign(t, "RS256", "rsa-1", k.RSA, c) }
	rsHeader := func(hdr map[string]any, c map[string]any) string { return jwttest.SignHeader(t, hdr, k.RSA, c) }
	typed := func(typ any) string {
		hdr := map[string]any{"alg": "RS256", "kid": "rsa-1"}
		if typ != nil {
			hdr["typ"] = typ
		}
		return rsHeader(hdr, claims(nil))
	}
	valid := rs(claims(nil))
	parts := strings.Split(valid, ".")
	enc := base64.RawURLEncoding.EncodeToString
	// rawSigned signs header and payload given as raw JSON text with the RSA key.
	rawSigned := func(header, payload string) string {
		input := enc([]byte(header)) + "." + enc([]byte(payload))
		return input + "." + jwttest.SignInput(t, "RS256", k.RSA, input)
	}
	// attacker's own Ed25519 key, embedded in the header as jwk.
	_, evil, _ := ed25519.GenerateKey(rand.Reader)
	evilPub := evil.Public().(ed25519.PublicKey)
	ecDER := func() string {
		input := jwttest.Segment(t, map[string]any{"alg": "ES256", "kid": "ec-1", "typ": "at+jwt"}) + "." + jwttest.Segment(t, claims(nil))
		sum := sha256.Sum256([]byte(input))
		der, err := ecdsa.SignASN1(rand.Reader, k.EC, sum[:])
		if err != nil {
			t.Fatal(err)
		}
		return input + "." + enc(der)
	}()
	flipLast := func(s string) string { // a non-canonical last base64 character
		last := s[len(s)-1]
		repl := byte('A')
		if last == 'A' {
			repl = 'B'
		}
		return s[:len(s)-1] + string(repl)
	}
	stdSig := parts[0] + "." + parts[1] + "." + strings.NewReplacer("-", "+", "_", "/").Replace(parts[2])
	jsonSerialization, _ := json.Marshal(map[string]string{"protected": parts[0], "payload": parts[1], "signature": parts[2]})

	for _, tc := range []struct {
		name   string
		v      *jwtauth.Verifier
		token  string
		accept bool
	}{
		// Accepted.
		{"RS256 by kid", trusted, valid, true},
		{"PS256 by kid", trusted, jwttest.Sign(t, "PS256", "rsa-1", k.RSA, claims(nil)), true},
		{"ES256 by kid", trusted, jwttest.Sign(t, "ES256", "ec-1", k.EC, claims(nil)), true},
		{"EdDSA, key without kid", trusted, jwttest.Sign(t, "EdDSA", "", k.Ed, claims(nil)), true},
		{"EdDSA naming any kid, key without kid", trusted, jwttest.Sign(t, "EdDSA", "whatever", k.Ed, claims(nil)), true},
		{"PS256 with a key whose JWK alg is PS256", psVerifier, jwttest.Sign(t, "PS256", "rsa-ps", k.RSA, claims(nil)), true},
		{"expired within leeway", trusted, rs(set("exp", now-5)), true},
		{"nbf within leeway", trusted, rs(set("nbf", now+5)), true},
		{"exp far in the future", trusted, rs(set("exp", 1e300)), true},
		{"fractional exp", trusted, rs(set("exp", float64(now)+3600.5)), true},
		{"no nbf, no iat", trusted, rs(claims(func(c map[string]any) { delete(c, "nbf"); delete(c, "iat") })), true},
		{"aud a list", trusted, rs(set("aud", []string{"https://other.test", jwttest.Resource})), true},
		{"scp a list", trusted, rs(claims(func(c map[string]any) { delete(c, "scope"); c["scp"] = []string{"a"} })), true},
		{"unknown claims", trusted, rs(set("tenant", map[string]any{"id": 7})), true},
		{"alg spelt with JSON escapes", trusted, rawSigned(`{"alg":"RS\u0032\u00356","kid":"rsa-1","typ":"at+jwt"}`, mustJSON(t, claims(nil))), true},
		{"embedded jku ignored", trusted, rsHeader(map[string]any{"alg": "RS256", "kid": "rsa-1", "typ": "at+jwt", "jku": "https://evil.test/jwks"}, claims(nil)), true},

		// typ (RFC 9068 §4): since issue 22 item 6, a decision made after the
		// JOSE switch, at+jwt only by default; Config.Types widens it.
		{"typ application/at+jwt", trusted, typed("application/at+jwt"), true},
		{"typ AT+JWT", trusted, typed("AT+JWT"), true},
		{"no typ", trusted, typed(nil), false},
		{"typ JWT", trusted, typed("JWT"), false},
		{"typ application/jwt", trusted, typed("application/jwt"), false},
		{"typ empty", trusted, typed(""), false},
		{"typ a number", trusted, typed(7), false},
		{"typ at+jwt+x", trusted, typed("at+jwt+x"), false},
		{"typ JWT, JWT allowed", lenient, typed("JWT"), true},
		{"no typ, none allowed", lenient, typed(nil), true},
		{"typ at+jwt, JWT allowed", lenient, typed("at+jwt"), true},
		{"typ dpop+jwt, JWT allowed", lenient, typed("dpop+jwt"), false},

		// Refused: the algorithm.
		{"alg none", trusted, jwttest.SignHeader(t, map[string]any{"alg": "none"}, nil, claims(nil)), false},
		{"alg none with a kid and a signature", trusted, jwttest.SignHeader(t, map[string]any{"alg": "none", "kid": "rsa-1"}, nil, claims(nil)) + parts[2], false},
		{"alg None", trusted, rawSigned(`{"alg":"None","kid":"rsa-1","typ":"at+jwt"}`, mustJSON(t, claims(nil))), false},
		{"alg rs256 (case)", trusted, rawSigned(`{"alg":"rs256","kid":"rsa-1","typ":"at+jwt"}`, mustJSON(t, claims(nil))), false},
		{"alg with a space", trusted, rawSigned(`{"alg":"RS256 ","kid":"rsa-1","typ":"at+jwt"}`, mustJSON(t, claims(nil))), false},
		{"no alg", trusted, rawSigned(`{"kid":"rsa-1","typ":"at+jwt"}`, mustJSON(t, claims(nil))), false},
		{"alg a number", trusted, rawSigned(`{"alg":256,"kid":"rsa-1","typ":"at+jwt"}`, mustJSON(t, claims(nil))), false},
		{"HS256 with the RSA public key as secret", trusted, jwttest.Sign(t, "HS256", "rsa-1", jwttest.PublicDER(t, k.RSA), claims(nil)), false},
		{"HS256 with the Ed25519 key as secret", trusted, jwttest.Sign(t, "HS256", "", []byte(k.Ed.Public().(ed25519.PublicKey)), claims(nil)), false},
		{"ES256 naming an RSA kid", trusted, jwttest.Sign(t, "ES256", "rsa-1", k.EC, claims(nil)), false},
		{"RS256 naming an EC kid", trusted, jwttest.Sign(t, "RS256", "ec-1", k.RSA, claims(nil)), false},
		{"RS256 with a key whose JWK alg is PS256", psVerifier, jwttest.Sign(t, "RS256", "rsa-ps", k.RSA, claims(nil)), false},
		{"ES256 signature in ASN.1", trusted, ecDER, false},
		{"crit header", trusted, rsHeader(map[string]any{"alg": "RS256", "kid": "rsa-1", "typ": "at+jwt", "crit": []string{"exp"}, "exp": 1}, claims(nil)), false},
		{"crit b64 false", trusted, rsHeader(map[string]any{"alg": "RS256", "kid": "rsa-1", "typ": "at+jwt", "crit": []string{"b64"}, "b64": false}, claims(nil)), false},
		{"crit empty list", trusted, rsHeader(map[string]any{"alg": "RS256", "kid": "rsa-1", "typ": "at+jwt", "crit": []string{}}, claims(nil)), false},
		{"embedded jwk of the attacker", trusted, jwttest.SignHeader(t, map[string]any{"alg": "EdDSA", "kid": "evil", "jwk": map[string]string{"kty": "OKP", "crv": "Ed25519", "x": enc(evilPub)}}, evil, claims(nil)), false},

		// Refused: the signature and the encoding.
		{"signed by an unknown key", trusted, jwttest.Sign(t, "RS256", "rsa-1", k.Other, claims(nil)), false},
		{"unknown kid", trusted, jwttest.Sign(t, "RS256", "rsa-9", k.RSA, claims(nil)), false},
		{"no kid, only keys with kids", trusted, jwttest.Sign(t, "RS256", "", k.RSA, claims(nil)), false},
		{"payload swapped", trusted, parts[0] + "." + jwttest.Segment(t, set("sub", "mallory")) + "." + parts[2], false},
		{"header swapped", trusted, jwttest.Segment(t, map[string]any{"alg": "RS256", "kid": "rsa-1"}) + "." + parts[1] + "." + parts[2], false},
		{"empty signature", trusted, parts[0] + "." + parts[1] + ".", false},
		{"signature truncated", trusted, parts[0] + "." + parts[1] + "." + parts[2][:len(parts[2])-4], false},
		{"signature non-canonical base64", trusted, parts[0] + "." + parts[1] + "." + flipLast(parts[2]), false},
		{"padded signature", trusted, valid + "=", false},
		{"padded header", trusted, parts[0] + "=." + parts[1] + "." + parts[2], false},
		{"standard base64 signature", trusted, stdSig, stdSig == valid},
		{"two parts", trusted, parts[0] + "." + parts[1], false},
		{"four parts", trusted, valid + ".x", false},
		{"five parts (JWE form)", trusted, parts[0] + ".." + parts[1] + "." + parts[2] + ".x", false},
		{"JWS JSON serialization", trusted, string(jsonSerialization), false},
		{"whitespace inside", trusted, parts[0] + ". " + parts[1] + "." + parts[2], false},
		{"header not JSON", trusted, enc([]byte("{alg")) + "." + parts[1] + "." + parts[2], false},
		{"header a list", trusted, rawSigned(`["RS256"]`, mustJSON(t, claims(nil))), false},
		{"too long", trusted, strings.Repeat("a", 17<<10), false},
		{"empty", trusted, "", false},
		{"dots", trusted, "..", false},

		// Refused: the claims (validly signed).
		{"expired", trusted, rs(set("exp", now-120)), false},
		{"no exp", trusted, rs(drop("exp")), false},
		{"exp null", trusted, rs(set("exp", nil)), false},
		{"exp a string", trusted, rs(set("exp", "tomorrow")), false},
		{"exp negative", trusted, rs(set("exp", -1e300)), false},
		{"not yet valid", trusted, rs(set("nbf", now+600)), false},
		{"issued in the future", trusted, rs(set("iat", now+600)), false},
		{"other issuer", trusted, rs(set("iss", "https://evil.test")), false},
		{"issuer with a trailing slash", trusted, rs(set("iss", jwttest.Issuer+"/")), false},
		{"no issuer", trusted, rs(drop("iss")), false},
		{"other audience", trusted, rs(set("aud", "https://other.test/mcp")), false},
		{"no audience", trusted, rs(drop("aud")), false},
		{"aud a number", trusted, rs(set("aud", 7)), false},
		{"aud a list with a number", trusted, rs(set("aud", []any{jwttest.Resource, 7})), false},
		{"scope a list", trusted, rs(set("scope", []string{"a"})), false},
		{"scp a number", trusted, rs(claims(func(c map[string]any) { delete(c, "scope"); c["scp"] = 7 })), false},
		{"sub a number", trusted, rs(set("sub", 7)), false},
		{"payload null", trusted, rs(nil), false},
		{"payload a list", trusted, rawSigned(`{"alg":"RS256","kid":"rsa-1","typ":"at+jwt"}`, `[1]`), false},
		{"payload with trailing data", trusted, rawSigned(`{"alg":"RS256","kid":"rsa-1","typ":"at+jwt"}`, mustJSON(t, claims(nil))+`{}`), false},
		{"payload not JSON", trusted, rawSigned(`{"alg":"RS256","kid":"rsa-1","typ":"at+jwt"}`, `hello`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info, err := tc.v.VerifyToken(context.Background(), tc.token)
			switch {
			case tc.accept && err != nil:
				t.Errorf("refused, want accepted: %v", err)
			case !tc.accept && err == nil:
				t.Errorf("accepted, want refused: %+v", info)
			case !tc.accept && !errors.Is(err, runtime.ErrInvalidToken):
				t.Errorf("error %v does not wrap ErrInvalidToken", err)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
