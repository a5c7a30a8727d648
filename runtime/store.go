package runtime

import (
	"bytes"
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/transport"
)

// SharedStore is state kept outside the process, shared by the replicas of
// a server behind a load balancer (package runtime/redisstore is one, on
// Redis). Give it to WithStore.
type SharedStore interface {
	// Idempotency keeps the results of idempotent tool calls.
	Idempotency() IdempotencyStore
	// Events keeps the events of SSE streams, for resumption.
	Events() EventStore
	// Bus carries change notifications to every replica.
	Bus() NotificationBus
	// Sessions keeps legacy Streamable HTTP sessions.
	Sessions() SessionStore
}

// A SharedStore may keep more of the server's state; WithStore uses what
// it offers. They are separate interfaces so that a store written before
// them still satisfies SharedStore.
type (
	// SharedTaskStore keeps task records (as WithTaskStore).
	SharedTaskStore interface{ Tasks() TaskStore }
	// SharedQuotaStore keeps rate limits' buckets (as WithQuotaStore).
	SharedQuotaStore interface{ Quotas() QuotaStore }
	// SharedRequestStateStore records used requestStates (as
	// WithRequestStateStore).
	SharedRequestStateStore interface{ RequestStates() RequestStateStore }
)

// WithStore keeps the server's shared state in st: the results of
// idempotent calls (as WithIdempotencyStore) and, over Streamable HTTP, the
// events of SSE streams, which makes them resumable (as WithEventStore,
// which takes precedence when both are given), and carries change
// notifications to the clients of every replica (as WithNotificationBus),
// and keeps legacy Streamable HTTP sessions there, so that any replica
// serves any session (see SessionStore). If st also implements
// SharedTaskStore, SharedQuotaStore or SharedRequestStateStore, tasks, rate
// limits and used requestStates are kept there too, unless WithTaskStore,
// WithQuotaStore or WithRequestStateStore names another store (in any
// order).
func WithStore(st SharedStore) Option {
	return func(c *config) {
		if st == nil {
			return
		}
		c.idempotency = st.Idempotency()
		c.events = st.Events()
		c.bus = st.Bus()
		c.sessions = st.Sessions()
		if ts, ok := st.(SharedTaskStore); ok && !c.tasks.storeSet {
			c.tasks.store = ts.Tasks()
		}
		if qs, ok := st.(SharedQuotaStore); ok && !c.quotaStoreSet {
			c.quotaStore = qs.Quotas()
		}
		if rs, ok := st.(SharedRequestStateStore); ok && !c.stateStoreSet {
			c.stateStore = rs.RequestStates()
		}
	}
}

// Change notifications (list_changed, resources/updated) reach the sessions
// and subscriptions/listen streams of the process that raises them. With
// several replicas, a client's stream is held by one of them while the
// change may happen on another: a NotificationBus carries the change to
// every replica, and each one notifies its own clients.

// NotificationBus carries messages to every process of a server (this one
// included), each message once to each process, in the order published.
// runtime/redisstore has one on Redis; NewMemoryBus joins the servers of
// one process (for tests). Without a bus (the default), notifications stay
// in the process.
type NotificationBus interface {
	// Publish sends msg to every subscriber, within a bounded time.
	Publish(ctx context.Context, msg []byte) error
	// Subscribe calls deliver, from one goroutine, for each message
	// published from the time it returns until stop is called.
	Subscribe(ctx context.Context, deliver func(msg []byte)) (stop func(), err error)
}

// WithNotificationBus sends the server's change notifications through bus
// (WithStore sets it too, from its store).
func WithNotificationBus(bus NotificationBus) Option {
	return func(c *config) {
		if bus != nil {
			c.bus = bus
		}
	}
}

// busState is the server's side of its bus: receiving starts when the
// server starts serving (HTTPHandler, ServeStdio), so that the lists it
// registers before that do not notify the clients of the other replicas.
type busState struct {
	once      sync.Once
	mu        sync.Mutex
	receiving bool
}

// busTimeout bounds a Publish and the start of Subscribe.
const busTimeout = 5 * time.Second

// startBus subscribes to the bus, once per server.
func (s *Server) startBus() {
	if s.cfg.bus == nil {
		return
	}
	s.bus.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), busTimeout)
		defer cancel()
		if _, err := s.cfg.bus.Subscribe(ctx, s.receive); err != nil {
			// Notifications stay in this process; the server serves on.
			s.cfg.logger.Error("runtime: notification bus: cannot subscribe; change notifications reach this replica's clients only", "error", err)
			return
		}
		s.bus.mu.Lock()
		s.bus.receiving = true
		s.bus.mu.Unlock()
	})
}

// Messages on the bus: "l" and a capSet in decimal (lists changed), or
// "u" and a resource URI (updated).
const (
	busListChanged = 'l'
	busUpdated     = 'u'
	// Of shared sessions (transport.Bus*, runtime/streamhttp/shared.go): "<kind><session id>\n…".
	busSession = transport.BusSession // its record changed: the record follows
	busAnswer  = transport.BusAnswer  // the client answered a request: its id, "\n", then "r" and the result or "e" and the error
	busEnded   = transport.BusEnded   // it was deleted
	// Of tasks: busTask* in tasks.go.
)

// announce sends msg to every replica, or handles it here when there is no
// bus to send it on (none configured, not serving yet, or the bus failing).
func (s *Server) announce(msg string) {
	if !s.sendOnBus(msg, "cannot publish; the notification reaches this replica's clients only") {
		s.receive([]byte(msg))
	} // else it comes back through receive, like the other replicas'
}

// sendOnBus publishes msg to every replica and reports whether it went
// out: false when the server does not receive from a bus (none configured,
// not serving yet) or the bus failed, which is logged with failed.
func (s *Server) sendOnBus(msg, failed string) bool {
	s.bus.mu.Lock()
	receiving := s.bus.receiving
	s.bus.mu.Unlock()
	if !receiving {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), busTimeout)
	defer cancel()
	if err := s.cfg.bus.Publish(ctx, []byte(msg)); err != nil {
		s.cfg.logger.Warn("runtime: notification bus: "+failed, "error", err)
		return false
	}
	return true
}

// publish sends a message of a shared session to every replica, this one
// included (to this one only without a bus to send it on).
func (s *Server) publish(kind byte, body string) {
	s.announce(string(kind) + body)
}

// receive notifies this process's clients of a change announced by any
// replica.
func (s *Server) receive(msg []byte) {
	if len(msg) < 2 {
		return
	}
	switch body := string(msg[1:]); msg[0] {
	case busListChanged:
		if kinds, err := strconv.ParseUint(body, 10, 8); err == nil {
			s.notifyListChanged(capSet(kinds))
		}
	case busUpdated:
		s.notifyResourceUpdated(body)
	case busSession, busAnswer, busEnded:
		for _, l := range s.busListeners.snapshot() {
			l.f(msg[0], body)
		}
	case busTaskUpdate, busTaskCancel, busTaskWaiting, busTaskRequest:
		s.fromBusTask(msg[0], body)
	}
}

// NewMemoryBus returns a bus for the servers of one process: what one
// publishes, all receive, in order.
func NewMemoryBus() NotificationBus { return &memoryBus{subs: map[*memorySub]struct{}{}} }

type memoryBus struct {
	mu   sync.Mutex // held while delivering: one message at a time, in order
	subs map[*memorySub]struct{}
}

type memorySub struct{ deliver func([]byte) }

func (b *memoryBus) Publish(_ context.Context, msg []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	msg = bytes.Clone(msg)
	for sub := range b.subs {
		sub.deliver(msg)
	}
	return nil
}

func (b *memoryBus) Subscribe(_ context.Context, deliver func([]byte)) (func(), error) {
	sub := &memorySub{deliver}
	b.mu.Lock()
	b.subs[sub] = struct{}{}
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		delete(b.subs, sub)
		b.mu.Unlock()
	}, nil
}
