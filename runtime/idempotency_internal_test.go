package runtime

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestMemoryIdempotencyStoreExpiry moves the store's clock: a result is
// returned until its ttl has passed, then the key runs again.
func TestMemoryIdempotencyStoreExpiry(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := NewMemoryIdempotencyStore(0)
	s.now = func() time.Time { return now }
	runs := 0
	call := func() ([]byte, bool) { runs++; return []byte{byte('0' + runs)}, true }
	k := IdempotencyKey{Tool: "t", Key: "k", Fingerprint: "f"}
	do := func() string {
		b, err := s.Do(context.Background(), k, time.Hour, call)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := do(); got != "1" {
		t.Fatalf("first: %s", got)
	}
	now = now.Add(59 * time.Minute)
	if got := do(); got != "1" || runs != 1 {
		t.Errorf("within the ttl: %s after %d runs", got, runs)
	}
	now = now.Add(time.Minute)
	if got := do(); got != "2" || runs != 2 {
		t.Errorf("after the ttl: %s after %d runs", got, runs)
	}
	// Expired results are swept even if nobody asks for them again.
	k2 := IdempotencyKey{Tool: "t", Key: "other", Fingerprint: "f"}
	if _, err := s.Do(context.Background(), k2, time.Minute, call); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Hour)
	k3 := IdempotencyKey{Tool: "t", Key: "third", Fingerprint: "f"}
	if _, err := s.Do(context.Background(), k3, time.Minute, call); err != nil {
		t.Fatal(err)
	}
	if s.Len() != 1 {
		t.Errorf("%d entries after the others expired, want 1", s.Len())
	}
}

func TestMemoryIdempotencyStoreCapacity(t *testing.T) {
	s := NewMemoryIdempotencyStore(3)
	for _, key := range []string{"a", "b", "c", "d", "e"} {
		if _, err := s.Do(context.Background(), IdempotencyKey{Tool: "t", Key: key, Fingerprint: "f"}, time.Hour, func() ([]byte, bool) {
			return []byte(key), true
		}); err != nil {
			t.Fatal(err)
		}
	}
	if s.Len() != 3 {
		t.Errorf("%d entries, want 3", s.Len())
	}
	// The oldest were forgotten: "a" runs again, "e" does not.
	ran := false
	s.Do(context.Background(), IdempotencyKey{Tool: "t", Key: "a", Fingerprint: "f"}, time.Hour, func() ([]byte, bool) { ran = true; return []byte("a2"), true })
	if !ran {
		t.Error("the oldest key was kept beyond the capacity")
	}
	b, _ := s.Do(context.Background(), IdempotencyKey{Tool: "t", Key: "e", Fingerprint: "f"}, time.Hour, func() ([]byte, bool) { return []byte("e2"), true })
	if string(b) != "e" {
		t.Errorf("newest key: %s", b)
	}
}

func TestMemoryIdempotencyStorePanicFreesKey(t *testing.T) {
	s := NewMemoryIdempotencyStore(0)
	k := IdempotencyKey{Tool: "t", Key: "k", Fingerprint: "f"}
	func() {
		defer func() { recover() }()
		s.Do(context.Background(), k, time.Hour, func() ([]byte, bool) { panic("boom") })
	}()
	b, err := s.Do(context.Background(), k, time.Hour, func() ([]byte, bool) { return []byte("ok"), true })
	if err != nil || string(b) != "ok" {
		t.Errorf("after a panic: %s, %v", b, err)
	}
	if _, err := s.Do(context.Background(), IdempotencyKey{Tool: "t", Key: "k", Fingerprint: "other"}, time.Hour, nil); !errors.Is(err, ErrIdempotencyConflict) {
		t.Errorf("other fingerprint: %v", err)
	}
	// Another tool may use the same key value.
	if b, _ := s.Do(context.Background(), IdempotencyKey{Tool: "u", Key: "k", Fingerprint: "other"}, time.Hour, func() ([]byte, bool) { return []byte("u"), true }); string(b) != "u" {
		t.Errorf("other tool: %s", b)
	}
}
