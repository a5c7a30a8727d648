package jwtauth

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// TestVerifierCache: a token verified once is remembered (the same
// identity comes back), but never past its expiry, and not at all with
// CacheTTL < 0.
func TestVerifierCache(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	b64 := base64.RawURLEncoding.EncodeToString
	hdr, _ := json.Marshal(map[string]string{"alg": "EdDSA", "typ": "at+jwt"})
	claims, _ := json.Marshal(map[string]any{"iss": "https://auth.test", "sub": "alice", "exp": start.Add(2 * time.Minute).Unix()})
	input := b64(hdr) + "." + b64(claims)
	token := input + "." + b64(ed25519.Sign(priv, []byte(input)))

	v, err := New(Config{Issuer: "https://auth.test", Keys: []crypto.PublicKey{pub}})
	if err != nil {
		t.Fatal(err)
	}
	now := start
	v.now = func() time.Time { return now }
	first, err := v.VerifyToken(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := v.VerifyToken(context.Background(), token); again != first {
		t.Error("the second verification did not come from the cache")
	}
	now = start.Add(3 * time.Minute) // past exp and the 30s leeway
	if _, err := v.VerifyToken(context.Background(), token); !errors.Is(err, runtime.ErrInvalidToken) {
		t.Errorf("an expired token was served from the cache: %v", err)
	}

	uncached, _ := New(Config{Issuer: "https://auth.test", Keys: []crypto.PublicKey{pub}, CacheTTL: -1})
	a, err1 := uncached.VerifyToken(context.Background(), token)
	b, err2 := uncached.VerifyToken(context.Background(), token)
	if err1 != nil || err2 != nil || a == b {
		t.Errorf("CacheTTL -1 still caches: %v %v", err1, err2)
	}
}

func TestTokenCacheBounded(t *testing.T) {
	var c tokenCache
	now := time.Now()
	for i := range maxCachedTokens + 10 {
		c.put(fmt.Sprint(i), &runtime.AuthInfo{}, now.Add(time.Minute), now)
	}
	if len(c.m) > maxCachedTokens {
		t.Errorf("%d entries, more than %d", len(c.m), maxCachedTokens)
	}
	c.put("late", &runtime.AuthInfo{}, now.Add(-time.Second), now)
	if c.get("late", now) != nil {
		t.Error("an entry already over was kept")
	}
}
