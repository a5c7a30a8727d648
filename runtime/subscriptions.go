package runtime

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/internal/bufpool"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// maxSubscriptions bounds the URIs one session may subscribe to: every
// matching URI of a template is a distinct subscription, and a client must
// not be able to grow the server's memory without end.
const maxSubscriptions = 10000

// subscribe handles resources/subscribe (on) and resources/unsubscribe. A
// session may subscribe to a URI that a resource or a template serves;
// NotifyResourceUpdated with that exact URI then reaches it. Unsubscribing
// from a URI not subscribed to is not an error.
func (ss *Session) subscribe(params json.RawMessage, on bool) (encoder, *Error) {
	method := methodUnsubscribe
	if on {
		method = methodSubscribe
	}
	uri, _, e := uriParams(params, method)
	if e != nil {
		return nil, e
	}
	if !on {
		ss.subMu.Lock()
		delete(ss.subs, uri)
		ss.subMu.Unlock()
		if e := ss.persist(); e != nil {
			return nil, e
		}
		return rawResult(`{}`), nil
	}
	if _, _, e := ss.srv.lookup(uri, ss.peer.Load()); e != nil {
		return nil, e
	}
	ss.subMu.Lock()
	if _, ok := ss.subs[uri]; !ok && len(ss.subs) >= maxSubscriptions {
		ss.subMu.Unlock()
		return nil, errorf(CodeInvalidParams, "invalid params: this session already has %d subscriptions, the most it may have; unsubscribe from some first", maxSubscriptions)
	}
	if ss.subs == nil {
		ss.subs = make(map[string]struct{})
	}
	ss.subs[uri] = struct{}{}
	ss.subMu.Unlock()
	if e := ss.persist(); e != nil {
		return nil, e
	}
	return rawResult(`{}`), nil
}

// subscribed reports whether the session subscribed to uri.
func (ss *Session) subscribed(uri string) bool {
	ss.subMu.Lock()
	defer ss.subMu.Unlock()
	_, ok := ss.subs[uri]
	return ok
}

// subscriptions/listen (2026-07-28 basic/patterns/subscriptions.mdx): the
// modern era has no session to send change notifications on, so a client
// that wants them opens a long-lived request. The server answers with
// notifications/subscriptions/acknowledged, naming what it agreed to send,
// then sends on the request's stream (SSE on HTTP, the one stream on stdio)
// the list_changed and resources/updated notifications asked for, each
// tagged with _meta io.modelcontextprotocol/subscriptionId: the listen
// request's id. The subscription lasts as long as the request: closing the
// HTTP response stream, notifications/cancelled on stdio, or the session
// closing ends it, and the server forgets it.

const metaSubscriptionID = "io.modelcontextprotocol/subscriptionId"

// maxListens bounds the subscriptions open at once on one session (stdio):
// each holds a goroutine, and a client must not be able to open them
// without end. Over HTTP each has a connection of its own.
const maxListens = 64

// subscription is one open subscriptions/listen request. Its filter is
// fixed when it opens; its outbox coalesces what is due, like a session's.
type subscription struct {
	ss    *Session
	id    string              // the listen request's raw JSON id: the subscriptionId
	kinds capSet              // the lists whose list_changed it listens to
	uris  map[string]struct{} // the resources whose updates it listens to
	tag   string              // `"_meta":{"…/subscriptionId":<id>}`, for every notification
	out   outbox
}

// listensTo reports whether the subscription asked for updates of uri
// (sub.uris is never modified once the subscription is open).
func (sub *subscription) listensTo(uri string) bool {
	_, ok := sub.uris[uri]
	return ok
}

// listen handles subscriptions/listen: the request runs like a handler
// (cancellable, in the session's in-flight table) until it is cancelled.
func (ss *Session) listen(ctx *modernCtx, id string, params json.RawMessage) {
	sub, ack, e := ss.srv.newSubscription(id, ctx.peer, params)
	if e != nil {
		ss.respond(ctx, id, nil, e)
		return
	}
	if n := ss.openListens(); n >= maxListens {
		ss.respond(ctx, id, nil, errorf(CodeInvalidParams, "invalid params: %d subscriptions are open on this connection, the most it may have; cancel one first", n))
		return
	}
	sub.ss = ss
	sub.out.ss, sub.out.sub = ss, sub
	ss.start(ctx, id, &call{listen: true, exec: func(_ context.Context, c *call) (encoder, *Error) { return sub.run(c, ack) }})
}

// openListens counts the session's subscriptions/listen requests in flight.
func (ss *Session) openListens() int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	n := 0
	for _, c := range ss.inflight {
		if c.listen {
			n++
		}
	}
	return n
}

// EndSubscriptions ends the session's subscriptions/listen requests
// gracefully: each is answered, which tells the client that no more
// notifications will come on it. A transport calls it when no more input
// will come (end of stdin), before waiting for the requests in flight:
// subscriptions last until cancelled and would be waited for forever.
func (ss *Session) EndSubscriptions() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, c := range ss.inflight {
		if c.listen {
			c.cancel()
		}
	}
}

// run serves the subscription until its request's context is done. It is
// known to the server before the acknowledgement goes out, so that no
// change is missed, and notifications flow only after it.
func (sub *subscription) run(c *call, ack []byte) (encoder, *Error) {
	srv := sub.ss.srv
	srv.subscriptions.add(sub)
	defer func() {
		srv.subscriptions.remove(sub)
		sub.out.close()
	}()
	if sub.ss.write(sub.id, false, ack) {
		sub.out.start()
		<-c.Done()
	}
	// What a graceful end answers; a cancelled request is not answered.
	return rawResult(`{` + sub.tag + `}`), nil
}

// newSubscription reads the params of subscriptions/listen
// ({notifications:{toolsListChanged?, promptsListChanged?,
// resourcesListChanged?, resourceSubscriptions?:[uri]}}) and returns the
// subscription and its acknowledgement, which names what is honoured: the
// list kinds asked for, and the resource URIs this server serves (a URI it
// does not serve is left out rather than refused, so that the client learns
// which ones it will hear about).
func (s *Server) newSubscription(id string, peer *peerInfo, params []byte) (*subscription, []byte, *Error) {
	var raw []byte
	if jsonwire.FirstByte(params) == '{' {
		raw = jsonwire.Member(params, "notifications")
	}
	if jsonwire.FirstByte(raw) != '{' {
		return nil, nil, errorf(CodeInvalidParams, `invalid params: subscriptions/listen takes "notifications": an object naming what to listen to`)
	}
	var p struct {
		Tools     *bool    `json:"toolsListChanged"`
		Prompts   *bool    `json:"promptsListChanged"`
		Resources *bool    `json:"resourcesListChanged"`
		URIs      []string `json:"resourceSubscriptions"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, nil, errorf(CodeInvalidParams, "invalid params: notifications: %s", quote(jsonErrorText(err)))
	}
	if len(p.URIs) > maxSubscriptions {
		return nil, nil, errorf(CodeInvalidParams, "invalid params: notifications.resourceSubscriptions lists %d URIs; one subscription may listen to at most %d", len(p.URIs), maxSubscriptions)
	}
	sub := &subscription{id: id, tag: `"_meta":{"` + metaSubscriptionID + `":` + id + `}`}
	ack := []byte(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{` + sub.tag + `,"notifications":{`)
	member := func(name string) {
		if ack[len(ack)-1] != '{' {
			ack = append(ack, ',')
		}
		ack = append(ack, `"`+name+`":`...)
	}
	for _, k := range []struct {
		asked *bool
		kind  capSet
		name  string
	}{{p.Tools, capTools, "toolsListChanged"}, {p.Prompts, capPrompts, "promptsListChanged"}, {p.Resources, capResources, "resourcesListChanged"}} {
		if k.asked != nil && *k.asked {
			sub.kinds |= k.kind
			member(k.name)
			ack = append(ack, "true"...)
		}
	}
	for _, uri := range p.URIs {
		if _, _, e := s.lookup(uri, peer); e != nil {
			continue
		}
		if sub.uris == nil {
			sub.uris = make(map[string]struct{})
			member("resourceSubscriptions")
			ack = append(ack, '[')
		} else if _, dup := sub.uris[uri]; dup {
			continue
		} else {
			ack = append(ack, ',')
		}
		sub.uris[uri] = struct{}{}
		ack = jsonwire.AppendString(ack, uri)
	}
	if sub.uris != nil {
		ack = append(ack, ']')
	}
	return sub, append(ack, "}}}"...), nil
}

// listChangedNames are the notifications a subscription's list kinds send.
var listChangedNames = []struct {
	kind   capSet
	method string
}{
	{capTools, "notifications/tools/list_changed"},
	{capResources, "notifications/resources/list_changed"},
	{capPrompts, "notifications/prompts/list_changed"},
}

// deliver sends what the subscription's outbox found due, tagged.
func (sub *subscription) deliver(changed capSet, updated []string) {
	for _, m := range listChangedNames {
		if changed&sub.kinds&m.kind != 0 {
			sub.ss.write(sub.id, false, []byte(`{"jsonrpc":"2.0","method":"`+m.method+`","params":{`+sub.tag+`}}`))
		}
	}
	for _, uri := range updated {
		bp := bufpool.Get()
		b := append(*bp, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":`...)
		b = jsonwire.AppendString(b, uri)
		b = append(b, ',')
		b = append(b, sub.tag...)
		b = append(b, "}}"...)
		sub.ss.write(sub.id, false, b)
		*bp = b
		bufpool.Put(bp)
	}
}

// jsonErrorText is what went wrong in a JSON document, without Go type names.
func jsonErrorText(err error) string {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		return fmt.Sprintf("%s must be %s", te.Field, jsonKind(te.Type.Kind().String()))
	}
	return err.Error()
}

func jsonKind(goKind string) string {
	switch goKind {
	case "bool":
		return "a boolean"
	case "slice":
		return "an array of URI strings"
	case "string":
		return "a string"
	}
	return "of another type"
}
