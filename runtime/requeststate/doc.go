// Package requeststate records which requestStates were used, so that each
// is accepted once.
//
// A requestState is what a server hands the client of a multi round-trip
// request (SEP-2322) to send back with its answers; package runtime seals
// it (encrypted and authenticated) and gives each a random id. It promises:
// a Store's FirstUse reports true for the first use of an id and false for
// every later one until the id's expiry, after which the record may go;
// NewMemoryStore is a Store in this process's memory, bounded in records
// (past the bound the oldest go first). Replicas that share a requestState
// key need a Store they share too (runtime/redisstore has one), or a state
// may be used once per replica.
//
// Package runtime names these RequestStateStore,
// NewMemoryRequestStateStore and DefaultMaxUsedStates; give a store to
// runtime.WithRequestStateStore or runtime.WithStore.
package requeststate
