package idempotency

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestKeyOf: the key argument is found only as a string member of an
// object; the fingerprint ignores the order of members (also nested) and
// white space, and tells apart any other change of the arguments.
func TestKeyOf(t *testing.T) {
	base := `{"k":"v","a":1,"o":{"x":[1,2],"y":"z"}}`
	k, ok := KeyOf("tool", "k", json.RawMessage(base))
	if !ok || k.Tool != "tool" || k.Key != "v" || k.Owner != "" || len(k.Fingerprint) != 64 {
		t.Fatalf("KeyOf(%s) = %+v, %v", base, k, ok)
	}
	for _, same := range []string{
		`{"a":1,"o":{"y":"z","x":[1,2]},"k":"v"}`,
		" {\n\t\"k\" : \"v\" ,\"a\":1, \"o\":{ \"x\":[ 1 , 2 ],\"y\":\"z\"} }\n",
	} {
		if got, ok := KeyOf("tool", "k", json.RawMessage(same)); !ok || got != k {
			t.Errorf("KeyOf(%s) = %+v, want %+v: the same arguments spelled otherwise", same, got, k)
		}
	}
	for _, other := range []string{
		`{"k":"v","a":2,"o":{"x":[1,2],"y":"z"}}`,
		`{"k":"v","a":1,"o":{"x":[2,1],"y":"z"}}`,
		`{"k":"v","a":1,"o":{"x":[1,2],"y":"z "}}`,
		`{"k":"v","a":1,"o":{"x":[1,2]}}`,
		`{"k":"v","a":1,"o":{"x":[1,2],"y":"z"},"b":null}`,
		`{"k":"v","a":"1","o":{"x":[1,2],"y":"z"}}`,
	} {
		got, ok := KeyOf("tool", "k", json.RawMessage(other))
		if !ok || got.Key != "v" {
			t.Errorf("KeyOf(%s) = %+v, %v", other, got, ok)
		}
		if got.Fingerprint == k.Fingerprint {
			t.Errorf("KeyOf(%s): the fingerprint of %s", other, base)
		}
	}
	if got, _ := KeyOf("tool", "k", json.RawMessage(`{"k":"w","a":1,"o":{"x":[1,2],"y":"z"}}`)); got.Key != "w" || got.Fingerprint == k.Fingerprint {
		t.Errorf("another key value: %+v", got)
	}
	if got, _ := KeyOf("other", "k", json.RawMessage(base)); got.Tool != "other" {
		t.Errorf("the tool of the Key: %q", got.Tool)
	}
	for _, no := range []string{``, `null`, `"v"`, `["v"]`, `{}`, `{"k":1}`, `{"k":null}`, `{"k":["v"]}`, `{"K":"v"}`, `{"o":{"k":"v"}}`, `{"k":"v"`} {
		if got, ok := KeyOf("tool", "k", json.RawMessage(no)); ok {
			t.Errorf("KeyOf(%q) = %+v, want no key", no, got)
		}
	}
	if got, ok := KeyOf("tool", "k", json.RawMessage(`{"k":""}`)); !ok || got.Key != "" {
		t.Errorf(`an empty key string: %+v, %v; want the key ""`, got, ok)
	}
}

// fakeClock is a MemoryStore whose clock the test moves.
func fakeClock(maxEntries int) (*MemoryStore, func(time.Duration)) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := NewMemoryStore(maxEntries)
	s.now = func() time.Time { return now }
	return s, func(d time.Duration) { now = now.Add(d) }
}

// TestMemoryStoreKeepsOnlyWhatItIsTold: a call that keeps nothing (keep
// false, or a nil result) frees its key: the next Do runs, with any
// fingerprint.
func TestMemoryStoreKeepsOnlyWhatItIsTold(t *testing.T) {
	for _, tc := range []struct {
		result []byte
		keep   bool
	}{{[]byte("r"), false}, {nil, true}, {nil, false}} {
		s, _ := fakeClock(0)
		k := Key{Tool: "t", Key: "k", Fingerprint: "f"}
		if b, err := s.Do(context.Background(), k, time.Hour, func() ([]byte, bool) { return tc.result, tc.keep }); err != nil || string(b) != string(tc.result) {
			t.Errorf("result %q keep %v: Do = %q, %v; want the call's result", tc.result, tc.keep, b, err)
		}
		if s.Len() != 0 {
			t.Errorf("result %q keep %v: %d entries, want none", tc.result, tc.keep, s.Len())
		}
		k.Fingerprint = "g"
		ran := false
		if _, err := s.Do(context.Background(), k, time.Hour, func() ([]byte, bool) { ran = true; return []byte("2"), true }); err != nil || !ran {
			t.Errorf("result %q keep %v: the next Do (other arguments) ran %v, %v; want it run", tc.result, tc.keep, ran, err)
		}
	}
}

// TestMemoryStoreWaiterRunsWhenNothingKept: a Do waiting for a call of its
// key that keeps nothing runs its own call, and keeps its result.
func TestMemoryStoreWaiterRunsWhenNothingKept(t *testing.T) {
	s := NewMemoryStore(0)
	k := Key{Tool: "t", Key: "k", Fingerprint: "f"}
	inCall, release := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Do(context.Background(), k, time.Hour, func() ([]byte, bool) { close(inCall); <-release; return []byte("failed"), false })
	}()
	<-inCall
	waiter := make(chan string, 1)
	go func() {
		b, err := s.Do(context.Background(), k, time.Hour, func() ([]byte, bool) { return []byte("second"), true })
		if err != nil {
			b = []byte(err.Error())
		}
		waiter <- string(b)
	}()
	// The waiter is either waiting or not yet started: both must end in
	// its own run once the first call keeps nothing.
	close(release)
	<-done
	if got := <-waiter; got != "second" {
		t.Fatalf("the waiter got %q, want its own run's result", got)
	}
	if b, _ := s.Do(context.Background(), k, time.Hour, func() ([]byte, bool) { return []byte("third"), true }); string(b) != "second" {
		t.Errorf("after the waiter's run: %q, want its kept result", b)
	}
}

// TestMemoryStoreExpiredBehind: a result that expired behind one that has
// not (a shorter ttl, kept later) is not returned: its key runs again.
func TestMemoryStoreExpiredBehind(t *testing.T) {
	s, advance := fakeClock(0)
	long := Key{Tool: "t", Key: "long", Fingerprint: "f"}
	short := Key{Tool: "t", Key: "short", Fingerprint: "f"}
	s.Do(context.Background(), long, time.Hour, func() ([]byte, bool) { return []byte("long"), true })
	s.Do(context.Background(), short, time.Minute, func() ([]byte, bool) { return []byte("short"), true })
	advance(time.Minute - 1)
	if b, _ := s.Do(context.Background(), short, time.Minute, func() ([]byte, bool) { return []byte("rerun"), true }); string(b) != "short" {
		t.Errorf("a nanosecond before its ttl: %q, want the kept result", b)
	}
	advance(1)
	if b, _ := s.Do(context.Background(), short, time.Minute, func() ([]byte, bool) { return []byte("rerun"), true }); string(b) != "rerun" {
		t.Errorf("at its ttl, behind a live result: %q, want a new run", b)
	}
}

// TestMemoryStoreConflictOnKept: a kept result's key with other arguments
// is ErrConflict and runs nothing, until the result expires.
func TestMemoryStoreConflictOnKept(t *testing.T) {
	s, advance := fakeClock(0)
	k := Key{Owner: "o", Tool: "t", Key: "k", Fingerprint: "f"}
	s.Do(context.Background(), k, time.Hour, func() ([]byte, bool) { return []byte("1"), true })
	other := k
	other.Fingerprint = "g"
	ran := false
	if _, err := s.Do(context.Background(), other, time.Hour, func() ([]byte, bool) { ran = true; return nil, false }); !errors.Is(err, ErrConflict) || ran {
		t.Errorf("other arguments: %v (ran %v), want ErrConflict", err, ran)
	}
	advance(time.Hour)
	if _, err := s.Do(context.Background(), other, time.Hour, func() ([]byte, bool) { ran = true; return nil, false }); err != nil || !ran {
		t.Errorf("other arguments after the ttl: %v (ran %v), want a run", err, ran)
	}
}

// TestMemoryStoreBound: a store of n keeps n results (n-1 and n: all
// kept); the n+1-th makes the oldest go, and only it. 0 and below mean
// DefaultEntries.
func TestMemoryStoreBound(t *testing.T) {
	for n := 1; n <= 4; n++ {
		s, _ := fakeClock(n)
		key := func(i int) Key { return Key{Tool: "t", Key: fmt.Sprint(i), Fingerprint: "f"} }
		kept := func(i int) bool {
			b, _ := s.Do(context.Background(), key(i), time.Hour, func() ([]byte, bool) { return nil, false })
			return b != nil
		}
		for i := range n {
			s.Do(context.Background(), key(i), time.Hour, func() ([]byte, bool) { return []byte("r"), true })
			if s.Len() != i+1 {
				t.Errorf("bound %d: %d entries after %d results", n, s.Len(), i+1)
			}
		}
		for i := range n {
			if !kept(i) {
				t.Errorf("bound %d: result %d forgotten with %d kept", n, i, n)
			}
		}
		s.Do(context.Background(), key(n), time.Hour, func() ([]byte, bool) { return []byte("r"), true })
		if s.Len() != n {
			t.Errorf("bound %d: %d entries after %d results", n, s.Len(), n+1)
		}
		if kept(0) {
			t.Errorf("bound %d: the oldest result kept past the bound", n)
		}
		for i := 1; i <= n; i++ {
			if !kept(i) {
				t.Errorf("bound %d: result %d forgotten, not the oldest", n, i)
			}
		}
	}
	for _, n := range []int{0, -1} {
		if s := NewMemoryStore(n); s.max != DefaultEntries {
			t.Errorf("NewMemoryStore(%d) keeps %d, want DefaultEntries", n, s.max)
		}
	}
}

// TestMemoryStoreExpiredBehindFreesItsKey: a result that expired behind one
// that has not no longer holds its key: other arguments run, as they do
// when the expired result was at the front (and swept).
func TestMemoryStoreExpiredBehindFreesItsKey(t *testing.T) {
	long := Key{Tool: "t", Key: "long", Fingerprint: "f"}
	short := Key{Tool: "t", Key: "short", Fingerprint: "f"}
	s, advance := fakeClock(0)
	s.Do(context.Background(), long, time.Hour, func() ([]byte, bool) { return []byte("long"), true })
	s.Do(context.Background(), short, time.Minute, func() ([]byte, bool) { return []byte("short"), true })
	advance(time.Minute)
	other := short
	other.Fingerprint = "g"
	if b, err := s.Do(context.Background(), other, time.Minute, func() ([]byte, bool) { return []byte("new"), true }); err != nil || string(b) != "new" {
		t.Errorf("other arguments after the result expired: %q, %v; want a new run", b, err)
	}
	if b, _ := s.Do(context.Background(), long, time.Hour, func() ([]byte, bool) { return []byte("x"), true }); string(b) != "long" {
		t.Errorf("the live result: %q", b)
	}
}
