package runtime

import (
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime/streamhttp"
)

// HTTPOption configures the Streamable HTTP transport (HTTPHandler,
// ListenAndServe, Serve): it is an option of package runtime/streamhttp.
type HTTPOption = streamhttp.Option

// WithBodyReadTimeout bounds the time a request's body may take to arrive
// (default 30s), counted from when the handler sees the request. A body not
// complete by then gets 400 and its connection is closed, whatever its
// size: a client that announces a Content-Length and then sends nothing, or
// one byte a second, holds a connection that long at most. Streams are not
// concerned: the bound is lifted once the body is read. d ≤ 0 keeps the
// default.
func WithBodyReadTimeout(d time.Duration) HTTPOption { return streamhttp.WithBodyReadTimeout(d) }

// WithReadHeaderTimeout bounds the time a client of ListenAndServe (and
// Serve) may take to send a request's headers (default 10s): a connection
// that sends a request line and then nothing is closed then. It sets the
// http.Server's ReadHeaderTimeout; HTTPHandler mounted in your own server
// ignores it (set your server's). d ≤ 0 keeps the default.
func WithReadHeaderTimeout(d time.Duration) HTTPOption { return streamhttp.WithReadHeaderTimeout(d) }

// WithAllowedHosts sets the Host header values served, replacing the
// default (localhost, 127.0.0.1 and [::1], on any port): "example.com"
// allows that host on any port, "example.com:8443" on that port only, and
// "*" any host. Any other Host gets 403 Forbidden: the protection against
// DNS rebinding, which a server listening on more than the loopback
// interface must configure for the names it is reached by.
func WithAllowedHosts(hosts ...string) HTTPOption { return streamhttp.WithAllowedHosts(hosts...) }

// WithAllowedOrigins sets the Origin header values served, replacing the
// default (http and https on localhost, 127.0.0.1 and [::1], any port):
// each is a scheme://host[:port] as browsers send it, or "*" for any. A
// request with another Origin gets 403 Forbidden; one without Origin (not
// from a browser) is not concerned.
func WithAllowedOrigins(origins ...string) HTTPOption {
	return streamhttp.WithAllowedOrigins(origins...)
}

// WithSessionIdleTimeout ends sessions that served no HTTP request, and had
// no stream open, for d (default 30 minutes); their id then gets 404, which
// tells the client to initialize again. d ≤ 0 keeps the default.
func WithSessionIdleTimeout(d time.Duration) HTTPOption { return streamhttp.WithSessionIdleTimeout(d) }

// WithMaxBodyBytes caps a POST body (default: the server's
// WithMaxMessageSize, 4 MiB); a longer one gets 413 Content Too Large.
// n < 1 keeps the default.
func WithMaxBodyBytes(n int64) HTTPOption { return streamhttp.WithMaxBodyBytes(n) }

// WithMaxConcurrentRequestsPerSession caps the POSTs carrying requests that
// one session may have in progress at once (default 64). One more gets 429
// Too Many Requests, with Retry-After and a JSON-RPC error; the client's
// answers to the server's requests are never refused. n < 1 keeps the
// default.
func WithMaxConcurrentRequestsPerSession(n int) HTTPOption {
	return streamhttp.WithMaxConcurrentRequestsPerSession(n)
}

// WithRetryInterval sets the delay sent in the SSE retry field when
// CloseSSEStream closes a stream, after which the client reconnects
// (default 1s). d ≤ 0 keeps the default.
func WithRetryInterval(d time.Duration) HTTPOption { return streamhttp.WithRetryInterval(d) }

// WithShutdownTimeout bounds how long ListenAndServe waits for requests in
// progress once its context is done (default 10s); then the sessions are
// closed, cancelling what still runs. d ≤ 0 keeps the default.
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

// WithStateless serves without sessions: no Mcp-Session-Id, every POST is
// served on its own (any process behind a load balancer can take it), GET
// and DELETE get 405. Requests to the client (CreateMessage, Elicit,
// ListRoots) fail, logging/setLevel lasts for its own request only, and no
// list_changed or resources/updated notification can be sent.
func WithStateless() HTTPOption { return streamhttp.WithStateless() }

// WithEventStore makes SSE streams resumable: their events carry ids and
// are kept in es, so that a client whose stream broke comes back with GET
// and Last-Event-ID and gets what it missed; CloseSSEStream needs it.
// Without one, streams have no event ids and what a broken stream carried
// is lost (the requests still complete).
func WithEventStore(es EventStore) HTTPOption { return streamhttp.WithEventStore(es) }

// WithJSONResponses answers every POSTed request with application/json,
// never with an SSE stream (for proxies that buffer streams): what a
// handler sends while serving a request (progress, logging, requests to the
// client) goes on the session's GET stream instead, and is dropped when none
// is open (a request to the client then fails).
func WithJSONResponses() HTTPOption { return streamhttp.WithJSONResponses() }

// WithMaxSessions caps the legacy sessions a handler keeps at once
// (default 10,000; an idle session holds about 1.5 KiB of heap, 15 MiB at
// the cap, as BenchmarkIdleSessionMemory measures). An initialize beyond it
// ends the session idle the longest, whose client gets 404 and initializes
// again; when every session is serving a request it is refused with 503
// Service Unavailable and Retry-After. n < 1 keeps the default.
func WithMaxSessions(n int) HTTPOption { return streamhttp.WithMaxSessions(n) }

// WithMaxSessionsPerSubject caps the sessions one authenticated subject
// (WithAuthorization: the token's sub, or its client_id) keeps at once
// (default 100): an initialize beyond it ends that subject's session idle
// the longest, or, when each is serving a request, is refused with 429 Too
// Many Requests and Retry-After. Without authorization there is no subject
// and only WithMaxSessions applies. n < 1 keeps the default.
func WithMaxSessionsPerSubject(n int) HTTPOption { return streamhttp.WithMaxSessionsPerSubject(n) }
