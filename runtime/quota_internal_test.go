package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"
)

// The bucket refills at Requests/Per and holds Burst at most.
func TestMemoryQuotaStoreRefills(t *testing.T) {
	m := NewMemoryQuotaStore()
	now := time.Unix(1000, 0)
	m.now = func() time.Time { return now }
	limit := RateLimit{Requests: 60, Per: time.Minute, Burst: 2} // one a second, two at once
	take := func() (bool, time.Duration) {
		ok, after, err := m.Take(context.Background(), "k", limit)
		if err != nil {
			t.Fatal(err)
		}
		return ok, after
	}
	for i := range 2 {
		if ok, _ := take(); !ok {
			t.Fatalf("burst call %d refused", i)
		}
	}
	if ok, after := take(); ok || after != time.Second {
		t.Fatalf("3rd at once: ok %v, retry after %v", ok, after)
	}
	now = now.Add(500 * time.Millisecond)
	if ok, after := take(); ok || after != 500*time.Millisecond {
		t.Fatalf("half a second later: ok %v, retry after %v", ok, after)
	}
	now = now.Add(500 * time.Millisecond)
	if ok, _ := take(); !ok {
		t.Fatal("a second later: refused")
	}
	now = now.Add(time.Hour) // refilled to Burst, not beyond; swept, and new again
	for i := range 3 {
		if ok, _ := take(); ok != (i < 2) {
			t.Fatalf("after an hour, call %d: ok %v", i, ok)
		}
	}
	if len(m.buckets) != 1 {
		t.Errorf("%d buckets", len(m.buckets))
	}
}

// The HTTP transport finds a rate-limited response by its encoding: the
// head streamhttp looks for (its rateLimitedHead, TestRateLimited there)
// and data.retryAfterSeconds.
func TestRateLimitedHead(t *testing.T) {
	e := (&Server{cfg: config{quotaStore: NewMemoryQuotaStore()}}).take(context.Background(), "k", RateLimit{Requests: 1, Per: time.Hour}, "x")
	if e != nil {
		t.Fatal("the first call was refused")
	}
	srv := &Server{cfg: config{quotaStore: NewMemoryQuotaStore()}}
	srv.take(context.Background(), "k", RateLimit{Requests: 1, Per: time.Hour}, "x")
	e = srv.take(context.Background(), "k", RateLimit{Requests: 1, Per: time.Hour}, "x")
	msg := appendErrorResponse(nil, "7", e)
	if !bytes.Contains(msg, []byte(`,"error":{"code":-32005,`)) {
		t.Fatalf("%s: not the head streamhttp looks for", msg)
	}
	var r struct {
		Error struct {
			Code int
			Data struct {
				RetryAfterSeconds int `json:"retryAfterSeconds"`
			}
		}
	}
	if json.Unmarshal(msg, &r) != nil || r.Error.Code != CodeRateLimited || r.Error.Data.RetryAfterSeconds != 3600 {
		t.Fatalf("%s", msg)
	}
}
