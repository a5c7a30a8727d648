package streamhttp

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Serve serves srv's transport with opts on ln at /mcp until ctx is done
// (see runtime.ListenAndServe), then shuts down gracefully and returns
// nil; an error only when it cannot serve.
func Serve(ctx context.Context, srv transport.FullServer, ln net.Listener, opts ...Option) error {
	h, herr := New(srv, opts...)
	if herr != nil {
		ln.Close()
		return herr
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	if h.auth != nil {
		h.auth.Mount(mux)
	}
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: h.cfg.readHeaderTimeout,
		// No ReadTimeout: it would stay on the connection while a response
		// streams and cut long SSE streams; bodies are bounded per request
		// instead (WithBodyReadTimeout).
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(h.log.Handler(), slog.LevelWarn),
	}
	var fresh freshConns
	hs.ConnState = fresh.track
	served := make(chan error, 1)
	gate := &closeOnce{Listener: ln}
	go func() { served <- hs.Serve(gate) }()
	select {
	case err := <-served:
		h.CloseAll()
		return err
	case <-ctx.Done():
	}
	// Stop accepting first, and let the connections accepted already send
	// their first request before the shutdown: net/http drops, unanswered,
	// a request it reads once Shutdown has begun, and a proxy (nginx) must
	// not resend a POST it has sent: it would answer 502. A connection
	// refused now is one it sends to another replica.
	gate.Close()
	fresh.await(freshGrace)
	fresh.closeAll() // silent ones: Shutdown would give them 5 s
	sctx, cancel := context.WithTimeout(context.Background(), h.cfg.shutdownTimeout)
	defer cancel()
	err := hs.Shutdown(sctx) // GET streams end at once (see Handler.drain)
	h.CloseAll()
	if err != nil {
		hs.Close() // what the closed sessions still write goes nowhere
	}
	<-served
	return nil
}

// closeOnce is a listener whose Close may be called again (by Serve's
// shutdown after the runtime's own).
type closeOnce struct {
	net.Listener
	once sync.Once
	err  error
}

func (l *closeOnce) Close() error {
	l.once.Do(func() { l.err = l.Listener.Close() })
	return l.err
}

// freshConns are the connections that have not sent a request yet.
// http.Server.Shutdown closes idle connections at once but gives these 5
// seconds (it cannot tell a client about to send from one that never will),
// so a client that connected and went quiet would hold up every shutdown.
// "Not read yet" is not "nothing sent", though: a proxy connects and writes
// its POST at once, and on a loaded machine the connection's goroutine may
// not have read it yet. So, once the listener is closed, they get
// freshGrace to start their request, and the silent ones are closed then.
type freshConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// freshGrace is how long the connections accepted before the shutdown
// have to start their request: well under net/http's 5 s, and long enough
// for a request already sent to be read on a loaded machine.
const freshGrace = time.Second

func (f *freshConns) track(c net.Conn, state http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if state != http.StateNew {
		delete(f.conns, c)
		return
	}
	if f.conns == nil {
		f.conns = make(map[net.Conn]struct{})
	}
	f.conns[c] = struct{}{}
}

// await waits until every fresh connection has started a request, or for
// at most grace.
func (f *freshConns) await(grace time.Duration) {
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		f.mu.Lock()
		n := len(f.conns)
		f.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (f *freshConns) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		c.Close()
	}
	clear(f.conns)
}
