// Package streamhttp serves MCP over Streamable HTTP (2025-11-25 and
// 2026-07-28 basic/transports): one endpoint; a POST carries one message; a
// request is answered with application/json, or with an SSE stream when its
// handler sends something before its result; GET opens a session's stream
// for what belongs to no request; DELETE ends the session. Sessions may be
// kept in a store for every replica (transport.SessionStore), streams
// resumed from an event store (transport.EventStore), requests of the
// 2026-07-28 era served without a session, every request authorized
// (Authorizer).
//
// It is built on the seam of package runtime/transport alone
// (transport.FullServer and transport.FullSession), so it serves any
// server that offers that seam; runtime.Server.HTTPHandler,
// runtime.ListenAndServe and runtime.Serve call it, and the runtime's
// With* HTTP options are its options. The seam is what a transport of your
// own (a WebSocket, say) uses to do everything this one does.
package streamhttp

// Name is the transport's name, as interceptors see it
// (runtime.TransportHTTP).
const Name = "http"
