// Package runtime is the MCP (Model Context Protocol) server runtime that
// mcpgen-generated code registers against. It is a dual-era server: it
// speaks protocol revisions 2024-11-05 to 2025-11-25 (the legacy era of the
// initialize handshake and sessions) and 2026-07-28 (the modern, stateless
// era), choosing by how the client opens. initialize selects the legacy era
// for the connection; a request whose params._meta carries
// io.modelcontextprotocol/protocolVersion (and clientCapabilities) is served
// on its own in the modern era, with no handshake, on stdio and on HTTP
// alike: server/discover, resultType and the server's identity in every
// result's _meta, the caching hints ttlMs and cacheScope (WithCaching),
// logging only at the request's io.modelcontextprotocol/logLevel, -32602
// for a resource not found, and the removed methods (ping,
// logging/setLevel, resources/subscribe) answered as not found; change
// notifications travel on subscriptions/listen streams. One dispatch core
// serves both; handlers are written once. Both eras are served by default
// (WithoutModernEra keeps to the legacy one).
//
// A Server holds what is offered: tools, registered with AddTool, usually
// through the typed adapters TypedTool and TypedToolResult, which derive JSON
// Schemas from Go types once and validate every call against them; static
// resources (AddResource, TypedResource) and RFC 6570 resource templates
// (AddResourceTemplate, TypedTemplate, which types and validates the URI's
// variables); prompts (AddPrompt, TypedPrompt, DeclarativePrompt), whose
// arguments are checked before any handler runs; and completions of prompt
// arguments and template variables (CompleteHandler, CompleteValues).
// Everything can be added and removed while serving: initialized sessions
// get list_changed notifications, and NotifyResourceUpdated reaches the
// sessions subscribed to a resource.
//
// Sessions carry the protocol; transports carry the messages. The seam
// between them is package runtime/transport: a Server starts once
// (Server.Start), opens a Session per client connection
// (Server.OpenSession, with a Sink for the outgoing messages and Options
// saying what the transport carries), and a transport hands it each
// incoming message (Session.HandleMessage), ends it (EndSubscriptions,
// Wait, Drain, Close) and applies the server's Limits. Server.NewSession
// is the short form with one send function. stdio (package runtime/stdio,
// which Server.ServeStdio calls) and the in-memory pair for tests (package
// runtime/inmemory) use nothing else, so a transport of your own (a
// WebSocket, say) can do what they do. Streamable HTTP (package
// runtime/streamhttp) uses the full seam (transport.FullServer: parse a
// message once and route it, check a 2026-07-28 request's headers, share a
// session's state between replicas), which a Server offers too: it is an
// http.Handler, Server.HTTPHandler, with sessions, SSE streams,
// resumability through an EventStore, a stateless mode, and DNS-rebinding
// protection on by default. ListenAndServe serves it at /mcp with a
// graceful shutdown; Serve is what a main calls (stdio, or HTTP given an
// address).
//
// Each request is served by the handler of its era, picked once
// at the transport's edge from how the request names its protocol; the
// dispatch under it does not ask again.
//
// Over HTTP a server can be an OAuth 2.1 resource server
// (WithAuthorization): every request needs a bearer token that a
// TokenVerifier accepts (the mcpgen module has one for signed access tokens
// in its own package) and that names this server as its audience; the protected resource metadata
// (RFC 9728) tells clients where to get one; a tool's Scopes are required
// per tools/call (403 insufficient_scope otherwise, for step-up); a legacy
// session belongs to the subject that created it. Handlers read the
// identity with AuthFromContext.
//
// A handler reaches the client of its request through its context: Log (or
// a slog.Logger from Logger) sends log messages at or above the level the
// client set; Progress reports progress when the client asked for it;
// CreateMessage (sampling), Elicit and ListRoots send a request to the
// client and wait for its answer, when the client declared the capability
// (else ErrCapabilityNotSupported). On HTTP all of these travel on the
// stream of the request they belong to, which becomes an SSE stream for
// them; a request whose handler sends nothing first is answered with plain
// JSON. In the modern era a server sends no requests: CreateMessage, Elicit
// and ListRoots end the first attempt of a tools/call, prompts/get or
// resources/read with an input_required result (their error wraps
// ErrInputRequired), and the client's retry runs the handler again, the same
// calls now returning the client's answers (multi round-trip requests; the
// requestState is sealed and accepted once, WithRequestStateKey). A capability the request
// did not declare fails the request with -32021.
//
// Error model, as the protocol wants it: a malformed request, an unknown
// method or tool is a JSON-RPC error; arguments that fail the input schema and
// any error a tool returns are an isError result whose text the model can act
// on; a resource that is not there is -32002 with data {"uri": …}, prompt
// arguments that do not fit are invalid params, and other errors of resource,
// prompt and completion handlers are internal errors; a panicking handler is
// recovered, logged, answered with an internal error, and the server keeps
// serving.
//
// Optional values are Opt[T] everywhere. Handlers reach request-scoped
// information (ClientInfo, ClientCapabilities, ProtocolVersion, SessionID,
// RequestHeader, AuthFromContext) through their context, so handler signatures stay stable as
// abilities are added.
//
// MCP Apps (the io.modelcontextprotocol/ui extension): AppResource registers
// a ui:// HTML view with the app media type and its _meta.ui on both the
// list entry and every read; AppTool links a tool to a view and turns a
// result without a text block into an isError result, since hosts without
// the extension show only text; ClientSupportsUI says whether the client
// declared the extension; server/discover advertises it.
//
// Generated code calls this package's API plus runtime/genimpl, the support
// only generated code uses (its tool, template and prompt adapters, default
// decoding, template expansion helpers); a hand-written server never needs
// genimpl.
package runtime
