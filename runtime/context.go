package runtime

import (
	"context"
	"encoding/json"
)

// What the client said at initialize is stored once on the session and
// reached from a handler's context, so handler signatures stay the same as
// request-scoped abilities are added.

type peerInfo struct {
	version       string
	clientInfo    Implementation
	hasClientInfo bool
	capabilities  json.RawMessage
	caps          capSet // what the server advertised to this client
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
		return c.ss.peer.Load()
	}
	return nil
}

// ClientInfo returns the clientInfo the client sent in initialize. ok is false
// outside a session or when the client sent none (or an unreadable one).
func ClientInfo(ctx context.Context) (info Implementation, ok bool) {
	if p := peerFrom(ctx); p != nil && p.hasClientInfo {
		return p.clientInfo, true
	}
	return Implementation{}, false
}

// ClientCapabilities returns the capabilities object the client sent in
// initialize, raw, or nil. Do not modify it.
func ClientCapabilities(ctx context.Context) json.RawMessage {
	if p := peerFrom(ctx); p != nil {
		return p.capabilities
	}
	return nil
}

// ProtocolVersion returns the protocol revision negotiated for the session
// ("2025-11-25", …), or "" outside a session.
func ProtocolVersion(ctx context.Context) string {
	if p := peerFrom(ctx); p != nil {
		return p.version
	}
	return ""
}
