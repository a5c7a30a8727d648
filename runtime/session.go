package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/internal/bufpool"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/logging"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Session is the transport-agnostic protocol state of one client connection:
// the initialize handshake, what the client declared, the requests in
// flight, its resource subscriptions and the notifications due to it. A
// transport reads messages, hands each to HandleMessage, and writes what the
// session gives to its send function. stdio uses one Session per
// process; Streamable HTTP uses one per Mcp-Session-Id; tests and
// benchmarks drive one in process.
type Session struct {
	srv *Server
	tr  outlet
	id  string // the Mcp-Session-Id on Streamable HTTP; "" otherwise

	taskKey string // who owns the session's tasks without authorization (tasks.go); set on first use, guarded by mu

	// noRequests: the transport cannot carry server→client requests
	// (stateless HTTP), so CreateMessage, Elicit and ListRoots fail at once.
	noRequests bool

	transport  string // the transport's name (Request.Transport); "" for NewSession and HTTP
	detached   bool   // calls do not end with the context of their message (transport.Options.Detached)
	inlineCall func() // calls run on the goroutine of HandleMessage, which this is told of first (transport.Options.InlineCalls)

	hookMu sync.Mutex
	ended  []func() // what the SessionHooks want called when the session ends

	closed    atomic.Bool
	closeOnce sync.Once
	done      chan struct{} // closed by Close: waits on the client end
	sendGate  sync.RWMutex  // sends hold it shared; Close takes it to wait them out

	mu       sync.Mutex       // guards inflight, the calls' cancelled flags, draining, and ready's check-and-set
	inflight map[string]*call // by jsonwire.IDKey
	draining bool             // shutting down: no new call starts (see drain)
	ready    atomic.Bool      // initialize answered; read without mu
	wg       sync.WaitGroup   // calls running in their own goroutine

	peer atomic.Pointer[peerInfo]

	out outbox // notifications due

	subMu sync.Mutex          // guards subs
	subs  map[string]struct{} // resources/subscribe'd URIs

	logLevel atomic.Int32 // rank of the least severe LogLevel sent (logging/setLevel)

	enabledToolsets atomic.Uint64             // a toolsetSet: what the session enabled in dynamic mode (toolsets.go)
	viewCache       atomic.Pointer[viewCache] // its peer with the server's list view (toolsets.go)

	// shared is set when the session is kept in a SessionStore, for
	// every replica to serve (transport.SharedSink, runtime/streamhttp/shared.go); nil otherwise.
	shared transport.SharedSink

	pendMu  sync.Mutex                   // guards pending
	pending map[string]chan clientAnswer // server→client requests awaiting an answer, by jsonwire.IDKey
	lastID  atomic.Int64                 // the id of the last server→client request
}

// call is a request running in its own goroutine. It is also the context
// its handler runs under: the request's cancellable context, which answers
// Value(reqKey{}) with the call itself.
type call struct {
	context.Context
	cancel    context.CancelFunc
	ss        *Session
	id, key   string                                         // raw id; its jsonwire.IDKey
	exec      func(context.Context, *call) (encoder, *Error) // what the request does, under a context derived from the call
	cancelled bool                                           // by notifications/cancelled (guarded by ss.mu): send no response
	listen    bool                                           // a subscriptions/listen, which lasts until cancelled
	chained   bool                                           // exec runs the interceptors (intercept.go), which spend the quota inside

	meta []byte // the request's _meta object (a copy), or nil

	proto protocol   // the handler of the request's era (server.go)
	peer  *peerInfo  // a modern request's declarations (its _meta); nil in the legacy era
	cache *CacheHint // the caching hints its modern result carries (resources/read); nil: none
	mrtr  *mrtr      // a modern request's rounds of input (multi round-trip requests)

	// tools/call
	tool *toolEntry
	req  CallToolRequest

	progress progressState // Progress reports, which must increase

	taskParam []byte   // a legacy tools/call's params.task, or nil
	task      *taskRun // the task the call runs as, or nil (tasks.go)

	// afterReply runs once the response is written (or dropped): a task's
	// handler starts there, so that nothing it sends about the task comes
	// before the CreateTaskResult that tells the client the task's id.
	afterReply func()
}

func (c *call) Value(key any) any {
	if _, ok := key.(reqKey); ok {
		return c
	}
	return c.Context.Value(key)
}

// NewSession starts a session whose outgoing messages (responses,
// notifications, requests to the client) go to send, one complete JSON-RPC
// message per call, without a trailing newline. send is called from the
// goroutines that finish requests and send notifications, possibly
// concurrently: it must be safe for that (each call delivers one whole
// message) and must not retain msg after it returns. Once initialized, the
// session is known to the server (for notifications) until Close: a
// transport must Close every session it starts.
func (s *Server) NewSession(send func(msg []byte)) *Session {
	return s.newSession(sendFunc(send))
}

func (s *Server) newSession(tr outlet) *Session {
	ss := &Session{srv: s, tr: tr, inflight: make(map[string]*call), done: make(chan struct{})}
	ss.out.ss = ss
	ss.logLevel.Store(logging.DefaultRank)
	return ss
}

// outlet carries a session's outgoing messages: a transport.Sink
// (sinkOutlet), or NewSession's function. Streamable HTTP routes each to
// the stream of the request it belongs to; stdio has one stream.
type outlet interface {
	// send delivers msg, which it must not retain. rel is the raw id of
	// the client request msg belongs to: final marks its response, and
	// other messages with a rel were sent while serving it (progress,
	// logging, requests to the client). rel is "" for a message that
	// belongs to no request (list_changed, resources/updated). send
	// reports whether msg went anywhere: a request to the client that
	// cannot reach it fails at once instead of waiting forever.
	send(rel string, final bool, msg []byte) bool
	// abandon says that request rel ends without a response (cancelled).
	abandon(rel string)
	// closeStream ends the response stream of request rel early, if the
	// transport has such streams and can resume them (CloseSSEStream).
	closeStream(rel string)
	// close releases senders waiting on the transport; the session is
	// closing and sends nothing more.
	close()
}

// sendFunc is the transport of NewSession: one stream for everything.
type sendFunc func(msg []byte)

func (f sendFunc) send(_ string, _ bool, msg []byte) bool { f(msg); return true }
func (sendFunc) abandon(string)                           {}
func (sendFunc) closeStream(string)                       {}
func (sendFunc) close()                                   {}

// HandleMessage handles one incoming JSON-RPC message. It returns once the
// message is dispatched: built-in methods (initialize, ping, lists,
// resources/subscribe and unsubscribe) are answered before it returns, so
// their effect is ordered with later messages; the methods that run user
// code (tools/call, resources/read, prompts/get, completion/complete) run in
// their own goroutine (on the caller's, answered before HandleMessage
// returns, for a transport that asks for it: transport.Options.InlineCalls)
// under a context derived from ctx, can be cancelled, and are answered when
// their handler returns. Malformed input is answered
// with the protocol's error and never stops the session. HandleMessage does
// not retain msg. It may be called concurrently.
func (ss *Session) HandleMessage(ctx context.Context, msg []byte) {
	if ss.closed.Load() {
		return
	}
	defer func() {
		// Our own bug must not take the process down with it.
		if v := recover(); v != nil {
			ss.srv.cfg.logger.Error("runtime: panic while handling a message", "panic", v)
		}
	}()
	var env envelope
	kind, echo, e := parseMessage(msg, &env, ss.srv.cfg.json)
	if e != nil {
		ss.refuse(ctx, echo, env.method, nil, e)
		return
	}
	ss.dispatch(ctx, kind, &env)
}

// msgKind is what a well-formed incoming message is.
type msgKind uint8

const (
	kindIgnored      msgKind = iota // a response whose id is not valid: dropped
	kindRequest                     // method and id
	kindNotification                // method, no id
	kindResponse                    // result or error, and a valid id
)

// parseMessage decodes msg into env and tells what it is. A malformed
// message, or one beyond lim, gets the error to answer it with, and the id
// to answer with ("" for null): the message's own when it is valid.
func parseMessage(msg []byte, env *envelope, lim jsonLimits) (kind msgKind, echo string, e *Error) {
	kind, echo, e = parseEnvelope(msg, env)
	if e == nil { // msg is valid JSON: it can be counted
		if env.values, e = lim.checkWidth(msg); e != nil {
			return 0, echo, e
		}
	}
	return kind, echo, e
}

// parseEnvelope is parseMessage without the limits.
func parseEnvelope(msg []byte, env *envelope) (kind msgKind, echo string, e *Error) {
	if e := decodeEnvelope(msg, env); e != nil {
		return 0, "", e
	}
	hasID := len(env.ID) > 0
	idOK := hasID && jsonwire.ValidID(env.ID)
	if idOK {
		echo = string(env.ID)
	}
	if len(env.Method) == 0 {
		if hasID && (len(env.Result) > 0 || len(env.Error) > 0) {
			if idOK {
				return kindResponse, "", nil
			}
			return kindIgnored, "", nil // responses are never answered
		}
		return 0, echo, errorf(CodeInvalidRequest, `invalid request: "method" is missing`)
	}
	if v, ok := jsonwire.MethodBytes(env.JSONRPC); !ok || string(v) != "2.0" { // compared unescaped: "2\u002e0" is "2.0"
		return 0, echo, errorf(CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	method, ok := jsonwire.MethodBytes(env.Method)
	if !ok {
		return 0, echo, errorf(CodeInvalidRequest, `invalid request: "method" must be a string`)
	}
	env.method = method
	if !hasID {
		return kindNotification, "", nil
	}
	if !idOK {
		return 0, "", errorf(CodeInvalidRequest, `invalid request: "id" must be a string or an integer`)
	}
	return kindRequest, echo, nil
}

// dispatch handles a message parseMessage accepted.
func (ss *Session) dispatch(ctx context.Context, kind msgKind, env *envelope) {
	if ss.closed.Load() {
		return
	}
	defer ss.recoverDispatch()
	switch kind {
	case kindRequest:
		ss.request(ctx, string(env.ID), env.method, env.Params)
	case kindNotification:
		ss.notification(ctx, env.method, env.Params)
	case kindResponse:
		ss.handleResponse(env.ID, env.Result, env.Error)
	}
}

// dispatchModern handles a request its transport already read as modern
// (modern HTTP, which checks the _meta against the headers first): ctx.peer
// holds what its _meta says.
func (ss *Session) dispatchModern(ctx *modernCtx, env *envelope) {
	if ss.closed.Load() {
		return
	}
	defer ss.recoverDispatch()
	ss.serveModern(ctx, string(env.ID), env.method, env.Params)
}

// recoverDispatch logs a panic of the dispatch: our own bug must not take
// the process down with it.
func (ss *Session) recoverDispatch() {
	if v := recover(); v != nil {
		ss.srv.cfg.logger.Error("runtime: panic while handling a message", "panic", v)
	}
}

// request dispatches a request by the handler of its era (server.go). params
// is part of the message, which is not ours after HandleMessage returns:
// anything that outlives this call copies it.
func (ss *Session) request(ctx context.Context, id string, method []byte, params json.RawMessage) {
	ss.srv.protocolOf(method, params).serve(ss, ctx, id, method, params)
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

// handshake answers initialize, then lets notifications follow.
func (ss *Session) handshake(ctx context.Context, id string, params json.RawMessage) {
	var res encoder
	var e *Error
	if req := requestOf(ctx); req != nil {
		res, e = ss.srv.intercepted(ctx, req, func(context.Context) (encoder, *Error) { return ss.initialize(params) })
	} else {
		res, e = ss.initialize(params)
	}
	ss.reply(id, res, e)
	if e == nil {
		ss.out.start() // notifications may follow the response now
	}
	if e == nil && ss.ready.Load() && len(ss.srv.cfg.sessionHooks) > 0 {
		ss.sessionStarted(ctx)
	}
}

// offers reports whether the session serves the methods of a capability:
// when it was advertised at initialize, or when something of the kind is
// registered now (n > 0). A client told "no prompts" that asks anyway gets
// method not found, as long as there are none.
func (ss *Session) offers(c capSet, n int) bool {
	if n > 0 {
		return true
	}
	p := ss.peer.Load()
	return p != nil && p.caps&c != 0
}

// notification handles a message without id. Unknown notifications are
// ignored, as JSON-RPC requires (a notification is never answered).
// With interceptors, they see it too (its result is ignored).
func (ss *Session) notification(ctx context.Context, method []byte, params json.RawMessage) {
	if ss.srv.chain != nil {
		req := &Request{Method: string(method), Params: bytes.Clone(params)}
		ss.describe(ctx, req)
		ss.srv.intercepted(ctx, req, func(context.Context) (encoder, *Error) {
			ss.handleNotification(method, params)
			return nil, nil
		})
		return
	}
	ss.handleNotification(method, params)
}

func (ss *Session) handleNotification(method []byte, params json.RawMessage) {
	switch string(method) {
	case notificationInitialized:
		// Accepted. Requests are served from the initialize response on,
		// which is what clients that pipeline expect.
	case notificationCancelled:
		ss.cancelRequest(params)
	default:
		if ss.srv.cfg.logger.Enabled(context.Background(), slog.LevelDebug) {
			ss.srv.cfg.logger.Debug("runtime: ignoring notification", "method", sanitize(string(method), maxQuoted))
		}
	}
}

// handleResponse receives the client's answer to a server→client request
// and hands it to the request waiting for it (see ask). An answer to no
// pending request (unknown, already answered, given up on) is ignored.
func (ss *Session) handleResponse(id, result, errObj json.RawMessage) {
	if ss.answer(id, result, errObj) {
		return
	}
	if ss.shared != nil { // the request may wait on another replica
		ss.shared.Forward(id, result, errObj)
		return
	}
	ss.srv.cfg.logger.Debug("runtime: ignoring a response to no pending request", "id", sanitize(string(id), maxQuoted))
}

// answer hands a client's answer to the request of this session that
// waits for it here, and reports whether one did.
func (ss *Session) answer(id, result, errObj json.RawMessage) bool {
	key := jsonwire.IDKey(string(id))
	ss.pendMu.Lock()
	ch := ss.pending[key]
	delete(ss.pending, key)
	ss.pendMu.Unlock()
	if ch != nil {
		ch <- newClientAnswer(result, errObj)
	}
	return ch != nil
}

// initialize performs the handshake: negotiate the version, remember who the
// client is, and advertise what the server offers.
func (ss *Session) initialize(params json.RawMessage) (encoder, *Error) {
	if jsonwire.FirstByte(params) != '{' {
		return nil, errorf(CodeInvalidParams, "invalid params: initialize takes an object with protocolVersion, capabilities and clientInfo")
	}
	var p struct {
		ProtocolVersion json.RawMessage `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      json.RawMessage `json:"clientInfo"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, errorf(CodeInvalidParams, "invalid params: %s", quote(err.Error()))
	}
	var requested string
	if err := json.Unmarshal(p.ProtocolVersion, &requested); err != nil || requested == "" {
		return nil, errorf(CodeInvalidParams, `invalid params: "protocolVersion" must be a non-empty string`)
	}
	pi := &peerInfo{version: latestVersion}
	if slices.Contains(supportedVersions, requested) {
		pi.version = requested
	}
	if jsonwire.FirstByte(p.Capabilities) == '{' {
		pi.capabilities = p.Capabilities // a fresh copy made by Unmarshal
		pi.client = parseClientCaps(p.Capabilities)
	}
	// Be liberal with what clients say about themselves: a malformed
	// clientInfo is not worth refusing a session over.
	if jsonwire.FirstByte(p.ClientInfo) == '{' && json.Unmarshal(p.ClientInfo, &pi.clientInfo) == nil {
		pi.hasClientInfo = true
	}

	ss.mu.Lock()
	if ss.ready.Load() {
		ss.mu.Unlock()
		return nil, errorf(CodeInvalidRequest, "invalid request: the session is already initialized")
	}
	// Join the server's sessions before reading what it offers: a change
	// made after this point is announced (once the response is out, see
	// outbox.start), one made before is in the capabilities and lists.
	ss.srv.sessions.add(ss)
	if ss.closed.Load() { // Close ran meanwhile and could not remove us
		ss.srv.sessions.remove(ss)
	}
	var caps json.RawMessage
	caps, pi.caps = ss.srv.capabilities()
	caps = ss.srv.withTasksCapability(caps, pi.version)
	ss.peer.Store(pi)
	ss.ready.Store(true)
	ss.mu.Unlock()

	b, err := json.Marshal(struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ServerInfo      Implementation  `json:"serverInfo"`
		Instructions    string          `json:"instructions,omitempty"`
	}{pi.version, caps, ss.srv.info, ss.srv.cfg.instructions})
	if err != nil {
		return nil, errorf(CodeInternalError, "internal error: %v", err)
	}
	return rawResult(b), nil
}

// initStateless makes a session that serves one request of a stateless
// transport ready without a handshake: the client initialized some other
// session, the version is what its request says.
func (ss *Session) initStateless(version string) {
	if !slices.Contains(supportedVersions, version) {
		version = latestVersion
	}
	pi := &peerInfo{version: version}
	_, pi.caps = ss.srv.capabilities()
	ss.peer.Store(pi)
	ss.ready.Store(true)
}

// cancelRequest handles notifications/cancelled: the request's context is
// cancelled and its response suppressed. Unknown or finished ids are ignored
// (the spec allows the race); initialize is never in flight, so it cannot be
// cancelled.
func (ss *Session) cancelRequest(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if jsonwire.FirstByte(params) != '{' || json.Unmarshal(params, &p) != nil || !jsonwire.ValidID(p.RequestID) {
		return
	}
	key := jsonwire.IDKey(string(p.RequestID))
	ss.mu.Lock()
	c := ss.inflight[key]
	if c != nil {
		c.cancelled = true
	}
	ss.mu.Unlock()
	if c != nil {
		c.cancel()
	}
}

// start runs c in its own goroutine, registered in the in-flight table so
// that it can be cancelled, and answers it when it returns. c.exec and the
// fields it reads are set by the caller.
func (ss *Session) start(ctx context.Context, id string, c *call) {
	c.ss, c.id, c.key, c.proto = ss, id, jsonwire.IDKey(id), legacyEra
	if mc, ok := ctx.(*modernCtx); ok {
		c.proto, c.peer, c.mrtr = modernEra, mc.peer, mc.mrtr
	}
	if req := requestOf(ctx); req != nil {
		c.chained = true
		inner := c.exec
		c.exec = func(ctx context.Context, c *call) (encoder, *Error) {
			return ss.srv.intercepted(ctx, req, func(ctx context.Context) (encoder, *Error) { return c.spendThen(ctx, inner) })
		}
	}
	c.Context, c.cancel = context.WithCancel(ss.callParent(ctx))
	ss.mu.Lock()
	if ss.closed.Load() {
		ss.mu.Unlock()
		c.cancel()
		return
	}
	if ss.draining {
		ss.mu.Unlock()
		c.cancel()
		ss.respond(ctx, id, nil, errShuttingDown)
		return
	}
	if _, dup := ss.inflight[c.key]; dup {
		ss.mu.Unlock()
		c.cancel()
		ss.respond(ctx, id, nil, errorf(CodeInvalidRequest, "invalid request: id %s is already used by a request in flight", sanitize(id, maxQuoted)))
		return
	}
	ss.inflight[c.key] = c
	ss.wg.Add(1)
	ss.mu.Unlock()
	if ss.inlineCall != nil { // on the caller's goroutine, which its transport may leave (stdio)
		ss.inlineCall()
		c.Run()
		return
	}
	if runInline(ctx) { // an HTTP POST's request: on its goroutine (streamhttp/inline.go)
		c.Run()
		return
	}
	ss.srv.workers.Run(c)
}

// Run executes the call on a worker goroutine (a workers.Job).
func (c *call) Run() {
	ss := c.ss
	defer ss.wg.Done()
	var res encoder
	var e *Error
	if c.chained {
		res, e = c.exec(c, c)
	} else {
		res, e = c.spendThen(c, c.exec)
	}
	res, e = c.proto.outcome(c, res, e)
	ss.mu.Lock()
	delete(ss.inflight, c.key)
	cancelled := c.cancelled
	ss.mu.Unlock()
	c.cancel()
	if cancelled {
		ss.tr.abandon(c.id)
	} else {
		ss.reply(c.id, res, e)
	}
	if c.afterReply != nil {
		c.afterReply()
	}
}

// spendThen spends the caller's quota (quota.go), then does the request's
// work, exec. A subscriptions/listen spends none: it lasts, it does not
// compute.
func (c *call) spendThen(ctx context.Context, exec func(context.Context, *call) (encoder, *Error)) (encoder, *Error) {
	if !c.listen {
		if e := c.ss.srv.takeQuota(ctx, c.tool); e != nil {
			return nil, e
		}
	}
	return exec(ctx, c)
}

// Wait blocks until every request running in its own goroutine has returned
// and been answered (or dropped). Call it when no more messages will be
// handled, e.g. at end of input.
func (ss *Session) Wait() { ss.wg.Wait() }

// Close ends the session: the contexts of requests in flight are cancelled,
// later messages are ignored, the server forgets the session (no more
// notifications), and once Close returns send is never called again. It does
// not wait for handlers to return.
// CallsInFlight reports whether calls of the session are running.
func (ss *Session) CallsInFlight() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return len(ss.inflight) > 0
}

// callParent is the context a call's own derives from. In a detached
// session (stdio), every call would otherwise register with the one context
// of the whole session, under its lock, and leave it again when done: a
// cost per call that buys nothing, since Close cancels every call in flight
// and the transport closes the session as soon as that context ends. The
// values stay; a deadline keeps the link, so that handlers see it.
func (ss *Session) callParent(ctx context.Context) context.Context {
	if !ss.detached {
		return ctx
	}
	if _, ok := ctx.Deadline(); ok {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

func (ss *Session) Close() {
	ss.closed.Store(true)
	ss.closeOnce.Do(func() {
		ss.sessionEnded()
		close(ss.done)
		ss.tr.close() // a sender waiting on a slow stream lets go of sendGate
	})
	ss.srv.sessions.remove(ss)
	ss.out.close()
	ss.mu.Lock()
	for _, c := range ss.inflight {
		c.cancel()
	}
	ss.mu.Unlock()
	ss.sendGate.Lock() // sends in progress complete before Close returns
	ss.sendGate.Unlock()
}

func (ss *Session) reply(id string, res encoder, e *Error) {
	if e != nil {
		ss.sendError(id, e)
		return
	}
	ss.sendResult(id, res)
}

// persist saves the session's state, if it is shared, before a change of
// it is answered.
func (ss *Session) persist() *Error {
	if ss.shared == nil {
		return nil
	}
	if e := ss.shared.Persist(); e != nil {
		return &Error{Code: e.Code, Message: e.Message}
	}
	return nil
}

func (ss *Session) sendResult(id string, res encoder) {
	bp := bufpool.Get()
	b, err := appendResult(*bp, id, res)
	if err != nil {
		ss.srv.cfg.logger.Error("runtime: cannot encode a result", "error", err)
		b = appendErrorResponse(b[:0], id, errorf(CodeInternalError, "internal error: the result could not be encoded"))
	} else {
		b = append(b, '}')
	}
	ss.write(id, true, b)
	*bp = b
	bufpool.Put(bp)
}

func (ss *Session) sendError(id string, e *Error) {
	bp := bufpool.Get()
	b := appendErrorResponse(*bp, id, e)
	ss.write(id, id != "", b)
	*bp = b
	bufpool.Put(bp)
}

// write hands one message to the transport (see transport.send) unless
// the session is closed.
func (ss *Session) write(rel string, final bool, b []byte) bool {
	ss.sendGate.RLock()
	defer ss.sendGate.RUnlock()
	if ss.closed.Load() {
		return false
	}
	return ss.tr.send(rel, final, b)
}

// appendResult encodes a result response. Encoding runs user code (a
// MarshalJSON in structuredContent, say); a panic there is an error, not a
// crash.
func appendResult(dst []byte, id string, res encoder) (b []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			b, err = dst, fmt.Errorf("panic while encoding: %v", v)
		}
	}()
	b = jsonwire.AppendResponseHead(dst, id)
	b = append(b, `,"result":`...)
	return res.appendJSON(b)
}

// modernOutcome is what a modern request answers once its handler
// returned: -32021 when its handler failed for want of a capability the
// request did not declare, input_required when it asked the client for
// something not answered yet, else its result or error in the modern form.
func (c *call) modernOutcome(res encoder, e *Error) (encoder, *Error) {
	srv := c.ss.srv
	if m := c.mrtr; m != nil {
		m.mu.Lock()
		pending, missing, capFailed := len(m.pending), m.missing, m.capFailed
		m.mu.Unlock()
		switch {
		case missing != 0 && capFailed:
			return nil, missingCapability(missing)
		case pending > 0:
			ir, err := srv.inputRequired(m)
			if err != nil {
				return nil, errorf(CodeInternalError, "internal error: encoding the input request: %v", err)
			}
			return modernEncoder{inner: ir, srv: srv}, nil
		}
	}
	if e != nil {
		return nil, modernError(e)
	}
	return modernEncoder{inner: res, srv: srv, cache: c.cache}, nil
}

// A graceful shutdown drains a session: the calls in flight may finish and
// have their responses written, while no new call starts. Notifications and
// responses are still handled meanwhile: the client may cancel a call, or
// answer a question a handler asked it.

// codeShuttingDown answers a call that arrives while the server shuts down
// (JSON-RPC's range for server errors).
const codeShuttingDown = -32000

var errShuttingDown = &Error{Code: codeShuttingDown, Message: "the server is shutting down and starts no new calls; retry on a new connection"}

// StopCalls makes the session refuse calls from now on (error -32000);
// notifications and answers to the server's requests are still handled.
func (ss *Session) StopCalls() {
	ss.mu.Lock()
	ss.draining = true
	ss.mu.Unlock()
}

// Drain stops new calls from starting and returns a channel closed once no
// call is in flight. Calls start under ss.mu, which StopCalls takes to set
// the flag: none is added to ss.wg after it returns, so waiting on it is
// safe.
func (ss *Session) Drain() <-chan struct{} {
	ss.StopCalls()
	idle := make(chan struct{})
	go func() {
		ss.wg.Wait()
		close(idle)
	}()
	return idle
}
