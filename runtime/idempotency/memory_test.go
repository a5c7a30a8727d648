package idempotency

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMemoryStoreExpiry moves the store's clock: a result is
// returned until its ttl has passed, then the key runs again.
func TestMemoryStoreExpiry(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := NewMemoryStore(0)
	s.now = func() time.Time { return now }
	runs := 0
	call := func() ([]byte, bool) { runs++; return []byte{byte('0' + runs)}, true }
	k := Key{Tool: "t", Key: "k", Fingerprint: "f"}
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
	k2 := Key{Tool: "t", Key: "other", Fingerprint: "f"}
	if _, err := s.Do(context.Background(), k2, time.Minute, call); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Hour)
	k3 := Key{Tool: "t", Key: "third", Fingerprint: "f"}
	if _, err := s.Do(context.Background(), k3, time.Minute, call); err != nil {
		t.Fatal(err)
	}
	if s.Len() != 1 {
		t.Errorf("%d entries after the others expired, want 1", s.Len())
	}
}

func TestMemoryStoreCapacity(t *testing.T) {
	s := NewMemoryStore(3)
	for _, key := range []string{"a", "b", "c", "d", "e"} {
		if _, err := s.Do(context.Background(), Key{Tool: "t", Key: key, Fingerprint: "f"}, time.Hour, func() ([]byte, bool) {
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
	s.Do(context.Background(), Key{Tool: "t", Key: "a", Fingerprint: "f"}, time.Hour, func() ([]byte, bool) { ran = true; return []byte("a2"), true })
	if !ran {
		t.Error("the oldest key was kept beyond the capacity")
	}
	b, _ := s.Do(context.Background(), Key{Tool: "t", Key: "e", Fingerprint: "f"}, time.Hour, func() ([]byte, bool) { return []byte("e2"), true })
	if string(b) != "e" {
		t.Errorf("newest key: %s", b)
	}
}

func TestMemoryStorePanicFreesKey(t *testing.T) {
	s := NewMemoryStore(0)
	k := Key{Tool: "t", Key: "k", Fingerprint: "f"}
	func() {
		defer func() { recover() }()
		s.Do(context.Background(), k, time.Hour, func() ([]byte, bool) { panic("boom") })
	}()
	b, err := s.Do(context.Background(), k, time.Hour, func() ([]byte, bool) { return []byte("ok"), true })
	if err != nil || string(b) != "ok" {
		t.Errorf("after a panic: %s, %v", b, err)
	}
	if _, err := s.Do(context.Background(), Key{Tool: "t", Key: "k", Fingerprint: "other"}, time.Hour, nil); !errors.Is(err, ErrConflict) {
		t.Errorf("other fingerprint: %v", err)
	}
	// Another tool may use the same key value.
	if b, _ := s.Do(context.Background(), Key{Tool: "u", Key: "k", Fingerprint: "other"}, time.Hour, func() ([]byte, bool) { return []byte("u"), true }); string(b) != "u" {
		t.Errorf("other tool: %s", b)
	}
}

// TestMemoryStoreSlowCall: a call that outlasts the ttl, the
// store's clock moved past it while the call runs and while other calls
// sweep, still holds its key: a retry meanwhile waits and gets its result,
// which is then kept for ttl from when it was recorded.
func TestMemoryStoreSlowCall(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func(d time.Duration) time.Time { mu.Lock(); defer mu.Unlock(); now = now.Add(d); return now }
	s := NewMemoryStore(0)
	s.now = func() time.Time { return clock(0) }
	k := Key{Tool: "t", Key: "k", Fingerprint: "f"}
	var runs atomic.Int32
	inCall, release := make(chan struct{}), make(chan struct{})
	first := make(chan string, 1)
	go func() {
		b, _ := s.Do(context.Background(), k, time.Minute, func() ([]byte, bool) {
			runs.Add(1)
			close(inCall)
			<-release
			return []byte("first"), true
		})
		first <- string(b)
	}()
	<-inCall
	clock(2 * time.Hour)
	// Another key's call sweeps expired entries meanwhile.
	s.Do(context.Background(), Key{Tool: "t", Key: "other", Fingerprint: "f"}, time.Minute, func() ([]byte, bool) { return []byte("o"), true })
	// A retry while the call still runs waits for it (here until its own
	// deadline: the call is held until the retry gave up).
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	_, err := s.Do(ctx, k, time.Minute, func() ([]byte, bool) { runs.Add(1); return []byte("second"), true })
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || runs.Load() != 1 {
		t.Fatalf("a retry while the call runs: %v, %d runs; want it to wait and the call to run once", err, runs.Load())
	}
	close(release)
	again, _ := s.Do(context.Background(), k, time.Minute, func() ([]byte, bool) { runs.Add(1); return []byte("second"), true })
	if got := <-first; got != "first" || string(again) != "first" || runs.Load() != 1 {
		t.Fatalf("call %q, retry %q, %d runs; want the first result twice and one run", got, again, runs.Load())
	}
	clock(59 * time.Second)
	if b, _ := s.Do(context.Background(), k, time.Minute, func() ([]byte, bool) { return []byte("late"), true }); string(b) != "first" {
		t.Errorf("59 s after the result was recorded: %q, want it kept", b)
	}
}

// TestMemoryStoreConflictWhileRunning: the same key with other
// arguments while the first call still runs is a conflict at once, not a
// wait for that call.
func TestMemoryStoreConflictWhileRunning(t *testing.T) {
	s := NewMemoryStore(0)
	k := Key{Tool: "t", Key: "k", Fingerprint: "f"}
	inCall, release := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Do(context.Background(), k, time.Minute, func() ([]byte, bool) { close(inCall); <-release; return []byte("1"), true })
	}()
	<-inCall
	other := k
	other.Fingerprint = "g"
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	_, err := s.Do(ctx, other, time.Minute, func() ([]byte, bool) { return []byte("2"), true })
	cancel()
	close(release)
	<-done
	if !errors.Is(err, ErrConflict) {
		t.Errorf("other arguments while the call runs: %v, want ErrConflict at once", err)
	}
}
