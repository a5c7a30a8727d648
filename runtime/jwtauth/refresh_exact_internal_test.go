package jwtauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/mcpgen/mcpgen/runtime/authz"
)

// jwksServer serves s's key under the kids set, or 500 while failing,
// counting the fetches.
type jwksServer struct {
	mu      sync.Mutex
	kids    []string
	failing bool
	fetches int
}

func (j *jwksServer) start(t *testing.T, s *edSigner) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		j.mu.Lock()
		defer j.mu.Unlock()
		j.fetches++
		if j.failing {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		var set struct {
			Keys []jose.JSONWebKey `json:"keys"`
		}
		for _, kid := range j.kids {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: s.pub, KeyID: kid, Algorithm: "EdDSA", Use: "sig"})
		}
		json.NewEncoder(w).Encode(set)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (j *jwksServer) set(kids []string, failing bool) {
	j.mu.Lock()
	j.kids, j.failing = kids, failing
	j.mu.Unlock()
}

func (j *jwksServer) count() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.fetches
}

// TestJWKSRefreshScheduleExact: the key set is fetched at the first token,
// used for exactly JWKSRefresh (default 1 h), fetched early for a kid it
// lacks at most once a minute (59.999… s after such a fetch: none; at the
// minute: one), and a fetch that fails keeps the keys held and is tried
// again a minute on, not a whole JWKSRefresh later (a rotation published
// during the outage is seen soon after the server is back); with none ever
// fetched, an unknown kid still retries once a minute, the error never
// ErrInvalidToken.
func TestJWKSRefreshScheduleExact(t *testing.T) {
	s := newEdSigner(t)
	for _, refresh := range []time.Duration{0, 10 * time.Minute} {
		effective := refresh
		if effective == 0 {
			effective = time.Hour // the documented default
		}
		js := &jwksServer{kids: []string{"k1"}}
		url := js.start(t, s)
		now := epoch
		v, err := New(Config{Issuer: "https://as.test", JWKSURL: url, JWKSRefresh: refresh, CacheTTL: -1})
		if err != nil {
			t.Fatal(err)
		}
		v.now = func() time.Time { return now }
		token := func(kid string) string {
			return s.sign(t, map[string]any{"alg": "EdDSA", "typ": "at+jwt", "kid": kid}, claimsAt(func(c map[string]any) { c["exp"] = epoch.Add(3 * time.Hour).Unix() }))
		}
		t0 := epoch
		for i, step := range []struct {
			at      time.Duration
			kid     string
			serve   []string // the set from this step on (nil: unchanged)
			fail    bool
			fetches int
			ok      bool
		}{
			{0, "k1", nil, false, 1, true},
			{effective - time.Nanosecond, "k1", nil, false, 1, true},
			{effective, "k1", nil, false, 2, true},
			{effective + time.Second, "k2", nil, false, 3, false},                                 // a kid it lacks: fetched early
			{effective + time.Minute + time.Second - time.Nanosecond, "k2", nil, false, 3, false}, // not again within the minute
			{effective + time.Minute + time.Second, "k2", []string{"k1", "k2"}, false, 4, true},   // at the minute: fetched, k2 now there
			{2*effective + time.Minute + time.Second - time.Nanosecond, "k1", nil, false, 4, true},
			{2*effective + time.Minute + time.Second, "k1", nil, true, 5, true},                      // the fetch fails: the keys held still verify
			{2*effective + 2*time.Minute + time.Second - time.Nanosecond, "k1", nil, false, 5, true}, // not again at every request
			{2*effective + 2*time.Minute + time.Second, "k1", []string{"k1"}, false, 6, true},        // back: fetched a minute after the failure, not a whole JWKSRefresh
			{2*effective + 2*time.Minute + 2*time.Second, "k1", nil, false, 6, true},
		} {
			if step.serve != nil {
				js.set(step.serve, false)
			}
			if step.fail {
				js.set(nil, true)
			}
			now = t0.Add(step.at)
			_, err := v.VerifyToken(context.Background(), token(step.kid))
			if got := js.count(); got != step.fetches || (err == nil) != step.ok {
				t.Errorf("refresh %v, step %d (+%v, kid %s): %d fetches, err %v; want %d fetches, accepted %v", refresh, i, step.at, step.kid, got, err, step.fetches, step.ok)
			}
		}
	}

	// Never fetched: the error is not ErrInvalidToken (503, not 401); a
	// retry a minute on, and not before the next minute after it.
	js := &jwksServer{failing: true}
	url := js.start(t, s)
	now := epoch
	v, err := New(Config{Issuer: "https://as.test", JWKSURL: url, CacheTTL: -1})
	if err != nil {
		t.Fatal(err)
	}
	v.now = func() time.Time { return now }
	tok := s.sign(t, map[string]any{"alg": "EdDSA", "typ": "at+jwt", "kid": "k1"}, claimsAt(nil))
	for i, step := range []struct {
		at      time.Duration
		fetches int
	}{{0, 1}, {time.Minute, 2}, {2*time.Minute - time.Nanosecond, 2}, {2 * time.Minute, 3}} {
		now = epoch.Add(step.at)
		_, err := v.VerifyToken(context.Background(), tok)
		if got := js.count(); got != step.fetches || err == nil || errors.Is(err, authz.ErrInvalidToken) || !strings.Contains(err.Error(), "could not be fetched") {
			t.Errorf("never fetched, step %d (+%v): %d fetches, err %v; want %d and a fetch error", i, step.at, got, err, step.fetches)
		}
	}
}
