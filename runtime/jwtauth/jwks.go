package jwtauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"

	"github.com/go-jose/go-jose/v4"
)

// Keys for Verifier: JSON Web Keys (RFC 7517) and the JWS algorithms
// (RFC 7518 §3, RFC 8037 for EdDSA) that may use them. go-jose parses the
// keys; what this file adds is mcpgen's policy: which kinds, sizes and
// algorithms are accepted, and which key may verify which token.

// jwk is a usable verification key.
type jwk struct {
	kid string // "" matches any token
	alg string // "" allows any algorithm of the key's kind
	key crypto.PublicKey
}

const minRSABits = 2048

// newJWK checks that key is of a kind and size this verifier accepts.
func newJWK(key crypto.PublicKey, kid, alg string) (*jwk, error) {
	switch k := key.(type) {
	case *rsa.PublicKey:
		if k.N.BitLen() < minRSABits {
			return nil, fmt.Errorf("an RSA key of %d bits is too short (at least %d)", k.N.BitLen(), minRSABits)
		}
		if k.E < 3 || k.E%2 == 0 {
			return nil, errors.New("bad RSA exponent")
		}
	case *ecdsa.PublicKey:
		if curveBits(k.Curve) == 0 {
			return nil, errors.New("an ECDSA key must be on P-256, P-384 or P-521")
		}
	case ed25519.PublicKey:
		if len(k) != ed25519.PublicKeySize {
			return nil, errors.New("an Ed25519 key must be 32 bytes")
		}
	default:
		return nil, fmt.Errorf("keys of type %T are not supported (RSA, ECDSA or Ed25519)", key)
	}
	if alg != "" {
		if _, ok := jwsAlgorithms[jose.SignatureAlgorithm(alg)]; !ok {
			return nil, fmt.Errorf("the algorithm %q is not accepted", alg)
		}
	}
	return &jwk{kid: kid, alg: alg, key: key}, nil
}

func curveBits(c elliptic.Curve) int {
	switch c {
	case elliptic.P256():
		return 256
	case elliptic.P384():
		return 384
	case elliptic.P521():
		return 521
	}
	return 0
}

// parseJWKS reads a key set. Keys not for signatures (use other than
// "sig") or of a kind this verifier does not know are skipped, as RFC 7517
// §5 asks; a set with no usable key is an error. go-jose parses each key
// (and checks an EC point is on its curve); newJWK applies our policy.
func parseJWKS(doc []byte) ([]*jwk, error) {
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(doc, &set); err != nil {
		return nil, fmt.Errorf("not a JWK set: %v", err)
	}
	var keys []*jwk
	var skipped []string
	for i, raw := range set.Keys {
		var j jose.JSONWebKey
		if err := j.UnmarshalJSON(raw); err != nil {
			skipped = append(skipped, fmt.Sprintf("key %d: %v", i, err))
			continue
		}
		if j.Use != "" && j.Use != "sig" {
			continue
		}
		if !j.IsPublic() {
			// A published set holds public keys; a private or symmetric
			// one there is a mistake we will not build on.
			skipped = append(skipped, fmt.Sprintf("key %d (kid %q): not a public key", i, j.KeyID))
			continue
		}
		k, err := newJWK(j.Key, j.KeyID, j.Algorithm)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("key %d (kid %q): %v", i, j.KeyID, err))
			continue
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("no usable signing key in the set %v", skipped)
	}
	return keys, nil
}

// fetchedKeys returns the key set of JWKSURL, fetching it when it is older
// than JWKSRefresh, or when it has no key for kid (a key rotation) and no
// fetch was made for that reason in the last minute (so that tokens with
// made-up kids cannot make this server hammer the authorization server).
// A failed fetch keeps the keys held.
func (v *Verifier) fetchedKeys(ctx context.Context, kid string) ([]*jwk, error) {
	now := v.now()
	v.mu.Lock()
	keys, at, lastErr := v.fetched, v.fetchAt, v.lastErr
	fresh := v.tried && now.Sub(at) < v.cfg.JWKSRefresh
	if fresh && len(matching(keys, kid)) == 0 && now.Sub(v.kidFetchAt) >= minJWKSRefetch {
		fresh, v.kidFetchAt = false, now
	}
	v.mu.Unlock()
	if fresh {
		if keys == nil {
			return nil, fmt.Errorf("the key set %s could not be fetched: %w", v.cfg.JWKSURL, lastErr)
		}
		return keys, nil
	}
	v.fetchMu.Lock()
	defer v.fetchMu.Unlock()
	v.mu.Lock()
	if v.fetchAt != at { // another request fetched meanwhile
		keys, lastErr = v.fetched, v.lastErr
		v.mu.Unlock()
		if keys == nil {
			return nil, fmt.Errorf("the key set %s could not be fetched: %w", v.cfg.JWKSURL, lastErr)
		}
		return keys, nil
	}
	v.mu.Unlock()
	got, err := v.fetchJWKS(ctx)
	v.mu.Lock()
	defer v.mu.Unlock()
	v.fetchAt, v.tried, v.lastErr = v.now(), true, err
	if err == nil {
		v.fetched = got
	} else if v.fetched != nil {
		// Keep the keys held, and try again in a minute, not an hour.
		v.fetchAt = v.fetchAt.Add(minJWKSRefetch - v.cfg.JWKSRefresh)
	}
	if v.fetched == nil {
		return nil, fmt.Errorf("the key set %s could not be fetched: %w", v.cfg.JWKSURL, err)
	}
	return v.fetched, nil
}

func (v *Verifier) fetchJWKS(ctx context.Context) ([]*jwk, error) {
	req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodGet, v.cfg.JWKSURL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json, application/jwk-set+json")
	resp, err := v.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKSBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxJWKSBytes {
		return nil, errors.New("the key set is over 1 MiB")
	}
	return parseJWKS(body)
}

// jwsAlgorithms are the accepted algorithms, each with the kind of key it
// uses (go-jose verifies the signature). Not here, so refused: "none" and
// the HMACs (HS256…), which a resource server holding only public keys has
// no business accepting.
var jwsAlgorithms = map[jose.SignatureAlgorithm]func(crypto.PublicKey) bool{
	jose.RS256: isRSA, jose.RS384: isRSA, jose.RS512: isRSA,
	jose.PS256: isRSA, jose.PS384: isRSA, jose.PS512: isRSA,
	jose.ES256: onCurve(elliptic.P256()),
	jose.ES384: onCurve(elliptic.P384()),
	jose.ES512: onCurve(elliptic.P521()),
	jose.EdDSA: isEd25519,
}

// acceptedAlgorithms lists jwsAlgorithms for go-jose, which refuses any
// other before looking further.
var acceptedAlgorithms = slices.Sorted(maps.Keys(jwsAlgorithms))

// keyFits reports whether k may verify a token of algorithm alg: the key
// is of the algorithm's kind, and its JWK names no other algorithm.
func keyFits(k *jwk, alg jose.SignatureAlgorithm) bool {
	kind, ok := jwsAlgorithms[alg]
	return ok && (k.alg == "" || k.alg == string(alg)) && kind(k.key)
}

func isRSA(key crypto.PublicKey) bool { _, ok := key.(*rsa.PublicKey); return ok }

func isEd25519(key crypto.PublicKey) bool { _, ok := key.(ed25519.PublicKey); return ok }

func onCurve(curve elliptic.Curve) func(crypto.PublicKey) bool {
	return func(key crypto.PublicKey) bool {
		k, ok := key.(*ecdsa.PublicKey)
		return ok && k.Curve == curve
	}
}
