package runtime

import (
	"context"
	"net/http"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// The modern front door of Streamable HTTP (2026-07-28
// basic/transports/streamable-http.mdx): POST only; every request carries
// its version and capabilities in _meta, mirrored in headers the server
// checks against the body; each request is served on its own, without a
// session, and closing its response stream cancels it.

// missingCapabilityHead is how an encoded -32021 response starts after its
// id (an id cannot contain it: its quotes would be escaped).
var missingCapabilityHead = []byte(`,"error":{"code":-32021,`)

const (
	headerMethod = "Mcp-Method"
	headerName   = "Mcp-Name"
)

// modernHeader reports whether r says it speaks a modern revision
// (MCP-Protocol-Version): GET and DELETE are then 405.
// modern reports whether r comes by the modern front door of a server that
// serves the modern era.
func (h *httpHandler) modern(r *http.Request) bool { return !h.srv.cfg.legacyOnly && modernHeader(r) }

func modernHeader(r *http.Request) bool {
	return slices.Contains(modernVersions, headerValue(r.Header, headerProtocolVersion))
}

// postModern serves a POSTed modern request: once checkModern passed, it
// is dispatched on a session of its own whose response stream is the
// POST's.
func (h *httpHandler) postModern(w http.ResponseWriter, r *http.Request, env *envelope, echo string) {
	peer, status, e := h.checkModern(r, env)
	if e != nil {
		httpError(w, status, echo, e)
		return
	}
	hs := &httpSession{h: h, listening: string(env.method) == methodSubscriptionsOpen}
	hs.ss = h.srv.newSession(hs)
	hs.ss.noRequests = true
	defer hs.ss.Close() // ends the request (a subscription, say) if the stream closed first
	st, e := hs.openStream(r, echo)
	if e != nil {
		httpError(w, http.StatusBadRequest, echo, e)
		return
	}
	// The request is cancelled when its stream closes: the context has the
	// stream's values and the HTTP request's cancellation.
	st.modern = true
	done, end := h.modernDone(r, hs.listening)
	defer end()
	ctx := &modernCtx{Context: cancelWith{Context: st, done: done}, peer: peer}
	if hs.listening {
		// A subscription streams until it ends: its request runs on a
		// worker while this goroutine serves the stream.
		hs.ss.dispatchModern(ctx, env)
		st.serve(w, r, nil, -1, false)
		return
	}
	st.dispatchAndServe(w, r, func() { hs.ss.dispatchModern(ctx, env) })
}

// checkModern checks a modern POST in this order, and says what status a
// failure is answered with: MCP-Protocol-Version against the _meta version
// (400 with -32020), the _meta (400 with -32602 or -32022), the method
// (404 with -32601), the other headers (400 with -32020).
func (h *httpHandler) checkModern(r *http.Request, env *envelope) (*peerInfo, int, *Error) {
	if e := checkMetaVersionHeader(r, env.Params); e != nil {
		return nil, http.StatusBadRequest, e
	}
	peer, e := h.srv.modernPeer(env.Params)
	if e != nil {
		return nil, http.StatusBadRequest, e
	}
	m := lookupMethod(env.method, eraModern)
	if m == nil {
		return nil, http.StatusNotFound, modernMethodNotFound(string(env.method))
	}
	if e := checkModernHeaders(r, m, peer.version, env.Params); e != nil {
		return nil, http.StatusBadRequest, e
	}
	if string(env.method) == methodToolsCall { // x-mcp-header: a tool's own Mcp-Param-* headers
		if e := h.srv.checkParamHeaders(r, env.Params); e != nil {
			return nil, http.StatusBadRequest, e
		}
	}
	return peer, 0, nil
}

// checkMetaVersionHeader: the header must name the version the body names,
// supported or not; a disagreement is a header mismatch before anything
// else.
func checkMetaVersionHeader(r *http.Request, params []byte) *Error {
	if jsonwire.FirstByte(params) != '{' {
		return nil
	}
	v, ok := stringMember(member(params, "_meta"), metaProtocolVersion)
	if !ok || v == "" {
		return nil
	}
	if got := headerValue(r.Header, headerProtocolVersion); got != v {
		return headerMismatch(headerProtocolVersion, got, v, "the protocol version in _meta")
	}
	return nil
}

// modernDone is what ends a modern request: its HTTP request, and for a
// subscription the server's shutdown too, which ends it gracefully (its
// request returns, and its result closes the stream; a client that goes
// away ends it too, unanswered).
func (h *httpHandler) modernDone(r *http.Request, listening bool) (context.Context, context.CancelFunc) {
	if !listening {
		return r.Context(), func() {}
	}
	done, end := context.WithCancel(r.Context())
	if drain := h.drain(r); drain != nil {
		go func() {
			select {
			case <-drain:
				end()
			case <-done.Done():
			}
		}()
	}
	return done, end
}

// checkModernHeaders checks the headers a modern POST must carry against
// its body: MCP-Protocol-Version equal to the _meta version, Mcp-Method to
// the method, and Mcp-Name (possibly =?base64?…?=) to params.name or
// params.uri for tools/call, prompts/get and resources/read.
func checkModernHeaders(r *http.Request, method *methodInfo, version string, params []byte) *Error {
	if v := headerValue(r.Header, headerProtocolVersion); v != version {
		return headerMismatch(headerProtocolVersion, v, version, "the protocol version in _meta")
	}
	if m := headerValue(r.Header, headerMethod); m != method.name {
		return headerMismatch(headerMethod, m, method.name, "the method in the body")
	}
	key := method.target
	if key == "" {
		return nil
	}
	want, _ := stringMember(params, key)
	got, ok := decodeHeaderValue(headerValue(r.Header, headerName))
	if !ok {
		return errorf(CodeHeaderMismatch, "header mismatch: %s %s is not valid =?base64?…?= text", headerName, quote(headerValue(r.Header, headerName)))
	}
	if _, present := r.Header[headerName]; !present || got != want {
		return headerMismatch(headerName, got, want, "params."+key)
	}
	return nil
}

func headerMismatch(header, got, want, what string) *Error {
	if got == "" {
		return errorf(CodeHeaderMismatch, "header mismatch: the %s header is required and must be %s (%s)", header, quote(want), what)
	}
	return errorf(CodeHeaderMismatch, "header mismatch: %s is %s, but %s is %s", header, quote(got), what, quote(want))
}
