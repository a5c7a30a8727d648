package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// Interceptors wrap the serving of every request of the method table
// (server.go) and of the client's notifications, in both eras and on every
// transport, with code of the server's: audit logs, access checks, rate
// limits, tracing. They are installed with WithInterceptors; a server without
// any pays nothing for them (no Request is built, nothing allocated).

// Handler serves one request as an interceptor sees it: it returns the
// method's result, or an error. An *Error is answered as that JSON-RPC
// error; any other error is, for tools/call, an isError result with the
// error's text (as a tool handler's error is) and, for the other methods,
// an internal error with the error's text.
type Handler func(ctx context.Context, req *Request) (Result, error)

// Interceptor wraps a Handler: it may look at the request, call next (with
// a context of its own, say one carrying a span or a deadline) and look at
// what it returned, or answer without calling next (a refusal, a cached
// result). Interceptors are composed in the order given to WithInterceptors:
// the first is the outermost.
type Interceptor func(next Handler) Handler

// Result is a method's result as interceptors see and return it:
// *CallToolResult for tools/call, *ReadResourceResult for resources/read,
// *GetPromptResult for prompts/get; EncodedResult for the other methods
// (lists, initialize, completions…), whose MarshalJSON is their JSON. An
// interceptor that answers by itself may return any of these, a
// json.RawMessage, or any value encoding/json encodes to an object. A
// notification's result is nil and ignored.
type Result any

// EncodedResult is a result interceptors see in its wire form only.
type EncodedResult struct{ enc encoder }

// MarshalJSON returns the result's JSON.
func (r EncodedResult) MarshalJSON() ([]byte, error) { return r.enc.appendJSON(nil) }

// Transport names the transport a request arrived on.
const (
	TransportStdio = "stdio" // ServeStdio
	TransportHTTP  = "http"  // Streamable HTTP, stateful or not, either era
	// A session driven through NewSession by a transport of the user's
	// reports "".
)

// Request is one request (or notification) as interceptors see it. It is
// shared by the interceptors of one request: an interceptor may read it
// while next runs but should not modify it.
type Request struct {
	Method string // e.g. "tools/call", "notifications/cancelled"
	// Target is what the request acts on: the tool or prompt name
	// (tools/call, prompts/get), the resource URI (resources/read); "" for
	// methods without one and for a malformed request.
	Target string
	ID     json.RawMessage // the JSON-RPC id as sent; nil for a notification
	Params json.RawMessage // the params as sent (a copy interceptors may keep)

	// Call is the decoded params, once the runtime decoded them:
	// *CallToolRequest (tools/call), *ReadResourceRequest (resources/read),
	// *GetPromptRequest (prompts/get), *CompleteRequest
	// (completion/complete). nil for the other methods, and when the params
	// were refused before (an unknown tool, say).
	Call any

	Modern          bool        // a 2026-07-28 request (no session; its _meta declares the client)
	ProtocolVersion string      // negotiated at initialize, or named by the modern request; "" before initialize
	SessionID       string      // the Mcp-Session-Id; "" on stdio, stateless HTTP and modern requests
	Transport       string      // TransportStdio, TransportHTTP, or "" (NewSession)
	HTTPVersion     string      // "1.1", "2" over HTTP; "" otherwise
	Header          http.Header // the HTTP request's header (do not modify); nil off HTTP
	Auth            *AuthInfo   // the verified caller (WithAuthorization); nil without

	// Refused: the runtime refused the request before any method ran (a
	// malformed message, an unknown method, a request before initialize, a
	// bad modern _meta). Method is then what the client sent ("" when it
	// could not be read), Target is "", and next returns the refusal, which
	// is what the client gets whatever the chain returns: interceptors see
	// refusals to trace or log them, not to serve them.
	Refused bool

	do func(context.Context) (encoder, *Error) // what the runtime does when the chain calls through
}

// Meta returns params._meta (where traceparent, progressToken… travel), or
// nil.
func (r *Request) Meta() json.RawMessage {
	if m := jsonwire.Member(r.Params, "_meta"); jsonwire.FirstByte(m) == '{' {
		return m
	}
	return nil
}

// WithInterceptors installs interceptors around every request and
// notification the server serves; the first is the outermost. Options
// given several times add to the list. Requests refused before the method
// is known (malformed JSON-RPC, an unknown method, a legacy request before
// initialize, a bad modern _meta) go through them too, marked Refused.
func WithInterceptors(ics ...Interceptor) Option {
	return func(c *config) { c.interceptors = append(c.interceptors, ics...) }
}

// buildChain composes the interceptors around the runtime's own serving.
func buildChain(ics []Interceptor) Handler {
	if len(ics) == 0 {
		return nil
	}
	h := Handler(serveThrough)
	for i := len(ics) - 1; i >= 0; i-- {
		h = ics[i](h)
	}
	return h
}

// serveThrough is the innermost handler: what the runtime does without
// interceptors.
func serveThrough(ctx context.Context, req *Request) (Result, error) {
	res, e := req.do(ctx)
	if e != nil {
		return nil, e
	}
	return publicResult(res), nil
}

// publicResult is res as interceptors see it.
func publicResult(res encoder) Result {
	switch r := res.(type) {
	case nil:
		return nil
	case *CallToolResult, *ReadResourceResult, *GetPromptResult:
		return r
	}
	return EncodedResult{res}
}

// intercepted runs req through the chain, do being the runtime's serving,
// and returns what to answer.
func (s *Server) intercepted(ctx context.Context, req *Request, do func(context.Context) (encoder, *Error)) (encoder, *Error) {
	req.do = do
	r, err := s.chain(ctx, req)
	if err != nil {
		if e, ok := errors.AsType[*Error](err); ok {
			return nil, e
		}
		if req.Method == methodToolsCall {
			return ErrorResult(err.Error()), nil
		}
		return nil, errorf(CodeInternalError, "internal error: %s", err.Error())
	}
	return resultEncoder(r), nil
}

// resultEncoder turns what an interceptor returned into what is encoded.
func resultEncoder(r Result) encoder {
	switch v := r.(type) {
	case encoder: // the runtime's result types
		return v
	case EncodedResult:
		return v.enc
	case json.RawMessage:
		return rawResult(v)
	case nil:
		return rawResult(`{}`)
	}
	return jsonResult{r}
}

// jsonResult is a result of the user's, encoded with encoding/json.
type jsonResult struct{ v any }

func (j jsonResult) appendJSON(dst []byte) ([]byte, error) {
	b, err := json.Marshal(j.v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// newRequest describes a request of method m for the interceptors; nil
// when there are none. params is copied: a started request outlives the
// message.
func (ss *Session) newRequest(ctx context.Context, m *methodInfo, id string, params json.RawMessage) *Request {
	if ss.srv.chain == nil {
		return nil
	}
	req := &Request{Method: m.name, Params: bytes.Clone(params)}
	if id != "" {
		req.ID = json.RawMessage(id)
	}
	if m.target != "" {
		req.Target, _ = jsonwire.StringMember(params, m.target)
	}
	ss.describe(ctx, req)
	return req
}

// describe fills in who sent req and how.
func (ss *Session) describe(ctx context.Context, req *Request) {
	if mc, ok := ctx.(*modernCtx); ok {
		req.Modern, req.ProtocolVersion = true, mc.peer.version
	} else {
		req.SessionID = ss.id
		if p := ss.peer.Load(); p != nil {
			req.ProtocolVersion = p.version
		}
	}
	req.Transport = ss.transportName()
	if r := carrier(ctx); r != nil {
		req.Header, req.HTTPVersion = r.Header(), r.HTTPVersion()
	}
	req.Auth, _ = AuthFromContext(ctx)
}

// transportName is the Transport of the session's requests.
func (ss *Session) transportName() string { return ss.transport }

// interceptCtx carries a legacy request's Request from the dispatch to where
// the chain runs (a modern request's modernCtx carries it itself).
type interceptCtx struct {
	context.Context
	req *Request
}

// withRequest returns ctx carrying req (nil: ctx itself).
func withRequest(ctx context.Context, req *Request) context.Context {
	if req == nil {
		return ctx
	}
	if mc, ok := ctx.(*modernCtx); ok {
		mc.req = req
		return mc
	}
	return &interceptCtx{Context: ctx, req: req}
}

// requestOf is the Request the dispatch put in ctx, or nil.
func requestOf(ctx context.Context) *Request {
	switch c := ctx.(type) {
	case *modernCtx:
		return c.req
	case *interceptCtx:
		return c.req
	}
	return nil
}

// decoded records the decoded params of the request served under ctx.
func decoded(ctx context.Context, v any) {
	if req := requestOf(ctx); req != nil {
		req.Call = v
	}
}

// respond answers request id with res or e right away, through the
// interceptors when the dispatch put a Request in ctx: the answers a method
// that starts its work gives before starting it (bad params, an unknown
// tool…).
func (ss *Session) respond(ctx context.Context, id string, res encoder, e *Error) {
	if req := requestOf(ctx); req != nil {
		res, e = ss.srv.intercepted(ctx, req, func(context.Context) (encoder, *Error) { return res, e })
	}
	ss.reply(id, res, e)
}

// refuse answers request id (method and params as sent) with e, a refusal
// made before any method ran, showing it to the interceptors first. Without
// interceptors it costs what sending the error costs.
func (ss *Session) refuse(ctx context.Context, id string, method []byte, params json.RawMessage, e *Error) {
	if ss.srv.chain != nil {
		req := &Request{Method: string(method), Params: bytes.Clone(params), Refused: true}
		if id != "" {
			req.ID = json.RawMessage(id)
		}
		ss.describe(ctx, req)
		ss.srv.intercepted(ctx, req, func(context.Context) (encoder, *Error) { return nil, e })
	}
	ss.sendError(id, e)
}

// KnownMethod reports whether the runtime serves a request method of this
// name, in either era: what an interceptor may use to keep the method
// names a client invents out of its metrics.
func KnownMethod(name string) bool { return methods[name] != nil }

// SessionHook is told when a session starts (its initialize is answered)
// and returns what to call when it ends (nil: nothing), for what lasts a
// session: its duration, a gauge of open sessions. Sessions are a legacy-era
// thing: 2026-07-28 requests and stateless HTTP have none.
type SessionHook func(SessionInfo) (ended func())

// SessionInfo describes a session to a SessionHook.
type SessionInfo struct {
	ID              string // the Mcp-Session-Id; "" on stdio
	ProtocolVersion string // negotiated at initialize
	Transport       string // TransportStdio, TransportHTTP, or "" (NewSession)
	HTTPVersion     string // of the initialize request over HTTP: "1.1", "2"; "" otherwise
}

// WithSessionHook adds h to the hooks told of every session's start and
// end.
func WithSessionHook(h SessionHook) Option {
	return func(c *config) { c.sessionHooks = append(c.sessionHooks, h) }
}

// sessionStarted tells the session hooks; ctx is the initialize request's.
func (ss *Session) sessionStarted(ctx context.Context) {
	info := SessionInfo{ID: ss.id, Transport: ss.transportName()}
	if p := ss.peer.Load(); p != nil {
		info.ProtocolVersion = p.version
	}
	if r := carrier(ctx); r != nil {
		info.HTTPVersion = r.HTTPVersion()
	}
	for _, h := range ss.srv.cfg.sessionHooks {
		if end := h(info); end != nil {
			ss.hookMu.Lock()
			ss.ended = append(ss.ended, end)
			ss.hookMu.Unlock()
		}
	}
}

// sessionEnded calls what the session hooks asked for, once.
func (ss *Session) sessionEnded() {
	ss.hookMu.Lock()
	ended := ss.ended
	ss.ended = nil
	ss.hookMu.Unlock()
	for _, end := range ended {
		end()
	}
}

// InputInterceptor sees the input of a typed tool (TypedTool,
// TypedToolResult, generated tools) once it is validated and decoded, before
// the tool's function runs: in is the tool's *In (a type switch picks the
// tools it cares about; it may also adjust the input). A non-nil result or
// error answers the call instead, as the tool's own would: an error is an
// isError result with its text, an *Error a JSON-RPC error.
type InputInterceptor func(ctx context.Context, tool string, in any) (*CallToolResult, error)

// WithInputInterceptors adds checks of typed tool inputs, run in order.
func WithInputInterceptors(ics ...InputInterceptor) Option {
	return func(c *config) { c.inputChecks = append(c.inputChecks, ics...) }
}

// checkInput runs the server's input interceptors on the decoded input of
// a typed tool.
func checkInput(ctx context.Context, tool string, in any) (*CallToolResult, error) {
	c := reqFrom(ctx)
	if c == nil || len(c.ss.srv.cfg.inputChecks) == 0 {
		return nil, nil
	}
	for _, check := range c.ss.srv.cfg.inputChecks {
		res, err := check(ctx, tool, in)
		if err != nil {
			return failed(ctx, err)
		}
		if res != nil {
			return res, nil
		}
	}
	return nil, nil
}
