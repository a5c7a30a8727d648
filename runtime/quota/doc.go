// Package quota keeps the token buckets of per-user rate limits, which stop
// one caller from exhausting a server.
//
// It promises: a RateLimit is a token bucket (Requests per Per on average,
// bursts of up to Burst); a Store's Take spends one token of the bucket
// named by a key, full when first seen, and says how long until the next
// token when there is none; MemoryStore is a Store in this process's
// memory, which forgets buckets once they are full again (a full bucket is
// what a new one is). runtime/redisstore shares one between replicas.
//
// Which requests a limit applies to, whom a bucket belongs to, and the
// error a refused request gets (runtime.CodeRateLimited) are package
// runtime's, which names these types RateLimit, QuotaStore and
// MemoryQuotaStore; give a store to runtime.WithQuotaStore or
// runtime.WithStore.
package quota
