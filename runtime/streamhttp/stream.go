package streamhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/bufpool"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// httpSession is a Session served over Streamable HTTP, and its transport:
// it routes each outgoing message to the stream of the request it belongs
// to, or to the standalone GET stream.
type httpSession struct {
	h          *Handler
	ss         transport.FullSession
	id         string   // "" when stateless
	sidHeader  []string // {id}, the Mcp-Session-Id header of the initialize response and GET streams
	standalone *stream  // stream "0", for what belongs to no request; nil when stateless
	registered bool     // its id is served (set once, before it is shared)
	listening  bool     // it serves a subscriptions/listen: its stream is SSE whatever the options
	owner      string   // with authorization: whom the session belongs to (FullServer.Owner)
	shared     bool     // kept in the session store for every replica (shared.go)

	mu         sync.Mutex
	closed     bool               // no new streams
	byRequest  map[string]*stream // open POST streams, by jsonwire.IDKey of their request
	byStream   map[int]*stream    // live streams by number, for resumption; nil without an event store
	lastStream int                // the last POST stream's number
	active     int                // HTTP requests in progress (idle expiry)
	requests   int                // of which POSTs carrying a request (concurrency limit)
	lastSeen   time.Time
	idle       *time.Timer
}

func (hs *httpSession) enter() {
	hs.mu.Lock()
	hs.active++
	hs.mu.Unlock()
}

func (hs *httpSession) leave() {
	hs.mu.Lock()
	hs.active--
	hs.lastSeen = time.Now()
	hs.mu.Unlock()
}

func (hs *httpSession) touch() {
	hs.mu.Lock()
	hs.lastSeen = time.Now()
	hs.mu.Unlock()
}

// beginRequest counts a POST carrying a request; false when the session
// has as many as it may.
func (hs *httpSession) beginRequest() bool {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.requests >= hs.h.cfg.maxConcurrent {
		return false
	}
	hs.requests++
	hs.active++
	return true
}

func (hs *httpSession) endRequest() {
	hs.mu.Lock()
	hs.requests--
	hs.active--
	hs.lastSeen = time.Now()
	hs.mu.Unlock()
}

// checkIdle runs when the idle timer fires: it ends the session if it
// served nothing for the idle timeout, and waits again otherwise.
func (hs *httpSession) checkIdle() {
	timeout := hs.h.cfg.idleTimeout
	hs.mu.Lock()
	if hs.closed {
		hs.mu.Unlock()
		return
	}
	if hs.active > 0 {
		hs.idle.Reset(hs.idleCheckEvery())
		hs.mu.Unlock()
		if hs.shared {
			// A request or stream open here keeps the shared record
			// alive, which no other request may load meanwhile.
			hs.keepAlive()
		}
		return
	}
	if left := timeout - time.Since(hs.lastSeen); left > 0 {
		hs.idle.Reset(min(left, hs.idleCheckEvery()))
		hs.mu.Unlock()
		return
	}
	hs.mu.Unlock()
	hs.h.endSession(hs)
}

// idleCheckEvery is how often checkIdle looks at the session: every idle
// timeout, every half of it for a shared session, whose record in the
// store it must extend before it expires.
func (hs *httpSession) idleCheckEvery() time.Duration {
	if hs.shared {
		return hs.h.cfg.idleTimeout / 2
	}
	return hs.h.cfg.idleTimeout
}

// openStream makes the response stream of the POSTed request with raw id.
func (hs *httpSession) openStream(r *http.Request, id string) (*stream, *Error) {
	key := jsonwire.IDKey(id)
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.closed {
		return nil, &Error{Code: codeSessionGone, Message: "session not found: it ended; initialize a new one"}
	}
	if _, dup := hs.byRequest[key]; dup {
		return nil, errorf(codeInvalidRequest, "invalid request: id %s is already used by a request in progress", sanitize(id, maxQuoted))
	}
	hs.lastStream++
	st := newStream(hs, hs.lastStream, r.Header, r.Context())
	st.proto = protoOf(r)
	st.attached = true
	if hs.byRequest == nil {
		hs.byRequest = make(map[string]*stream)
	}
	hs.byRequest[key] = st
	if hs.byStream != nil {
		hs.byStream[st.num] = st
	}
	return st, nil
}

// takeStream returns the stream of request rel; final: it is done, forget it.
func (hs *httpSession) takeStream(rel string, final bool) *stream {
	key := jsonwire.IDKey(rel)
	hs.mu.Lock()
	defer hs.mu.Unlock()
	st := hs.byRequest[key]
	if final && st != nil {
		delete(hs.byRequest, key)
		delete(hs.byStream, st.num)
	}
	return st
}

// Send routes msg to the stream of the request it belongs to
// (transport.Sink).
func (hs *httpSession) Send(rel string, final bool, msg []byte) bool {
	var st *stream
	if rel == "" || !final && hs.h.cfg.jsonResponses && !hs.listening {
		st = hs.standalone
	} else {
		st = hs.takeStream(rel, final)
	}
	if st == nil {
		return false
	}
	return st.put(msg, final)
}

// Abandon ends the stream of request rel, which has no response.
func (hs *httpSession) Abandon(rel string) {
	if st := hs.takeStream(rel, true); st != nil {
		st.finish()
	}
}

// CloseStream ends the stream of request rel early (CloseSSEStream).
func (hs *httpSession) CloseStream(rel string) {
	if !hs.canCloseStreams() {
		return
	}
	if st := hs.takeStream(rel, false); st != nil {
		st.requestClose()
	}
}

// canCloseStreams reports whether CloseSSEStream can end a POST's stream
// before its request ends (then the client resumes it from the store).
func (hs *httpSession) canCloseStreams() bool {
	return hs.h.cfg.store != nil && !hs.h.cfg.jsonResponses && hs.id != ""
}

// Close releases the writers: the session is closing.
func (hs *httpSession) Close() {
	hs.mu.Lock()
	hs.closed = true
	all := make([]*stream, 0, len(hs.byRequest)+1)
	for _, st := range hs.byRequest {
		all = append(all, st)
	}
	hs.mu.Unlock()
	if hs.standalone != nil {
		all = append(all, hs.standalone)
	}
	for _, st := range all {
		st.markGone()
	}
}

// stream is where the messages of one POSTed request go (its response and
// what its handler sends first), or, for stream "0", what belongs to no
// request. Senders append to a bounded queue; the goroutine serving the
// HTTP request (the writer) alone writes to the ResponseWriter, so a slow
// reader holds up no one but the request it reads. A POST stream starts
// undecided: if its response comes first it is written as
// application/json, and the first message before it (or CloseSSEStream)
// makes it an SSE stream. With an event store, an SSE stream's events are
// stored as they are sent, so that the stream survives its connection.
//
// A POST stream is also the context its request is dispatched under: it
// carries the values of the http.Request's context (what middleware put
// there) and the request header, but not its cancellation: a client that
// disconnects does not cancel its request.
type stream struct {
	hs     *httpSession
	num    int // 0 for the standalone stream, 1, 2… for POSTs: its id in the session
	header http.Header
	parent context.Context
	modern bool      // a 2026-07-28 request's: -32021 is answered with 400
	proto  httpProto // the request's HTTP version (network.protocol.version)

	mu       sync.Mutex
	wake     chan struct{} // 1-buffered: the writer has something to do; made when a writer first waits
	space    sync.Cond     // signalled when the queue shrinks or the writer leaves
	queue    []queued      // starts on first, which holds a JSON response
	first    [1]queued
	queued   int          // bytes in queue
	sse      bool         // an SSE stream (always, for stream "0")
	storing  bool         // its events go to the event store, with ids
	attached bool         // a writer serves it
	seq      int          // index of its last stored event
	finished bool         // the request is over: its response is queued or stored, or there is none
	gone     bool         // the session closed
	inline   *inlineServe // while the POST's request may run on its goroutine (inline.go)

	inlineSlot inlineServe // what inline points to: a stream serves one POST
}

// queued is a message waiting for the writer, or the mark of
// CloseSSEStream.
type queued struct {
	buf       *[]byte // from bufpool; the writer returns it
	index     int     // event index when storing
	final     bool
	closeMark bool
}

// maxStreamBuffer bounds what waits for a stream's writer. A request's
// handler that gets that far ahead of its reader waits; notifications for
// the GET stream are dropped instead (they coalesce and are hints).
const maxStreamBuffer = 1 << 20

func newStream(hs *httpSession, num int, header http.Header, parent context.Context) *stream {
	st := &stream{hs: hs, num: num, header: header, parent: parent}
	st.space.L = &st.mu
	st.queue = st.first[:0]
	return st
}

// A stream is a context.Context: see the type's comment.
func (st *stream) Deadline() (time.Time, bool) { return time.Time{}, false }
func (st *stream) Done() <-chan struct{}       { return nil }
func (st *stream) Err() error                  { return nil }
func (st *stream) Value(key any) any {
	if _, ok := key.(transport.RequestKey); ok {
		return st // a transport.Request
	}
	return st.parent.Value(key)
}

// signal wakes the writer if it waits. st.mu is held.
func (st *stream) signal() {
	if st.wake == nil {
		return // no writer waited yet: it looks at the queue before it does
	}
	select {
	case st.wake <- struct{}{}:
	default:
	}
}

// startSSE decides that the stream is SSE. st.mu is held.
func (st *stream) startSSE() {
	st.sse = true
	st.storing = st.attached && st.hs.h.cfg.store != nil && st.hs.id != ""
	st.serveAside() // a request running inline gets a writer now
}

// put sends msg on the stream; it reports whether msg went anywhere (to the
// writer or to the event store).
func (st *stream) put(msg []byte, final bool) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	for { // wait for room first, so that events are numbered in queue order
		if st.finished || st.gone {
			return false
		}
		if !st.attached || st.queued < maxStreamBuffer || st.isStandalone() {
			break
		}
		st.space.Wait()
	}
	if !final && !st.sse {
		st.startSSE() // something before the response: an SSE stream
	}
	stored, index := false, 0
	if st.storing {
		st.seq++
		index = st.seq
		if err := st.hs.h.cfg.store.Append(context.Background(), st.hs.id, strconv.Itoa(st.num), index, msg); err != nil {
			st.hs.h.log.Warn("runtime: event store", "op", "Append", "error", err)
		} else {
			stored = true
		}
	}
	if final {
		st.finished = true
	}
	if !st.attached || st.queued >= maxStreamBuffer { // the latter: a notification the GET reader is too slow for
		if final {
			st.signal()
		}
		return stored
	}
	bp := bufpool.Get()
	*bp = append((*bp)[:0], msg...)
	st.queue = append(st.queue, queued{buf: bp, index: index, final: final})
	st.queued += len(msg)
	st.signal()
	return true
}

func (st *stream) isStandalone() bool { return st.num == 0 }

// finish ends a request that has no response (cancelled).
func (st *stream) finish() {
	st.mu.Lock()
	st.finished = true
	st.signal()
	st.mu.Unlock()
}

// requestClose queues the mark at which the writer closes the stream
// (CloseSSEStream); later messages are stored for a resumption.
func (st *stream) requestClose() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.finished || st.gone || !st.attached {
		return
	}
	if !st.sse {
		st.startSSE()
	}
	st.queue = append(st.queue, queued{closeMark: true})
	st.signal()
}

func (st *stream) markGone() {
	st.mu.Lock()
	st.gone = true
	st.space.Broadcast()
	st.signal()
	st.mu.Unlock()
}

// attach makes the caller the writer of the standalone stream; prime is the
// index to prime it with (-1: none: no event ids, or a client older than
// primingVersion).
func (st *stream) attach() (prime int, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.attached || st.gone {
		return 0, false
	}
	st.attached = true
	if !st.storing || !st.hs.primes() {
		return -1, true
	}
	return st.seq, true
}

// primingVersion is the first revision whose clients expect the priming
// event. Older clients' SDKs may take its empty data for a message and fail
// to parse it (the TypeScript SDK before typescript-sdk #1233, bundled in
// Gemini CLI); the official SDKs prime only from 2025-11-25 on
// (typescript-sdk #1233, python-sdk #1719, go-sdk #686).
const primingVersion = "2025-11-25"

// primes reports whether the session's SSE streams start with a priming
// event: its negotiated revision is 2025-11-25 or later (revisions are
// dates, so they compare as strings).
func (hs *httpSession) primes() bool {
	return hs.ss.Version() >= primingVersion
}

// attachResume makes the caller the writer of a stream it resumes: the
// events up to upTo are replayed from the store, later ones come live. live
// is false for a stream that stores nothing (nothing to resume), busy when
// it has a writer already.
func (st *stream) attachResume() (upTo int, live, busy bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.attached:
		return 0, false, true
	case st.gone || !st.storing:
		return 0, false, false
	}
	st.attached = true
	return st.seq, true, false
}

// detach is the writer leaving: what is queued was stored, if it could be.
func (st *stream) detach() {
	st.mu.Lock()
	q := st.queue
	st.queue, st.queued, st.attached = nil, 0, false
	st.space.Broadcast()
	st.mu.Unlock()
	release(q)
}

func release(q []queued) {
	for _, it := range q {
		if it.buf != nil {
			bufpool.Put(it.buf)
		}
	}
}

// serve is the writer: it writes the stream's messages to w until the
// request is answered, the session closes, the client goes away, or drain is
// closed (GET streams, at shutdown). started: the SSE response has begun
// (a resumption); else prime ≥ 0 primes the new SSE stream with an event of
// that index and no data.
func (st *stream) serve(w http.ResponseWriter, r *http.Request, drain <-chan struct{}, prime int, started bool) {
	rc := http.NewResponseController(w)
	for {
		st.mu.Lock()
		for len(st.queue) == 0 && !st.finished && !st.gone {
			if st.wake == nil {
				st.wake = make(chan struct{}, 1) // most POSTs never wait: their response is queued first
			}
			wake := st.wake
			st.mu.Unlock()
			select {
			case <-wake:
			case <-r.Context().Done():
				st.detach()
				return
			case <-drain:
				st.detach()
				return
			}
			st.mu.Lock()
		}
		items := st.queue
		st.queue, st.queued = nil, 0
		sse, storing, finished, gone := st.sse, st.storing, st.finished, st.gone
		st.space.Broadcast()
		st.mu.Unlock()

		if !sse { // a POST whose request ended with nothing sent before
			st.writeOnce(w, items, gone)
			return
		}
		if !started {
			startSSE(w)
			if storing && prime < 0 && st.hs.primes() {
				prime = 0 // a POST stream: resuming from before its first event
			}
			if prime >= 0 {
				_ = writePriming(w, st.num, prime)
			}
			started = true
		}
		var err error
		for i, it := range items {
			if it.closeMark {
				if err == nil {
					_ = writeRetry(w, st.hs.h.cfg.retry)
					_ = rc.Flush()
				}
				release(items[i:])
				st.detach()
				return
			}
			if err == nil {
				err = writeEvent(w, st.num, it.index, *it.buf, storing)
			}
			bufpool.Put(it.buf)
		}
		if err == nil {
			err = rc.Flush()
		}
		if err != nil {
			st.detach()
			return
		}
		if finished || gone {
			return
		}
	}
}

// writeOnce answers a POST that never became a stream: its response as
// application/json; 404 when the session ended first; 202 when the request
// ended without a response (cancelled).
func (st *stream) writeOnce(w http.ResponseWriter, items []queued, gone bool) {
	defer release(items)
	switch {
	case len(items) == 1 && items[0].final:
		w.Header()["Content-Type"] = jsonContentType
		if st.modern && bytes.Contains(*items[0].buf, missingCapabilityHead) {
			w.WriteHeader(http.StatusBadRequest) // streamable-http.mdx: -32021 is a 400
		} else if after, ok := rateLimited(*items[0].buf); ok {
			w.Header().Set("Retry-After", strconv.Itoa(after))
			w.WriteHeader(http.StatusTooManyRequests)
		}
		_, _ = w.Write(*items[0].buf)
	case gone:
		httpError(w, http.StatusNotFound, "", errorf(codeInvalidRequest, "session not found: it ended before the request was answered"))
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

func startSSE(w http.ResponseWriter) {
	h := w.Header()
	h["Content-Type"] = sseContentType
	h["Cache-Control"] = noCache
	h["X-Accel-Buffering"] = noBuffering
	w.WriteHeader(http.StatusOK)
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{}) // a stream outlives a server's WriteTimeout
}

// writeEvent writes one SSE event carrying a message; with an id when the
// stream stores its events.
func writeEvent(w http.ResponseWriter, stream, index int, data []byte, withID bool) error {
	var head [64]byte
	b := head[:0]
	if withID {
		b = append(b, "id: "...)
		b = strconv.AppendInt(b, int64(stream), 10)
		b = append(b, '_')
		b = strconv.AppendInt(b, int64(index), 10)
		b = append(b, '\n')
	}
	b = append(b, "event: message\ndata: "...)
	if _, err := w.Write(b); err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	_, err := w.Write([]byte("\n\n"))
	return err
}

// writePriming writes an event with an id and no data: the point a client
// resumes from if it loses the stream before the next event.
func writePriming(w http.ResponseWriter, stream, index int) error {
	_, err := w.Write([]byte("id: " + strconv.Itoa(stream) + "_" + strconv.Itoa(index) + "\ndata: \n\n"))
	return err
}

// writeRetry tells the client how long to wait before reconnecting.
func writeRetry(w http.ResponseWriter, d time.Duration) error {
	_, err := w.Write([]byte("retry: " + strconv.FormatInt(d.Milliseconds(), 10) + "\n\n"))
	return err
}

// httpProto is the HTTP version of a request, kept in a byte.
type httpProto uint8

const (
	protoOther httpProto = iota
	proto10
	proto11
	proto2
	proto3
)

func protoOf(r *http.Request) httpProto {
	switch {
	case r.ProtoMajor == 1 && r.ProtoMinor == 1:
		return proto11
	case r.ProtoMajor == 1 && r.ProtoMinor == 0:
		return proto10
	case r.ProtoMajor == 2:
		return proto2
	case r.ProtoMajor == 3:
		return proto3
	}
	return protoOther
}

// String is the version as OpenTelemetry writes it: "1.1", "2".
func (p httpProto) String() string {
	return [...]string{"", "1.0", "1.1", "2", "3"}[p]
}

// Header is the header of the POST that carried the request
// (transport.Request).
func (st *stream) Header() http.Header { return st.header }

// HTTPVersion is the POST's HTTP version (transport.Request).
func (st *stream) HTTPVersion() string { return st.proto.String() }

// rateLimitedHead is how an encoded CodeRateLimited response starts after
// its id.
var rateLimitedHead = []byte(`,"error":{"code":-32005,`)

// rateLimited reports whether msg is a CodeRateLimited error response, and
// its data.retryAfterSeconds.
func rateLimited(msg []byte) (retryAfter int, ok bool) {
	if !bytes.Contains(msg, rateLimitedHead) {
		return 0, false
	}
	var r struct {
		Error struct {
			Data struct {
				RetryAfterSeconds int `json:"retryAfterSeconds"`
			} `json:"data"`
		} `json:"error"`
	}
	if json.Unmarshal(msg, &r) != nil || r.Error.Data.RetryAfterSeconds < 1 {
		return 1, true
	}
	return r.Error.Data.RetryAfterSeconds, true
}
