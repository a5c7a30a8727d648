package redisstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/internal/storetest"
	"github.com/mcpgen/mcpgen/runtime"
)

func TestQuotaStoreContract(t *testing.T) {
	storetest.QuotaStore(t, openStore(t, redistest.Start(t), Config{}).Quotas())
}

// Replicas taking from one bucket at once never spend more tokens than it
// has.
func TestQuotaConcurrentReplicas(t *testing.T) {
	r := redistest.Start(t)
	replicas := []runtime.QuotaStore{openStore(t, r, Config{}).Quotas(), openStore(t, r, Config{}).Quotas(), openStore(t, r, Config{}).Quotas()}
	limit := runtime.RateLimit{Requests: 10, Per: time.Hour}
	taken := make(chan bool, 60)
	for i := range 60 {
		go func() {
			ok, _, err := replicas[i%3].Take(context.Background(), "carol", limit)
			if err != nil {
				t.Error(err)
			}
			taken <- ok
		}()
	}
	n := 0
	for range 60 {
		if <-taken {
			n++
		}
	}
	if n != 10 {
		t.Errorf("%d tokens taken from a bucket of 10", n)
	}
}

func TestQuotaRedisUnresponsive(t *testing.T) {
	r := redistest.Start(t)
	st := openStore(t, r, Config{Timeout: 200 * time.Millisecond}).Quotas()
	r.Pause()
	_, _, err := st.Take(context.Background(), "alice", runtime.RateLimit{Requests: 1, Per: time.Second})
	r.Resume()
	if err == nil || !strings.Contains(err.Error(), "quota store") {
		t.Errorf("Take with Redis paused: %v, want an error naming the quota store", err)
	}
}

// TestQuotaProperty: the bucket's promise (storetest.QuotaBound) on
// Redis's clock, at small random real steps: a bucket that expires before
// it is full again, or refills past its capacity, gives more than the
// limit allows.
func TestQuotaProperty(t *testing.T) {
	st := openStore(t, redistest.Start(t), Config{}).Quotas()
	for seed := range uint64(3) {
		limit := runtime.RateLimit{Requests: 10, Per: time.Second, Burst: 2}
		// A key of its own for each seed: the runs do not share a bucket.
		st := keyed{st, fmt.Sprint(seed)}
		// Redis's clock counts whole milliseconds (and is the wall clock,
		// which may be slewed against Go's monotonic one): a tick of 2 ms.
		storetest.QuotaBound(t, st, limit, time.Now, time.Sleep, 150*time.Millisecond, 40, seed, 2*time.Millisecond)
	}
}

// keyed is a QuotaStore whose keys have a suffix.
type keyed struct {
	runtime.QuotaStore
	suffix string
}

func (k keyed) Take(ctx context.Context, key string, limit runtime.RateLimit) (bool, time.Duration, error) {
	return k.QuotaStore.Take(ctx, key+k.suffix, limit)
}

// TestQuotaRetryAfterIsEnough: the retryAfter of a refusal is never
// shorter than the time until the bucket has a token, read from the
// bucket Redis keeps: a client that waits exactly that long is not refused
// again. 3 per second is a token every 333.3 ms, so the wait is a fraction
// of a millisecond more than a whole number of them, which a wait rounded
// down would lose.
func TestQuotaRetryAfterIsEnough(t *testing.T) {
	s := openStore(t, redistest.Start(t), Config{})
	st := s.Quotas()
	ctx := context.Background()
	limit := runtime.RateLimit{Requests: 3, Per: time.Second, Burst: 1}
	perMs := limit.PerSecond() / 1000
	for i := range 20 {
		key := fmt.Sprint("dave-", i)
		if ok, _, err := st.Take(ctx, key, limit); err != nil || !ok {
			t.Fatalf("first take: %v, %v", ok, err)
		}
		ok, after, err := st.Take(ctx, key, limit)
		if err != nil || ok {
			t.Fatalf("second take at once: %v, %v; want refused", ok, err)
		}
		v, err := s.Client().HGet(ctx, s.Prefix()+"quota:"+hashParts(key), "tokens").Float64()
		if err != nil {
			t.Fatal(err)
		}
		if gained := float64(after.Milliseconds()) * perMs; v+gained < 1 {
			t.Fatalf("retry after %v: the bucket holds %v tokens and gains %v by then, less than one", after, v, gained)
		}
	}
}

// TestQuotaCapacity: a bucket gives exactly its capacity at once (Burst
// when set, below or above Requests; else Requests), then refuses for
// about Per/Requests; buckets of keys spelled alike and of two prefixes
// are apart.
func TestQuotaCapacity(t *testing.T) {
	r := redistest.Start(t)
	st := openStore(t, r, Config{}).Quotas()
	ctx := context.Background()
	for i, limit := range []runtime.RateLimit{
		{Requests: 10, Per: time.Hour, Burst: 2},
		{Requests: 2, Per: time.Hour, Burst: 5},
		{Requests: 3, Per: time.Hour},
		{Requests: 1, Per: time.Hour, Burst: 1},
	} {
		key := fmt.Sprint("cap", i)
		got := 0
		var after time.Duration
		for range int(limit.Capacity()) + 2 {
			ok, a, err := st.Take(ctx, key, limit)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				got++
			} else {
				after = a
			}
		}
		interval := limit.Per / time.Duration(limit.Requests)
		if got != int(limit.Capacity()) || after > interval+time.Millisecond || after < interval-time.Second {
			t.Errorf("%+v: %d takes at once, then retry after %v; want %v, then about %v", limit, got, after, limit.Capacity(), interval)
		}
	}
	one := runtime.RateLimit{Requests: 1, Per: time.Hour}
	other := openStore(t, r, Config{Prefix: "other:"}).Quotas()
	for _, key := range []string{"a", "a\x00b", "b", "a\x00", "\x00b", ""} {
		for _, s := range []runtime.QuotaStore{st, other} {
			if ok, _, err := s.Take(ctx, key, one); !ok || err != nil {
				t.Errorf("key %q: the first take refused (%v): a bucket shared with another key or prefix", key, err)
			}
		}
	}
}
