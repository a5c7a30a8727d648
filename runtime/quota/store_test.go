package quota_test

import (
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/storetest"
	"github.com/mcpgen/mcpgen/runtime/quota"
)

func TestMemoryStore(t *testing.T) { storetest.QuotaStore(t, quota.NewMemoryStore()) }

// TestMemoryStoreProperty: the bucket's promise (storetest.QuotaBound)
// under small random clock steps, over many minutes, so that the sweep runs
// with buckets both full and throttled, for several limits and seeds.
func TestMemoryStoreProperty(t *testing.T) {
	for seed := range uint64(20) {
		for _, limit := range []quota.RateLimit{
			{Requests: 2, Per: time.Minute},           // slower than the sweep
			{Requests: 2, Per: time.Minute, Burst: 3}, // a burst over the rate
			{Requests: 5, Per: time.Second, Burst: 1}, // faster than the steps
		} {
			m := quota.NewMemoryStore()
			now := time.Unix(1_000_000, 0)
			quota.SetClock(m, func() time.Time { return now })
			storetest.QuotaBound(t, m, limit, func() time.Time { return now }, func(d time.Duration) { now = now.Add(d) }, 8*time.Second, 400, seed, 0)
		}
	}
}
