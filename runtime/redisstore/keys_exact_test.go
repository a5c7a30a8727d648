package redisstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime/idempotency"
	"github.com/mcpgen/mcpgen/runtime/quota"
)

// The keys each store writes, as the comments of its file name them: the
// exact names (replicas of two versions share one Redis during a rolling
// upgrade, so a renamed key splits their state), their types, fields and
// TTLs. TTLs are checked against what was set, within a window far wider
// than any pause of a slow machine, never against how fast it is.

// sha is the hash the stores name keys by, written out here: SHA-256 of
// each part as "<length>:<part>".
func sha(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(strconv.Itoa(len(p)) + ":" + p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// keysOf is every key of the database, sorted.
func keysOf(t *testing.T, c *redis.Client) []string {
	t.Helper()
	keys, err := c.Keys(context.Background(), "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	return keys
}

// ttlWithin checks that key expires in (set-slack, set].
func ttlWithin(t *testing.T, c *redis.Client, key string, set, slack time.Duration) {
	t.Helper()
	ttl := c.PTTL(context.Background(), key).Val()
	if ttl > set || ttl <= set-slack {
		t.Errorf("%s: PTTL %v, want in (%v, %v]", key, ttl, set-slack, set)
	}
}

func TestStoreKeysExact(t *testing.T) {
	r := redistest.Start(t)
	c := r.Client(t)
	ctx := context.Background()
	s := openStore(t, r, Config{Prefix: "x13:"})
	flush := func() { c.FlushAll(ctx) }

	// A session: "<prefix>session:<id>", the id as it is, the idle timeout
	// its TTL, extended by each Load.
	sessions := s.Sessions()
	if err := sessions.Save(ctx, "s:1 é", []byte("state"), 90*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := keysOf(t, c); !slices.Equal(got, []string{"x13:session:s:1 é"}) {
		t.Errorf("session keys %q", got)
	}
	if v := c.Get(ctx, "x13:session:s:1 é").Val(); v != "state" {
		t.Errorf("session value %q", v)
	}
	ttlWithin(t, c, "x13:session:s:1 é", 90*time.Second, 30*time.Second)
	if _, ok, err := sessions.Load(ctx, "s:1 é", time.Hour); !ok || err != nil {
		t.Fatalf("load: %v %v", ok, err)
	}
	ttlWithin(t, c, "x13:session:s:1 é", time.Hour, 30*time.Second)
	sessions.Delete(ctx, "s:1 é")
	if got := keysOf(t, c); len(got) != 0 {
		t.Errorf("after Delete: %q", got)
	}

	// A used requestState: "<prefix>state:<hash of id>" = "1", expiring at
	// the state's expiry; an expired state writes nothing.
	states := s.RequestStates()
	states.FirstUse(ctx, "st-1", time.Now().Add(time.Hour))
	states.FirstUse(ctx, "st-2", time.Now().Add(-time.Second))
	if got, want := keysOf(t, c), []string{"x13:state:" + sha("st-1")}; !slices.Equal(got, want) {
		t.Errorf("state keys %q, want %q", got, want)
	}
	if v := c.Get(ctx, "x13:state:"+sha("st-1")).Val(); v != "1" {
		t.Errorf("state value %q", v)
	}
	ttlWithin(t, c, "x13:state:"+sha("st-1"), time.Hour, 30*time.Second)
	flush()

	// A quota bucket: "<prefix>quota:<hash of key>", a hash of tokens and
	// at, expiring once it would be full again (+1 ms): one token of 10 per
	// 10 s spent, a second; all ten spent, ten seconds.
	q := s.Quotas()
	limit := quota.RateLimit{Requests: 10, Per: 10 * time.Second}
	q.Take(ctx, "alice", limit)
	key := "x13:quota:" + sha("alice")
	if got := keysOf(t, c); !slices.Equal(got, []string{key}) {
		t.Errorf("quota keys %q, want %q", got, key)
	}
	h := c.HGetAll(ctx, key).Val()
	if !slices.Equal(slices.Sorted(maps.Keys(h)), []string{"at", "tokens"}) || h["tokens"] != "9" {
		t.Errorf("bucket %v, want tokens 9 and at", h)
	}
	ttlWithin(t, c, key, 1001*time.Millisecond, 900*time.Millisecond)
	for range 9 {
		q.Take(ctx, "alice", limit)
	}
	ttlWithin(t, c, key, 10001*time.Millisecond, 5*time.Second)
	flush()

	// An idempotent call: "<prefix>idem:<hash of owner, tool, key>", a
	// hash of fp and result (no lock once kept) for the result's TTL; a call
	// that keeps nothing frees the key.
	idem := s.Idempotency()
	k := idempotency.Key{Owner: "o", Tool: "t", Key: "k1", Fingerprint: "fp1"}
	if _, err := idem.Do(ctx, k, time.Hour, func() ([]byte, bool) { return []byte("res"), true }); err != nil {
		t.Fatal(err)
	}
	ikey := "x13:idem:" + sha("o", "t", "k1")
	if got := keysOf(t, c); !slices.Equal(got, []string{ikey}) {
		t.Errorf("idempotency keys %q, want %q", got, ikey)
	}
	if h := c.HGetAll(ctx, ikey).Val(); !maps.Equal(h, map[string]string{"fp": "fp1", "result": "res"}) {
		t.Errorf("idempotency hash %v", h)
	}
	ttlWithin(t, c, ikey, time.Hour, 30*time.Second)
	idem.Do(ctx, idempotency.Key{Owner: "o", Tool: "t", Key: "k2", Fingerprint: "fp"}, time.Hour, func() ([]byte, bool) { return nil, false })
	if got := keysOf(t, c); !slices.Equal(got, []string{ikey}) {
		t.Errorf("after a call that kept nothing: %q", got)
	}
	flush()

	// Events: the stream "<prefix>ev:{<session>}:<stream>" with entry ids
	// 0-<index>, and the session's set "<prefix>evs:{<session>}" listing
	// it, both for EventTTL (default 1 h); SessionClosed drops both.
	ev := s.Events()
	ev.Append(ctx, "sess", "st", 3, []byte("d3"))
	ev.Append(ctx, "sess", "st", 4, []byte("d4"))
	stream, set := "x13:ev:{sess}:st", "x13:evs:{sess}"
	if got := keysOf(t, c); !slices.Equal(got, []string{stream, set}) {
		t.Errorf("event keys %q", got)
	}
	msgs := c.XRange(ctx, stream, "-", "+").Val()
	if len(msgs) != 2 || msgs[0].ID != "0-3" || msgs[1].ID != "0-4" || msgs[1].Values["d"] != "d4" {
		t.Errorf("stream %+v", msgs)
	}
	if m := c.SMembers(ctx, set).Val(); !slices.Equal(m, []string{stream}) {
		t.Errorf("set %q", m)
	}
	ttlWithin(t, c, stream, time.Hour, 30*time.Second)
	ttlWithin(t, c, set, time.Hour, 30*time.Second)
	ev.SessionClosed(ctx, "sess")
	if got := keysOf(t, c); len(got) != 0 {
		t.Errorf("after SessionClosed: %q", got)
	}
}
