package quota

import (
	"context"
	"testing"
	"time"
)

// The bucket refills at Requests/Per and holds Burst at most.
func TestMemoryStoreRefills(t *testing.T) {
	m := NewMemoryStore()
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

// The minute's sweep forgets only the buckets that are full again: a
// spent bucket is still spent after the sweep.
func TestMemoryStoreSweepKeepsSpent(t *testing.T) {
	m := NewMemoryStore()
	now := time.Unix(1000, 0)
	m.now = func() time.Time { return now }
	limit := RateLimit{Requests: 1, Per: time.Hour}
	if ok, _, _ := m.Take(context.Background(), "spent", limit); !ok {
		t.Fatal("the first take was refused")
	}
	now = now.Add(2 * time.Minute) // a sweep runs at the next take
	if ok, after, _ := m.Take(context.Background(), "spent", limit); ok || after != 58*time.Minute {
		t.Errorf("after the sweep: ok %v, retry after %v; want a refusal for 58m", ok, after)
	}
}
