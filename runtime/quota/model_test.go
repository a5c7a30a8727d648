package quota_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/quota"
)

// TestRateLimitFields: Capacity is Burst when set, else Requests, whatever
// the other; PerSecond is Requests over Per; Valid needs Requests and Per
// above 0 and Burst not below.
func TestRateLimitFields(t *testing.T) {
	for _, tc := range []struct {
		l        quota.RateLimit
		capacity float64
		rate     float64
		valid    bool
	}{
		{quota.RateLimit{Requests: 3, Per: time.Second}, 3, 3, true},
		{quota.RateLimit{Requests: 3, Per: time.Second, Burst: 1}, 1, 3, true},
		{quota.RateLimit{Requests: 3, Per: time.Second, Burst: 2}, 2, 3, true},
		{quota.RateLimit{Requests: 3, Per: time.Second, Burst: 3}, 3, 3, true},
		{quota.RateLimit{Requests: 3, Per: time.Second, Burst: 4}, 4, 3, true},
		{quota.RateLimit{Requests: 60, Per: time.Minute}, 60, 1, true},
		{quota.RateLimit{Requests: 1, Per: 2 * time.Second}, 1, 0.5, true},
		{quota.RateLimit{Requests: 0, Per: time.Second}, 0, 0, false},
		{quota.RateLimit{Requests: -1, Per: time.Second}, -1, -1, false},
		{quota.RateLimit{Requests: 1, Per: 0, Burst: 1}, 1, 0, false},
		{quota.RateLimit{Requests: 1, Per: -time.Second}, 1, -1, false},
		{quota.RateLimit{Requests: 1, Per: time.Second, Burst: -1}, 1, 1, false},
	} {
		if got := tc.l.Capacity(); got != tc.capacity {
			t.Errorf("%+v: Capacity %v, want %v", tc.l, got, tc.capacity)
		}
		if got := tc.l.PerSecond(); tc.l.Per != 0 && got != tc.rate {
			t.Errorf("%+v: PerSecond %v, want %v", tc.l, got, tc.rate)
		}
		if got := tc.l.Valid(); got != tc.valid {
			t.Errorf("%+v: Valid %v, want %v", tc.l, got, tc.valid)
		}
	}
}

// TestMemoryStoreModel compares every answer of the memory store with a
// token bucket computed in exact arithmetic: several keys, random steps of
// a fake clock (at once, a fraction of a token, a whole minute so that the
// sweep runs with buckets spent, refilling and full). The limits and steps are chosen
// so that floating point is exact (rates of a power of two, or 3/4, tokens
// a second, steps of 1/8 s): a take that leaves exactly one token, or a
// bucket refilled exactly to one, is on the edge both ways. retryAfter is
// compared to within a microsecond.
func TestMemoryStoreModel(t *testing.T) {
	limits := []quota.RateLimit{
		{Requests: 1, Per: time.Second},
		{Requests: 2, Per: time.Second, Burst: 5},
		{Requests: 1, Per: 2 * time.Second},
		{Requests: 4, Per: time.Second, Burst: 1},
		{Requests: 3, Per: 4 * time.Second},
		{Requests: 5, Per: 8 * time.Second, Burst: 2},
		{Requests: 120, Per: time.Minute, Burst: 3},
		{Requests: 1, Per: 128 * time.Second, Burst: 3}, // longer to fill than the sweep's minute
		{Requests: 3, Per: 256 * time.Second},
	}
	const unit = time.Second / 8
	for seed := range uint64(36) {
		rng := rand.New(rand.NewPCG(seed, 31))
		limit := limits[int(seed)%len(limits)]
		m := quota.NewMemoryStore()
		now := time.Unix(1_000_000, 0)
		quota.SetClock(m, func() time.Time { return now })
		// The model: tokens times Per (in ns), gaining Requests a ns.
		per, capacity := int64(limit.Per), int64(limit.Capacity())*int64(limit.Per)
		type bucket struct {
			scaled int64
			at     time.Time
		}
		model := map[string]*bucket{}
		keys := []string{"alice", "bob", "alice\x00", ""}
		var history []string
		for step := range 600 {
			switch r := rng.IntN(20); {
			case r < 6: // at once
			case r < 18:
				now = now.Add(time.Duration(1+rng.IntN(24)) * unit)
			default:
				now = now.Add(time.Minute + time.Duration(rng.IntN(8))*unit)
			}
			key := keys[rng.IntN(len(keys))]
			b := model[key]
			if b == nil {
				b = &bucket{capacity, now}
				model[key] = b
			}
			gained := int64(now.Sub(b.at)) // ns; capped before multiplying
			if gained > capacity {
				gained = capacity
			}
			b.scaled, b.at = min(capacity, b.scaled+gained*int64(limit.Requests)), now
			wantOK := b.scaled >= per
			var wantAfter time.Duration
			if wantOK {
				b.scaled -= per
			} else {
				wantAfter = time.Duration((per - b.scaled) / int64(limit.Requests))
			}
			ok, after, err := m.Take(context.Background(), key, limit)
			history = append(history, fmt.Sprintf("%v %q: %v %v", now.Sub(time.Unix(1_000_000, 0)), key, ok, after))
			if err != nil {
				t.Fatal(err)
			}
			if ok != wantOK || (!ok && (after < wantAfter-time.Microsecond || after > wantAfter+time.Microsecond)) || (ok && after != 0) {
				t.Fatalf("seed %d, %+v, step %d: Take = %v, %v; want %v, %v (tokens %v); the takes:\n%s", seed, limit, step, ok, after, wantOK, wantAfter,
					float64(b.scaled)/float64(per), history[max(0, len(history)-30):])
			}
		}
	}
}

// TestMemoryStoreSweepEdge: a bucket a nanosecond short of full is not
// forgotten by the sweep (it gives one take less than a full one); at full
// it is what a new one is.
func TestMemoryStoreSweepEdge(t *testing.T) {
	limit := quota.RateLimit{Requests: 1, Per: 128 * time.Second, Burst: 3}
	fill := 3 * 128 * time.Second
	for _, tc := range []struct {
		after time.Duration
		takes int
	}{{fill - time.Nanosecond, 2}, {fill, 3}, {fill + time.Nanosecond, 3}} {
		m := quota.NewMemoryStore()
		now := time.Unix(1_000_000, 0)
		quota.SetClock(m, func() time.Time { return now })
		for range 3 {
			m.Take(context.Background(), "k", limit)
		}
		now = now.Add(tc.after)
		m.Take(context.Background(), "other", limit) // the sweep runs
		got := 0
		for range 4 {
			if ok, _, _ := m.Take(context.Background(), "k", limit); ok {
				got++
			}
		}
		if got != tc.takes {
			t.Errorf("%v after the bucket was spent: %d takes at once, want %d", tc.after, got, tc.takes)
		}
	}
}
