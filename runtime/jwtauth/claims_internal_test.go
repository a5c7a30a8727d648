package jwtauth

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/authz"
	"github.com/mcpgen/mcpgen/runtime/internal/oauth"
)

// edSigner signs EdDSA tokens with one key, for the claim tests (no RSA:
// fast).
type edSigner struct {
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
}

func newEdSigner(t *testing.T) *edSigner {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &edSigner{pub, priv}
}

func (s *edSigner) sign(t *testing.T, hdr map[string]any, claims map[string]any) string {
	t.Helper()
	b64 := base64.RawURLEncoding.EncodeToString
	h, err := json.Marshal(hdr)
	if err != nil {
		t.Fatal(err)
	}
	c, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	input := b64(h) + "." + b64(c)
	return input + "." + b64(ed25519.Sign(s.priv, []byte(input)))
}

var epoch = time.Unix(1_800_000_000, 0)

// claimsAt are valid claims at epoch: exp an hour on, iat and nbf at epoch.
func claimsAt(edit func(map[string]any)) map[string]any {
	c := map[string]any{"iss": "https://as.test", "sub": "alice", "aud": "https://rs.test/mcp",
		"exp": epoch.Unix() + 3600, "iat": epoch.Unix(), "nbf": epoch.Unix()}
	if edit != nil {
		edit(c)
	}
	return c
}

func (s *edSigner) verifier(t *testing.T, cfg Config, now *time.Time) *Verifier {
	t.Helper()
	cfg.Issuer, cfg.Keys = "https://as.test", []crypto.PublicKey{s.pub}
	if cfg.CacheTTL == 0 {
		cfg.CacheTTL = -1
	}
	v, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v.now = func() time.Time { return *now }
	return v
}

var typed = map[string]any{"alg": "EdDSA", "typ": "at+jwt"}

// TestVerifierTimeEdges: exp is exclusive (refused at exp+leeway, accepted
// a nanosecond before), nbf and iat inclusive (accepted at claim-leeway,
// refused a nanosecond before), for the default leeway (0 means 30 s), a
// set one, and none (< 0); a fractional NumericDate counts its fraction.
func TestVerifierTimeEdges(t *testing.T) {
	s := newEdSigner(t)
	exp := epoch.Add(time.Hour)
	for _, tc := range []struct {
		leeway, effective time.Duration
	}{{0, 30 * time.Second}, {5 * time.Second, 5 * time.Second}, {-1, 0}, {-time.Hour, 0}} {
		var now time.Time
		v := s.verifier(t, Config{Leeway: tc.leeway}, &now)
		token := s.sign(t, typed, claimsAt(nil))
		for _, at := range []struct {
			now time.Time
			ok  bool
			why string
		}{
			{exp.Add(tc.effective - time.Nanosecond), true, "a nanosecond before exp+leeway"},
			{exp.Add(tc.effective), false, "at exp+leeway"},
			{exp.Add(tc.effective + time.Second), false, "a second after exp+leeway"},
			{epoch.Add(-tc.effective), true, "at nbf-leeway"},
			{epoch.Add(-tc.effective - time.Nanosecond), false, "a nanosecond before nbf-leeway"},
		} {
			now = at.now
			_, err := v.VerifyToken(context.Background(), token)
			if (err == nil) != at.ok || (err != nil && !errors.Is(err, authz.ErrInvalidToken)) {
				t.Errorf("leeway %v, %s: %v, want accepted %v", tc.leeway, at.why, err, at.ok)
			}
		}
		// iat alone (no nbf) in the future.
		token = s.sign(t, typed, claimsAt(func(c map[string]any) { delete(c, "nbf"); c["iat"] = epoch.Unix() + 60 }))
		for _, at := range []struct {
			now time.Time
			ok  bool
		}{{epoch.Add(60*time.Second - tc.effective), true}, {epoch.Add(60*time.Second - tc.effective - time.Nanosecond), false}} {
			now = at.now
			if _, err := v.VerifyToken(context.Background(), token); (err == nil) != at.ok {
				t.Errorf("leeway %v, iat 60 s on, at %v: %v, want accepted %v", tc.leeway, at.now.Sub(epoch), err, at.ok)
			}
		}
	}
	var now time.Time
	v := s.verifier(t, Config{Leeway: -1}, &now)
	frac := s.sign(t, typed, claimsAt(func(c map[string]any) { c["exp"] = float64(exp.Unix()) + 0.5 }))
	for _, at := range []struct {
		now time.Time
		ok  bool
	}{{exp.Add(500*time.Millisecond - time.Microsecond), true}, {exp.Add(500*time.Millisecond + time.Microsecond), false}} {
		now = at.now
		if _, err := v.VerifyToken(context.Background(), frac); (err == nil) != at.ok {
			t.Errorf("exp %d.5 at %v: %v, want accepted %v", exp.Unix(), at.now.Sub(exp), err, at.ok)
		}
	}
	now = epoch
	for name, c := range map[string]map[string]any{
		"no exp":         claimsAt(func(c map[string]any) { delete(c, "exp") }),
		"a huge exp":     claimsAt(func(c map[string]any) { c["exp"] = 1e300 }),
		"a negative exp": claimsAt(func(c map[string]any) { c["exp"] = -1e300 }),
	} {
		_, err := v.VerifyToken(context.Background(), s.sign(t, typed, c))
		if want := name == "a huge exp"; (err == nil) != want {
			t.Errorf("%s: %v, want accepted %v", name, err, want)
		}
	}
}

// TestVerifierClaimRules: the issuer exactly; the audience (when set: in
// aud, a string or a list, a trailing slash aside); aud's type checked
// whether or not an Audience is set; scope over scp; scp a string or a list
// of space-separated strings.
func TestVerifierClaimRules(t *testing.T) {
	s := newEdSigner(t)
	now := epoch
	withAud := s.verifier(t, Config{Audience: "https://rs.test/mcp"}, &now)
	noAud := s.verifier(t, Config{}, &now)
	set := func(k string, v any) map[string]any { return claimsAt(func(c map[string]any) { c[k] = v }) }
	drop := func(k string) map[string]any { return claimsAt(func(c map[string]any) { delete(c, k) }) }
	for _, tc := range []struct {
		name           string
		claims         map[string]any
		withAud, noAud bool
		scopes         []string
	}{
		{"valid", claimsAt(nil), true, true, nil},
		{"another issuer", set("iss", "https://as.test/"), false, false, nil},
		{"the issuer in capitals", set("iss", "HTTPS://AS.TEST"), false, false, nil},
		{"no issuer", drop("iss"), false, false, nil},
		{"aud a list holding it", set("aud", []string{"https://x", "https://rs.test/mcp"}), true, true, nil},
		{"aud with a trailing slash", set("aud", "https://rs.test/mcp/"), true, true, nil},
		{"aud another", set("aud", "https://rs.test/mc"), false, true, nil},
		{"aud a list without it", set("aud", []string{"https://x"}), false, true, nil},
		{"no aud", drop("aud"), false, true, nil},
		{"aud a number", set("aud", 7), false, false, nil},
		{"aud a list with a number", set("aud", []any{"https://rs.test/mcp", 7}), false, false, nil},
		{"scope", set("scope", " a  b "), true, true, []string{"a", "b"}},
		{"scope empty", set("scope", ""), true, true, nil},
		{"scope a list", set("scope", []string{"a"}), false, false, nil},
		{"scp a string", set("scp", "a b"), true, true, []string{"a", "b"}},
		{"scp a list", set("scp", []string{"a", "b c"}), true, true, []string{"a", "b", "c"}},
		{"scp a number", set("scp", 1), false, false, nil},
		{"scope over scp", claimsAt(func(c map[string]any) { c["scope"] = "a"; c["scp"] = []string{"b"} }), true, true, []string{"a"}},
		{"the subject a number", set("sub", 1), false, false, nil},
	} {
		token := s.sign(t, typed, tc.claims)
		for _, v := range []struct {
			name string
			v    *Verifier
			ok   bool
		}{{"with Audience", withAud, tc.withAud}, {"without Audience", noAud, tc.noAud}} {
			info, err := v.v.VerifyToken(context.Background(), token)
			if (err == nil) != v.ok || (err != nil && !errors.Is(err, authz.ErrInvalidToken)) {
				t.Errorf("%s, %s: %v, want accepted %v", tc.name, v.name, err, v.ok)
				continue
			}
			if err == nil && !slices.Equal(info.Scopes, tc.scopes) {
				t.Errorf("%s, %s: scopes %q, want %q", tc.name, v.name, info.Scopes, tc.scopes)
			}
			if err == nil && (info.Subject != "alice" || info.Issuer != "https://as.test" || !info.Expiry.Equal(epoch.Add(time.Hour))) {
				t.Errorf("%s, %s: %+v", tc.name, v.name, info)
			}
		}
	}
}

// TestVerifierTypes: the default takes at+jwt however spelled (case,
// "application/"), and nothing else, not even a missing typ; Types lists
// what else is taken, "" for no typ; a typ that is not a non-empty string
// is refused whatever Types says; crit is refused.
func TestVerifierTypes(t *testing.T) {
	s := newEdSigner(t)
	now := epoch
	strict := s.verifier(t, Config{}, &now)
	lenient := s.verifier(t, Config{Types: []string{"at+jwt", "Application/JWT", ""}}, &now)
	for _, tc := range []struct {
		typ             any // nil: none
		strict, lenient bool
	}{
		{"at+jwt", true, true},
		{"AT+JWT", true, true},
		{"application/at+jwt", true, true},
		{"APPLICATION/at+JWT", true, true},
		{"application/x/at+jwt", false, false},
		{"JWT", false, true},
		{"application/jwt", false, true},
		{"jwt+at", false, false},
		{nil, false, true},
		{"", false, false},
		{7, false, false},
		{[]string{"at+jwt"}, false, false},
	} {
		hdr := map[string]any{"alg": "EdDSA"}
		if tc.typ != nil {
			hdr["typ"] = tc.typ
		}
		token := s.sign(t, hdr, claimsAt(nil))
		for _, v := range []struct {
			name string
			v    *Verifier
			ok   bool
		}{{"default", strict, tc.strict}, {"lenient", lenient, tc.lenient}} {
			if _, err := v.v.VerifyToken(context.Background(), token); (err == nil) != v.ok {
				t.Errorf("typ %#v, %s Types: %v, want accepted %v", tc.typ, v.name, err, v.ok)
			}
		}
	}
	crit := s.sign(t, map[string]any{"alg": "EdDSA", "typ": "at+jwt", "crit": []string{"exp"}, "exp": 1}, claimsAt(nil))
	if _, err := lenient.VerifyToken(context.Background(), crit); err == nil {
		t.Error("a token with crit accepted")
	}
}

// TestVerifierTokenBound: a token of exactly oauth.MaxTokenBytes is
// verified, one byte more refused unread.
func TestVerifierTokenBound(t *testing.T) {
	s := newEdSigner(t)
	now := epoch
	v := s.verifier(t, Config{}, &now)
	found := map[int]string{}
	build := func(kid, pad int) string {
		hdr := map[string]any{"alg": "EdDSA", "typ": "at+jwt", "kid": strings.Repeat("k", kid)}
		return s.sign(t, hdr, claimsAt(func(c map[string]any) { c["pad"] = strings.Repeat("p", pad) }))
	}
	for kid := range 4 {
		// Each byte of pad is 4/3 characters: aim near, then step.
		guess := 12000 + (oauth.MaxTokenBytes-len(build(kid, 12000)))*3/4
		for pad := guess - 4; pad <= guess+4; pad++ {
			if token := build(kid, pad); len(token) == oauth.MaxTokenBytes || len(token) == oauth.MaxTokenBytes+1 {
				found[len(token)] = token
			}
		}
	}
	if len(found) != 2 {
		t.Fatalf("no tokens of %d and %d bytes built", oauth.MaxTokenBytes, oauth.MaxTokenBytes+1)
	}
	if _, err := v.VerifyToken(context.Background(), found[oauth.MaxTokenBytes]); err != nil {
		t.Errorf("a token of %d bytes: %v", oauth.MaxTokenBytes, err)
	}
	if _, err := v.VerifyToken(context.Background(), found[oauth.MaxTokenBytes+1]); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("a token of %d bytes: %v, want too long", oauth.MaxTokenBytes+1, err)
	}
}

// TestVerifierCacheEdges: a verified token is remembered for CacheTTL
// (0: 5 minutes), never past exp+leeway; a nanosecond before the end it is
// the same identity, at the end it is verified again.
func TestVerifierCacheEdges(t *testing.T) {
	s := newEdSigner(t)
	for _, tc := range []struct {
		name    string
		ttl     time.Duration
		expIn   time.Duration // exp after epoch
		remains time.Duration // how long it is remembered
	}{
		{"default", 0, time.Hour, 5 * time.Minute},
		{"a set TTL", 2 * time.Minute, time.Hour, 2 * time.Minute},
		{"exp first", 10 * time.Minute, 4 * time.Minute, 4*time.Minute + 30*time.Second},
	} {
		now := epoch
		cfg := Config{CacheTTL: tc.ttl}
		if tc.ttl == 0 {
			cfg.CacheTTL = 0
		}
		cfg.Issuer, cfg.Keys = "https://as.test", []crypto.PublicKey{s.pub}
		v, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		v.now = func() time.Time { return now }
		token := s.sign(t, typed, claimsAt(func(c map[string]any) { c["exp"] = epoch.Add(tc.expIn).Unix() }))
		first, err := v.VerifyToken(context.Background(), token)
		if err != nil {
			t.Fatal(err)
		}
		now = epoch.Add(tc.remains - time.Nanosecond)
		if again, err := v.VerifyToken(context.Background(), token); err != nil || again != first {
			t.Errorf("%s: a nanosecond before %v: not remembered (%v)", tc.name, tc.remains, err)
		}
		now = epoch.Add(tc.remains)
		if again, _ := v.VerifyToken(context.Background(), token); again == first {
			t.Errorf("%s: remembered at %v", tc.name, tc.remains)
		}
	}
}
