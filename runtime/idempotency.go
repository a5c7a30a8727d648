package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
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

// DefaultIdempotencyTTL is how long results are kept when Idempotency.TTL
// is 0.
const DefaultIdempotencyTTL = 24 * time.Hour

// IdempotencyKey names a call for an IdempotencyStore.
type IdempotencyKey struct {
	// Owner is who made the call: the verified identity (issuer and
	// subject) with WithAuthorization, "" otherwise. One user's key never
	// answers another user's call.
	Owner string
	Tool  string // the tool's name
	Key   string // the value of its key argument
	// Fingerprint is a hash of the whole arguments: the same key with
	// other arguments is a client bug, not a retry.
	Fingerprint string
}

// ErrIdempotencyConflict is what an IdempotencyStore returns when the key
// was used (or is in use) with other arguments.
var ErrIdempotencyConflict = errors.New("idempotency key already used with other arguments")

// IdempotencyStore remembers the results of idempotent calls (see
// WithIdempotencyStore; NewMemoryIdempotencyStore is the default).
type IdempotencyStore interface {
	// Do returns the result recorded for k.Tool and k.Key when there is
	// one, not expired, under k.Fingerprint. Otherwise it runs call and, if
	// call reports keep, records the result it returns for ttl. Concurrent
	// Do calls for the same key run call once: the others wait for it, and
	// get its result, or run call themselves (one at a time) when it kept
	// nothing. A key recorded or running under another fingerprint gives
	// ErrIdempotencyConflict; a Do whose ctx ends while it waits returns
	// ctx.Err(). result is the encoded CallToolResult.
	Do(ctx context.Context, k IdempotencyKey, ttl time.Duration, call func() (result []byte, keep bool)) ([]byte, error)
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
	k, ok := idempotencyKey(te.tool.Name, idem.Key, req.Arguments)
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

// idempotencyKey finds the key argument in args and fingerprints args. ok
// is false when args is not an object with the key as a string.
func idempotencyKey(tool, keyName string, args json.RawMessage) (IdempotencyKey, bool) {
	inst, err := jsonwire.ParseValue(args)
	if err != nil {
		return IdempotencyKey{}, false
	}
	obj, _ := inst.(map[string]any)
	key, ok := obj[keyName].(string)
	if !ok {
		return IdempotencyKey{}, false
	}
	// Re-encoded, the arguments no longer depend on the order of members or
	// on white space: a retry that spells them differently still matches.
	canonical, err := json.Marshal(inst)
	if err != nil {
		return IdempotencyKey{}, false
	}
	sum := sha256.Sum256(canonical)
	return IdempotencyKey{Tool: tool, Key: key, Fingerprint: hex.EncodeToString(sum[:])}, true
}
