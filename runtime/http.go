package runtime

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/mcpgen/mcpgen/runtime/authz"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/stdio"
	"github.com/mcpgen/mcpgen/runtime/streamhttp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// The built-in transports' entry points. Streamable HTTP is package
// runtime/streamhttp and stdio package runtime/stdio, both on the seam of
// runtime/transport (seam.go); what is here calls them, and Serve picks one
// for a main. Authorization, which applies over HTTP only, is at the end.

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

// defaultStdioShutdownTimeout is how long Serve lets stdio calls finish.
const defaultStdioShutdownTimeout = 10 * time.Second

// WithStdioShutdownTimeout makes a cancelled context a graceful shutdown
// of ServeStdio: calls that arrive from then on are refused (error -32000),
// the calls in flight get d to finish and have their responses written,
// then the rest are cancelled. Without it ServeStdio cancels them at once.
// Serve, which mains call, shuts down gracefully in any case (10s unless
// this option says otherwise). d ≤ 0 keeps the default.
func WithStdioShutdownTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.stdioShutdown = d
		}
	}
}

// WithMaxLargeRequests caps how many large messages (more than 10,000 JSON
// values) the HTTP transport serves at once (default 4); one more gets 503
// Service Unavailable with Retry-After and a JSON-RPC error. Small messages
// are never held up. n < 1 keeps the default.
func WithMaxLargeRequests(n int) HTTPOption { return streamhttp.WithMaxLargeRequests(n) }

// Authorization (2025-11-25 basic/authorization.mdx; the same server rules
// in 2026-07-28): over HTTP a server may act as an OAuth 2.1 resource
// server. Every request then carries `Authorization: Bearer <token>`; the
// token is verified (TokenVerifier), must be issued for this server (its
// audience, RFC 8707) and must hold the scopes the request needs. Clients
// discover where to get a token from the protected resource metadata (RFC
// 9728) this server publishes. Over stdio authorization does not apply.
// The gate, the identity and the metadata document are package
// runtime/authz; these are their names in this package.
type (
	// AuthConfig configures resource-server mode (WithAuthorization;
	// authz.Config).
	AuthConfig = authz.Config
	// TokenVerifier verifies a bearer token and returns who it stands for
	// (authz.TokenVerifier). An error that wraps ErrInvalidToken means the
	// token is refused (401); any other error means it could not be checked
	// now (503). The runtime checks the audience itself (AuthInfo.Audience
	// must contain AuthConfig.Resource), so a verifier must fill Audience.
	TokenVerifier = authz.TokenVerifier
)

// ErrInvalidToken is wrapped by the errors of a TokenVerifier that refuses
// a token (expired, bad signature, wrong issuer…): the client gets 401
// (authz.ErrInvalidToken).
var ErrInvalidToken = authz.ErrInvalidToken

// What of authorization needs the server: the gate's hooks (a tool's
// scopes, the metadata document naming the server and its tools' scopes).

// WithAuthorization turns on OAuth 2.1 resource-server mode. Every request
// to the endpoint needs a valid bearer token for cfg.Resource; otherwise:
//   - 401 with `WWW-Authenticate: Bearer resource_metadata="…", scope="…"`
//     when the token is missing, and with error="invalid_token" when it is
//     expired, badly signed, from another issuer or for another resource;
//   - 400 with error="invalid_request" for a malformed Authorization header;
//   - 403 with error="insufficient_scope" and the scopes needed (step-up)
//     when the token lacks cfg.Scopes, or a tools/call lacks the tool's
//     Scopes;
//   - 403 when a session is used by another subject than the one that
//     created it;
//   - 503 when the verifier cannot tell (e.g. its key set is unreachable).
//
// The verified identity reaches handlers through AuthFromContext.
// ListenAndServe (and Serve) also serve the metadata document at its
// well-known paths; with HTTPHandler in your own mux, mount
// Server.ProtectedResourceMetadataHandler at cfg.MetadataPaths(). The
// handler panics (ListenAndServe returns an error) when cfg is incomplete.
func WithAuthorization(cfg AuthConfig) HTTPOption {
	return streamhttp.WithAuthorizer(func(fs transport.FullServer) (streamhttp.Authorizer, error) {
		s := fs.(*Server)
		return authz.NewGate(&cfg, authz.Hooks{
			Metadata:   s.ProtectedResourceMetadataHandler(cfg),
			CallScopes: s.callScopes,
			Logger:     s.cfg.logger,
		})
	})
}

// callScopes returns the scopes of the tool a tools/call (or call_tool)
// calls, for the gate to refuse with 403 insufficient_scope. With lists by
// scope such a tool is hidden instead: the dispatcher answers it as an
// unknown tool, so the answer does not tell that it exists
// (WithListsByScope, below).
func (s *Server) callScopes(m transport.Message) []string {
	if string(m.Method) != methodToolsCall || s.cfg.listsByScope {
		return nil
	}
	name, _ := jsonwire.StringMember(s.directCall(m.Method, m.Params), "name") // call_tool: the tool it calls
	if te := s.tools.snapshot().byKey[name]; te != nil {
		return te.tool.Scopes // an unknown tool is the dispatcher's to refuse
	}
	return nil
}

// ProtectedResourceMetadataHandler serves the protected resource metadata
// of s under cfg (RFC 9728) to GET, with CORS open to any origin (the
// document is public, and browser-based clients fetch it). Mount it at
// each of cfg.MetadataPaths() when you mount HTTPHandler in your own mux;
// ListenAndServe does it itself.
func (s *Server) ProtectedResourceMetadataHandler(cfg AuthConfig) http.Handler {
	return authz.MetadataHandler(func() *authz.Metadata {
		// Built now: the tools, and so the scopes they need, may change
		// while serving.
		var scopes [][]string
		for _, te := range s.tools.snapshot().list {
			scopes = append(scopes, te.tool.Scopes)
		}
		name := s.info.Title
		if name == "" {
			name = s.info.Name
		}
		return cfg.Metadata(name, scopes...)
	})
}

// Lists by scope: with WithAuthorization, a tool whose Scopes the caller's
// token does not grant would be refused with 403 insufficient_scope. With
// WithListsByScope such a tool is not listed either, and a call of it is
// answered as a call of an unknown tool: each caller sees the tools it may
// call, and a model is not shown tools it cannot use. The lists then depend
// on the caller, so their modern cacheScope is "private". Over stdio, and
// without a verified token, scopes do not apply and nothing is hidden.

// WithListsByScope hides from each caller the tools its token's scopes do
// not allow (see above).
func WithListsByScope() Option { return func(c *config) { c.listsByScope = true } }
