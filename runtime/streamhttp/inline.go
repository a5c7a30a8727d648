package streamhttp

import (
	"net/http"
)

// A request POSTed over HTTP runs on the goroutine net/http gave the POST,
// not on a worker: handing it to a worker and its response back costs two
// goroutine switches per call, a large share of a small call's CPU. While
// the handler runs there, nobody serves the stream; if the handler sends
// anything before its response (a progress notification, a request to the
// client, CloseSSEStream), the stream becomes SSE and a writer goroutine
// starts serving it at once, as it would have been served all along.
// Not when CloseSSEStream may end the POST while its request goes on: the
// POST's goroutine must then be free to end the response.

// inlineServe is the pending writer of a POST stream whose request runs
// inline; the stream's mu guards it.
type inlineServe struct {
	w       http.ResponseWriter
	r       *http.Request
	claimed bool          // the request runs on the POST's goroutine
	done    chan struct{} // closed when the writer goroutine is done; nil until one starts
}

// dispatchAndServe dispatches the POSTed request with dispatch and serves
// st: what the POST handler does once its response headers are set (the
// writer goroutine may write them while dispatch runs).
func (st *stream) dispatchAndServe(w http.ResponseWriter, r *http.Request, dispatch func()) {
	if st.hs.canCloseStreams() {
		dispatch() // the request runs on a worker
		st.serve(w, r, nil, -1, false)
		return
	}
	in := &st.inlineSlot // part of the stream: no allocation of its own
	st.mu.Lock()
	*in = inlineServe{w: w, r: r}
	st.inline = in
	st.mu.Unlock()
	dispatch()
	st.mu.Lock()
	st.inline = nil
	done := in.done
	st.mu.Unlock()
	if done != nil {
		<-done // the writer goroutine answers the POST
		return
	}
	st.serve(w, r, nil, -1, false)
}

// RunInline reports whether the request dispatched under st may run on the
// caller's goroutine: it is the one request of a POST in dispatchAndServe
// (transport.Request).
func (st *stream) RunInline() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.inline == nil || st.inline.claimed {
		return false
	}
	st.inline.claimed = true
	return true
}

// serveAside starts the writer goroutine of a stream that became SSE while
// its request runs inline. st.mu is held.
func (st *stream) serveAside() {
	in := st.inline
	if in == nil || !in.claimed || in.done != nil {
		return
	}
	in.done = make(chan struct{})
	go func() {
		defer close(in.done)
		st.serve(in.w, in.r, nil, -1, false)
	}()
}
