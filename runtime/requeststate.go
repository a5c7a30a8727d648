package runtime

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/sealed"
)

// The requestState of multi round-trip requests (mrtr.go) is the client's
// to hold, so it is sealed: encrypted and authenticated (AES-256-GCM,
// package sealed) under a key derived from the server's state key. The
// client learns nothing from it (not the owner, not the answers it carries)
// and cannot alter it. Each state is accepted once: its random id is
// recorded in a RequestStateStore when a retry uses it, and a second use is
// refused, so that an answer the user gave (a confirmation, say) cannot be
// replayed within the state's TTL to run the handler again.

// stateClaims is what a requestState carries, sealed.
type stateClaims struct {
	ID      string                     `json:"i"` // random: single use
	Method  string                     `json:"m"`
	Target  string                     `json:"t"`
	Expires int64                      `json:"e"` // Unix milliseconds
	Owner   string                     `json:"o,omitempty"`
	Answers map[string]json.RawMessage `json:"a,omitempty"`
}

// statePurpose separates the requestState key from any other use of the
// key given to WithRequestStateKey.
const statePurpose = "requestState"

func newStateBox(key []byte) *sealed.Box {
	box, err := sealed.New(key, statePurpose)
	if err != nil {
		panic("runtime: requestState key: " + err.Error()) // AES-256 with a 32-byte derived key cannot fail
	}
	return box
}

func newStateID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand panics rather)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (s *Server) sealState(c *stateClaims) (string, error) {
	payload, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	return s.cfg.stateBox.Seal(payload), nil
}

func (s *Server) openState(state string) (*stateClaims, *Error) {
	payload, err := s.cfg.stateBox.Open(state)
	var c stateClaims
	if err != nil || json.Unmarshal(payload, &c) != nil {
		return nil, errorf(CodeInvalidParams, "invalid params: requestState failed its integrity check (altered, or issued by a server with another key)")
	}
	if time.Now().UnixMilli() > c.Expires {
		return nil, errorf(CodeInvalidParams, "invalid params: requestState has expired; send the request again without it")
	}
	return &c, nil
}

// useState records the first use of c, and refuses any later one.
func (s *Server) useState(ctx context.Context, c *stateClaims) *Error {
	first, err := s.cfg.stateStore.FirstUse(ctx, c.ID, time.UnixMilli(c.Expires))
	if err != nil {
		s.cfg.logger.Warn("runtime: the requestState store failed", "error", err)
		return errorf(CodeInternalError, "internal error: requestState cannot be checked now; retry later")
	}
	if !first {
		return errorf(CodeInvalidParams, "invalid params: requestState was already used (each is accepted once); send the request again without it")
	}
	return nil
}

// RequestStateStore remembers which requestStates were used, so that each
// is accepted once. Replicas behind a load balancer, which share a
// requestState key (WithRequestStateKey), need a store they share too, or
// a state may be used once per replica. Safe for concurrent use.
type RequestStateStore interface {
	// FirstUse records the use of the state id and reports whether it is
	// the first. The record is needed until expires (the state is refused
	// as expired after it) and may be dropped then. An error refuses the
	// state for now.
	FirstUse(ctx context.Context, id string, expires time.Time) (first bool, err error)
}

// WithRequestStateStore sets where the used requestStates are recorded.
// The default is NewMemoryRequestStateStore(0), private to the server.
func WithRequestStateStore(store RequestStateStore) Option {
	return func(c *config) {
		if store != nil {
			c.stateStore, c.stateStoreSet = store, true
		}
	}
}

// DefaultMaxUsedStates bounds the memory RequestStateStore when
// NewMemoryRequestStateStore is given 0: about 100 bytes each.
const DefaultMaxUsedStates = 100_000

// NewMemoryRequestStateStore returns a RequestStateStore in memory
// holding at most maxEntries live records (0: DefaultMaxUsedStates).
// Records go when their state expires; past maxEntries the oldest go
// first, and a state whose record went could then be used again until it
// expires — a bound on memory that a client would need maxEntries
// requests of its own within the TTL to reach.
func NewMemoryRequestStateStore(maxEntries int) RequestStateStore {
	if maxEntries <= 0 {
		maxEntries = DefaultMaxUsedStates
	}
	return &memoryStateStore{max: maxEntries, used: make(map[string]time.Time)}
}

type memoryStateStore struct {
	max   int
	mu    sync.Mutex
	used  map[string]time.Time
	order []usedState // in the order recorded: the oldest first
}

type usedState struct {
	id      string
	expires time.Time
}

func (m *memoryStateStore) FirstUse(_ context.Context, id string, expires time.Time) (bool, error) {
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
