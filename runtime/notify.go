package runtime

import (
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/internal/bufpool"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// Notifications the server sends on its own: list_changed when tools,
// resources or prompts are added or removed while serving, and
// resources/updated for subscribed resources (NotifyResourceUpdated).
//
// A mutator (AddTool, NotifyResourceUpdated…) never waits for a client: it
// marks what is due in each session's outbox, and a worker goroutine sends
// it. Notifications of one kind coalesce while they wait (three tools added
// in a row make one list_changed; a resource updated twice, one updated),
// so a client that does not read costs a few bits per session, not a queue.

// liveSet is a set the server notifies: its initialized sessions (legacy
// era), its open subscriptions/listen streams (modern era). Readers take an
// immutable snapshot without locking.
type liveSet[T comparable] struct {
	mu   sync.Mutex
	live atomic.Pointer[[]T]
}

// sessionSet is the server's set of initialized sessions.
type sessionSet = liveSet[*Session]

func (s *liveSet[T]) add(x T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var list []T
	if p := s.live.Load(); p != nil {
		list = slices.Clone(*p)
	}
	list = append(list, x)
	s.live.Store(&list)
}

func (s *liveSet[T]) remove(x T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.live.Load()
	if p == nil || !slices.Contains(*p, x) {
		return
	}
	list := slices.DeleteFunc(slices.Clone(*p), func(y T) bool { return y == x })
	s.live.Store(&list)
}

func (s *liveSet[T]) snapshot() []T {
	if p := s.live.Load(); p != nil {
		return *p
	}
	return nil
}

// listChanged tells every initialized session and every subscription that
// a list changed. Each session sends only the kinds it was told about at
// initialize (the capabilities say listChanged for those), each
// subscription only the kinds it listens to.
func (s *Server) listChanged(kinds capSet) {
	s.announce(string(busListChanged) + strconv.Itoa(int(kinds)))
}

// notifyListChanged is listChanged in this process.
func (s *Server) notifyListChanged(kinds capSet) {
	for _, ss := range s.sessions.snapshot() {
		ss.out.listChanged(kinds)
	}
	for _, sub := range s.subscriptions.snapshot() {
		if k := kinds & sub.kinds; k != 0 {
			sub.out.listChanged(k)
		}
	}
}

// NotifyResourceUpdated sends notifications/resources/updated {uri} to every
// initialized session subscribed to uri (by resources/subscribe, with that
// exact URI) and to every subscriptions/listen stream that listens to it.
// It does not wait for the notifications to be written, and may be called
// from any goroutine. With a NotificationBus (WithStore), it reaches the
// clients of every replica.
func (s *Server) NotifyResourceUpdated(uri string) {
	s.announce(string(busUpdated) + uri)
}

// notifyResourceUpdated is NotifyResourceUpdated in this process.
func (s *Server) notifyResourceUpdated(uri string) {
	for _, ss := range s.sessions.snapshot() {
		if ss.subscribed(uri) {
			ss.out.resourceUpdated(uri)
		}
	}
	for _, sub := range s.subscriptions.snapshot() {
		if sub.listensTo(uri) {
			sub.out.resourceUpdated(uri)
		}
	}
}

// outbox holds the notifications due to one session. It is a job for the
// server's workers while it has something to send.
type outbox struct {
	ss  *Session
	sub *subscription // the subscriptions/listen stream it feeds; nil: the session's own

	mu      sync.Mutex
	open    bool     // the initialize response is out: notifications may follow it
	closed  bool     // the session is closed: nothing is kept any more
	changed capSet   // lists whose list_changed is due
	updated []string // subscribed URIs whose resources/updated is due, without duplicates
	running bool     // a worker is sending
}

func (o *outbox) listChanged(kinds capSet) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	o.changed |= kinds
	o.kick()
}

func (o *outbox) resourceUpdated(uri string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	if !slices.Contains(o.updated, uri) {
		o.updated = append(o.updated, uri)
	}
	o.kick()
}

// start lets notifications flow: call it once the initialize response is
// sent, so that none overtakes it. What was marked meanwhile goes out now.
func (o *outbox) start() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.open = true
	o.kick()
}

// close drops what is due and keeps nothing more.
func (o *outbox) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	o.changed, o.updated = 0, nil
}

// kick hands the outbox to a worker if it has something to send and no
// worker has it yet. o.mu is held.
func (o *outbox) kick() {
	if o.open && !o.running && (o.changed != 0 || len(o.updated) > 0) {
		o.running = true
		o.ss.srv.workers.Run(o)
	}
}

var listChangedMethods = []struct {
	kind capSet
	msg  []byte
}{
	{capTools, []byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)},
	{capResources, []byte(`{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}`)},
	{capPrompts, []byte(`{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}`)},
}

// Run sends what is due until nothing is; marks made meanwhile are sent in
// the next round.
func (o *outbox) Run() {
	ss := o.ss
	for {
		o.mu.Lock()
		changed, updated := o.changed, o.updated
		o.changed, o.updated = 0, nil
		if changed == 0 && len(updated) == 0 {
			o.running = false
			o.mu.Unlock()
			return
		}
		o.mu.Unlock()
		if o.sub != nil {
			o.sub.deliver(changed, updated)
			continue
		}
		if p := ss.peer.Load(); p != nil {
			changed &= p.caps
		}
		for _, m := range listChangedMethods {
			if changed&m.kind != 0 {
				ss.write("", false, m.msg)
			}
		}
		for _, uri := range updated {
			bp := bufpool.Get()
			b := append(*bp, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":`...)
			b = jsonwire.AppendString(b, uri)
			b = append(b, "}}"...)
			ss.write("", false, b)
			*bp = b
			bufpool.Put(bp)
		}
	}
}
