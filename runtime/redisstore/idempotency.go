package redisstore

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime/idempotency"
)

// An idempotent call is one Redis hash, under a key derived from (owner,
// tool, key): "fp" is the fingerprint of its arguments, "lock" the random
// token of the replica running it, "result" what it returned. The hash
// expires after the lock's TTL while the call runs (the runner renews it),
// after the result's TTL once it is kept. Every step is one Lua script, so
// that no two replicas can both take the lock.

// claimScript takes the lock of a free key, or tells what is there:
// {"run"}, {"conflict"}, {"done", result} or {"wait"}.
var claimScript = redis.NewScript(`
local fp = redis.call('HGET', KEYS[1], 'fp')
if not fp then
  redis.call('HSET', KEYS[1], 'fp', ARGV[1], 'lock', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {'run'}
end
if fp ~= ARGV[1] then return {'conflict'} end
local res = redis.call('HGET', KEYS[1], 'result')
if res then return {'done', res} end
return {'wait'}
`)

// renewScript extends the lock while its holder runs the call.
var renewScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'lock') == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`)

// finishScript keeps the result (ARGV[2] = "1") or frees the key, if the
// caller still holds the lock. A key that is gone (its lock expired while
// Redis did not answer the final write) is written again with the result
// and its fingerprint (ARGV[5]): the call ran, and no other replica holds
// the key, so a retry must get this result rather than run the call again.
// A key another replica took meanwhile is left to it.
var finishScript = redis.NewScript(`
local lock = redis.call('HGET', KEYS[1], 'lock')
if not lock and ARGV[2] == '1' and redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'fp', ARGV[5], 'result', ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return 1
end
if lock ~= ARGV[1] then return 0 end
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], 'result', ARGV[3])
  redis.call('HDEL', KEYS[1], 'lock')
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
else
  redis.call('DEL', KEYS[1])
end
return 1
`)

type idempotencyStore struct{ s *Store }

// The first and the longest pause of a retry polling for a call running
// elsewhere.
const (
	firstPoll = 5 * time.Millisecond
	maxPoll   = 100 * time.Millisecond
)

// Do implements idempotency.Store across every replica that shares
// the Redis database: the first Do of a key runs call, the others (here or
// on other replicas) poll until it kept a result, or freed the key, or its
// lock expired because its replica died; then they take the result or run
// call themselves.
func (st *idempotencyStore) Do(ctx context.Context, k idempotency.Key, ttl time.Duration, call func() ([]byte, bool)) ([]byte, error) {
	s := st.s
	key := s.cfg.Prefix + "idem:" + entryName(k)
	token := newToken()
	pause := firstPoll
	for {
		octx, cancel := s.op(ctx)
		reply, err := claimScript.Run(octx, s.client, []string{key}, k.Fingerprint, token, s.cfg.LockTTL.Milliseconds()).StringSlice()
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, storeError("idempotency", "looking up the key", err)
		}
		switch reply[0] {
		case "run":
			return st.run(key, k.Fingerprint, token, ttl, call)
		case "conflict":
			return nil, idempotency.ErrConflict
		case "done":
			return []byte(reply[1]), nil
		}
		select { // "wait": the call runs, here or on another replica
		case <-time.After(pause):
			pause = min(2*pause, maxPoll)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// run calls call under the lock, renewing it meanwhile, then keeps the
// result or frees the key (also when call panics). The lock is renewed
// until the result is recorded: a final write that fails or is slow must
// not let the key expire while it is retried, or a retry on another
// replica would run the call a second time.
func (st *idempotencyStore) run(key, fp, token string, ttl time.Duration, call func() ([]byte, bool)) (result []byte, err error) {
	stop := make(chan struct{})
	go st.renew(key, token, stop)
	keep := false
	defer func() {
		if !keep || result == nil {
			keep, result = false, nil
		}
		if ferr := st.finish(key, fp, token, keep, result, ttl); ferr != nil && keep {
			// The call ran and its caller gets its result; the record is
			// retried in the background, the lock still renewed, so that
			// Redis coming back soon does not make a retry run the call
			// again.
			go st.finishLater(key, fp, token, result, ttl, stop)
			return
		}
		close(stop)
	}()
	result, keep = call()
	return result, nil
}

func (st *idempotencyStore) finish(key, fp, token string, keep bool, result []byte, ttl time.Duration) error {
	s := st.s
	ctx, cancel := s.op(context.Background())
	defer cancel()
	k := "0"
	if keep {
		k = "1"
	}
	return finishScript.Run(ctx, s.client, []string{key}, token, k, result, ttl.Milliseconds(), fp).Err()
}

// finishLater retries recording the result for LockTTL, then stops
// renewing the lock (closes stop) whether it was recorded or not.
func (st *idempotencyStore) finishLater(key, fp, token string, result []byte, ttl time.Duration, stop chan struct{}) {
	defer close(stop)
	deadline := time.Now().Add(st.s.cfg.LockTTL)
	for time.Now().Before(deadline) {
		time.Sleep(st.s.cfg.Timeout / 4)
		if st.finish(key, fp, token, true, result, ttl) == nil {
			return
		}
	}
}

// renew extends the lock every third of its TTL until stop closes.
func (st *idempotencyStore) renew(key, token string, stop <-chan struct{}) {
	s := st.s
	t := time.NewTicker(s.cfg.LockTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			ctx, cancel := s.op(context.Background())
			_ = renewScript.Run(ctx, s.client, []string{key}, token, s.cfg.LockTTL.Milliseconds()).Err()
			cancel()
		}
	}
}

// entryName hashes the parts of k that name the call, so that keys stay
// short whatever the client sent, and parts cannot run into each other.
func entryName(k idempotency.Key) string { return hashParts(k.Owner, k.Tool, k.Key) }

// hashParts is a short key name for parts a client may choose: the hex
// SHA-256 of the parts, each prefixed by its length.
func hashParts(parts ...string) string {
	h := sha256.New()
	for _, part := range parts {
		fmt.Fprintf(h, "%d:%s", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
