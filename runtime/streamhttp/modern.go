package streamhttp

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/mcpgen/mcpgen/runtime/transport"
)

// The modern front door of Streamable HTTP (2026-07-28
// basic/transports/streamable-http.mdx): POST only; every request carries
// its version and capabilities in _meta, mirrored in headers the server
// checks against the body; each request is served on its own, without a
// session, and closing its response stream cancels it.

// missingCapabilityHead is how an encoded -32021 response starts after its
// id (an id cannot contain it: its quotes would be escaped).
var missingCapabilityHead = []byte(`,"error":{"code":-32021,`)

// modern reports whether r comes by the modern front door of a server that
// serves the modern era (its MCP-Protocol-Version is of that era): GET and
// DELETE are then 405.
func (h *Handler) modern(r *http.Request) bool {
	return len(h.conf.Modern) > 0 && slices.Contains(h.conf.Modern, headerValue(r.Header, headerProtocolVersion))
}

// postModern serves a POSTed modern request: once the core's CheckModern
// passed, it is dispatched on a session of its own whose response stream
// is the POST's.
func (h *Handler) postModern(w http.ResponseWriter, r *http.Request, m *transport.Message) {
	peer, e := h.srv.CheckModern(r.Header, *m)
	if e != nil {
		httpError(w, e.Status, m.Echo, e)
		return
	}
	hs := &httpSession{h: h, listening: string(m.Method) == methodSubscriptionsOpen}
	hs.ss = h.srv.OpenFull(hs, transport.Options{Name: Name, NoRequests: true})
	defer hs.ss.Close() // ends the request (a subscription, say) if the stream closed first
	st, e := hs.openStream(r, m.Echo)
	if e != nil {
		httpError(w, http.StatusBadRequest, m.Echo, e)
		return
	}
	// The request is cancelled when its stream closes: the context has the
	// stream's values and the HTTP request's cancellation.
	st.modern = true
	done, end := h.modernDone(r, hs.listening)
	defer end()
	ctx := cancelWith{Context: st, done: done}
	if hs.listening {
		// A subscription streams until it ends: its request runs on a
		// worker while this goroutine serves the stream.
		hs.ss.DispatchModern(ctx, peer, *m)
		st.serve(w, r, nil, -1, false)
		return
	}
	st.dispatchAndServe(w, r, func() { hs.ss.DispatchModern(ctx, peer, *m) })
}

// cancelWith is a context with the values of its Context and the
// cancellation of done: a modern HTTP request is cancelled when its
// response stream closes (streamable-http.mdx), unlike a legacy one.
type cancelWith struct {
	context.Context
	done context.Context
}

func (c cancelWith) Done() <-chan struct{}       { return c.done.Done() }
func (c cancelWith) Err() error                  { return c.done.Err() }
func (c cancelWith) Deadline() (time.Time, bool) { return c.done.Deadline() }

// modernDone is what ends a modern request: its HTTP request, and for a
// subscription the server's shutdown too, which ends it gracefully (its
// request returns, and its result closes the stream; a client that goes
// away ends it too, unanswered).
func (h *Handler) modernDone(r *http.Request, listening bool) (context.Context, context.CancelFunc) {
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
