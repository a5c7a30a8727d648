// Package idempotency keeps the results of idempotent tool calls, so that
// a retry with the same idempotency key gets the first call's result
// instead of running the handler again, even while the first call is still
// running.
//
// It promises: a Key names one call (its owner, tool, key and a
// Fingerprint of its arguments, which KeyOf computes independently of the
// order of members and of white space); a Store runs a key's call once and
// hands its kept result to every later Do under the same fingerprint until
// the result's ttl has passed, and answers ErrConflict for the same key
// with other arguments; MemoryStore is a Store in this process's memory,
// bounded in entries. runtime/redisstore shares one between replicas.
//
// Deciding which calls are idempotent and what of a call is kept (only
// successful results) is package runtime's, which names these types
// IdempotencyKey, IdempotencyStore, MemoryIdempotencyStore and
// ErrIdempotencyConflict; give a store to runtime.WithIdempotencyStore or
// runtime.WithStore.
package idempotency
