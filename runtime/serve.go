package runtime

import (
	"context"
	"fmt"
	"net"
	"os"

	"github.com/mcpgen/mcpgen/runtime/streamhttp"
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
	return streamhttp.Serve(ctx, s, ln, opts...)
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
