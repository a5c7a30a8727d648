package jwtauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math/big"
	"net/http"
)

// Keys for Verifier: JSON Web Keys (RFC 7517) and the JWS algorithms
// (RFC 7518 §3, RFC 8037 for EdDSA) that may use them.

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
		if _, ok := jwsAlgorithms[alg]; !ok {
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

// jwkJSON is a JWK as published.
type jwkJSON struct {
	Kty string `json:"kty"`
	Kid string `json:"kid"`
	Use string `json:"use"`
	Alg string `json:"alg"`
	N   string `json:"n"`
	E   string `json:"e"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
}

// parseJWKS reads a key set. Keys not for signatures (use other than
// "sig") or of a kind this verifier does not know are skipped, as RFC 7517
// §5 asks; a set with no usable key is an error.
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
		var j jwkJSON
		if err := json.Unmarshal(raw, &j); err != nil {
			skipped = append(skipped, fmt.Sprintf("key %d: %v", i, err))
			continue
		}
		if j.Use != "" && j.Use != "sig" {
			continue
		}
		key, err := j.publicKey()
		if err == nil {
			var k *jwk
			if k, err = newJWK(key, j.Kid, j.Alg); err == nil {
				keys = append(keys, k)
				continue
			}
		}
		skipped = append(skipped, fmt.Sprintf("key %d (kid %q): %v", i, j.Kid, err))
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("no usable signing key in the set %v", skipped)
	}
	return keys, nil
}

func (j *jwkJSON) publicKey() (crypto.PublicKey, error) {
	b64 := base64.RawURLEncoding.Strict()
	switch j.Kty {
	case "RSA":
		n, err1 := b64.DecodeString(j.N)
		e, err2 := b64.DecodeString(j.E)
		if err1 != nil || err2 != nil || len(n) == 0 || len(e) == 0 || len(e) > 4 {
			return nil, errors.New("bad RSA n or e")
		}
		exp := new(big.Int).SetBytes(e)
		if exp.Int64() < 3 || exp.Int64()%2 == 0 {
			return nil, errors.New("bad RSA exponent")
		}
		return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(exp.Int64())}, nil
	case "EC":
		var curve elliptic.Curve
		switch j.Crv {
		case "P-256":
			curve = elliptic.P256()
		case "P-384":
			curve = elliptic.P384()
		case "P-521":
			curve = elliptic.P521()
		default:
			return nil, fmt.Errorf("unsupported curve %q", j.Crv)
		}
		size := (curveBits(curve) + 7) / 8
		x, err1 := b64.DecodeString(j.X)
		y, err2 := b64.DecodeString(j.Y)
		if err1 != nil || err2 != nil || len(x) != size || len(y) != size {
			return nil, errors.New("bad EC x or y")
		}
		// The point is checked to be on the curve.
		return ecdsa.ParseUncompressedPublicKey(curve, append(append([]byte{4}, x...), y...))
	case "OKP":
		if j.Crv != "Ed25519" {
			return nil, fmt.Errorf("unsupported curve %q", j.Crv)
		}
		x, err := b64.DecodeString(j.X)
		if err != nil || len(x) != ed25519.PublicKeySize {
			return nil, errors.New("bad Ed25519 x")
		}
		return ed25519.PublicKey(x), nil
	}
	return nil, fmt.Errorf("unsupported key type %q", j.Kty)
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

// jwsAlgorithm verifies a signature with a key of its kind.
type jwsAlgorithm struct {
	verify func(key crypto.PublicKey, signed, sig []byte) bool
	kind   func(key crypto.PublicKey) bool // whether key is of the kind it uses
}

// fits reports whether k may verify a token of this algorithm, named name:
// the key is of the algorithm's kind, and names no other algorithm.
func (a jwsAlgorithm) fits(k *jwk, name string) bool {
	return (k.alg == "" || k.alg == name) && a.kind(k.key)
}

func isRSA(key crypto.PublicKey) bool { _, ok := key.(*rsa.PublicKey); return ok }

func isEd25519(key crypto.PublicKey) bool { _, ok := key.(ed25519.PublicKey); return ok }

// jwsAlgorithms are the accepted algorithms. Not here, so refused: "none"
// and the HMACs (HS256…), which a resource server holding only public keys
// has no business accepting.
var jwsAlgorithms = map[string]jwsAlgorithm{
	"RS256": rsaPKCS1(crypto.SHA256, sha256.New),
	"RS384": rsaPKCS1(crypto.SHA384, sha512.New384),
	"RS512": rsaPKCS1(crypto.SHA512, sha512.New),
	"PS256": rsaPSS(crypto.SHA256, sha256.New),
	"PS384": rsaPSS(crypto.SHA384, sha512.New384),
	"PS512": rsaPSS(crypto.SHA512, sha512.New),
	"ES256": ecdsaAlg(elliptic.P256(), sha256.New),
	"ES384": ecdsaAlg(elliptic.P384(), sha512.New384),
	"ES512": ecdsaAlg(elliptic.P521(), sha512.New),
	"EdDSA": {kind: isEd25519, verify: func(key crypto.PublicKey, signed, sig []byte) bool {
		k, ok := key.(ed25519.PublicKey)
		return ok && ed25519.Verify(k, signed, sig)
	}},
}

func digest(newHash func() hash.Hash, b []byte) []byte {
	h := newHash()
	h.Write(b)
	return h.Sum(nil)
}

func rsaPKCS1(id crypto.Hash, newHash func() hash.Hash) jwsAlgorithm {
	return jwsAlgorithm{kind: isRSA, verify: func(key crypto.PublicKey, signed, sig []byte) bool {
		k, ok := key.(*rsa.PublicKey)
		return ok && rsa.VerifyPKCS1v15(k, id, digest(newHash, signed), sig) == nil
	}}
}

func rsaPSS(id crypto.Hash, newHash func() hash.Hash) jwsAlgorithm {
	return jwsAlgorithm{kind: isRSA, verify: func(key crypto.PublicKey, signed, sig []byte) bool {
		k, ok := key.(*rsa.PublicKey)
		return ok && rsa.VerifyPSS(k, id, digest(newHash, signed), sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash}) == nil
	}}
}

// ecdsaAlg verifies the JWS form of an ECDSA signature: R and S, each the
// curve's size, concatenated (not ASN.1).
func ecdsaAlg(curve elliptic.Curve, newHash func() hash.Hash) jwsAlgorithm {
	size := (curveBits(curve) + 7) / 8
	onCurve := func(key crypto.PublicKey) bool {
		k, ok := key.(*ecdsa.PublicKey)
		return ok && k.Curve == curve
	}
	return jwsAlgorithm{kind: onCurve, verify: func(key crypto.PublicKey, signed, sig []byte) bool {
		k, ok := key.(*ecdsa.PublicKey)
		if !ok || k.Curve != curve || len(sig) != 2*size {
			return false
		}
		r, s := new(big.Int).SetBytes(sig[:size]), new(big.Int).SetBytes(sig[size:])
		return ecdsa.Verify(k, digest(newHash, signed), r, s)
	}}
}
