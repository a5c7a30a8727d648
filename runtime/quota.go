package runtime

import (
	"context"
	"math"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/quota"
)

// Per-user quotas: token buckets that stop one caller from exhausting the
// server. A limit is declared on a tool (Tool.RateLimit: the calls of that
// tool) or on the server (WithRateLimit: every request that runs server
// code: tools/call, resources/read, prompts/get, completion/complete). The
// buckets are keyed on the caller: the verified subject under
// WithAuthorization (so re-initializing, or opening a new session, does not
// give a fresh bucket), else on what WithQuotaKey says (one bucket for
// everyone by default). They live in a QuotaStore: in memory by default,
// shared across replicas with a store of Redis.
//
// A refused request gets the JSON-RPC error CodeRateLimited with
// data {"retryAfterSeconds": n}: a protocol error and not an isError tool
// result, because it is the client's to wait and retry, not the model's to
// reason about, and because it covers more than tools. Over HTTP, when the
// response is a plain JSON body (the refusal comes before anything was
// streamed), the status is 429 Too Many Requests with Retry-After; stdio
// has no status, so there the error is all.

// CodeRateLimited is the JSON-RPC error of a request refused by a rate
// limit (an implementation-defined server error code: -32000 to -32019 are
// not reserved by MCP).
const CodeRateLimited = -32005

// A rate limit's token bucket, and where buckets are kept, are package
// runtime/quota; these are its names in this package.
type (
	// RateLimit is a token bucket: Requests per Per on average, with bursts
	// of up to Burst (default Requests) (quota.RateLimit).
	RateLimit = quota.RateLimit
	// QuotaStore keeps the token buckets (quota.Store). A store shared by
	// replicas (Redis) makes a limit hold across them. An error lets the
	// request through (logged): a quota store that is down must not take
	// the server with it.
	QuotaStore = quota.Store
	// MemoryQuotaStore keeps token buckets in memory: the limits hold
	// within one process (quota.MemoryStore).
	MemoryQuotaStore = quota.MemoryStore
)

// NewMemoryQuotaStore returns an empty in-memory store
// (quota.NewMemoryStore).
func NewMemoryQuotaStore() *MemoryQuotaStore { return quota.NewMemoryStore() }

// WithRateLimit limits every caller to limit across the requests that run
// server code (tools/call, resources/read, prompts/get,
// completion/complete); a tool's own Tool.RateLimit applies on top.
// WithRateLimit panics on a limit without Requests or Per.
func WithRateLimit(limit RateLimit) Option {
	if !limit.Valid() {
		panic("runtime: WithRateLimit: a rate limit needs Requests > 0 and Per > 0")
	}
	return func(c *config) { c.rateLimit = &limit }
}

// WithQuotaStore keeps the rate limits' buckets in store instead of in
// memory.
func WithQuotaStore(store QuotaStore) Option {
	return func(c *config) {
		if store != nil {
			c.quotaStore, c.quotaStoreSet = store, true
		}
	}
}

// WithQuotaKey sets whom a request's buckets belong to when it has no
// verified subject (stdio, HTTP without WithAuthorization): key returns
// its name, e.g. from RequestHeader(ctx) or a value middleware put in ctx.
// Without it, such requests share one bucket. Requests with a verified
// subject are keyed on it regardless.
func WithQuotaKey(key func(ctx context.Context) string) Option {
	return func(c *config) { c.quotaKey = key }
}

// quotaKey is whom the request under ctx is counted against.
func (s *Server) quotaKey(ctx context.Context) string {
	if info, ok := AuthFromContext(ctx); ok {
		return "sub:" + info.Owner()
	}
	if s.cfg.quotaKey != nil {
		return "key:" + s.cfg.quotaKey(ctx)
	}
	return "anonymous"
}

// takeQuota spends a token of the server's limit and of the tool's (te:
// nil for other methods); a refusal is CodeRateLimited.
func (s *Server) takeQuota(ctx context.Context, te *toolEntry) *Error {
	var toolLimit *RateLimit
	if te != nil {
		toolLimit = te.tool.RateLimit
	}
	if s.cfg.rateLimit == nil && toolLimit == nil {
		return nil
	}
	who := s.quotaKey(ctx)
	if toolLimit != nil {
		if e := s.take(ctx, "tool\x00"+te.tool.Name+"\x00"+who, *toolLimit, "tool "+quote(te.tool.Name)); e != nil {
			return e
		}
	}
	if s.cfg.rateLimit != nil {
		return s.take(ctx, "server\x00"+who, *s.cfg.rateLimit, "this server")
	}
	return nil
}

func (s *Server) take(ctx context.Context, key string, limit RateLimit, what string) *Error {
	ok, after, err := s.cfg.quotaStore.Take(ctx, key, limit)
	if err != nil {
		s.cfg.logger.Warn("runtime: the quota store failed; letting the request through", "error", err)
		return nil
	}
	if ok {
		return nil
	}
	secs := int(math.Ceil(after.Seconds()))
	if secs < 1 {
		secs = 1
	}
	return &Error{
		Code: CodeRateLimited,
		Message: "rate limited: " + strconv.Itoa(limit.Requests) + " requests per " + limit.Per.String() + " to " + what +
			" are allowed; retry in " + strconv.Itoa(secs) + " s",
		Data: rateLimitedData{secs},
	}
}

type rateLimitedData struct {
	RetryAfterSeconds int `json:"retryAfterSeconds"`
}
