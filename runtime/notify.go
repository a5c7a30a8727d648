package runtime

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/internal/bufpool"
	"github.com/mcpgen/mcpgen/runtime/internal/cursor"
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

// registry holds one kind of registration (tools, resources, resource
// templates, prompts) in registration order, indexed by key. Mutations take
// mu; the request path reads an immutable view, rebuilt lazily after a
// change, so serving never takes a lock (a tools/call lookup is one atomic
// load and one map access). The zero value is empty and ready to use.
type registry[E listed] struct {
	mu    sync.Mutex // guards list and byKey
	list  []E
	byKey map[string]E
	view  atomic.Pointer[regView[E]]
}

// itemKind tells apart the registries, whose keys may collide.
type itemKind uint8

const (
	kindTool itemKind = iota
	kindPrompt
	kindResource
	kindTemplate
	kindCount
)

// listed is what a registry holds: an entry with a unique key and its list
// entry (tools/list, resources/list…), encoded once at registration.
type listed interface {
	comparable
	key() string
	listJSON() []byte
	requires() *Requires // the client capabilities it is listed for (context.go); nil: any
	kind() itemKind      // which registry it is in, for toolset membership (toolsets.go)
	scopes() []string    // the OAuth scopes a call needs, for lists by scope; nil: none
}

type regView[E listed] struct {
	list  []E
	byKey map[string]E
	gated bool // some entry has Requires: the list depends on the client
}

// add registers e; it reports false, and changes nothing, when its key is
// taken.
func (r *registry[E]) add(e E) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byKey[e.key()]; dup {
		return false
	}
	if r.byKey == nil {
		r.byKey = make(map[string]E)
	}
	r.list = append(r.list, e)
	r.byKey[e.key()] = e
	r.view.Store(nil)
	return true
}

// remove unregisters the entry with key k; the others keep their order.
func (r *registry[E]) remove(k string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.byKey[k]
	if !ok {
		return false
	}
	delete(r.byKey, k)
	r.list = slices.DeleteFunc(r.list, func(x E) bool { return x == e })
	r.view.Store(nil)
	return true
}

// snapshot returns the current view. Do not modify it.
func (r *registry[E]) snapshot() *regView[E] {
	if v := r.view.Load(); v != nil {
		return v
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if v := r.view.Load(); v != nil {
		return v
	}
	v := &regView[E]{list: slices.Clone(r.list), byKey: maps.Clone(r.byKey)}
	v.gated = slices.ContainsFunc(v.list, func(e E) bool { return e.requires() != nil })
	r.view.Store(v)
	return v
}

// values returns what r holds, in order, as read from each entry by get:
// what the Server's list accessors (Tools, Prompts, …) return.
func values[E listed, T any](r *registry[E], get func(E) T) []T {
	v := r.snapshot()
	out := make([]T, len(v.list))
	for i, e := range v.list {
		out[i] = get(e)
	}
	return out
}

// listMethod answers KIND/list (tools/list, prompts/list) with a page of r
// as the client p sees it (the dispatch checked that the session offers the
// capability).
func listMethod[E listed](ss *Session, p *peerInfo, kind string, r *registry[E], params json.RawMessage) (encoder, *Error) {
	return page(ss, p, kind, r.snapshot(), params)
}

// listPage is one page of a list method ({"tools":[…],"nextCursor":…}),
// encoded from the entries' cached JSON.
type listPage[E listed] struct {
	field string // "tools", "resources", "resourceTemplates", "prompts"
	items []E
	next  string
	gated bool // the list depends on the client's capabilities or on the request
}

// perClient reports whether the page depends on who asked: its modern
// cacheScope is then private (modernResult).
func (p listPage[E]) perClient() bool { return p.gated }

func (p listPage[E]) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"`...)
	dst = append(dst, p.field...)
	dst = append(dst, `":[`...)
	for i, e := range p.items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, e.listJSON()...)
	}
	dst = append(dst, ']')
	if p.next != "" {
		dst = append(dst, `,"nextCursor":`...)
		dst = jsonwire.AppendString(dst, p.next)
	}
	return append(dst, '}'), nil
}

// page answers a list method over v, as the client p sees it, from the
// cursor in params. The cursor counts the entries p sees, so a client's
// pages follow each other as long as what it declares stays the same.
func page[E listed](ss *Session, p *peerInfo, field string, v *regView[E], params json.RawMessage) (encoder, *Error) {
	list := v.list
	view := p != nil && p.view != nil
	if v.gated || view {
		list = slices.DeleteFunc(slices.Clone(list), func(e E) bool { return !visible(e, p) })
	}
	start, err := cursor.Start(params, len(list))
	if err != nil {
		return nil, &Error{Code: CodeInvalidParams, Message: err.Error()}
	}
	end := min(start+ss.srv.cfg.pageSize, len(list))
	lp := listPage[E]{field: field, items: list[start:end], gated: v.gated || view && p.view.private}
	if end < len(list) {
		lp.next = cursor.Encode(end)
	}
	return lp, nil
}
