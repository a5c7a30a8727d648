package runtime

import (
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime/streamhttp"
)

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
