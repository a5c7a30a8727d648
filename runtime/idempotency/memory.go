package idempotency

import (
	"container/list"
	"context"
	"sync"
	"time"
)

// DefaultEntries is how many results a memory store keeps when
// NewMemoryStore is given 0.
const DefaultEntries = 100_000

// MemoryStore is a Store in the server's memory: the
// default, right for one process. Results expire after their ttl; beyond
// its capacity the store forgets the oldest results first, so a client
// sending ever new keys cannot make it grow without bound.
type MemoryStore struct {
	mu      sync.Mutex
	entries map[idemID]*idemEntry
	kept    *list.List // of idemID, oldest result first
	max     int
	now     func() time.Time // time.Now; tests move the clock
}

type idemID struct{ owner, tool, key string }

// idemEntry is a call running (done open) or a result kept (done closed).
type idemEntry struct {
	fingerprint string
	done        chan struct{} // closed when the call that owns the entry ends
	result      []byte        // what it kept; nil while running
	expires     time.Time
	elem        *list.Element // in kept, once a result is kept
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty store that keeps at most
// maxEntries results (DefaultEntries when maxEntries < 1).
func NewMemoryStore(maxEntries int) *MemoryStore {
	if maxEntries < 1 {
		maxEntries = DefaultEntries
	}
	return &MemoryStore{entries: map[idemID]*idemEntry{}, kept: list.New(), max: maxEntries, now: time.Now}
}

// Do implements Store.
func (s *MemoryStore) Do(ctx context.Context, k Key, ttl time.Duration, call func() ([]byte, bool)) ([]byte, error) {
	id := idemID{k.Owner, k.Tool, k.Key}
	for {
		s.mu.Lock()
		s.forgetExpired()
		e := s.entries[id]
		if e == nil {
			e = &idemEntry{fingerprint: k.Fingerprint, done: make(chan struct{})}
			s.entries[id] = e
			s.mu.Unlock()
			return s.run(id, e, ttl, call)
		}
		if e.result != nil && !s.now().Before(e.expires) {
			// Expired, not yet swept (a live result is ahead of it in the
			// queue): the key is free again, also for other arguments.
			s.forget(id, e)
			s.mu.Unlock()
			continue
		}
		if e.fingerprint != k.Fingerprint {
			s.mu.Unlock()
			return nil, ErrConflict
		}
		if e.result != nil {
			if s.now().Before(e.expires) {
				s.mu.Unlock()
				return e.result, nil
			}
			s.forget(id, e) // expired, not yet swept: the key is free again
			s.mu.Unlock()
			continue
		}
		done := e.done
		s.mu.Unlock()
		select {
		case <-done: // kept a result, or freed the key: look again
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// run calls call for the entry it just created, then keeps the result or
// frees the key (also when call panics), and wakes the waiters.
func (s *MemoryStore) run(id idemID, e *idemEntry, ttl time.Duration, call func() ([]byte, bool)) (result []byte, err error) {
	keep := false
	defer func() {
		s.mu.Lock()
		if keep && result != nil {
			e.result, e.expires = result, s.now().Add(ttl)
			e.elem = s.kept.PushBack(id)
			for s.kept.Len() > s.max {
				old := s.kept.Front().Value.(idemID)
				s.forget(old, s.entries[old])
			}
		} else {
			delete(s.entries, id)
		}
		close(e.done)
		s.mu.Unlock()
	}()
	result, keep = call()
	return result, nil
}

// forgetExpired drops the expired results at the front of the queue. Results
// are queued in the order they were kept; with one ttl per tool, they also
// expire in about that order, and a result that outlives its ttl further
// back is dropped when it is next asked for.
func (s *MemoryStore) forgetExpired() {
	now := s.now()
	for f := s.kept.Front(); f != nil; f = s.kept.Front() {
		id := f.Value.(idemID)
		e := s.entries[id]
		if now.Before(e.expires) {
			return
		}
		s.forget(id, e)
	}
}

func (s *MemoryStore) forget(id idemID, e *idemEntry) {
	s.kept.Remove(e.elem)
	delete(s.entries, id)
}

// Len reports how many results the store keeps and calls it runs.
func (s *MemoryStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}
