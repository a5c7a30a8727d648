package runtime

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/mcpgen/mcpgen/runtime/streamhttp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Streamable HTTP is package runtime/streamhttp, on the seam of
// runtime/transport (seam.go); what is here calls it.

// HTTPHandler returns the Streamable HTTP transport of s as an http.Handler
// for one endpoint (mount it at /mcp, say, behind your own middleware;
// handlers see the values middleware put in the request's context). It
// validates Host and Origin against DNS rebinding before anything else
// (WithAllowedHosts, WithAllowedOrigins), keeps sessions by Mcp-Session-Id
// unless WithStateless, and never lets a client that reads slowly hold up
// the session's other requests. A client that disconnects does not cancel
// its request (the spec says so): its result is kept for a resumption when
// an event store is configured, dropped otherwise.
//
// What it answers: a POSTed request gets 200 with application/json, or with
// text/event-stream when its handler sends something first; a notification
// or a response, 202. Every refusal has a JSON-RPC error body: 400 for a
// malformed message (-32700, -32600), a batch, a missing Mcp-Session-Id or
// an unsupported MCP-Protocol-Version (absent means 2025-03-26); 403 for a
// Host or Origin not allowed; 404 for a session that ended, expired or never
// was (the client initializes again); 405 for other methods (GET and DELETE
// too when stateless); 406 for an Accept without application/json and
// text/event-stream (text/event-stream for GET); 409 for a second GET
// stream; 413 for a body over WithMaxBodyBytes; 415 for a body that is not
// application/json; 429 beyond WithMaxConcurrentRequestsPerSession. DELETE
// ends the session: 204.
//
// Against hostile clients (README, "Limits against hostile clients"): a
// body must arrive within WithBodyReadTimeout (else 400, and the
// connection closes); an MCP header sent on two lines is refused (400,
// -32020); sessions are capped (WithMaxSessions, WithMaxSessionsPerSubject:
// the longest-idle one ends, or 503/429 when all are busy); a message is
// counted before it is decoded (WithMaxObjectMembers, WithMaxJSONValues:
// 400), and large ones are served a few at a time (WithMaxLargeRequests:
// 503).
//
// A request of the 2026-07-28 era (io.modelcontextprotocol/protocolVersion
// in params._meta) comes in by the modern front door: no session; the
// headers MCP-Protocol-Version, Mcp-Method and, for tools/call, prompts/get
// and resources/read, Mcp-Name must agree with the body (else 400, -32020);
// 400 for a _meta without version or capabilities (-32602), for a version
// not served (-32022) or a capability missing (-32021); 404 for a method the
// era does not have (-32601); 405 for GET and DELETE; the request is
// cancelled when its response stream closes.
//
// Mounted in an http.Server, its open GET streams end when the server's
// Shutdown begins, so that Shutdown waits only for requests in progress.
//
// With WithAuthorization, every request needs a bearer token first (see
// WithAuthorization for the answers when it has none, or not the right one).
func (s *Server) HTTPHandler(opts ...HTTPOption) http.Handler {
	h, err := streamhttp.New(s, opts...)
	if err != nil {
		panic("runtime: HTTPHandler: " + err.Error())
	}
	return h
}

// EventStore keeps the SSE events of Streamable HTTP sessions for
// resumption (see transport.EventStore). Configure one with
// WithEventStore; NewMemoryEventStore is a store for one process.
type EventStore = transport.EventStore

// StoredEvent is an event of an EventStore.
type StoredEvent = transport.StoredEvent

// SessionStore keeps legacy Streamable HTTP sessions for every replica
// (see transport.SessionStore, and runtime/streamhttp for how replicas
// share a session); WithStore configures one.
type SessionStore = transport.SessionStore

// NewMemoryEventStore returns an EventStore that keeps events in memory,
// the last maxEventsPerStream of each stream (at least 1; a stream's last
// event is its response, the one that matters) and the last 256 streams of
// each session, until the session ends.
func NewMemoryEventStore(maxEventsPerStream int) EventStore {
	return streamhttp.NewMemoryEventStore(maxEventsPerStream)
}

// HTTPOption configures the Streamable HTTP transport (HTTPHandler,
// ListenAndServe, Serve): it is an option of package runtime/streamhttp.
type HTTPOption = streamhttp.Option

// WithBodyReadTimeout bounds the time a request body may take to arrive (default 30s).
// It is streamhttp.WithBodyReadTimeout, whose documentation tells the details.
func WithBodyReadTimeout(d time.Duration) HTTPOption { return streamhttp.WithBodyReadTimeout(d) }

// WithReadHeaderTimeout bounds the time a client may take to send its headers (default 10s).
// It is streamhttp.WithReadHeaderTimeout, whose documentation tells the details.
func WithReadHeaderTimeout(d time.Duration) HTTPOption { return streamhttp.WithReadHeaderTimeout(d) }

// WithAllowedHosts sets the Host header values served (default: loopback names, any port).
// It is streamhttp.WithAllowedHosts, whose documentation tells the details.
func WithAllowedHosts(hosts ...string) HTTPOption { return streamhttp.WithAllowedHosts(hosts...) }

// WithAllowedOrigins sets the Origin header values served (default: loopback origins).
// It is streamhttp.WithAllowedOrigins, whose documentation tells the details.
func WithAllowedOrigins(origins ...string) HTTPOption {
	return streamhttp.WithAllowedOrigins(origins...)
}

// WithSessionIdleTimeout ends sessions idle for d (default 30 minutes).
// It is streamhttp.WithSessionIdleTimeout, whose documentation tells the details.
func WithSessionIdleTimeout(d time.Duration) HTTPOption { return streamhttp.WithSessionIdleTimeout(d) }

// WithMaxBodyBytes caps a POST body (default: WithMaxMessageSize).
// It is streamhttp.WithMaxBodyBytes, whose documentation tells the details.
func WithMaxBodyBytes(n int64) HTTPOption { return streamhttp.WithMaxBodyBytes(n) }

// WithMaxConcurrentRequestsPerSession caps the requests one session has in progress (default 64).
// It is streamhttp.WithMaxConcurrentRequestsPerSession, whose documentation tells the details.
func WithMaxConcurrentRequestsPerSession(n int) HTTPOption {
	return streamhttp.WithMaxConcurrentRequestsPerSession(n)
}

// WithRetryInterval sets the SSE retry delay sent when CloseSSEStream closes a stream (default 1s).
// It is streamhttp.WithRetryInterval, whose documentation tells the details.
func WithRetryInterval(d time.Duration) HTTPOption { return streamhttp.WithRetryInterval(d) }

// WithShutdownTimeout bounds how long ListenAndServe waits for requests in progress (default 10s).
// It is streamhttp.WithShutdownTimeout, whose documentation tells the details.
func WithShutdownTimeout(d time.Duration) HTTPOption { return streamhttp.WithShutdownTimeout(d) }

// WithSessionIDPrefix starts every Mcp-Session-Id this server issues with
// prefix, a tag naming the replica (such as "r1."), so that a load balancer
// in front of several replicas can send each legacy session back to the
// replica that holds it: open-source nginx, for one, cannot learn which
// backend issued an id, but its map directive can route on the id's prefix
// (README, "Deploying behind a load balancer"). The rest of the id is still
// 128 random bits. The 2026-07-28 era has no sessions and needs no such
// routing. The prefix must be at most 64 characters of visible ASCII
// (0x21–0x7E), the characters a session id may hold; any other prefix is a
// programming error, and WithSessionIDPrefix panics saying so.
func WithSessionIDPrefix(prefix string) HTTPOption {
	if err := streamhttp.CheckSessionIDPrefix(prefix); err != nil {
		panic(fmt.Sprintf("runtime.WithSessionIDPrefix(%q): %v", prefix, err))
	}
	return streamhttp.WithSessionIDPrefix(prefix)
}

// WithStateless serves without sessions.
// It is streamhttp.WithStateless, whose documentation tells the details.
func WithStateless() HTTPOption { return streamhttp.WithStateless() }

// WithEventStore makes SSE streams resumable, their events kept in es.
// It is streamhttp.WithEventStore, whose documentation tells the details.
func WithEventStore(es EventStore) HTTPOption { return streamhttp.WithEventStore(es) }

// WithJSONResponses answers every POSTed request with application/json, never an SSE stream.
// It is streamhttp.WithJSONResponses, whose documentation tells the details.
func WithJSONResponses() HTTPOption { return streamhttp.WithJSONResponses() }

// WithMaxSessions caps the legacy sessions kept at once (default 10,000).
// It is streamhttp.WithMaxSessions, whose documentation tells the details.
func WithMaxSessions(n int) HTTPOption { return streamhttp.WithMaxSessions(n) }

// WithMaxSessionsPerSubject caps the sessions one authenticated subject keeps
// at once (default 100).
// It is streamhttp.WithMaxSessionsPerSubject, whose documentation tells the details.
func WithMaxSessionsPerSubject(n int) HTTPOption { return streamhttp.WithMaxSessionsPerSubject(n) }

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
