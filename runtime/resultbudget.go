package runtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Result budgets: a tool with MaxResultBytes never puts more than that into
// the model's context. A result whose encoding is longer becomes, by the
// tool's Overflow, either an isError result that says so (its size and the
// limit), or a resource_link to the full result plus a text summary: the
// full result is kept for ResultTTL and served by resources/read of the
// link. It is never cut silently.
//
// The kept results live in the server's IdempotencyStore (WithStore: the
// shared one, so any replica serves the link), under the caller: only the
// same verified identity (with WithAuthorization), or else the same legacy
// session, may read it. A stateless request without authorization has no
// caller: its link is a capability, readable by whoever has the URI (an
// unguessable one).

// Overflow is what a tool does with a result over its MaxResultBytes.
type Overflow uint8

const (
	// OverflowError answers an isError result naming the size and the limit.
	OverflowError Overflow = iota
	// OverflowLink answers a resource_link to the full result and a summary.
	OverflowLink
)

// DefaultResultTTL is how long a result over budget is kept for its link
// when the tool says nothing.
const DefaultResultTTL = 10 * time.Minute

// resultScheme is the scheme of the links to results over budget.
const resultScheme = "mcpgen-result://"

// resultStoreTool is the IdempotencyKey.Tool of a kept result: no tool
// has this name (a tool name has no space).
const resultStoreTool = "mcpgen result link"

// overBudget applies te's budget to res: res itself when it fits.
func (ss *Session) overBudget(ctx context.Context, te *toolEntry, res encoder) (encoder, *Error) {
	limit := te.tool.MaxResultBytes
	if limit <= 0 || res == nil {
		return res, nil
	}
	b, err := res.appendJSON(nil)
	if err != nil || len(b) <= limit {
		return res, nil // an encoding error is the dispatch's to report
	}
	name := te.tool.Name
	if te.tool.Overflow != OverflowLink {
		return ErrorResult(fmt.Sprintf("the result of tool %s is %d bytes, over its limit of %d bytes (maxResultBytes); ask for less: narrow the query, or fetch fewer items or a page at a time", name, len(b), limit)), nil
	}
	ttl := te.tool.ResultTTL
	if ttl <= 0 {
		ttl = DefaultResultTTL
	}
	id := make([]byte, 16)
	rand.Read(id)
	uri := resultScheme + name + "/" + hex.EncodeToString(id)
	if _, err := ss.srv.cfg.idempotency.Do(ctx, ss.resultKey(ctx, uri), ttl, func() ([]byte, bool) { return b, true }); err != nil {
		ss.srv.cfg.logger.Error("runtime: keeping a result over budget failed", "tool", name, "error", err)
		return ErrorResult(fmt.Sprintf("the result of tool %s is %d bytes, over its limit of %d bytes, and could not be kept for reading; retry later or ask for less", name, len(b), limit)), nil
	}
	size := int64(len(b))
	summary := fmt.Sprintf("The result of %s is %d bytes, over this tool's limit of %d bytes, so it is not inlined: read %s (resources/read) within %s for all of it.",
		name, len(b), limit, uri, ttl)
	if preview := resultPreview(res, min(limit/2, 600)); preview != "" {
		summary += " It begins: " + preview
	}
	r := TextResult(summary)
	r.Content = append(r.Content, ResourceLink{URI: uri, Name: name + " result", MimeType: "application/json", Size: &size,
		Description: "The full result of this call of " + name + " (a CallToolResult)."})
	return r, nil
}

// resultPreview is the start of res's first text block, at most n bytes,
// marked as cut when it is.
func resultPreview(res encoder, n int) string {
	r, ok := res.(*CallToolResult)
	if !ok {
		return ""
	}
	for _, c := range r.Content {
		if t, ok := c.(TextContent); ok && t.Text != "" {
			if len(t.Text) <= n {
				return t.Text
			}
			cut := n
			for cut > 0 && !utf8.RuneStart(t.Text[cut]) {
				cut--
			}
			return t.Text[:cut] + "…"
		}
	}
	return ""
}

// resultKey is where the result behind uri is kept for the caller of ctx.
func (ss *Session) resultKey(ctx context.Context, uri string) IdempotencyKey {
	k := IdempotencyKey{Tool: resultStoreTool, Key: uri, Fingerprint: "-"}
	switch info, ok := AuthFromContext(ctx); {
	case ok:
		k.Owner = info.Owner()
	case ss.id != "" && ss.peer.Load() != nil:
		k.Owner = "session " + ss.id
	}
	return k
}

// readResult serves resources/read of a link to a result over budget.
func readResult(ctx context.Context, req *ReadResourceRequest) (*ReadResourceResult, error) {
	missing := fmt.Errorf("%w: %s (a result is kept for a while after its call, for its caller only)", ErrResourceNotFound, req.URI)
	c := reqFrom(ctx)
	if c == nil || !strings.HasPrefix(req.URI, resultScheme) {
		return nil, missing
	}
	ss := c.ss
	b, err := ss.srv.cfg.idempotency.Do(ctx, ss.resultKey(ctx, req.URI), time.Second, func() ([]byte, bool) { return nil, false })
	switch {
	case errors.Is(err, ErrIdempotencyConflict), err == nil && b == nil:
		return nil, missing // expired, never was, or another caller's: the same answer
	case err != nil:
		return nil, fmt.Errorf("the store of results failed: %w", err)
	}
	return &ReadResourceResult{Contents: []ResourceContents{{URI: req.URI, MimeType: "application/json", Text: string(b)}}}, nil
}

// linksResults reports whether a tool may answer with links to its result:
// the server then serves resources/read.
func (s *Server) linksResults() bool {
	for _, te := range s.tools.snapshot().list {
		if te.tool.MaxResultBytes > 0 && te.tool.Overflow == OverflowLink {
			return true
		}
	}
	return false
}
