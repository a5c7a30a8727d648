package runtime

import "encoding/json"

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
