package idempotency

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// DefaultTTL is how long results are kept when a tool's idempotency
// declares no TTL.
const DefaultTTL = 24 * time.Hour

// Key names a call for a Store.
type Key struct {
	// Owner is who made the call: the verified identity (issuer and
	// subject) with runtime.WithAuthorization, "" otherwise. One user's key
	// never answers another user's call.
	Owner string
	Tool  string // the tool's name
	Key   string // the value of its key argument
	// Fingerprint is a hash of the whole arguments: the same key with
	// other arguments is a client bug, not a retry.
	Fingerprint string
}

// ErrConflict is what a Store returns when the key was used (or is in use)
// with other arguments.
var ErrConflict = errors.New("idempotency key already used with other arguments")

// Store remembers the results of idempotent calls (NewMemoryStore is
// runtime's default).
type Store interface {
	// Do returns the result recorded for k.Tool and k.Key when there is
	// one, not expired, under k.Fingerprint. Otherwise it runs call and, if
	// call reports keep, records the result it returns for ttl. Concurrent
	// Do calls for the same key run call once: the others wait for it, and
	// get its result, or run call themselves (one at a time) when it kept
	// nothing. A key recorded or running under another fingerprint gives
	// ErrConflict; a Do whose ctx ends while it waits returns ctx.Err().
	// result is the encoded CallToolResult.
	Do(ctx context.Context, k Key, ttl time.Duration, call func() (result []byte, keep bool)) ([]byte, error)
}

// KeyOf finds the key argument keyName in args, a call's arguments, and
// fingerprints args: the Key of a call of tool (without its Owner). ok is
// false when args is not an object with the key as a string.
func KeyOf(tool, keyName string, args json.RawMessage) (k Key, ok bool) {
	inst, err := jsonwire.ParseValue(args)
	if err != nil {
		return Key{}, false
	}
	obj, _ := inst.(map[string]any)
	key, ok := obj[keyName].(string)
	if !ok {
		return Key{}, false
	}
	// Re-encoded, the arguments no longer depend on the order of members or
	// on white space: a retry that spells them differently still matches.
	canonical, err := json.Marshal(inst)
	if err != nil {
		return Key{}, false
	}
	sum := sha256.Sum256(canonical)
	return Key{Tool: tool, Key: key, Fingerprint: hex.EncodeToString(sum[:])}, true
}
