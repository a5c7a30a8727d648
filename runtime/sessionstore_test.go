package runtime_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// memSessions is a SessionStore in memory, which a test can make fail.
type memSessions struct {
	mu      sync.Mutex
	records map[string][]byte
	expires map[string]time.Time
	failing bool
}

func newMemSessions() *memSessions {
	return &memSessions{records: map[string][]byte{}, expires: map[string]time.Time{}}
}

var errStoreDown = errors.New("store down")

func (m *memSessions) Save(_ context.Context, id string, state []byte, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failing {
		return errStoreDown
	}
	m.records[id] = append([]byte(nil), state...)
	m.expires[id] = time.Now().Add(ttl)
	return nil
}

func (m *memSessions) Load(_ context.Context, id string, ttl time.Duration) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failing {
		return nil, false, errStoreDown
	}
	b, ok := m.records[id]
	if !ok || time.Now().After(m.expires[id]) {
		delete(m.records, id)
		return nil, false, nil
	}
	m.expires[id] = time.Now().Add(ttl)
	return b, true, nil
}

func (m *memSessions) Delete(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failing {
		return errStoreDown
	}
	delete(m.records, id)
	return nil
}

func (m *memSessions) fail(on bool) {
	m.mu.Lock()
	m.failing = on
	m.mu.Unlock()
}

// sharedInMemory is what redisstore.Store gives WithStore, in memory: the
// replicas of a test share it.
type sharedInMemory struct {
	idem     runtime.IdempotencyStore
	events   runtime.EventStore
	bus      runtime.NotificationBus
	sessions *memSessions
}

func (s *sharedInMemory) Idempotency() runtime.IdempotencyStore { return s.idem }
func (s *sharedInMemory) Events() runtime.EventStore            { return s.events }
func (s *sharedInMemory) Bus() runtime.NotificationBus          { return s.bus }
func (s *sharedInMemory) Sessions() runtime.SessionStore        { return s.sessions }

// Two replicas sharing sessions: a session initialized on A is served by
// B; B's subscription reaches A, which holds the GET stream and delivers
// the update once; the store failing gives 503 naming it; DELETE on B ends
// the session on A too.
func TestSharedSessionsAcrossReplicas(t *testing.T) {
	shared := &sharedInMemory{runtime.NewMemoryIdempotencyStore(0), runtime.NewMemoryEventStore(100), runtime.NewMemoryBus(),
		newMemSessions()}
	replica := func() *httpPeer {
		srv := runtime.NewServer(testInfo(), runtime.WithStore(shared))
		srv.AddResource(textResource("watched://r"))
		return serveHTTP(t, srv)
	}
	a, b := replica(), replica()
	a.initialize(`{}`)
	b.session = a.session

	if got := string(b.result("ping", "")); got != `{}` {
		t.Fatalf("ping on the other replica: %s", got)
	}
	get := a.do(http.MethodGet, "")
	defer get.Body.Close()
	if get.StatusCode != http.StatusOK {
		t.Fatalf("GET on A: %d", get.StatusCode)
	}
	stream := newSSE(get.Body)
	if got := string(b.result("resources/subscribe", `{"uri":"watched://r"}`)); got != `{}` {
		t.Fatalf("subscribe on B: %s", got)
	}
	// The update comes from a third replica, which has no copy of the session.
	third := runtime.NewServer(testInfo(), runtime.WithStore(shared))
	third.AddResource(textResource("watched://r"))
	serveHTTP(t, third)
	third.NotifyResourceUpdated("watched://r")
	for {
		ev := nextEvent(t, stream)
		if ev.Data == "" {
			continue // the priming event
		}
		if ev.Data != updated("watched://r") {
			t.Fatalf("A's GET stream: %q, want the update", ev.Data)
		}
		break
	}

	shared.sessions.fail(true)
	resp, _ := b.call("ping", "")
	msgs := readAll(t, resp)
	shared.sessions.fail(false)
	if resp.StatusCode != http.StatusServiceUnavailable || len(msgs) != 1 || !strings.Contains(msgs[0].Data, "session store failed") {
		t.Errorf("with the store failing: %d %v, want 503 naming the session store", resp.StatusCode, msgs)
	}

	del := b.do(http.MethodDelete, "")
	del.Body.Close()
	if del.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE on B: %d", del.StatusCode)
	}
	resp, _ = a.call("ping", "")
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("after DELETE on B, A answers %d, want 404", resp.StatusCode)
	}
	if ev, _ := stream.next(); ev.Data != "" {
		t.Errorf("A's GET stream after DELETE: %q, want its end", ev.Data)
	}
}

// A shared session idles out of the store when no replica serves it, but
// not while a replica holds its GET stream open.
func TestSharedSessionIdleExpiry(t *testing.T) {
	shared := &sharedInMemory{runtime.NewMemoryIdempotencyStore(0), runtime.NewMemoryEventStore(100), runtime.NewMemoryBus(), newMemSessions()}
	replica := func() *httpPeer {
		return serveHTTP(t, runtime.NewServer(testInfo(), runtime.WithStore(shared)), runtime.WithSessionIdleTimeout(200*time.Millisecond))
	}
	a, b := replica(), replica()
	a.initialize(`{}`)
	b.session = a.session
	get := a.do(http.MethodGet, "")
	t.Cleanup(func() { get.Body.Close() }) // before the server's Close, which waits for the stream
	time.Sleep(800 * time.Millisecond)     // four idle timeouts with only the GET stream open
	if got := string(b.result("ping", "")); got != `{}` {
		t.Fatalf("ping while A holds the GET stream: %s", got)
	}
	get.Body.Close()
	time.Sleep(800 * time.Millisecond)
	resp, _ := b.call("ping", "")
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("ping after the session idled out: %d, want 404", resp.StatusCode)
	}
}
