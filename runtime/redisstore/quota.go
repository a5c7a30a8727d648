package redisstore

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime/quota"
)

// A rate limit's bucket is one hash, "<prefix>quota:<hash of key>", with
// the tokens left ("tokens") when last computed ("at", Redis's clock in
// ms). One script refills and takes, so that replicas sharing the bucket
// never both spend its last token, and every replica counts on one clock
// (Redis's TIME). The hash expires once the bucket would be full again: a
// full bucket is what a missing one means.

// takeScript takes a token: {1, 0} or {0, ms until there is one}.
// KEYS: bucket. ARGV: capacity, tokens gained per ms.
var takeScript = redis.NewScript(`
local capacity, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local tokens = capacity
local v = redis.call('HMGET', KEYS[1], 'tokens', 'at')
if v[1] then tokens = math.min(capacity, tonumber(v[1]) + math.max(0, now - tonumber(v[2])) * rate) end
local ok, wait = 0, 0
if tokens >= 1 then
  tokens, ok = tokens - 1, 1
else
  wait = math.ceil((1 - tokens) / rate)
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / rate) + 1)
return {ok, wait}
`)

type quotaStore struct{ s *Store }

var _ quota.Store = (*quotaStore)(nil)

// Quotas returns the rate limits' store on this connection.
func (s *Store) Quotas() quota.Store { return &quotaStore{s} }

// Take implements quota.Store.
func (st *quotaStore) Take(ctx context.Context, key string, limit quota.RateLimit) (bool, time.Duration, error) {
	s := st.s
	capacity, perMs := limit.Capacity(), limit.PerSecond()/1000
	ctx, cancel := s.op(ctx)
	defer cancel()
	v, err := takeScript.Run(ctx, s.client, []string{s.cfg.Prefix + "quota:" + hashParts(key)}, capacity, perMs).Int64Slice()
	if err != nil {
		return false, 0, storeError("quota", "taking a token", err)
	}
	return v[0] == 1, time.Duration(v[1]) * time.Millisecond, nil
}
