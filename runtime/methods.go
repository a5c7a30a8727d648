package runtime

import (
	"context"
	"encoding/json"
)

// The method table: every MCP method a client may call is declared once,
// below, with the facts the dispatch of both eras and both transports reads
// (the era handlers at the end of this file, Session.serveModern, the HTTP handlers).

// Names of the methods a client calls.
const (
	methodInitialize        = "initialize"
	methodPing              = "ping"
	methodDiscover          = "server/discover"
	methodToolsList         = "tools/list"
	methodToolsCall         = "tools/call"
	methodResourcesList     = "resources/list"
	methodResourcesRead     = "resources/read"
	methodTemplatesList     = "resources/templates/list"
	methodSubscribe         = "resources/subscribe"
	methodUnsubscribe       = "resources/unsubscribe"
	methodPromptsList       = "prompts/list"
	methodPromptsGet        = "prompts/get"
	methodComplete          = "completion/complete"
	methodSetLevel          = "logging/setLevel"
	methodSubscriptionsOpen = "subscriptions/listen"
)

// Names of the notifications a client sends.
const (
	notificationInitialized = "notifications/initialized"
	notificationCancelled   = "notifications/cancelled"
)

// eraSet is a set of protocol eras.
type eraSet uint8

const (
	// eraLegacy: 2024-11-05 to 2025-11-25, in a session opened by initialize.
	eraLegacy eraSet = 1 << iota
	// eraModern: 2026-07-28, each request on its own, described by its _meta.
	eraModern

	bothEras = eraLegacy | eraModern
)

// methodInfo is what the dispatch knows of a method.
type methodInfo struct {
	name string
	eras eraSet // the eras the method exists in; elsewhere it is not found

	// needsSession: a legacy request is refused until initialize was
	// answered (initialize and ping are not).
	needsSession bool

	// gate is the server capability without which the method is not found
	// (answered before its params are read); 0: always served. tools/call
	// has none: a call of an unknown tool is invalid params.
	gate capSet

	// userCode: the method runs a handler of the server's (a tool, a
	// resource read, a prompt, a completion): it is started in its own
	// goroutine, cancellable, and answered when the handler returns.
	userCode bool

	// cacheable: its modern results carry ttlMs and cacheScope
	// (WithCaching, WithMethodCaching).
	cacheable bool

	// target is the param naming what the request acts on ("name" or
	// "uri"): Mcp-Name must repeat it over modern HTTP, and the state of a
	// multi-round request is bound to it.
	target string

	// inputRounds: a modern request may end with input_required and be
	// retried with the client's answers (multi round-trip requests).
	inputRounds bool

	// Exactly one of answer and start is set. answer computes the result at
	// once (for the client p, which list methods filter by, context.go);
	// the dispatch sends it. start answers the request itself, when
	// the work it started is done.
	answer func(ss *Session, p *peerInfo, params json.RawMessage) (encoder, *Error)
	start  func(ss *Session, ctx context.Context, id string, params json.RawMessage)
}

// methods is the method table, by name.
var methods = map[string]*methodInfo{}

func init() {
	for _, m := range []*methodInfo{
		{name: methodInitialize, eras: eraLegacy, start: (*Session).handshake},
		{name: methodPing, eras: eraLegacy, answer: func(*Session, *peerInfo, json.RawMessage) (encoder, *Error) { return rawResult(`{}`), nil }},
		{name: methodDiscover, eras: eraModern, cacheable: true,
			answer: func(ss *Session, _ *peerInfo, _ json.RawMessage) (encoder, *Error) { return ss.srv.discover(), nil }},

		{name: methodToolsList, eras: bothEras, needsSession: true, gate: capTools, cacheable: true, answer: (*Session).toolsList},
		{name: methodToolsCall, eras: bothEras, needsSession: true, userCode: true, target: "name", inputRounds: true,
			start: (*Session).toolsCall},

		{name: methodResourcesList, eras: bothEras, needsSession: true, gate: capResources, cacheable: true,
			answer: (*Session).resourcesList},
		{name: methodTemplatesList, eras: bothEras, needsSession: true, gate: capResources, cacheable: true,
			answer: (*Session).templatesList},
		{name: methodResourcesRead, eras: bothEras, needsSession: true, gate: capResources, userCode: true, cacheable: true,
			target: "uri", inputRounds: true, start: (*Session).resourcesRead},
		{name: methodSubscribe, eras: eraLegacy, needsSession: true, gate: capResources,
			answer: func(ss *Session, _ *peerInfo, params json.RawMessage) (encoder, *Error) {
				return ss.subscribe(params, true)
			}},
		{name: methodUnsubscribe, eras: eraLegacy, needsSession: true, gate: capResources,
			answer: func(ss *Session, _ *peerInfo, params json.RawMessage) (encoder, *Error) {
				return ss.subscribe(params, false)
			}},

		{name: methodPromptsList, eras: bothEras, needsSession: true, gate: capPrompts, cacheable: true, answer: (*Session).promptsList},
		{name: methodPromptsGet, eras: bothEras, needsSession: true, gate: capPrompts, userCode: true, target: "name",
			inputRounds: true, start: (*Session).promptsGet},

		{name: methodComplete, eras: bothEras, needsSession: true, gate: capCompletions, userCode: true, start: (*Session).complete},
		{name: methodSetLevel, eras: eraLegacy, needsSession: true, answer: func(ss *Session, _ *peerInfo, params json.RawMessage) (encoder, *Error) { return ss.setLevel(params) }},
		{name: methodTasksGet, eras: bothEras, needsSession: true, target: "taskId",
			start: taskMethod(methodTasksGet, (*Session).tasksGet)},
		{name: methodTasksUpdate, eras: eraModern, target: "taskId",
			start: taskMethod(methodTasksUpdate, (*Session).tasksUpdate)},
		{name: methodTasksCancel, eras: bothEras, needsSession: true, target: "taskId",
			start: taskMethod(methodTasksCancel, (*Session).tasksCancel)},
		{name: methodTasksResult, eras: eraLegacy, needsSession: true, start: (*Session).startTasksResult},
		{name: methodTasksList, eras: eraLegacy, needsSession: true,
			start: taskMethod(methodTasksList, (*Session).tasksList)},
		{name: methodSubscriptionsOpen, eras: eraModern, start: func(ss *Session, ctx context.Context, id string, params json.RawMessage) {
			ss.listen(ctx.(*modernCtx), id, params) // modern only: the dispatch's context is a *modernCtx (withRequest keeps it)
		}},
	} {
		methods[m.name] = m
	}
}

// lookupMethod returns the method named name in era, or nil when it does
// not exist there. (A map index with string(b) does not allocate.)
func lookupMethod(name []byte, era eraSet) *methodInfo {
	if m := methods[string(name)]; m != nil && m.eras&era != 0 {
		return m
	}
	return nil
}

// isCacheable reports whether the modern results of method carry caching
// hints.
func isCacheable(method string) bool {
	m := methods[method]
	return m != nil && m.cacheable
}

// offersGate reports whether the session serves the methods gated by the
// capability c: when it was advertised, or when something of the kind is
// registered now (a completion: when a registered prompt or template
// completes).
func (ss *Session) offersGate(c capSet) bool {
	srv := ss.srv
	switch c {
	case capTools:
		return ss.offers(c, len(srv.tools.snapshot().list))
	case capPrompts:
		return ss.offers(c, len(srv.prompts.snapshot().list))
	case capResources:
		return ss.offers(c, len(srv.resources.snapshot().list)+len(srv.templates.snapshot().list)) || srv.linksResults()
	case capCompletions:
		return ss.offers(c, 0) || srv.completes()
	}
	return true
}

// notOffered is method not found for a method whose capability the
// session does not offer.
func notOffered(m *methodInfo) *Error {
	what := "has no " + gateNoun[m.gate]
	if m.gate == capCompletions {
		what = "completes nothing"
	}
	return errorf(CodeMethodNotFound, "method %s not found: this server %s", quote(m.name), what)
}

var gateNoun = map[capSet]string{capTools: "tools", capResources: "resources", capPrompts: "prompts"}

// serveMethod runs m once the checks of its era's handler p passed: the
// capability gate, then the handler. p finishes an answer computed at once
// (started calls are finished by theirs when they return).
//
// With interceptors, a Request describing the call travels in ctx: an
// answer computed at once goes through them here; a method that starts its
// work runs them where its outcome is known (respond for what it refuses
// at once, call.Run for what it starts).
func (ss *Session) serveMethod(ctx context.Context, p protocol, m *methodInfo, id string, params json.RawMessage) {
	req := ss.newRequest(ctx, m, id, params)
	ctx = withRequest(ctx, req)
	if m.gate != 0 && !ss.offersGate(m.gate) {
		ss.respond(ctx, id, nil, notOffered(m))
		return
	}
	if m.start != nil {
		m.start(ss, ctx, id, params)
		return
	}
	var res encoder
	var e *Error
	peer := ss.declaredBy(ctx)
	if req != nil {
		res, e = ss.srv.intercepted(ctx, req, func(context.Context) (encoder, *Error) { return m.answer(ss, peer, params) })
	} else {
		res, e = m.answer(ss, peer, params)
	}
	if e == nil {
		res = p.finish(ss.srv, m, res)
	}
	ss.reply(id, res, e)
}

// One protocol handler per era. The edge of each transport picks the
// handler of a request once, from how the request names its protocol:
// Session.request for stdio and the sessions of NewSession and
// OpenSession, FullServer.Parse for Streamable HTTP (runtime/streamhttp,
// whose modern requests pass CheckModern, checkModern in modern.go, first). What
// the handler dispatches (serveMethod, call.Run) asks no more which era
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
