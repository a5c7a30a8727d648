package runtime

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

// ListenAndServe serves s over Streamable HTTP at /mcp on addr (host:port;
// bind 127.0.0.1 for a local server) until ctx is done, with the options of
// HTTPHandler. The http.Server has header and idle timeouts set and no
// write timeout (streams last). When ctx is done it shuts down gracefully:
// it stops accepting, ends GET streams, lets requests in progress finish
// within WithShutdownTimeout, then closes the sessions (cancelling what
// still runs) and returns nil. It returns an error only when it cannot
// listen or serve.
func ListenAndServe(ctx context.Context, s *Server, addr string, opts ...HTTPOption) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return serveListener(ctx, s, ln, opts)
}

func serveListener(ctx context.Context, s *Server, ln net.Listener, opts []HTTPOption) error {
	h, herr := s.newHTTPHandler(opts)
	if herr != nil {
		ln.Close()
		return herr
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	if h.auth != nil {
		meta := s.ProtectedResourceMetadataHandler(*h.auth.cfg)
		for _, p := range h.auth.cfg.MetadataPaths() {
			mux.Handle(p, meta)
		}
	}
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: h.cfg.readHeaderTimeout,
		// No ReadTimeout: it would stay on the connection while a response
		// streams and cut long SSE streams; bodies are bounded per request
		// instead (WithBodyReadTimeout).
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(s.cfg.logger.Handler(), slog.LevelWarn),
	}
	var fresh freshConns
	hs.ConnState = fresh.track
	hs.RegisterOnShutdown(fresh.closeAll) // runs once the listener is closed
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		h.closeAll()
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), h.cfg.shutdownTimeout)
	defer cancel()
	err := hs.Shutdown(sctx) // GET streams end at once (see httpHandler.drain)
	h.closeAll()
	if err != nil {
		hs.Close() // what the closed sessions still write goes nowhere
	}
	<-served
	return nil
}

// Serve is what a server's main calls: it serves s over stdio (os.Stdin,
// os.Stdout) when httpAddr is "", else over Streamable HTTP at /mcp on
// httpAddr (ListenAndServe, with opts), until ctx is done (then it returns
// nil) or the input ends. Both shut down gracefully when ctx is done: calls
// in flight get time to finish (WithShutdownTimeout over HTTP,
// WithStdioShutdownTimeout over stdio, 10s by default) and their responses
// are written; new calls are refused.
//
// Once serving, it prints one line to stderr (see WithStartLine), such as
// "orders 1.0.0: serving MCP over Streamable HTTP at http://127.0.0.1:8080/mcp",
// so that whoever started the server knows it is up and where.
func Serve(ctx context.Context, s *Server, httpAddr string, opts ...HTTPOption) error {
	defer s.StopTasks("the server stopped before the task finished")
	if httpAddr != "" {
		ln, err := net.Listen("tcp", httpAddr)
		if err != nil {
			return err
		}
		s.printStartLine("Streamable HTTP at http://" + ln.Addr().String() + "/mcp")
		return serveListener(ctx, s, ln, opts)
	}
	if err := s.configErr(); err != nil {
		return err // before the start line: the server does not start
	}
	s.printStartLine("stdio")
	grace := s.cfg.stdioShutdown
	if grace <= 0 {
		grace = defaultStdioShutdownTimeout
	}
	if err := s.serveStdio(ctx, os.Stdin, os.Stdout, grace); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

// printStartLine says, once, that the server serves over transport.
func (s *Server) printStartLine(transport string) {
	if s.cfg.startLine != nil {
		fmt.Fprintf(s.cfg.startLine, "%s %s: serving MCP over %s\n", s.info.Name, s.info.Version, transport)
	}
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
