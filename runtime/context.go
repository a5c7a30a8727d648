package runtime

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/mcpgen/mcpgen/runtime/authz"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/transport"
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

// clientCaps are the client capabilities that requests to the client need.
type clientCaps uint8

const (
	clientSampling clientCaps = 1 << iota
	clientElicitForm
	clientElicitURL
	clientRoots
)

// parseClientCaps reads the capabilities object of initialize. An
// elicitation object without modes means form mode (backwards compatible
// with 2025-06-18, where there was only form).
func parseClientCaps(raw json.RawMessage) clientCaps {
	var p struct {
		Sampling    json.RawMessage `json:"sampling"`
		Roots       json.RawMessage `json:"roots"`
		Elicitation json.RawMessage `json:"elicitation"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return 0
	}
	var cc clientCaps
	if jsonwire.FirstByte(p.Sampling) == '{' {
		cc |= clientSampling
	}
	if jsonwire.FirstByte(p.Roots) == '{' {
		cc |= clientRoots
	}
	if jsonwire.FirstByte(p.Elicitation) == '{' {
		var modes struct{ Form, URL json.RawMessage }
		_ = json.Unmarshal(p.Elicitation, &modes)
		if jsonwire.FirstByte(modes.Form) == '{' || jsonwire.FirstByte(modes.URL) != '{' {
			cc |= clientElicitForm
		}
		if jsonwire.FirstByte(modes.URL) == '{' {
			cc |= clientElicitURL
		}
	}
	return cc
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

// carrier is what the transport says of the request that carried the
// message handled under ctx (transport.RequestKey), or nil.
func carrier(ctx context.Context) transport.Request {
	r, _ := ctx.Value(transport.RequestKey{}).(transport.Request)
	return r
}

// runInline reports whether the request dispatched under ctx may run on
// the caller's goroutine (transport.Request.RunInline).
func runInline(ctx context.Context) bool {
	r := carrier(ctx)
	return r != nil && r.RunInline()
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

// Capability-gated items: a Tool, Prompt, Resource or ResourceTemplate with
// Requires is listed, and callable, only for a client that declared what it
// names: in initialize's capabilities (legacy era), or in the request's
// _meta io.modelcontextprotocol/clientCapabilities (2026-07-28). To any
// other client the item does not exist: its list leaves it out, and a call,
// get or read of it gets the error of an unknown one (invalid params for a
// tool or prompt, resource not found for a resource), so a client cannot
// tell a hidden item from a missing one. A list with a gated item depends on
// who asks, so its modern cacheScope is always "private".

// Requires names the client capabilities an item needs.
type Requires struct {
	// Capabilities are names of client capabilities: "roots", "sampling",
	// "elicitation", "tasks" (the legacy tasks capability, or in the
	// 2026-07-28 era the io.modelcontextprotocol/tasks extension). A
	// capability is declared when its member is an object.
	Capabilities []string
	// Extensions are names of client extensions
	// (capabilities.extensions), such as "io.modelcontextprotocol/ui".
	Extensions []string
}

// metBy reports whether the client p declared everything r names; a nil r
// is met by anyone, a nil p (no client known) meets only that.
func (r *Requires) metBy(p *peerInfo) bool {
	if r == nil || len(r.Capabilities)+len(r.Extensions) == 0 {
		return true
	}
	if p == nil {
		return false
	}
	for _, c := range r.Capabilities {
		declared := jsonwire.FirstByte(jsonwire.Member(p.capabilities, c)) == '{'
		if c == "tasks" {
			declared = declared || declaresTasks(p)
		}
		if !declared {
			return false
		}
	}
	for _, x := range r.Extensions {
		if !p.declaresExtension(x) {
			return false
		}
	}
	return true
}

// declaresExtension reports whether p's capabilities.extensions has name as
// an object.
func (p *peerInfo) declaresExtension(name string) bool {
	ext := jsonwire.Member(p.capabilities, "extensions")
	return jsonwire.FirstByte(ext) == '{' && jsonwire.FirstByte(jsonwire.Member(ext, name)) == '{'
}

// declaredBy is what the client of a request being dispatched declared: its
// _meta in the modern era, its initialize otherwise.
// With toolsets or lists by scope, it carries what the request may see
// (toolsets.go).
func (ss *Session) declaredBy(ctx context.Context) *peerInfo {
	if mc, ok := ctx.(*modernCtx); ok {
		return ss.view(ctx, mc.peer)
	}
	return ss.view(ctx, ss.peer.Load())
}

// visible reports whether the client p may see e: it declared what e
// requires, and its view (toolsets, scopes) shows it.
func visible[E listed](e E, p *peerInfo) bool {
	return e.requires().metBy(p) && p.shows(e.kind(), e.key(), e.scopes())
}

// AuthInfo is the verified identity behind a request (authz.Info).
type AuthInfo = authz.Info

// AuthFromContext returns the verified identity of the request a handler
// serves, when the server runs with WithAuthorization; ok is false on stdio
// and without authorization. Do not modify it.
func AuthFromContext(ctx context.Context) (info *AuthInfo, ok bool) { return authz.FromContext(ctx) }

// ContextWithAuth returns ctx carrying info, as AuthFromContext reads it:
// for tests of handlers, and for transports of your own.
func ContextWithAuth(ctx context.Context, info *AuthInfo) context.Context {
	return authz.WithInfo(ctx, info)
}
