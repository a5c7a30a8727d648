package runtime

import (
	"context"
	"io"
	"time"

	"github.com/mcpgen/mcpgen/runtime/stdio"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// The seam to transports (package runtime/transport): a Server opens
// sessions for any transport through the same exported methods the
// built-in ones use.
var (
	_ transport.Server  = (*Server)(nil)
	_ transport.Session = (*Session)(nil)
)

// Start readies the server for a transport: it reports a configuration the
// server cannot serve with (a toolset option naming no toolset, say), and
// subscribes to the notification bus (WithStore, WithNotificationBus)
// once. The built-in transports call it; a transport of your own calls it
// before it opens sessions.
func (s *Server) Start() error {
	if err := s.configErr(); err != nil {
		return err
	}
	s.startBus()
	return nil
}

// Limits are the bounds a transport applies while reading: the maximum
// message size (WithMaxMessageSize) and the graceful shutdown's grace
// (WithStdioShutdownTimeout).
func (s *Server) Limits() transport.Limits {
	return transport.Limits{MaxMessageSize: s.cfg.maxMessageSize, ShutdownGrace: s.cfg.stdioShutdown}
}

// OpenSession starts a session whose outgoing messages go to sink, for a
// transport that says what it carries in o; the result is a *Session. It
// is NewSession for a transport that routes messages by request (as
// Streamable HTTP does) or that cannot carry requests to the client.
func (s *Server) OpenSession(sink transport.Sink, o transport.Options) transport.Session {
	var out outlet = sinkOutlet{sink}
	if f, ok := sink.(transport.SinkFunc); ok {
		out = sendFunc(f)
	}
	ss := s.newSession(out)
	ss.transport, ss.noRequests, ss.detached, ss.id, ss.inlineCall = o.Name, o.NoRequests, o.Detached, o.SessionID, o.InlineCalls
	if o.Shared {
		ss.openShared(sink)
	}
	return ss
}

// RefuseTooLarge answers a message its transport did not read whole
// because it exceeds the maximum message size (with id null: the id was
// never read).
func (ss *Session) RefuseTooLarge() {
	ss.sendError("", errorf(CodeInvalidRequest, "invalid request: message exceeds the maximum size of %d bytes", ss.srv.cfg.maxMessageSize))
}

// sinkOutlet is a transport's Sink as the session's outlet.
type sinkOutlet struct{ transport.Sink }

func (o sinkOutlet) send(rel string, final bool, msg []byte) bool { return o.Send(rel, final, msg) }
func (o sinkOutlet) abandon(rel string)                           { o.Abandon(rel) }
func (o sinkOutlet) closeStream(rel string)                       { o.CloseStream(rel) }
func (o sinkOutlet) close()                                       { o.Close() }

// ServeStdio serves one session over newline-delimited JSON-RPC on r and w
// (package runtime/stdio, where the framing and shutdown are told): until
// end of input, when it waits for the requests in flight and returns nil,
// or until ctx is done, when it returns ctx.Err() (gracefully with
// WithStdioShutdownTimeout), or until writing fails, when it returns the
// write error.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	return stdio.Serve(ctx, s, r, w)
}

// serveStdio is ServeStdio with a graceful shutdown of grace (none when 0).
func (s *Server) serveStdio(ctx context.Context, r io.Reader, w io.Writer, grace time.Duration) error {
	return stdio.ServeGracefully(ctx, s, r, w, grace)
}
