package streamhttp

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/bufpool"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Handler is the Streamable HTTP transport of a server, for one endpoint
// (see runtime.Server.HTTPHandler for what it answers).
type Handler struct {
	srv  transport.FullServer
	conf transport.Config // the server's
	log  *slog.Logger
	cfg  config
	auth Authorizer // nil without WithAuthorizer

	mu       sync.Mutex
	sessions map[string]*httpSession
	perOwner map[string]int                 // with authorization: how many of the sessions each owner has
	drains   map[*http.Server]chan struct{} // closed when that server shuts down
	large    chan struct{}                  // a slot per large message being served (WithMaxLargeRequests)
}

// New returns the Streamable HTTP transport of srv with opts; an error
// when srv cannot start (Server.Start) or an option is wrong.
func New(srv transport.FullServer, opts ...Option) (*Handler, error) {
	if err := srv.Start(); err != nil {
		return nil, err
	}
	conf := srv.TransportConfig()
	cfg := config{
		idleTimeout:     defaultIdleTimeout,
		maxBody:         int64(srv.Limits().MaxMessageSize),
		maxConcurrent:   defaultMaxConcurrent,
		retry:           defaultRetry,
		shutdownTimeout: defaultShutdownTimeout,

		maxLarge:              defaultMaxLargeRequests,
		maxSessions:           defaultMaxSessions,
		maxSessionsPerSubject: defaultMaxSessionsPerSubject,
		bodyReadTimeout:       defaultBodyReadTimeout,
		readHeaderTimeout:     defaultReadHeaderTimeout,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.store == nil {
		cfg.store = conf.Events // WithStore's, if any
	}
	h := &Handler{srv: srv, conf: conf, log: conf.Logger, cfg: cfg, sessions: make(map[string]*httpSession), large: make(chan struct{}, cfg.maxLarge)}
	if h.shared() {
		srv.SubscribeSessions(h.fromBus)
	}
	if cfg.auth != nil {
		a, err := cfg.auth(srv)
		if err != nil {
			return nil, fmt.Errorf("WithAuthorization: %w", err)
		}
		h.auth = a
	}
	return h, nil
}

// Shared header values (net/http does not modify them).
var (
	jsonContentType = []string{"application/json"}
	sseContentType  = []string{"text/event-stream"}
	noCache         = []string{"no-cache"}
	noBuffering     = []string{"no"}
)

const (
	headerSessionID       = transport.HeaderSessionID
	headerProtocolVersion = transport.HeaderProtocolVersion
	headerMethod          = transport.HeaderMethod
	headerName            = transport.HeaderName
	headerLastEventID     = "Last-Event-Id"
)

// headerValue is r.Header.Get for a key already in canonical form (every
// header name constant here is): the map is indexed directly, without
// checking and canonicalizing the key on every request.
func headerValue(h http.Header, canonicalKey string) string {
	if v := h[canonicalKey]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.startBodyDeadline(w, r)
	if msg := h.checkHostOrigin(r); msg != "" {
		httpError(w, http.StatusForbidden, "", errorf(codeInvalidRequest, "%s", msg))
		return
	}
	if h.auth != nil {
		var rf *Refusal
		if r, rf = h.auth.Authenticate(r); rf != nil {
			rf.write(w, "")
			return
		}
	}
	// A server without toolsets still reads a selection, to refuse its
	// names as unknown rather than ignore them.
	if h.conf.Toolsets || r.Header.Get(transport.HeaderToolsets) != "" || r.URL.RawQuery != "" && r.URL.Query().Has("toolsets") {
		var err error
		if r, err = h.srv.RequestToolsets(r); err != nil {
			httpError(w, http.StatusBadRequest, "", errorf(codeInvalidParams, "invalid params: %s", err))
			return
		}
	}
	if name := repeatedMcpHeader(r.Header); name != "" {
		httpError(w, http.StatusBadRequest, "", errorf(codeHeaderMismatch, "header mismatch: the %s header is sent more than once; send it once", name))
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodGet:
		h.get(w, r)
	case http.MethodDelete:
		h.delete(w, r)
	default:
		h.methodNotAllowed(w)
	}
}

// repeatedMcpHeader returns the name of an MCP header that h carries on
// more than one line, or "". The runtime reads the first line of each, and
// a gateway in front of it may route or authorize on another, so a request
// that repeats one is refused whatever the order of its lines.
func repeatedMcpHeader(h http.Header) string {
	for name, lines := range h {
		if len(lines) > 1 && (name == headerProtocolVersion || name == headerMethod || name == headerName ||
			name == headerSessionID || strings.HasPrefix(name, "Mcp-Param-")) {
			return name
		}
	}
	return ""
}

func (h *Handler) methodNotAllowed(w http.ResponseWriter) {
	allow := "GET, POST, DELETE"
	if h.cfg.stateless {
		allow = "POST"
	}
	w.Header().Set("Allow", allow)
	httpError(w, http.StatusMethodNotAllowed, "", errorf(codeInvalidRequest, "method not allowed: this endpoint serves %s", allow))
}

// post serves one JSON-RPC message: the checks every POST passes, then
// the handler of its era, chosen here and nowhere else: a modern request
// (its _meta names a protocol version) goes to postModern, everything
// else to postLegacy.
func (h *Handler) post(w http.ResponseWriter, r *http.Request) {
	if !h.checkPostHeaders(w, r) {
		return
	}
	bp := bufpool.Get()
	defer bufpool.Put(bp)
	var m transport.Message
	if !h.readPosted(w, r, bp, &m) {
		return
	}
	if m.Values > largeValues { // decoding it costs memory: a few at a time
		if !h.enterLarge(w, m.Echo) {
			return
		}
		defer func() { <-h.large }()
	}
	if h.auth != nil && m.Kind == transport.KindRequest {
		if rf := h.auth.CheckCall(r, m); rf != nil {
			rf.write(w, m.Echo)
			return
		}
	}
	switch {
	case m.Kind == transport.KindRequest && m.Modern:
		h.postModern(w, r, &m)
	case m.Kind == transport.KindNotification && headerValue(r.Header, headerSessionID) == "" && h.modern(r):
		w.WriteHeader(http.StatusAccepted) // a modern notification: nothing to route it to
	default:
		h.postLegacy(w, r, &m)
	}
}

// checkPostHeaders refuses a POST whose Accept or Content-Type does not
// fit the transport.
func (h *Handler) checkPostHeaders(w http.ResponseWriter, r *http.Request) bool {
	if !acceptsJSONAndSSE(r.Header) {
		httpError(w, http.StatusNotAcceptable, "", errorf(codeInvalidRequest, "not acceptable: the Accept header must list application/json and text/event-stream"))
		return false
	}
	if mt, _, _ := strings.Cut(headerValue(r.Header, "Content-Type"), ";"); !strings.EqualFold(strings.TrimSpace(mt), "application/json") {
		httpError(w, http.StatusUnsupportedMediaType, "", errorf(codeInvalidRequest, "unsupported media type: the body must be application/json"))
		return false
	}
	return true
}

// readPosted reads the body into *bp (returned to the pool by the caller)
// and parses it into m, answering what it refuses.
func (h *Handler) readPosted(w http.ResponseWriter, r *http.Request, bp *[]byte, m *transport.Message) bool {
	body, err := h.readBody(w, r, bp)
	if body != nil {
		*bp = body // possibly grown: back to the pool
	}
	if err != nil {
		h.refuseBody(w, body, err)
		return false
	}
	var e *Error
	if *m, e = h.srv.Parse(body); e != nil {
		if e.Code == codeInvalidRequest && jsonwire.FirstByte(body) == '[' {
			e = errorf(codeInvalidRequest, "invalid request: batches are not supported; POST one JSON-RPC message at a time")
		}
		httpError(w, http.StatusBadRequest, m.Echo, e)
		return false
	}
	return true
}

// refuseBody answers a body that could not be read whole. The connection
// closes after the refusal: what is left of the body is not drained (a
// body trickling in would hold it).
func (h *Handler) refuseBody(w http.ResponseWriter, body []byte, err error) {
	w.Header().Set("Connection", "close")
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		httpError(w, http.StatusRequestEntityTooLarge, "", errorf(codeInvalidRequest, "invalid request: the body exceeds the maximum size of %d bytes", h.cfg.maxBody))
	} else if errors.Is(err, os.ErrDeadlineExceeded) {
		httpError(w, http.StatusBadRequest, "", errorf(codeInvalidRequest, "invalid request: the body did not arrive within %v (%d of its bytes came)", h.cfg.bodyReadTimeout, len(body)))
	} else {
		httpError(w, http.StatusBadRequest, "", errorf(codeInvalidRequest, "invalid request: reading the body: %v", err))
	}
}

// enterLarge takes one of the slots for messages of many values (the
// caller gives it back), or answers 503 when none is free.
func (h *Handler) enterLarge(w http.ResponseWriter, echo string) bool {
	select {
	case h.large <- struct{}{}:
		return true
	default:
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, echo, errorf(codeInvalidRequest,
			"server busy: %d messages of more than %d JSON values are being served, the most at once; retry later", h.cfg.maxLarge, largeValues))
		return false
	}
}

// postLegacy serves a message of the legacy era: on a session of its own
// when stateless, else on the session its Mcp-Session-Id names, or on a
// new one for an initialize without.
func (h *Handler) postLegacy(w http.ResponseWriter, r *http.Request, m *transport.Message) {
	isInit := m.Kind == transport.KindRequest && string(m.Method) == methodInitialize
	if !isInit && !h.checkVersion(w, r, m.Echo) {
		return
	}
	switch {
	case h.cfg.stateless:
		h.postStateless(w, r, m, isInit)
	case isInit && headerValue(r.Header, headerSessionID) == "":
		h.postInitialize(w, r, m)
	default:
		hs := h.session(w, r, m.Echo)
		switch {
		case hs == nil:
		case m.Kind != transport.KindRequest:
			h.postNotification(w, r, hs, m)
		default:
			h.postRequest(w, r, hs, m, isInit)
		}
	}
}

// postInitialize opens a session for an initialize that names none.
func (h *Handler) postInitialize(w http.ResponseWriter, r *http.Request, m *transport.Message) {
	owner, _ := h.srv.Owner(r.Context()) // later requests must come from the same subject
	if !h.admit(w, owner, m.Echo) {
		return
	}
	hs := h.newSession()
	if hs == nil {
		httpError(w, http.StatusInternalServerError, m.Echo, errorf(codeInternalError, "internal error: cannot make a session id"))
		return
	}
	hs.owner = owner
	h.postRequest(w, r, hs, m, true)
}

// postNotification hands a notification or a response to the session
// and answers 202.
func (h *Handler) postNotification(w http.ResponseWriter, r *http.Request, hs *httpSession, m *transport.Message) {
	hs.touch()
	hs.ss.Dispatch(r.Context(), *m)
	w.WriteHeader(http.StatusAccepted)
}

// postRequest serves a request of session hs on the stream of its
// response. An initialize is dispatched before the stream is served, so
// that the session is kept (or given up) before its id goes out.
//
// Mcp-Session-Id goes out only where the client learns it: on the
// response carrying the InitializeResult (the one place the transport
// says a server sets it) and on GET streams. The response to any other
// POST names no session: the client sent the id, and its SDKs keep the id
// they have when a response carries none.
func (h *Handler) postRequest(w http.ResponseWriter, r *http.Request, hs *httpSession, m *transport.Message, isInit bool) {
	if !hs.beginRequest() {
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusTooManyRequests, m.Echo, errorf(codeInvalidRequest,
			"too many requests: this session already has %d requests in progress", h.cfg.maxConcurrent))
		return
	}
	defer hs.endRequest()
	st, e := hs.openStream(r, m.Echo)
	if e != nil {
		status := http.StatusBadRequest
		if e.Code == codeSessionGone {
			status, e.Code = http.StatusNotFound, codeInvalidRequest
		}
		httpError(w, status, m.Echo, e)
		return
	}
	if !isInit {
		st.dispatchAndServe(w, r, func() { hs.ss.Dispatch(st, *m) })
		return
	}
	hs.ss.Dispatch(st, *m)
	if !hs.registered && (!hs.ss.Ready() || !h.register(hs)) {
		defer hs.ss.Close() // initialize failed, or the session cannot be kept: answered, then gone
	}
	if !h.saveInitialized(w, hs, m.Echo) {
		return
	}
	if hs.registered {
		w.Header()[headerSessionID] = hs.sidHeader
	}
	st.serve(w, r, nil, -1, false)
}

// saveInitialized stores a session kept in a SessionStore once initialize
// made it ready; when that fails the session ends and the client gets 503.
func (h *Handler) saveInitialized(w http.ResponseWriter, hs *httpSession, echo string) bool {
	if !hs.registered || !hs.shared {
		return true
	}
	if e := hs.save(); e != nil {
		h.endSession(hs)
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, echo, e)
		return false
	}
	return true
}

// postStateless serves a POST without a session: a request gets a session
// of its own, initialized as the header says (or answered by initialize
// itself), closed once it is answered.
func (h *Handler) postStateless(w http.ResponseWriter, r *http.Request, m *transport.Message, isInit bool) {
	if m.Kind != transport.KindRequest {
		w.WriteHeader(http.StatusAccepted) // nothing to route a response or notification to
		return
	}
	hs := &httpSession{h: h}
	hs.ss = h.srv.OpenFull(hs, transport.Options{Name: Name, NoRequests: true})
	defer hs.ss.Close()
	if !isInit {
		version := headerValue(r.Header, headerProtocolVersion)
		if version == "" {
			version = assumedVersion
		}
		hs.ss.AssumeInitialized(version)
	}
	st, e := hs.openStream(r, string(m.ID))
	if e != nil {
		httpError(w, http.StatusBadRequest, string(m.ID), e)
		return
	}
	st.dispatchAndServe(w, r, func() { hs.ss.Dispatch(st, *m) })
}

// assumedVersion is the protocol revision of a request without
// MCP-Protocol-Version (transports.mdx: the server SHOULD assume 2025-03-26).
const assumedVersion = "2025-03-26"

// get opens the session's standalone SSE stream, or resumes a stream from
// the event after Last-Event-ID.
func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	if h.cfg.stateless || h.modern(r) {
		h.methodNotAllowed(w)
		return
	}
	if !accepts(r.Header, "text/event-stream") {
		httpError(w, http.StatusNotAcceptable, "", errorf(codeInvalidRequest, "not acceptable: the Accept header must list text/event-stream"))
		return
	}
	if !h.checkVersion(w, r, "") {
		return
	}
	hs := h.session(w, r, "")
	if hs == nil {
		return
	}
	drain := h.drain(r)
	select {
	case <-drain:
		httpError(w, http.StatusServiceUnavailable, "", errorf(codeInvalidRequest, "the server is shutting down"))
		return
	default:
	}
	hs.enter()
	defer hs.leave()
	w.Header()[headerSessionID] = hs.sidHeader
	if last := headerValue(r.Header, headerLastEventID); last != "" && h.cfg.store != nil {
		h.resume(w, r, hs, last, drain)
		return
	}
	st := hs.standalone
	prime, ok := st.attach()
	if !ok {
		httpError(w, http.StatusConflict, "", errorf(codeInvalidRequest, "conflict: this session already has a GET stream open"))
		return
	}
	startSSE(w)
	if prime >= 0 {
		_ = writePriming(w, st.num, prime)
	}
	if err := http.NewResponseController(w).Flush(); err != nil {
		st.detach()
		return
	}
	st.serve(w, r, drain, -1, true)
}

// resume replays the events of the stream Last-Event-ID names, after it,
// then goes on with the stream live if it is not over.
func (h *Handler) resume(w http.ResponseWriter, r *http.Request, hs *httpSession, last string, drain <-chan struct{}) {
	sid, index, ok := parseEventID(last)
	if !ok {
		httpError(w, http.StatusBadRequest, "", errorf(codeInvalidRequest, "bad request: %s %s is not an event id of this server", headerLastEventID, quote(last)))
		return
	}
	hs.mu.Lock()
	st := hs.byStream[sid]
	hs.mu.Unlock()
	upTo := -1 // replay everything stored: the stream is over (or unknown)
	if st != nil {
		var live, busy bool
		switch upTo, live, busy = st.attachResume(); {
		case busy:
			httpError(w, http.StatusConflict, "", errorf(codeInvalidRequest, "conflict: this stream is already being read"))
			return
		case !live:
			st, upTo = nil, -1
		}
	}
	events, err := h.cfg.store.After(r.Context(), hs.id, strconv.Itoa(sid), index)
	if err != nil {
		if st != nil {
			st.detach()
		}
		h.log.Warn("runtime: event store", "op", "After", "error", err)
		httpError(w, http.StatusInternalServerError, "", errorf(codeInternalError, "internal error: the events cannot be replayed"))
		return
	}
	startSSE(w)
	var werr error
	for _, ev := range events {
		if upTo >= 0 && ev.Index > upTo {
			break // queued for the live part
		}
		if werr == nil {
			werr = writeEvent(w, sid, ev.Index, ev.Data, true)
		}
	}
	if werr == nil {
		werr = http.NewResponseController(w).Flush()
	}
	if st == nil {
		return
	}
	if werr != nil {
		st.detach()
		return
	}
	st.serve(w, r, drain, -1, true)
}

// delete ends a session.
func (h *Handler) delete(w http.ResponseWriter, r *http.Request) {
	if h.cfg.stateless || h.modern(r) {
		h.methodNotAllowed(w)
		return
	}
	if !h.checkVersion(w, r, "") {
		return
	}
	hs := h.session(w, r, "")
	if hs == nil {
		return
	}
	if h.shared() {
		if !h.endEverywhere(w, hs) {
			return
		}
	} else {
		h.endSession(hs)
	}
	w.WriteHeader(http.StatusNoContent)
}

// checkVersion answers 400 to an MCP-Protocol-Version this server does not
// speak; without the header, 2025-03-26 is assumed, which it does.
func (h *Handler) checkVersion(w http.ResponseWriter, r *http.Request, echo string) bool {
	if v := headerValue(r.Header, headerProtocolVersion); v != "" && !slices.Contains(h.conf.Versions, v) {
		httpError(w, http.StatusBadRequest, echo, errorf(codeInvalidRequest, "bad request: unsupported %s %s; this server speaks %s",
			headerProtocolVersion, quote(v), strings.Join(h.conf.Versions, ", ")))
		return false
	}
	return true
}

// session returns the session the request names, or answers 400 (no
// Mcp-Session-Id) or 404 (unknown, expired or ended) and returns nil.
func (h *Handler) session(w http.ResponseWriter, r *http.Request, echo string) *httpSession {
	id := headerValue(r.Header, headerSessionID)
	if id == "" {
		httpError(w, http.StatusBadRequest, echo, errorf(codeInvalidRequest, "bad request: %s header missing; initialize a session first", headerSessionID))
		return nil
	}
	var hs *httpSession
	if h.shared() {
		if hs = h.sharedSession(w, r, id, echo); hs == nil {
			return nil
		}
	} else {
		h.mu.Lock()
		hs = h.sessions[id]
		h.mu.Unlock()
	}
	if hs == nil {
		httpError(w, http.StatusNotFound, echo, errorf(codeInvalidRequest, "session not found: it ended or expired; initialize a new one"))
		return nil
	}
	if h.auth != nil && !h.checkOwner(w, r, hs, echo) {
		return nil
	}
	return hs
}

// newSession makes a session for an initialize; it is registered (its id
// served) once the initialize succeeded.
func (h *Handler) newSession() *httpSession {
	var b [16]byte // 128 bits
	if _, err := rand.Read(b[:]); err != nil {
		return nil
	}
	return h.newSessionWithID(h.cfg.sessionPrefix + base64.RawURLEncoding.EncodeToString(b[:])) // visible ASCII only
}

// newSessionWithID makes the session id, or a local copy of it when
// sessions are shared.
func (h *Handler) newSessionWithID(id string) *httpSession {
	hs := &httpSession{h: h, id: id, sidHeader: []string{id}, shared: h.shared()}
	hs.ss = h.srv.OpenFull(hs, transport.Options{Name: Name, SessionID: id, Shared: hs.shared})
	hs.standalone = newStream(hs, 0, nil, nil)
	hs.standalone.sse, hs.standalone.storing = true, h.cfg.store != nil
	if h.cfg.store != nil { // only resumption looks streams up by number
		hs.byStream = map[int]*stream{0: hs.standalone}
	}
	if hs.shared {
		h.share(hs)
	}
	return hs
}

// register starts serving hs's id. Initializes served at once may all
// have passed admit: the caps are kept here, by ending the session idle the
// longest, and overrun only when every session in the way is busy.
func (h *Handler) register(hs *httpSession) bool {
	h.mu.Lock()
	if hs.ss.Closed() {
		h.mu.Unlock()
		return false
	}
	victim, _ := h.makeRoomLocked(hs.owner)
	h.sessions[hs.id] = hs
	if hs.owner != "" {
		if h.perOwner == nil {
			h.perOwner = make(map[string]int)
		}
		h.perOwner[hs.owner]++
	}
	hs.registered = true
	hs.lastSeen = time.Now()
	hs.idle = time.AfterFunc(hs.idleCheckEvery(), hs.checkIdle)
	h.mu.Unlock()
	if victim != nil {
		h.endSession(victim)
	}
	return true
}

// endSession forgets hs and closes it: its id answers 404 from now on.
func (h *Handler) endSession(hs *httpSession) {
	h.mu.Lock()
	h.forgetLocked(hs)
	h.mu.Unlock()
	if hs.idle != nil {
		hs.idle.Stop()
	}
	hs.ss.Close()
	if h.cfg.store != nil && !h.shared() { // a shared session's events stay for the other replicas (see endEverywhere)
		if err := h.cfg.store.SessionClosed(context.Background(), hs.id); err != nil {
			h.log.Warn("runtime: event store", "op", "SessionClosed", "error", err)
		}
	}
}

// CloseAll ends every session (shutdown).
func (h *Handler) CloseAll() {
	h.mu.Lock()
	all := make([]*httpSession, 0, len(h.sessions))
	for _, hs := range h.sessions {
		all = append(all, hs)
	}
	h.mu.Unlock()
	for _, hs := range all {
		h.endSession(hs)
	}
}

// drain returns a channel closed when the http.Server serving r begins to
// shut down (GET streams end then, so that Shutdown waits only for requests
// in progress), or nil outside an http.Server.
func (h *Handler) drain(r *http.Request) <-chan struct{} {
	srv, _ := r.Context().Value(http.ServerContextKey).(*http.Server)
	if srv == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := h.drains[srv]
	if ch == nil {
		if h.drains == nil {
			h.drains = make(map[*http.Server]chan struct{})
		}
		ch = make(chan struct{})
		h.drains[srv] = ch
		srv.RegisterOnShutdown(func() { close(ch) })
	}
	return ch
}

// startBodyDeadline bounds the time r's body may take to arrive
// (WithBodyReadTimeout), before anything else is done with r. The deadline
// is lifted only once the body has been read to its end (readBody): a
// request refused before that, or whose body failed, keeps it while its
// refusal is written and while net/http drains what is left of the body
// (up to 256 KiB) after the handler returns, so that a body trickling in
// never holds the connection longer. A request without a body has nothing
// to bound (and its connection's background read must not time out under
// a long stream).
func (h *Handler) startBodyDeadline(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(h.cfg.bodyReadTimeout))
}

// readBody reads the POST body, at most maxBody bytes, into bp's buffer,
// under the deadline startBodyDeadline set.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request, bp *[]byte) ([]byte, error) {
	if r.ContentLength > h.cfg.maxBody {
		return nil, &http.MaxBytesError{Limit: h.cfg.maxBody}
	}
	body := r.Body // with a Content-Length (checked above), net/http stops the body there
	if r.ContentLength < 0 {
		body = http.MaxBytesReader(w, r.Body, h.cfg.maxBody) // chunked: no length to trust
	}
	b := (*bp)[:0]
	if n := r.ContentLength; n > int64(cap(b)) {
		b = make([]byte, 0, n+1) // +1: read the EOF without growing
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > h.cfg.maxBody { // a body that middleware replaced, longer than its Content-Length
			return b, &http.MaxBytesError{Limit: h.cfg.maxBody}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// checkHostOrigin returns why r must be refused (DNS rebinding protection),
// or "".
func (h *Handler) checkHostOrigin(r *http.Request) string {
	if !hostAllowed(r.Host, h.cfg.hosts) {
		return "forbidden: Host " + quote(r.Host) + " is not allowed"
	}
	if origin := headerValue(r.Header, "Origin"); origin != "" && !originAllowed(origin, h.cfg.origins) {
		return "forbidden: Origin " + quote(origin) + " is not allowed"
	}
	return ""
}

var loopbackHosts = []string{"localhost", "127.0.0.1", "[::1]"}

// hostAllowed matches a Host header against allowed entries: "name" (any
// port), "name:port", or "*"; nil means the loopback names on any port.
func hostAllowed(host string, allowed []string) bool {
	name, port := splitHostPort(host)
	if name == "" {
		return slices.Contains(allowed, "*")
	}
	if allowed == nil {
		allowed = loopbackHosts
	}
	for _, a := range allowed {
		if a == "*" {
			return true
		}
		an, ap := splitHostPort(a)
		if strings.EqualFold(an, name) && (ap == "" || ap == port) {
			return true
		}
	}
	return false
}

// splitHostPort splits "name:port", "[v6]:port", "name" or "[v6]"; the name
// of an IPv6 address keeps its brackets.
func splitHostPort(hp string) (name, port string) {
	if strings.HasPrefix(hp, "[") {
		end := strings.IndexByte(hp, ']')
		if end < 0 {
			return "", ""
		}
		name, rest := hp[:end+1], hp[end+1:]
		if rest == "" {
			return name, ""
		}
		if rest[0] != ':' {
			return "", ""
		}
		return name, rest[1:]
	}
	if i := strings.LastIndexByte(hp, ':'); i >= 0 {
		return hp[:i], hp[i+1:]
	}
	return hp, ""
}

// originAllowed matches an Origin header against allowed entries
// (scheme://host[:port], or "*"); nil means http(s) on a loopback name, any
// port.
func originAllowed(origin string, allowed []string) bool {
	if allowed == nil {
		u, err := url.Parse(origin)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Path != "" && u.Path != "/" {
			return false
		}
		return hostAllowed(u.Host, nil)
	}
	for _, a := range allowed {
		if a == "*" || strings.EqualFold(strings.TrimSuffix(a, "/"), origin) {
			return true
		}
	}
	return false
}

// acceptsJSONAndSSE reports whether the Accept header lists both
// application/json and text/event-stream, as a POST's must. The value SDK
// clients send is recognized without parsing it.
func acceptsJSONAndSSE(h http.Header) bool {
	if v := h["Accept"]; len(v) == 1 && (v[0] == "application/json, text/event-stream" || v[0] == "text/event-stream, application/json") {
		return true
	}
	return accepts(h, "application/json") && accepts(h, "text/event-stream")
}

// accepts reports whether the Accept header lists mediaType (or a wildcard
// covering it).
func accepts(h http.Header, mediaType string) bool {
	slash := strings.IndexByte(mediaType, '/')
	for _, v := range h["Accept"] {
		for v != "" {
			var part string
			part, v, _ = strings.Cut(v, ",")
			mt, _, _ := strings.Cut(part, ";")
			mt = strings.TrimSpace(mt)
			if strings.EqualFold(mt, mediaType) || mt == "*/*" ||
				len(mt) == slash+2 && strings.HasSuffix(mt, "/*") && strings.EqualFold(mt[:slash], mediaType[:slash]) {
				return true
			}
		}
	}
	return false
}

// parseEventID reads "<stream>_<index>".
func parseEventID(s string) (stream, index int, ok bool) {
	sid, idx, found := strings.Cut(s, "_")
	stream, err1 := strconv.Atoi(sid)
	index, err2 := strconv.Atoi(idx)
	if !found || err1 != nil || err2 != nil || stream < 0 || index < 0 || sid[0] == '+' || idx[0] == '+' {
		return 0, 0, false
	}
	return stream, index, true
}
