package quota

import (
	"context"
	"sync"
	"time"
)

// RateLimit is a token bucket: Requests per Per on average, with bursts of
// up to Burst (default Requests).
type RateLimit struct {
	Requests int
	Per      time.Duration
	Burst    int
}

// Capacity is the most tokens the bucket holds: Burst, or Requests without
// one. A Store applies it and PerSecond.
func (l RateLimit) Capacity() float64 {
	if l.Burst > 0 {
		return float64(l.Burst)
	}
	return float64(l.Requests)
}

// PerSecond is how many tokens the bucket gains a second.
func (l RateLimit) PerSecond() float64 { return float64(l.Requests) / l.Per.Seconds() }

// Valid reports whether l is a limit: Requests and Per above 0, Burst not
// below.
func (l RateLimit) Valid() bool { return l.Requests > 0 && l.Per > 0 && l.Burst >= 0 }

// Store keeps the token buckets. Take removes one token from the
// bucket named key, which follows limit (full when first seen), and reports
// whether there was one; when there was not, retryAfter is how long until
// there is. A store shared by replicas (Redis) makes a limit hold across
// them. An error lets the request through (logged): a quota store that is
// down must not take the server with it.
type Store interface {
	Take(ctx context.Context, key string, limit RateLimit) (ok bool, retryAfter time.Duration, err error)
}

// MemoryStore keeps token buckets in memory: the limits hold within
// one process.
type MemoryStore struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	now     func() time.Time
	swept   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time // when tokens was computed
	full   time.Time // when the bucket is full again: it may be forgotten from then on
}

// NewMemoryStore returns an empty in-memory store.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{buckets: make(map[string]*bucket), now: time.Now}
}

// Take implements Store.
func (m *MemoryStore) Take(_ context.Context, key string, limit RateLimit) (bool, time.Duration, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	capacity, rate := limit.Capacity(), limit.PerSecond()
	b := m.buckets[key]
	if b == nil {
		b = &bucket{tokens: capacity, at: now}
		m.buckets[key] = b
	}
	b.tokens = min(capacity, b.tokens+now.Sub(b.at).Seconds()*rate)
	b.at = now
	ok := b.tokens >= 1
	if ok {
		b.tokens--
	}
	b.full = now.Add(time.Duration((capacity - b.tokens) / rate * float64(time.Second)))
	if ok {
		return true, 0, nil
	}
	return false, time.Duration((1 - b.tokens) / rate * float64(time.Second)), nil
}

// sweep forgets, once a minute at most, the buckets that are full again:
// a full bucket is what a new one is.
func (m *MemoryStore) sweep(now time.Time) {
	if now.Sub(m.swept) < time.Minute {
		return
	}
	m.swept = now
	for k, b := range m.buckets {
		if !now.Before(b.full) {
			delete(m.buckets, k)
		}
	}
}
