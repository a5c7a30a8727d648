package runtime

import (
	"context"
	"encoding/json"
)

// One protocol handler per era. The edge of each transport picks the
// handler of a request once, from how the request names its protocol:
// Session.request for stdio and the sessions of NewSession and
// OpenSession, httpHandler.post for Streamable HTTP (whose modern
// requests are checked against their headers first, httpmodern.go). What
// the handler dispatches (serveMethod, call.run) asks no more which era
// the request came from: the handler carries what differs.
type protocol interface {
	// serve checks a request of the era and dispatches it.
	serve(ss *Session, ctx context.Context, id string, method []byte, params json.RawMessage)
	// finish is what an answer the dispatch computed at once becomes.
	finish(srv *Server, m *methodInfo, res encoder) encoder
	// outcome is what a started call answers once its handler returned.
	outcome(c *call, res encoder, e *Error) (encoder, *Error)
}

var (
	legacyEra protocol = legacyProtocol{}
	modernEra protocol = modernProtocol{}
)

// protocolOf picks the handler of a request: modern when its _meta names
// a protocol version (see modernRequest) and the server serves that era,
// else legacy.
func (s *Server) protocolOf(method, params []byte) protocol {
	if !s.cfg.legacyOnly && modernRequest(method, params) {
		return modernEra
	}
	return legacyEra
}

// legacyProtocol serves 2024-11-05 … 2025-11-25: a session initialized
// first, answers as they are.
type legacyProtocol struct{}

func (legacyProtocol) serve(ss *Session, ctx context.Context, id string, method []byte, params json.RawMessage) {
	m := lookupMethod(method, eraLegacy)
	if (m == nil || m.needsSession) && !ss.ready.Load() {
		ss.refuse(ctx, id, method, params, errorf(CodeInvalidRequest, "invalid request: the session is not initialized; send initialize first"))
		return
	}
	if m == nil {
		ss.refuse(ctx, id, method, params, errorf(CodeMethodNotFound, "method %s not found", quote(string(method))))
		return
	}
	ss.serveMethod(ctx, legacyEra, m, id, ss.srv.directCall(method, params))
}

func (legacyProtocol) finish(_ *Server, _ *methodInfo, res encoder) encoder { return res }

func (legacyProtocol) outcome(_ *call, res encoder, e *Error) (encoder, *Error) { return res, e }

// modernProtocol serves 2026-07-28: each request declares its client in
// its _meta, and every result carries the modern form (modern.go).
type modernProtocol struct{}

func (modernProtocol) serve(ss *Session, ctx context.Context, id string, method []byte, params json.RawMessage) {
	p, e := ss.srv.modernPeer(params)
	if e != nil {
		ss.refuse(ctx, id, method, params, e)
		return
	}
	ss.serveModern(&modernCtx{Context: ctx, peer: p}, id, method, params)
}

func (modernProtocol) finish(srv *Server, m *methodInfo, res encoder) encoder {
	return srv.modernResult(m.name, res)
}

func (modernProtocol) outcome(c *call, res encoder, e *Error) (encoder, *Error) {
	return c.modernOutcome(res, e)
}
