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
	hs.RegisterOnShutdown(fresh.closeAll) // runs once the listener is closed
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		h.CloseAll()
		return err
	case <-ctx.Done():
	}
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

// freshConns are the connections that have not sent a request yet.
// http.Server.Shutdown closes idle connections at once but gives these 5
// seconds (it cannot tell a client about to send from one that never will),
// so a client that connected and went quiet would hold up every shutdown;
// these are closed as soon as the shutdown begins.
type freshConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

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

func (f *freshConns) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		c.Close()
	}
	clear(f.conns)
}
