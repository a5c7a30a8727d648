package runtime

import (
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/internal/cursor"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

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
