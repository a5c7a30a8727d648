package runtime

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

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
