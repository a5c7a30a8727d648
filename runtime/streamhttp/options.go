package streamhttp

import (
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Option configures the Streamable HTTP transport (HTTPHandler,
// ListenAndServe, Serve).
type Option func(*config)

type config struct {
	hosts, origins  []string // nil: the localhost defaults
	stateless       bool
	idleTimeout     time.Duration
	maxBody         int64 // 0: the server's WithMaxMessageSize
	maxConcurrent   int
	store           transport.EventStore
	jsonResponses   bool
	retry           time.Duration
	shutdownTimeout time.Duration
	sessionPrefix   string                                         // starts every Mcp-Session-Id (WithSessionIDPrefix)
	auth            func(transport.FullServer) (Authorizer, error) // resource-server mode (WithAuthorizer)

	maxLarge              int // WithMaxLargeRequests
	maxSessions           int // WithMaxSessions
	maxSessionsPerSubject int // WithMaxSessionsPerSubject

	bodyReadTimeout   time.Duration // WithBodyReadTimeout
	readHeaderTimeout time.Duration // WithReadHeaderTimeout (ListenAndServe's http.Server)
}

const (
	defaultIdleTimeout     = 30 * time.Minute
	defaultMaxConcurrent   = 64
	defaultRetry           = time.Second
	defaultShutdownTimeout = 10 * time.Second

	defaultBodyReadTimeout   = 30 * time.Second
	defaultReadHeaderTimeout = 10 * time.Second
)

// WithBodyReadTimeout bounds the time a request's body may take to arrive
// (default 30s), counted from when the handler sees the request. A body not
// complete by then gets 400 and its connection is closed, whatever its
// size: a client that announces a Content-Length and then sends nothing, or
// one byte a second, holds a connection that long at most. Streams are not
// concerned: the bound is lifted once the body is read. d ≤ 0 keeps the
// default.
func WithBodyReadTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.bodyReadTimeout = d
		}
	}
}

// WithReadHeaderTimeout bounds the time a client of ListenAndServe (and
// Serve) may take to send a request's headers (default 10s): a connection
// that sends a request line and then nothing is closed then. It sets the
// http.Server's ReadHeaderTimeout; HTTPHandler mounted in your own server
// ignores it (set your server's). d ≤ 0 keeps the default.
func WithReadHeaderTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.readHeaderTimeout = d
		}
	}
}

// WithAllowedHosts sets the Host header values served, replacing the
// default (localhost, 127.0.0.1 and [::1], on any port): "example.com"
// allows that host on any port, "example.com:8443" on that port only, and
// "*" any host. Any other Host gets 403 Forbidden: the protection against
// DNS rebinding, which a server listening on more than the loopback
// interface must configure for the names it is reached by.
func WithAllowedHosts(hosts ...string) Option {
	return func(c *config) { c.hosts = append(c.hosts, hosts...) }
}

// WithAllowedOrigins sets the Origin header values served, replacing the
// default (http and https on localhost, 127.0.0.1 and [::1], any port):
// each is a scheme://host[:port] as browsers send it, or "*" for any. A
// request with another Origin gets 403 Forbidden; one without Origin (not
// from a browser) is not concerned.
func WithAllowedOrigins(origins ...string) Option {
	return func(c *config) { c.origins = append(c.origins, origins...) }
}

// WithStateless serves without sessions: no Mcp-Session-Id, every POST is
// served on its own (any process behind a load balancer can take it), GET
// and DELETE get 405. Requests to the client (CreateMessage, Elicit,
// ListRoots) fail, logging/setLevel lasts for its own request only, and no
// list_changed or resources/updated notification can be sent.
func WithStateless() Option { return func(c *config) { c.stateless = true } }

// WithSessionIdleTimeout ends sessions that served no HTTP request, and had
// no stream open, for d (default 30 minutes); their id then gets 404, which
// tells the client to initialize again. d ≤ 0 keeps the default.
func WithSessionIdleTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.idleTimeout = d
		}
	}
}

// WithMaxBodyBytes caps a POST body (default: the server's
// WithMaxMessageSize, 4 MiB); a longer one gets 413 Content Too Large.
// n < 1 keeps the default.
func WithMaxBodyBytes(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxBody = n
		}
	}
}

// WithMaxConcurrentRequestsPerSession caps the POSTs carrying requests that
// one session may have in progress at once (default 64). One more gets 429
// Too Many Requests, with Retry-After and a JSON-RPC error; the client's
// answers to the server's requests are never refused. n < 1 keeps the
// default.
func WithMaxConcurrentRequestsPerSession(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxConcurrent = n
		}
	}
}

// WithEventStore makes SSE streams resumable: their events carry ids and
// are kept in es, so that a client whose stream broke comes back with GET
// and Last-Event-ID and gets what it missed; CloseSSEStream needs it.
// Without one, streams have no event ids and what a broken stream carried
// is lost (the requests still complete).
func WithEventStore(es transport.EventStore) Option { return func(c *config) { c.store = es } }

// WithJSONResponses answers every POSTed request with application/json,
// never with an SSE stream (for proxies that buffer streams): what a
// handler sends while serving a request (progress, logging, requests to the
// client) goes on the session's GET stream instead, and is dropped when none
// is open (a request to the client then fails).
func WithJSONResponses() Option { return func(c *config) { c.jsonResponses = true } }

// WithRetryInterval sets the delay sent in the SSE retry field when
// CloseSSEStream closes a stream, after which the client reconnects
// (default 1s). d ≤ 0 keeps the default.
func WithRetryInterval(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.retry = d
		}
	}
}

// WithShutdownTimeout bounds how long ListenAndServe waits for requests in
// progress once its context is done (default 10s); then the sessions are
// closed, cancelling what still runs. d ≤ 0 keeps the default.
func WithShutdownTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.shutdownTimeout = d
		}
	}
}

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
func WithSessionIDPrefix(prefix string) Option {
	if err := CheckSessionIDPrefix(prefix); err != nil {
		panic(fmt.Sprintf("streamhttp.WithSessionIDPrefix(%q): %v", prefix, err))
	}
	return func(c *config) { c.sessionPrefix = prefix }
}

// CheckSessionIDPrefix says why prefix cannot start session ids, or nil.
func CheckSessionIDPrefix(prefix string) error {
	if len(prefix) > 64 {
		return errors.New("longer than 64 characters")
	}
	for i := 0; i < len(prefix); i++ {
		if c := prefix[i]; c < 0x21 || c > 0x7e {
			return fmt.Errorf("byte %d (%#02x) is not visible ASCII (0x21–0x7E), which Mcp-Session-Id must be", i, c)
		}
	}
	return nil
}

// Large messages (codec.go in runtime): beyond largeValues JSON
// values, serving a message takes one of maxLarge slots.
const (
	largeValues             = 10_000
	defaultMaxLargeRequests = 4
)

// WithMaxLargeRequests caps how many large messages (more than 10,000 JSON
// values) are served at once (default 4); see runtime.WithMaxLargeRequests.
func WithMaxLargeRequests(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxLarge = n
		}
	}
}
