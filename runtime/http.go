package runtime

import (
	"net/http"

	"github.com/mcpgen/mcpgen/runtime/streamhttp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Streamable HTTP is package runtime/streamhttp, on the seam of
// runtime/transport (seam_full.go); what is here calls it.

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
