package jwtauth

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestJWKSFailedRefreshRetriedSoon: when the key set cannot be fetched at
// its refresh, the keys held go on verifying, the set is not fetched again
// at every request, and it is fetched again a minute on (minJWKSRefetch),
// not a whole JWKSRefresh later: a rotation published during the outage is
// seen soon after the authorization server is back.
func TestJWKSFailedRefreshRetriedSoon(t *testing.T) {
	s := newEdSigner(t)
	var fetches atomic.Int32
	var down atomic.Bool
	jwks := fmt.Sprintf(`{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","alg":"EdDSA","x":%q}]}`,
		base64.RawURLEncoding.EncodeToString(s.pub))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		if down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, jwks)
	}))
	defer ts.Close()
	v, err := New(Config{Issuer: "https://as.test", JWKSURL: ts.URL, CacheTTL: -1})
	if err != nil {
		t.Fatal(err)
	}
	now := epoch
	v.now = func() time.Time { return now }
	token := s.sign(t, map[string]any{"alg": "EdDSA", "typ": "at+jwt", "kid": "k1"},
		claimsAt(func(c map[string]any) { c["exp"] = epoch.Add(3 * time.Hour).Unix(); delete(c, "aud") }))
	step := func(at time.Duration, wantFetches int32) {
		t.Helper()
		now = epoch.Add(at)
		if _, err := v.VerifyToken(context.Background(), token); err != nil {
			t.Fatalf("at %v: the token of a held key: %v", at, err)
		}
		if n := fetches.Load(); n != wantFetches {
			t.Fatalf("at %v: %d fetches of the key set, want %d", at, n, wantFetches)
		}
	}
	step(0, 1)
	step(time.Hour-time.Second, 1) // within JWKSRefresh: no fetch
	down.Store(true)
	step(time.Hour+time.Second, 2)    // the refresh fails; the held key verifies
	step(time.Hour+50*time.Second, 2) // not again at every request
	down.Store(false)
	step(time.Hour+time.Second+minJWKSRefetch, 3) // a minute after the failure
	step(time.Hour+2*time.Second+minJWKSRefetch, 3)
}
