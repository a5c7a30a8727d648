package runtime

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
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
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.cfg.logger.Handler(), slog.LevelWarn),
	}
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
// nil) or the input ends.
func Serve(ctx context.Context, s *Server, httpAddr string, opts ...HTTPOption) error {
	if httpAddr != "" {
		return ListenAndServe(ctx, s, httpAddr, opts...)
	}
	if err := s.ServeStdio(ctx, os.Stdin, os.Stdout); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}
