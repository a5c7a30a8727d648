package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
)

// Session is the transport-agnostic protocol state of one client connection:
// the initialize handshake, what the client declared, the requests in
// flight, its resource subscriptions and the notifications due to it. A
// transport reads messages, hands each to HandleMessage, and writes what the
// session gives to its send function. stdio uses one Session per
// process; Streamable HTTP will use one per Mcp-Session-Id; tests and
// benchmarks drive one in process.
type Session struct {
	srv  *Server
	send func(msg []byte)

	closed   atomic.Bool
	sendGate sync.RWMutex // sends hold it shared; Close takes it to wait them out

	mu       sync.Mutex       // guards inflight, the calls' cancelled flags, and ready's check-and-set
	inflight map[string]*call // by idKey
	ready    atomic.Bool      // initialize answered; read without mu
	wg       sync.WaitGroup   // calls running in their own goroutine

	peer atomic.Pointer[peerInfo]

	out outbox // notifications due

	subMu sync.Mutex          // guards subs
	subs  map[string]struct{} // resources/subscribe'd URIs
}

// call is a request running in its own goroutine. It is also the context
// its handler runs under: the request's cancellable context, which answers
// Value(reqKey{}) with the call itself.
type call struct {
	context.Context
	cancel    context.CancelFunc
	ss        *Session
	id, key   string                        // raw id; its idKey
	exec      func(*call) (encoder, *Error) // what the request does
	cancelled bool                          // by notifications/cancelled (guarded by ss.mu): send no response

	// tools/call
	tool *toolEntry
	req  CallToolRequest
}

func (c *call) Value(key any) any {
	if _, ok := key.(reqKey); ok {
		return c
	}
	return c.Context.Value(key)
}

// NewSession starts a session whose outgoing messages (responses,
// notifications; later server requests) go to send, one complete JSON-RPC
// message per call, without a trailing newline. send is called from the
// goroutines that finish requests and send notifications, possibly
// concurrently: it must be safe for that (each call delivers one whole
// message) and must not retain msg after it returns. Once initialized, the
// session is known to the server (for notifications) until Close: a
// transport must Close every session it starts.
func (s *Server) NewSession(send func(msg []byte)) *Session {
	ss := &Session{srv: s, send: send, inflight: make(map[string]*call)}
	ss.out.ss = ss
	return ss
}

// HandleMessage handles one incoming JSON-RPC message. It returns once the
// message is dispatched: built-in methods (initialize, ping, lists,
// resources/subscribe and unsubscribe) are answered before it returns, so
// their effect is ordered with later messages; the methods that run user
// code (tools/call, resources/read, prompts/get, completion/complete) run in
// their own goroutine under a context derived from ctx, can be cancelled,
// and are answered when their handler returns. Malformed input is answered
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
	if e := decodeEnvelope(msg, &env); e != nil {
		ss.sendError("", e)
		return
	}
	hasID := len(env.ID) > 0
	idOK := hasID && validID(env.ID)
	echo := func() string { // the id to answer an invalid message with
		if idOK {
			return string(env.ID)
		}
		return ""
	}
	if len(env.Method) == 0 {
		if hasID && (len(env.Result) > 0 || len(env.Error) > 0) {
			if idOK {
				ss.handleResponse(env.ID, env.Result, env.Error)
			}
			return // responses are never answered
		}
		ss.sendError(echo(), errorf(CodeInvalidRequest, `invalid request: "method" is missing`))
		return
	}
	if string(env.JSONRPC) != `"2.0"` {
		ss.sendError(echo(), errorf(CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`))
		return
	}
	method, ok := methodBytes(env.Method)
	if !ok {
		ss.sendError(echo(), errorf(CodeInvalidRequest, `invalid request: "method" must be a string`))
		return
	}
	if !hasID {
		ss.notification(method, env.Params)
		return
	}
	if !idOK {
		ss.sendError("", errorf(CodeInvalidRequest, `invalid request: "id" must be a string or an integer`))
		return
	}
	ss.request(ctx, string(env.ID), method, env.Params)
}

// request dispatches a request. params is part of the message, which is not
// ours after HandleMessage returns: anything that outlives this call copies it.
func (ss *Session) request(ctx context.Context, id string, method []byte, params json.RawMessage) {
	switch string(method) {
	case "initialize":
		res, e := ss.initialize(params)
		ss.reply(id, res, e)
		if e == nil {
			ss.out.start() // notifications may follow the response now
		}
		return
	case "ping":
		ss.sendResult(id, rawResult(`{}`))
		return
	}
	if !ss.ready.Load() {
		ss.sendError(id, errorf(CodeInvalidRequest, "invalid request: the session is not initialized; send initialize first"))
		return
	}
	var res encoder
	var e *Error
	switch string(method) {
	case "tools/call":
		ss.toolsCall(ctx, id, params)
		return
	case "resources/read":
		ss.resourcesRead(ctx, id, params)
		return
	case "prompts/get":
		ss.promptsGet(ctx, id, params)
		return
	case "completion/complete":
		ss.complete(ctx, id, params)
		return
	case "tools/list":
		res, e = ss.toolsList(params)
	case "resources/list":
		res, e = ss.resourcesList(params)
	case "resources/templates/list":
		res, e = ss.templatesList(params)
	case "prompts/list":
		res, e = ss.promptsList(params)
	case "resources/subscribe":
		res, e = ss.subscribe(params, true)
	case "resources/unsubscribe":
		res, e = ss.subscribe(params, false)
	default:
		e = errorf(CodeMethodNotFound, "method %s not found", quote(string(method)))
	}
	ss.reply(id, res, e)
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
func (ss *Session) notification(method []byte, params json.RawMessage) {
	switch string(method) {
	case "notifications/initialized":
		// Accepted. Requests are served from the initialize response on,
		// which is what clients that pipeline expect.
	case "notifications/cancelled":
		ss.cancelRequest(params)
	default:
		if ss.srv.cfg.logger.Enabled(context.Background(), slog.LevelDebug) {
			ss.srv.cfg.logger.Debug("runtime: ignoring notification", "method", sanitize(string(method), maxQuoted))
		}
	}
}

// handleResponse receives the client's answer to a server→client request.
// The runtime sends none yet. When sampling, elicitation and roots arrive,
// this is where the pending-request table (keyed by idKey, like inflight)
// completes the waiting call; until then responses are accepted and dropped.
func (ss *Session) handleResponse(id, result, errObj json.RawMessage) {
	ss.srv.cfg.logger.Debug("runtime: ignoring a response to no pending request", "id", sanitize(string(id), maxQuoted))
}

// initialize performs the handshake: negotiate the version, remember who the
// client is, and advertise what the server offers.
func (ss *Session) initialize(params json.RawMessage) (encoder, *Error) {
	if firstByte(params) != '{' {
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
	if firstByte(p.Capabilities) == '{' {
		pi.capabilities = p.Capabilities // a fresh copy made by Unmarshal
	}
	// Be liberal with what clients say about themselves: a malformed
	// clientInfo is not worth refusing a session over.
	if firstByte(p.ClientInfo) == '{' && json.Unmarshal(p.ClientInfo, &pi.clientInfo) == nil {
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

// cancelRequest handles notifications/cancelled: the request's context is
// cancelled and its response suppressed. Unknown or finished ids are ignored
// (the spec allows the race); initialize is never in flight, so it cannot be
// cancelled.
func (ss *Session) cancelRequest(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if firstByte(params) != '{' || json.Unmarshal(params, &p) != nil || !validID(p.RequestID) {
		return
	}
	key := idKey(string(p.RequestID))
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
	c.ss, c.id, c.key = ss, id, idKey(id)
	c.Context, c.cancel = context.WithCancel(ctx)
	ss.mu.Lock()
	if ss.closed.Load() {
		ss.mu.Unlock()
		c.cancel()
		return
	}
	if _, dup := ss.inflight[c.key]; dup {
		ss.mu.Unlock()
		c.cancel()
		ss.sendError(id, errorf(CodeInvalidRequest, "invalid request: id %s is already used by a request in flight", sanitize(id, maxQuoted)))
		return
	}
	ss.inflight[c.key] = c
	ss.wg.Add(1)
	ss.mu.Unlock()
	ss.srv.workers.run(c)
}

// run executes the call on a worker goroutine.
func (c *call) run() {
	ss := c.ss
	defer ss.wg.Done()
	res, e := c.exec(c)
	ss.mu.Lock()
	delete(ss.inflight, c.key)
	cancelled := c.cancelled
	ss.mu.Unlock()
	c.cancel()
	if !cancelled {
		ss.reply(c.id, res, e)
	}
}

// Wait blocks until every request running in its own goroutine has returned
// and been answered (or dropped). Call it when no more messages will be
// handled, e.g. at end of input.
func (ss *Session) Wait() { ss.wg.Wait() }

// Close ends the session: the contexts of requests in flight are cancelled,
// later messages are ignored, the server forgets the session (no more
// notifications), and once Close returns send is never called again. It does
// not wait for handlers to return.
func (ss *Session) Close() {
	ss.closed.Store(true)
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

func (ss *Session) sendResult(id string, res encoder) {
	bp := getBuf()
	b, err := appendResult(*bp, id, res)
	if err != nil {
		ss.srv.cfg.logger.Error("runtime: cannot encode a result", "error", err)
		b = appendErrorResponse(b[:0], id, errorf(CodeInternalError, "internal error: the result could not be encoded"))
	} else {
		b = append(b, '}')
	}
	ss.write(b)
	*bp = b
	putBuf(bp)
}

func (ss *Session) sendError(id string, e *Error) {
	bp := getBuf()
	b := appendErrorResponse(*bp, id, e)
	ss.write(b)
	*bp = b
	putBuf(bp)
}

func (ss *Session) write(b []byte) {
	ss.sendGate.RLock()
	defer ss.sendGate.RUnlock()
	if !ss.closed.Load() {
		ss.send(b)
	}
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
	b = appendResponseHead(dst, id)
	b = append(b, `,"result":`...)
	return res.appendJSON(b)
}
