package runtime

import (
	"context"
	"errors"
	"time"

	"github.com/mcpgen/mcpgen/runtime/idempotency"
)

// Clients and models retry: after a timeout, a lost connection, or simply
// because they were not sure. A tool that acts (refunds, sends a reply)
// declares an idempotency key, a required string argument the client
// chooses and reuses on retries, and the runtime runs the handler once per
// key: a retry gets the first call's result, even when it arrives while the
// first call is still running.

// Idempotency makes the runtime deduplicate a tool's calls by one of its
// arguments (spec: `idempotency: {key: idempotency_key, ttl: 24h}`).
type Idempotency struct {
	// Key is the name of a required top-level string property of the
	// input: calls with the same value of it run the handler once.
	Key string
	// TTL is how long a result is kept for retries; 0 means
	// DefaultIdempotencyTTL.
	TTL time.Duration
}

// The results of idempotent calls are kept by package runtime/idempotency;
// these are its names in this package.
type (
	// IdempotencyKey names a call for an IdempotencyStore (idempotency.Key).
	IdempotencyKey = idempotency.Key
	// IdempotencyStore remembers the results of idempotent calls (see
	// WithIdempotencyStore; NewMemoryIdempotencyStore is the default)
	// (idempotency.Store).
	IdempotencyStore = idempotency.Store
	// MemoryIdempotencyStore is an IdempotencyStore in the server's memory
	// (idempotency.MemoryStore).
	MemoryIdempotencyStore = idempotency.MemoryStore
)

// DefaultIdempotencyTTL is how long results are kept when Idempotency.TTL
// is 0.
const DefaultIdempotencyTTL = idempotency.DefaultTTL

// DefaultIdempotencyEntries is how many results a memory store keeps when
// NewMemoryIdempotencyStore is given 0.
const DefaultIdempotencyEntries = idempotency.DefaultEntries

// ErrIdempotencyConflict is what an IdempotencyStore returns when the key
// was used (or is in use) with other arguments (idempotency.ErrConflict).
var ErrIdempotencyConflict = idempotency.ErrConflict

// NewMemoryIdempotencyStore returns an empty store that keeps at most
// maxEntries results (DefaultIdempotencyEntries when maxEntries < 1)
// (idempotency.NewMemoryStore).
func NewMemoryIdempotencyStore(maxEntries int) *MemoryIdempotencyStore {
	return idempotency.NewMemoryStore(maxEntries)
}

// WithIdempotencyStore sets where the results of tools with an Idempotency
// are kept. The default is NewMemoryIdempotencyStore(0), private to the
// server: replicas behind a load balancer need a store they share.
func WithIdempotencyStore(store IdempotencyStore) Option {
	return func(c *config) {
		if store != nil {
			c.idempotency = store
		}
	}
}

// runIdempotent runs an idempotent tool call through the server's store.
// Only successful results are kept: a call that failed (an isError result,
// a protocol error, a panic) most likely did nothing, and its retry runs the
// handler again.
func (ss *Session) runIdempotent(ctx context.Context, te *toolEntry, req *CallToolRequest) (encoder, *Error) {
	idem := te.tool.Idempotency
	k, ok := idempotency.KeyOf(te.tool.Name, idem.Key, req.Arguments)
	if !ok { // no key: the handler's validation says what is missing
		return ss.callTool(ctx, te, req)
	}
	if info, ok := AuthFromContext(ctx); ok {
		k.Owner = info.Owner()
	}
	ttl := idem.TTL
	if ttl <= 0 {
		ttl = DefaultIdempotencyTTL
	}
	var (
		ran    bool
		res    encoder
		rpcErr *Error
	)
	stored, err := ss.srv.cfg.idempotency.Do(ctx, k, ttl, func() ([]byte, bool) {
		ran = true
		res, rpcErr = ss.callTool(ctx, te, req)
		if rpcErr != nil {
			return nil, false
		}
		if r, isResult := res.(*CallToolResult); isResult && r.IsError {
			return nil, false
		}
		b, err := res.appendJSON(nil)
		return b, err == nil
	})
	switch {
	case ran:
		return res, rpcErr
	case errors.Is(err, ErrIdempotencyConflict):
		return ErrorResult(idem.Key + " " + quote(k.Key) + " was already used for a call of tool " + quote(k.Tool) +
			" with other arguments; use a new " + idem.Key + " for a new call, or the same arguments to retry"), nil
	case ctx.Err() != nil:
		return ErrorResult("cancelled while waiting for the call with the same " + idem.Key), nil
	case err != nil:
		ss.srv.cfg.logger.Error("runtime: idempotency store failed", "tool", k.Tool, "error", err)
		return nil, errorf(CodeInternalError, "internal error in tool %s: the idempotency store failed", quote(k.Tool))
	}
	return rawResult(stored), nil
}
