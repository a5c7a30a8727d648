package requeststate

import (
	"context"
	"sync"
	"time"
)

// Store remembers which requestStates were used, so that each
// is accepted once. Replicas behind a load balancer, which share a
// requestState key (WithRequestStateKey), need a store they share too, or
// a state may be used once per replica. Safe for concurrent use.
type Store interface {
	// FirstUse records the use of the state id and reports whether it is
	// the first. The record is needed until expires (the state is refused
	// as expired after it) and may be dropped then. An error refuses the
	// state for now.
	FirstUse(ctx context.Context, id string, expires time.Time) (first bool, err error)
}

// DefaultMaxUsed bounds the memory Store when NewMemoryStore is given 0:
// about 100 bytes each.
const DefaultMaxUsed = 100_000

// NewMemoryStore returns a Store in memory holding at most maxEntries live
// records (0: DefaultMaxUsed).
// Records go when their state expires; past maxEntries the oldest go
// first, and a state whose record went could then be used again until it
// expires — a bound on memory that a client would need maxEntries
// requests of its own within the TTL to reach.
func NewMemoryStore(maxEntries int) Store {
	if maxEntries <= 0 {
		maxEntries = DefaultMaxUsed
	}
	return &memoryStore{max: maxEntries, used: make(map[string]time.Time)}
}

type memoryStore struct {
	max   int
	mu    sync.Mutex
	used  map[string]time.Time
	order []usedState // in the order recorded: the oldest first
}

type usedState struct {
	id      string
	expires time.Time
}

func (m *memoryStore) FirstUse(_ context.Context, id string, expires time.Time) (bool, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if until, ok := m.used[id]; ok && now.Before(until) {
		return false, nil
	}
	// Forget the expired and, past the bound, the oldest. Records come in
	// roughly in expiry order (one TTL per server), so the expired ones
	// are at the front.
	drop := 0
	for drop < len(m.order) && (len(m.order)-drop >= m.max || !now.Before(m.order[drop].expires)) {
		if m.used[m.order[drop].id] == m.order[drop].expires {
			delete(m.used, m.order[drop].id)
		}
		drop++
	}
	m.order = append(m.order[drop:], usedState{id, expires})
	m.used[id] = expires
	return true, nil
}
