package runtime

import (
	"context"
	"encoding/json"
	"net/http"
)

// What the client said at initialize is stored once on the session and
// reached from a handler's context, so handler signatures stay the same as
// request-scoped abilities are added.

type peerInfo struct {
	version       string
	clientInfo    Implementation
	hasClientInfo bool
	capabilities  json.RawMessage
	client        clientCaps // what capabilities says, for requests to the client
	caps          capSet     // what the server advertised to this client

	// A modern (2026-07-28) request's own declarations, from its _meta.
	modern  bool
	logRank int32 // least severe level to send; noLogging without logLevel

	// view is what one request may see beyond Requires (toolsets, lists by
	// scope); nil: everything. Set on a per-request copy (Session.view).
	view *listView
}

type reqKey struct{}

// reqFrom returns the request a handler's context belongs to: the context is
// the *call itself (see call.Value), which saves an allocation per request.
func reqFrom(ctx context.Context) *call {
	c, _ := ctx.Value(reqKey{}).(*call)
	return c
}

func peerFrom(ctx context.Context) *peerInfo {
	if c := reqFrom(ctx); c != nil {
		return c.peerInfo()
	}
	return nil
}

// peerInfo is what the client of c declared: in its request's _meta in the
// modern era, at initialize otherwise.
func (c *call) peerInfo() *peerInfo {
	if c.peer != nil {
		return c.peer
	}
	return c.ss.peer.Load()
}

// ClientInfo returns the clientInfo the client sent in initialize (in the
// 2026-07-28 era: in the request's _meta). ok is false
// outside a session or when the client sent none (or an unreadable one).
func ClientInfo(ctx context.Context) (info Implementation, ok bool) {
	if p := peerFrom(ctx); p != nil && p.hasClientInfo {
		return p.clientInfo, true
	}
	return Implementation{}, false
}

// ClientCapabilities returns the capabilities object the client sent in
// initialize (in the 2026-07-28 era: in the request's _meta,
// io.modelcontextprotocol/clientCapabilities), raw, or nil. Do not modify it.
func ClientCapabilities(ctx context.Context) json.RawMessage {
	if p := peerFrom(ctx); p != nil {
		return p.capabilities
	}
	return nil
}

// ProtocolVersion returns the protocol revision negotiated for the session
// ("2025-11-25", …), or the one the request names in its _meta in the
// 2026-07-28 era ("2026-07-28"), or "" outside a session.
func ProtocolVersion(ctx context.Context) string {
	if p := peerFrom(ctx); p != nil {
		return p.version
	}
	return ""
}

// SessionID returns the Mcp-Session-Id of the Streamable HTTP session serving
// ctx, or "" on stdio, in stateless mode and outside a session.
func SessionID(ctx context.Context) string {
	if c := reqFrom(ctx); c != nil {
		return c.ss.id
	}
	return ""
}

// RequestHeader returns the header of the HTTP request that carried the
// request a handler serves, or nil on stdio and outside a session. Do not
// modify it. It is the place for what middleware in front of the handler
// does not turn into context values (a tenant, a trace header…); values that
// middleware put in the http.Request's context are in ctx already.
func RequestHeader(ctx context.Context) http.Header {
	if r := carrier(ctx); r != nil {
		return r.Header()
	}
	return nil
}

// CloseSSEStream ends the SSE stream of the HTTP request a handler serves,
// now, without waiting for the handler to return: it sends an SSE "retry"
// field (WithRetryInterval), so that the client comes back with GET and
// Last-Event-ID after that delay, and closes the stream. What the handler
// sends afterwards, its result included, is kept in the event store and
// replayed to that GET (SEP-1699 polling: a long call needs no connection
// held open). It does nothing where the stream could not be resumed: on
// stdio, without an event store (WithEventStore), in stateless mode, with
// WithJSONResponses, or once the stream is already closed.
func CloseSSEStream(ctx context.Context) {
	if c := reqFrom(ctx); c != nil {
		c.ss.tr.closeStream(c.id)
	}
}
