package streamhttp

import (
	"context"
	"slices"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/transport"
)

// NewMemoryEventStore returns an EventStore that keeps events in memory,
// the last maxEventsPerStream of each stream (at least 1; a stream's last
// event is its response, the one that matters) and the last 256 streams of
// each session, until the session ends.
func NewMemoryEventStore(maxEventsPerStream int) transport.EventStore {
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

func (m *memoryStore) After(_ context.Context, sessionID, streamID string, index int) ([]transport.StoredEvent, error) {
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
	var out []transport.StoredEvent
	for i, data := range st.events {
		if idx := st.first + i; idx > index {
			out = append(out, transport.StoredEvent{Index: idx, Data: data}) // never modified once stored
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
