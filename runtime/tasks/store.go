package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"
)

// Status is where a task is in its life (tasks.mdx §Task Status).
type Status string

const (
	Working       Status = "working"
	InputRequired Status = "input_required"
	Completed     Status = "completed"
	Failed        Status = "failed"
	Cancelled     Status = "cancelled"
)

// Terminal reports whether a task in status s will not change any more.
func (s Status) Terminal() bool {
	return s == Completed || s == Failed || s == Cancelled
}

// Record is what a Store keeps of a task: its status and, once it
// is over, its outcome. The handler running it lives in the process that
// created it; the record is what any process answers tasks/get from.
type Record struct {
	ID    string
	Owner string // who may see and cancel it: the authorized user, or the legacy session

	Status        Status
	StatusMessage string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	TTL           time.Duration // the task is kept this long after CreatedAt
	PollInterval  time.Duration

	Result        json.RawMessage // the tool's result, once completed (or failed with isError in 2025-11-25)
	Error         json.RawMessage // the JSON-RPC error object, once failed with one
	InputRequests json.RawMessage // {key:{method, params}} while input_required
}

// Expires is when the store may forget the task.
func (t *Record) Expires() time.Time { return t.CreatedAt.Add(t.TTL) }

// Clone returns a copy of t.
func (t *Record) Clone() *Record {
	c := *t
	return &c
}

// ErrStoreFull is returned by Store.Create when the store keeps as
// many live tasks as it may, in all or for the task's owner: the tools/call
// is refused, the tasks already running are not disturbed.
var ErrStoreFull = errors.New("runtime: the task store is full")

// Store keeps task records until they expire. The in-memory default
// (NewMemoryStore) serves one process; a store shared by replicas (e.g.
// Redis) lets any of them answer tasks/get and tasks/cancel. Implementations
// must be safe for concurrent use. Records are returned as copies.
type Store interface {
	// Create stores a new task, or fails with ErrStoreFull.
	Create(ctx context.Context, t *Record) error
	// Update replaces the stored task t.ID, unless the stored one is
	// terminal (a cancelled task stays cancelled) or gone; it reports
	// whether it replaced it.
	Update(ctx context.Context, t *Record) (bool, error)
	// Get returns the task id if owner owns it and it has not expired;
	// nil (and no error) otherwise, so that another owner's task looks
	// exactly like one that does not exist.
	Get(ctx context.Context, owner, id string) (*Record, error)
	// List returns up to limit of owner's live tasks created after the
	// task named after ("" from the start), oldest first.
	List(ctx context.Context, owner, after string, limit int) ([]*Record, error)
}

// DefaultMaxTasks is the number of live tasks NewMemoryStore(0) keeps.
const DefaultMaxTasks = 10000

// NewMemoryStore returns a Store in this process's memory, holding
// at most limit live tasks (DefaultMaxTasks if limit <= 0), and at most a tenth
// of them (at least one) per owner, so that one caller cannot take all the
// room. Expired tasks are dropped when space is needed and never returned.
func NewMemoryStore(limit int) *MemoryStore {
	if limit <= 0 {
		limit = DefaultMaxTasks
	}
	return &MemoryStore{max: limit, maxPerOwner: max(1, limit/10), byID: make(map[string]*Record), perOwner: make(map[string]int)}
}

// MemoryStore is the Store NewMemoryStore returns.
type MemoryStore struct {
	mu          sync.Mutex
	max         int
	maxPerOwner int
	byID        map[string]*Record
	perOwner    map[string]int // live tasks by owner
	order       []string       // ids in creation order, for List and expiry sweeps
}

var _ Store = (*MemoryStore)(nil)

// Len reports how many records the store holds, expired ones not yet
// dropped included.
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.byID)
}

// Create implements Store.
func (m *MemoryStore) Create(_ context.Context, t *Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.byID) >= m.max || m.perOwner[t.Owner] >= m.maxPerOwner {
		m.sweep(time.Now())
	}
	if len(m.byID) >= m.max || m.perOwner[t.Owner] >= m.maxPerOwner {
		return ErrStoreFull
	}
	m.byID[t.ID] = t.Clone()
	m.perOwner[t.Owner]++
	m.order = append(m.order, t.ID)
	return nil
}

// sweep drops the expired tasks (m.mu held).
func (m *MemoryStore) sweep(now time.Time) {
	m.order = slices.DeleteFunc(m.order, func(id string) bool {
		t := m.byID[id]
		if t == nil {
			return true
		}
		if now.After(t.Expires()) {
			delete(m.byID, id)
			if m.perOwner[t.Owner]--; m.perOwner[t.Owner] == 0 {
				delete(m.perOwner, t.Owner)
			}
			return true
		}
		return false
	})
}

// Update implements Store.
func (m *MemoryStore) Update(_ context.Context, t *Record) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.byID[t.ID]
	if old == nil || old.Status.Terminal() {
		return false, nil
	}
	m.byID[t.ID] = t.Clone()
	return true, nil
}

// Get implements Store.
func (m *MemoryStore) Get(_ context.Context, owner, id string) (*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.byID[id]
	if t == nil || t.Owner != owner || time.Now().After(t.Expires()) {
		return nil, nil
	}
	return t.Clone(), nil
}

// List implements Store.
func (m *MemoryStore) List(_ context.Context, owner, after string, limit int) ([]*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	var out []*Record
	seen := after == ""
	for _, id := range m.order {
		t := m.byID[id]
		if t == nil || t.Owner != owner || now.After(t.Expires()) {
			continue
		}
		if !seen {
			seen = id == after
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, t.Clone())
	}
	return out, nil
}
