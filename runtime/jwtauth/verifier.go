// Package jwtauth verifies JWT access tokens (RFC 9068 profile of RFC 7519)
// signed with an asymmetric key (RFC 7515 JWS compact form), with keys given
// directly or fetched from a JSON Web Key Set. Its Verifier is a
// runtime.TokenVerifier: put it in runtime.AuthConfig.Verifier.
//
// The JOSE parsing and the signature check are go-jose's
// (github.com/go-jose/go-jose/v4), where the whole ecosystem reviews them;
// this package is the policy on top: the algorithms accepted (never "none"
// nor an HMAC: a server that accepts HS256 with an RSA public key as the
// secret accepts forged tokens), the keys and their sizes, and the claims.
// go-jose is imported here only, never by package runtime.
package jwtauth

import (
	"bytes"
	"context"
	"crypto"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/mcpgen/mcpgen/runtime/authz"
	"github.com/mcpgen/mcpgen/runtime/internal/oauth"
	"github.com/mcpgen/mcpgen/runtime/internal/safetext"
)

// Config configures New. Keys come from Keys, JWKS and
// JWKSURL together; at least one must give a key.
type Config struct {
	// Issuer is the iss every token must carry (the authorization server's
	// issuer identifier). Required.
	Issuer string
	// Audience, when set, must be in every token's aud. The resource
	// server (runtime.WithAuthorization) checks its own Resource anyway;
	// set it when you use the verifier on its own.
	Audience string

	// Keys are public keys given directly (*rsa.PublicKey of at least 2048
	// bits, *ecdsa.PublicKey on P-256, P-384 or P-521, ed25519.PublicKey);
	// they verify tokens whatever their kid.
	Keys []crypto.PublicKey
	// JWKS is a JSON Web Key Set document (RFC 7517 §5) given directly.
	JWKS []byte
	// JWKSURL is where the authorization server publishes its key set (its
	// metadata's jwks_uri). It is fetched at the first token, kept for
	// JWKSRefresh, and fetched again early, at most once a minute, when a
	// token names a kid it does not hold (the server rotated its keys).
	JWKSURL string
	// HTTPClient fetches JWKSURL; nil uses a client with a 10s timeout.
	HTTPClient *http.Client
	// JWKSRefresh is how long a fetched key set is used (default 1h).
	JWKSRefresh time.Duration

	// Types are the typ header values accepted. The default is RFC 9068
	// §4's "at+jwt" (also written "application/at+jwt"), which an identity
	// provider puts in access tokens only, so that an ID token or another
	// JWT it signed cannot be passed off as one. For a provider that issues
	// access tokens typed "JWT", or without typ, list what it sends, with
	// "" for no typ: []string{"at+jwt", "JWT", ""}. Compared as RFC 7515
	// §4.1.9 asks: ignoring case and an "application/" prefix.
	Types []string

	// Leeway is the clock skew allowed when checking exp, nbf and iat
	// (default 30s; < 0 means none).
	Leeway time.Duration

	// CacheTTL is how long a verified token is remembered, so that the
	// requests of a client that sends the same token again skip the
	// signature check (default 5 minutes, never beyond the token's exp;
	// < 0 verifies every time). A key removed from the key set stops
	// verifying new tokens at once, and remembered ones within CacheTTL.
	CacheTTL time.Duration
}

const (
	defaultLeeway      = 30 * time.Second
	defaultJWKSRefresh = time.Hour
	minJWKSRefetch     = time.Minute // between fetches for an unknown kid
	defaultCacheTTL    = 5 * time.Minute
	maxJWKSBytes       = 1 << 20
)

// Verifier verifies JWT access tokens: the signature (RS256/384/512,
// PS256/384/512, ES256/384/512, EdDSA with Ed25519; never "none" nor an
// HMAC), the typ header (at+jwt unless Config.Types says otherwise), exp
// (required) and nbf with a small leeway, iat not in the future,
// iss, and aud when Config.Audience is set. Scopes come from the scope
// claim (space-separated) or scp (a string or a list). Safe for concurrent
// use.
type Verifier struct {
	cfg    Config
	static []*jwk // from Keys and JWKS
	client *http.Client
	now    func() time.Time // time.Now
	cache  tokenCache

	fetchMu    sync.Mutex // one JWKS fetch at a time
	mu         sync.Mutex
	fetched    []*jwk    // from JWKSURL
	fetchAt    time.Time // when fetched was fetched (or last tried)
	tried      bool      // a fetch was tried
	kidFetchAt time.Time // the last fetch made for an unknown kid
	lastErr    error     // of the last fetch
}

var _ authz.TokenVerifier = (*Verifier)(nil)

// New returns a verifier for cfg, or an error when cfg has no
// issuer, no key source, or a key it cannot use.
func New(cfg Config) (*Verifier, error) {
	if cfg.Issuer == "" {
		return nil, errors.New("jwtauth.Config.Issuer is required")
	}
	if len(cfg.Keys) == 0 && cfg.JWKS == nil && cfg.JWKSURL == "" {
		return nil, errors.New("jwtauth.Config needs keys: Keys, JWKS or JWKSURL")
	}
	v := &Verifier{cfg: cfg, client: cfg.HTTPClient, now: time.Now}
	if v.client == nil {
		v.client = &http.Client{Timeout: 10 * time.Second}
	}
	if v.cfg.Leeway == 0 {
		v.cfg.Leeway = defaultLeeway
	}
	v.cfg.Leeway = max(v.cfg.Leeway, 0)
	if v.cfg.JWKSRefresh <= 0 {
		v.cfg.JWKSRefresh = defaultJWKSRefresh
	}
	if v.cfg.CacheTTL == 0 {
		v.cfg.CacheTTL = defaultCacheTTL
	}
	if v.cfg.Types == nil {
		v.cfg.Types = []string{accessTokenType}
	}
	v.cfg.Types = slices.Clone(v.cfg.Types)
	for i, t := range v.cfg.Types {
		v.cfg.Types[i] = mediaType(t)
	}
	for i, k := range cfg.Keys {
		key, err := newJWK(k, "", "")
		if err != nil {
			return nil, fmt.Errorf("jwtauth.Config.Keys[%d]: %w", i, err)
		}
		v.static = append(v.static, key)
	}
	if cfg.JWKS != nil {
		keys, err := parseJWKS(cfg.JWKS)
		if err != nil {
			return nil, fmt.Errorf("jwtauth.Config.JWKS: %w", err)
		}
		v.static = append(v.static, keys...)
	}
	return v, nil
}

// jwtClaims are the registered claims a verifier checks or returns.
type jwtClaims struct {
	Iss      string          `json:"iss"`
	Sub      string          `json:"sub"`
	Aud      json.RawMessage `json:"aud"`
	Exp      *float64        `json:"exp"`
	Nbf      *float64        `json:"nbf"`
	Iat      *float64        `json:"iat"`
	Scope    json.RawMessage `json:"scope"`
	Scp      json.RawMessage `json:"scp"`
	ClientID string          `json:"client_id"`
	Azp      string          `json:"azp"`
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{authz.ErrInvalidToken}, args...)...)
}

// VerifyToken verifies token and returns its identity. Its errors wrap
// runtime.ErrInvalidToken, except when the key set cannot be fetched.
func (v *Verifier) VerifyToken(ctx context.Context, token string) (*authz.Info, error) {
	if len(token) > oauth.MaxTokenBytes {
		return nil, invalid("the token is too long")
	}
	if v.cfg.CacheTTL < 0 {
		return v.verify(ctx, token)
	}
	now := v.now()
	if info := v.cache.get(token, now); info != nil {
		return info, nil
	}
	info, err := v.verify(ctx, token)
	if err == nil {
		until := now.Add(v.cfg.CacheTTL)
		if exp := info.Expiry.Add(v.cfg.Leeway); exp.Before(until) {
			until = exp
		}
		v.cache.put(token, info, until, now)
	}
	return info, err
}

// verify checks token fully. go-jose parses the compact form and checks
// the signature; around it sits the policy: the canonical encoding only,
// the accepted algorithms, no crit, the key that may sign, the claims.
func (v *Verifier) verify(ctx context.Context, token string) (*authz.Info, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, invalid("not a JWT in compact form (header.payload.signature)")
	}
	// One encoding per token: go-jose's base64 decoding tolerates
	// non-canonical trailing bits, which would make tokens malleable (and
	// a verified-token cache keyed by the string confusable).
	for i, part := range parts {
		if _, err := base64.RawURLEncoding.Strict().DecodeString(part); err != nil {
			return nil, invalid("the %s is not base64url", [...]string{"header", "payload", "signature"}[i])
		}
	}
	jws, err := jose.ParseSignedCompact(token, acceptedAlgorithms)
	if err != nil {
		if bad, ok := errors.AsType[*jose.ErrUnexpectedSignatureAlgorithm](err); ok {
			return nil, invalid("the algorithm %s is not accepted (accepted: RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA)", safetext.Quote(string(bad.Got)))
		}
		return nil, invalid("the header: %v", strings.TrimPrefix(err.Error(), "go-jose/go-jose: "))
	}
	hdr := jws.Signatures[0].Protected
	if _, ok := hdr.ExtraHeaders["crit"]; ok {
		return nil, invalid("the header has crit extensions, which this verifier does not understand")
	}
	if err := v.checkType(hdr.ExtraHeaders[jose.HeaderType]); err != nil {
		return nil, err
	}
	alg := jose.SignatureAlgorithm(hdr.Algorithm)
	// A key set that could not be fetched might hold the token's key: when
	// no key held verifies it, the verifier cannot tell, and says so
	// rather than declare the token invalid.
	keys, fetchErr := v.keys(ctx, hdr.KeyID)
	keys = slices.DeleteFunc(keys, func(k *jwk) bool { return !keyFits(k, alg) })
	if len(keys) == 0 {
		if fetchErr != nil {
			return nil, fetchErr
		}
		return nil, invalid("no %s key for kid %s", alg, safetext.Quote(hdr.KeyID))
	}
	var payload []byte
	for _, k := range keys {
		if payload, err = jws.Verify(k.key); err == nil {
			break
		}
	}
	if err != nil {
		if fetchErr != nil {
			return nil, fetchErr
		}
		return nil, invalid("bad signature")
	}
	// Only now is the payload trusted enough to read.
	var raw map[string]json.RawMessage
	if err := decodeJSON(payload, &raw); err != nil || raw == nil {
		return nil, invalid("the claims are not a JSON object")
	}
	var c jwtClaims
	if err := decodeJSON(payload, &c); err != nil {
		return nil, invalid("the claims: %v", err)
	}
	return v.checkClaims(&c, raw)
}

// accessTokenType is the typ of JWT access tokens (RFC 9068 §2.1).
const accessTokenType = "at+jwt"

// mediaType puts a typ value in the form it is compared in: lower case,
// without the "application/" prefix RFC 7515 §4.1.9 lets a writer omit.
func mediaType(typ string) string {
	typ = strings.ToLower(typ)
	if rest, ok := strings.CutPrefix(typ, "application/"); ok && !strings.Contains(rest, "/") {
		return rest
	}
	return typ
}

// checkType refuses a token whose typ header (typ; nil when absent) is not
// one of Config.Types.
func (v *Verifier) checkType(typ any) error {
	var got string
	if typ != nil {
		s, ok := typ.(string)
		if !ok || s == "" {
			return invalid("the typ header must be a non-empty string")
		}
		got = mediaType(s)
	}
	if slices.Contains(v.cfg.Types, got) {
		return nil
	}
	if typ == nil {
		return invalid("the token has no typ header; JWT access tokens are typed %q (RFC 9068; jwtauth.Config.Types accepts others)", accessTokenType)
	}
	return invalid("the token's typ %s is not accepted (want %q, RFC 9068; jwtauth.Config.Types accepts others)", safetext.Quote(typ.(string)), accessTokenType)
}

// checkClaims checks the time and issuer claims and builds the identity.
func (v *Verifier) checkClaims(c *jwtClaims, raw map[string]json.RawMessage) (*authz.Info, error) {
	now, leeway := v.now(), v.cfg.Leeway
	if c.Exp == nil {
		return nil, invalid("the token has no exp")
	}
	exp := numericDate(*c.Exp)
	if !now.Before(exp.Add(leeway)) {
		return nil, invalid("the token expired at %s", exp.UTC().Format(time.RFC3339))
	}
	if c.Nbf != nil && now.Add(leeway).Before(numericDate(*c.Nbf)) {
		return nil, invalid("the token is not valid before %s", numericDate(*c.Nbf).UTC().Format(time.RFC3339))
	}
	if c.Iat != nil && now.Add(leeway).Before(numericDate(*c.Iat)) {
		return nil, invalid("the token was issued in the future")
	}
	if c.Iss != v.cfg.Issuer {
		return nil, invalid("the issuer %s is not %s", safetext.Quote(c.Iss), safetext.Quote(v.cfg.Issuer))
	}
	aud, ok := stringOrList(c.Aud)
	if !ok {
		return nil, invalid("aud must be a string or a list of strings")
	}
	if v.cfg.Audience != "" && !oauth.AudienceHas(aud, v.cfg.Audience) {
		return nil, invalid("the token is not for %s", safetext.Quote(v.cfg.Audience))
	}
	info := &authz.Info{Subject: c.Sub, Issuer: c.Iss, Audience: aud, ClientID: c.ClientID, Expiry: exp, Claims: raw}
	if info.ClientID == "" {
		info.ClientID = c.Azp
	}
	if c.Scope != nil {
		var s string
		if json.Unmarshal(c.Scope, &s) != nil {
			return nil, invalid("scope must be a space-separated string")
		}
		info.Scopes = strings.Fields(s)
	} else if c.Scp != nil {
		scp, ok := stringOrList(c.Scp)
		if !ok {
			return nil, invalid("scp must be a string or a list of strings")
		}
		for _, s := range scp {
			info.Scopes = append(info.Scopes, strings.Fields(s)...)
		}
	}
	return info, nil
}

// numericDate converts a JWT NumericDate (seconds, possibly fractional).
func numericDate(f float64) time.Time {
	// Absurd dates are clamped to far in the future or the past (a huge
	// negative exp is long expired, not "far in the future").
	switch {
	case math.IsNaN(f) || f > 1e12:
		f = 1e12
	case f < -1e12:
		f = -1e12
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9))
}

// stringOrList reads a claim that is a string or a list of strings
// (absent is an empty list).
func stringOrList(raw json.RawMessage) ([]string, bool) {
	if raw == nil || string(raw) == "null" {
		return nil, true
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, true
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list, true
	}
	return nil, false
}

// decodeJSON decodes one JSON value, and nothing after it, into v.
func decodeJSON(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(v); err != nil {
		if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
			return fmt.Errorf("%s has the wrong type", safetext.Quote(te.Field))
		}
		return errors.New("not a JSON object")
	}
	if d.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// keys returns the keys that may have signed a token naming kid: the
// static ones, then those fetched from JWKSURL (fetching them when
// needed). When the key set cannot be fetched it returns the static ones
// and the error.
func (v *Verifier) keys(ctx context.Context, kid string) ([]*jwk, error) {
	out := matching(v.static, kid)
	if v.cfg.JWKSURL == "" {
		return out, nil
	}
	fetched, err := v.fetchedKeys(ctx, kid)
	return append(out, matching(fetched, kid)...), err
}

// matching returns the keys of set that may verify a token naming kid: a
// key without kid matches any token; a key with one, only its own kid.
func matching(set []*jwk, kid string) []*jwk {
	var out []*jwk
	for _, k := range set {
		if k.kid == "" || k.kid == kid {
			out = append(out, k)
		}
	}
	return out
}
