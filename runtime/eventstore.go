package runtime

import (
	"context"
	"slices"
	"sync"
)

// EventStore keeps the SSE events of Streamable HTTP sessions, so that a
// client whose stream broke (or was closed by CloseSSEStream) can resume it:
// it comes back with GET and the Last-Event-ID it saw, and gets that
// stream's later events, and only that stream's (resumability, SEP-1699).
// The transport names the streams of a session and numbers each stream's
// events; event ids on the wire are "<stream>_<index>". Configure one with
// WithEventStore; NewMemoryEventStore is a store for one process. A store
// shared by several processes (WithStore, runtime/redisstore) resumes a
// stream on any of them when the sessions are shared too (SessionStore).
//
// Its methods may be called concurrently, for different streams.
type EventStore interface {
	// Append stores event index of a stream. For each stream, indices
	// start at 1 and grow by one. Append must copy data if it keeps it.
	Append(ctx context.Context, sessionID, streamID string, index int, data []byte) error
	// After returns the stored events of a stream with an index above
	// index, in order. Events the store has dropped are missing; an
	// unknown stream has none.
	After(ctx context.Context, sessionID, streamID string, index int) ([]StoredEvent, error)
	// SessionClosed forgets the events of a session that ended.
	SessionClosed(ctx context.Context, sessionID string) error
}

// StoredEvent is an event of an EventStore: the index of the event in its
// stream and its data (one JSON-RPC message).
type StoredEvent struct {
	Index int
	Data  []byte
}

// NewMemoryEventStore returns an EventStore that keeps events in memory,
// the last maxEventsPerStream of each stream (at least 1; a stream's last
// event is its response, the one that matters) and the last 256 streams of
// each session, until the session ends.
func NewMemoryEventStore(maxEventsPerStream int) EventStore {
	return &memoryStore{maxEvents: max(maxEventsPerStream, 1), sessions: make(map[string]*memSession)}
}

const maxStoredStreams = 256

type memoryStore struct {
	maxEvents int
	mu        sync.Mutex
	sessions  map[string]*memSession
}

type memSession struct {
	streams map[string]*memStream
	order   []string // stream ids, oldest first, for eviction
}

type memStream struct {
	first  int // index of events[0]
	events [][]byte
}

func (m *memoryStore) Append(_ context.Context, sessionID, streamID string, index int, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	ms := m.sessions[sessionID]
	if ms == nil {
		ms = &memSession{streams: make(map[string]*memStream)}
		m.sessions[sessionID] = ms
	}
	st := ms.streams[streamID]
	if st == nil {
		if len(ms.order) == maxStoredStreams {
			delete(ms.streams, ms.order[0])
			ms.order = slices.Delete(ms.order, 0, 1)
		}
		st = &memStream{first: index}
		ms.streams[streamID] = st
		ms.order = append(ms.order, streamID)
	}
	st.events = append(st.events, slices.Clone(data))
	if len(st.events) > m.maxEvents {
		drop := len(st.events) - m.maxEvents
		st.events = slices.Delete(st.events, 0, drop)
		st.first += drop
	}
	return nil
}

func (m *memoryStore) After(_ context.Context, sessionID, streamID string, index int) ([]StoredEvent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ms := m.sessions[sessionID]
	if ms == nil {
		return nil, nil
	}
	st := ms.streams[streamID]
	if st == nil {
		return nil, nil
	}
	var out []StoredEvent
	for i, data := range st.events {
		if idx := st.first + i; idx > index {
			out = append(out, StoredEvent{Index: idx, Data: data}) // never modified once stored
		}
	}
	return out, nil
}

func (m *memoryStore) SessionClosed(_ context.Context, sessionID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.sessions, sessionID)
	return nil
}
