// Package storetest holds the contract tests of the runtime's store
// interfaces, run against the in-memory defaults (the tests of
// runtime/tasks, runtime/quota, runtime/requeststate) and against every
// other implementation (runtime/redisstore's), so that they all behave
// alike. It stands beside internal/redistest, not in runtime/internal: it
// imports the store packages, which the runtime's own leaves must not.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/idempotency"
	"github.com/mcpgen/mcpgen/runtime/quota"
	"github.com/mcpgen/mcpgen/runtime/requeststate"
	"github.com/mcpgen/mcpgen/runtime/tasks"
)

// TaskStore checks a TaskStore that keeps at most two live tasks per
// owner: owners are isolated, a terminal task is not overwritten, expired
// tasks are gone and make room, the bound holds, List pages in creation
// order.
func TaskStore(t *testing.T, st tasks.Store) {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	a := &tasks.Record{ID: "a", Owner: "alice", Status: tasks.Working, CreatedAt: now, TTL: time.Hour,
		PollInterval: time.Second, Result: []byte(`{"x":1}`)}
	if err := st.Create(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Get(ctx, "alice", "a"); err != nil || got == nil || got.Status != tasks.Working ||
		!got.CreatedAt.Equal(now) || got.TTL != time.Hour || got.PollInterval != time.Second || string(got.Result) != `{"x":1}` ||
		got.Error != nil || got.InputRequests != nil {
		t.Fatalf("Get of a created task = %+v, %v", got, err)
	}
	if got, _ := st.Get(ctx, "bob", "a"); got != nil {
		t.Error("bob reads alice's task")
	}
	cancelled := *a
	cancelled.Status = tasks.Cancelled
	if ok, err := st.Update(ctx, &cancelled); !ok || err != nil {
		t.Fatalf("Update of a working task refused: %v", err)
	}
	completed := *a
	completed.Status = tasks.Completed
	if ok, _ := st.Update(ctx, &completed); ok {
		t.Error("Update overwrote a cancelled task")
	}
	if got, _ := st.Get(ctx, "alice", "a"); got == nil || got.Status != tasks.Cancelled {
		t.Errorf("alice's task = %+v, want cancelled", got)
	}
	if ok, _ := st.Update(ctx, &tasks.Record{ID: "nope", Status: tasks.Working}); ok {
		t.Error("Update created a task")
	}
	if got, _ := st.Get(ctx, "alice", "nope"); got != nil {
		t.Error("Update created a task")
	}

	old := &tasks.Record{ID: "old", Owner: "alice", Status: tasks.Working, CreatedAt: now.Add(-2 * time.Hour), TTL: time.Hour}
	if err := st.Create(ctx, old); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Get(ctx, "alice", "old"); got != nil {
		t.Error("an expired task is returned")
	}
	// Full (a and old), but old has expired: it makes room.
	if err := st.Create(ctx, &tasks.Record{ID: "b", Owner: "alice", CreatedAt: now, TTL: time.Hour}); err != nil {
		t.Fatalf("Create with an expired task to drop: %v", err)
	}
	if err := st.Create(ctx, &tasks.Record{ID: "c", Owner: "alice", CreatedAt: now, TTL: time.Hour}); err != tasks.ErrStoreFull {
		t.Errorf("Create beyond alice's bound: %v, want ErrTaskStoreFull", err)
	}
	if err := st.Create(ctx, &tasks.Record{ID: "d", Owner: "bob", CreatedAt: now, TTL: time.Hour}); err != nil {
		t.Errorf("alice's full share keeps bob out: %v", err)
	}
	list, _ := st.List(ctx, "alice", "", 10)
	if len(list) != 2 || list[0].ID != "a" || list[1].ID != "b" {
		t.Errorf("List = %v, want a, b", ids(list))
	}
	if list, _ := st.List(ctx, "alice", "", 1); len(list) != 1 || list[0].ID != "a" {
		t.Errorf("List of 1 = %v, want a", ids(list))
	}
	if list, _ := st.List(ctx, "alice", "a", 10); len(list) != 1 || list[0].ID != "b" {
		t.Errorf("List after a = %v, want b", ids(list))
	}
	if list, _ := st.List(ctx, "alice", "d", 10); len(list) != 0 {
		t.Errorf("List after bob's task = %v, want nothing", ids(list))
	}
}

func ids(list []*tasks.Record) []string {
	var out []string
	for _, t := range list {
		out = append(out, t.ID)
	}
	return out
}

// QuotaStore checks a QuotaStore's token buckets: a bucket of 3 a minute
// gives 3 tokens, then refuses with the time until the next one (about
// 20 s); another key has its own bucket; a bucket refills at its rate.
func QuotaStore(t *testing.T, st quota.Store) {
	t.Helper()
	ctx := context.Background()
	limit := quota.RateLimit{Requests: 3, Per: time.Minute}
	for i := range 3 {
		if ok, _, err := st.Take(ctx, "alice", limit); !ok || err != nil {
			t.Fatalf("take %d of 3: ok=%v, %v", i+1, ok, err)
		}
	}
	ok, after, err := st.Take(ctx, "alice", limit)
	if ok || err != nil || after < 15*time.Second || after > 21*time.Second {
		t.Errorf("4th take: ok=%v retryAfter=%v, %v; want a refusal for about 20 s", ok, after, err)
	}
	if ok, _, _ := st.Take(ctx, "bob", limit); !ok {
		t.Error("alice's empty bucket refuses bob")
	}
	fast := quota.RateLimit{Requests: 1, Per: 100 * time.Millisecond}
	st.Take(ctx, "fast", fast)
	if ok, _, _ := st.Take(ctx, "fast", fast); ok {
		t.Error("a bucket of 1 gave 2 tokens at once")
	}
	time.Sleep(150 * time.Millisecond)
	if ok, _, _ := st.Take(ctx, "fast", fast); !ok {
		t.Error("a bucket did not refill at its rate")
	}
}

// RequestStateStore checks that a state id is accepted once until it
// expires.
func RequestStateStore(t *testing.T, st requeststate.Store) {
	t.Helper()
	ctx := context.Background()
	later := time.Now().Add(time.Hour)
	use := func(id string, until time.Time) bool {
		t.Helper()
		first, err := st.FirstUse(ctx, id, until)
		if err != nil {
			t.Fatal(err)
		}
		return first
	}
	if !use("a", later) || use("a", later) {
		t.Error("a: want first use then a refusal")
	}
	if !use("b", later) {
		t.Error("b refused after a was used")
	}
	if !use("past", time.Now().Add(-time.Second)) || !use("past", later) {
		t.Error("an expired record must not refuse its id")
	}
	if !use("short", time.Now().Add(100*time.Millisecond)) {
		t.Error("short: first use refused")
	}
	time.Sleep(200 * time.Millisecond)
	if !use("short", later) {
		t.Error("a record outlived its expiry")
	}
}

// QuotaBound takes tokens of limit from st at small random steps of the
// clock (advance moves it: a fake clock's step, or a real sleep, of at most
// maxStep), steps times, and checks the bucket's promise, with the clock
// read by now around each take:
//   - over every window, no more takes succeed than the capacity plus what
//     the rate refills in the window (a bucket that refills past its
//     capacity, is forgotten while it is not full, or expires early gives
//     more);
//   - a take asked at least the retry-after of a refusal later succeeds.
//
// tick is the resolution of the store's own clock (Redis's scripts count in
// whole milliseconds): the time between two takes, as the store counts it,
// may be up to a tick longer than the bracket read by now, so the bound
// allows what the rate refills in one tick more. A fake clock's is 0.
//
// Jumping the clock by an hour, as QuotaStore does, hides all three.
func QuotaBound(t *testing.T, st quota.Store, limit quota.RateLimit, now func() time.Time, advance func(time.Duration), maxStep time.Duration, steps int, seed uint64, tick time.Duration) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	type take struct {
		from, to time.Time // the clock before and after the call
		ok       bool
		after    time.Duration
	}
	var takes []take
	// The time a bucket takes to fill from empty: every tenth step idles
	// that long, then the next steps often come at once, so that a bucket
	// refilled past its capacity is seen spending more than it may.
	fill := time.Duration(limit.Capacity() / limit.PerSecond() * float64(time.Second))
	for i := range steps {
		switch {
		case i%10 == 9:
			advance(fill + maxStep)
		case rng.IntN(2) == 0: // at once
		default:
			advance(time.Duration(rng.Int64N(int64(maxStep) + 1)))
		}
		from := now()
		ok, after, err := st.Take(context.Background(), "prop", limit)
		if err != nil {
			t.Fatal(err)
		}
		takes = append(takes, take{from, now(), ok, after})
	}
	capacity, rate := limit.Capacity(), limit.PerSecond()
	var oks []take
	for _, tk := range takes {
		if tk.ok {
			oks = append(oks, tk)
		}
	}
	for i := range oks {
		for j := i; j < len(oks); j++ {
			window := (oks[j].to.Sub(oks[i].from) + tick).Seconds()
			if n := float64(j - i + 1); n > capacity+rate*window+1e-6 {
				t.Fatalf("seed %d: %.0f takes succeeded within %.3fs, the most is %.3f (capacity %.0f, %.4f a second)", seed, n, window, capacity+rate*window, capacity, rate)
			}
		}
	}
	for i := 0; i+1 < len(takes); i++ {
		r, next := takes[i], takes[i+1]
		if !r.ok && next.from.Sub(r.to) >= r.after+2*time.Millisecond && !next.ok {
			t.Fatalf("seed %d: refused with retry after %v, then refused again %v later", seed, r.after, next.from.Sub(r.to))
		}
	}
}

// TaskPaging pages one owner's tasks through st with random page sizes
// while some of them expire and others change status between the pages,
// and checks List's promise: every page is in creation order and holds
// only the owner's live tasks; no task comes twice; every task alive from
// the first page to the last comes exactly once; a short page ends the
// listing, and after a full last page the next one is empty. st must keep
// at least 60 live tasks per owner. A page whose cursor task has expired
// may come back empty (the runtime then goes on from its creation time):
// the listing stops there, and only the tasks before the cursor must have
// come.
func TaskPaging(t *testing.T, st tasks.Store, seed uint64) {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e37))
	owner := fmt.Sprintf("pager-%d", seed)
	start := time.Now()
	type made struct {
		id      string
		expires time.Time
	}
	var mine []made
	n := 20 + rng.IntN(30)
	for i := range n {
		ttl := time.Hour
		switch rng.IntN(6) {
		case 0: // expired before the listing starts
			ttl = time.Millisecond
		case 1: // expires while the pages are read
			ttl = time.Duration(50+rng.IntN(250)) * time.Millisecond
		}
		created := start
		if ttl == time.Millisecond {
			created = start.Add(-time.Second)
		}
		id := fmt.Sprintf("s%d-%03d", seed, i)
		rec := &tasks.Record{ID: id, Owner: owner, Status: tasks.Working, CreatedAt: created, TTL: ttl}
		if err := st.Create(ctx, rec); err != nil {
			t.Fatalf("seed %d: create %s: %v", seed, id, err)
		}
		mine = append(mine, made{id, created.Add(ttl)})
		if rng.IntN(3) == 0 { // another owner's task between
			other := &tasks.Record{ID: fmt.Sprintf("o%d-%03d", seed, i), Owner: "other", Status: tasks.Working, CreatedAt: start, TTL: time.Hour}
			if err := st.Create(ctx, other); err != nil {
				t.Fatalf("seed %d: create %s: %v", seed, other.ID, err)
			}
		}
	}
	index := map[string]int{}
	for i, m := range mine {
		index[m.id] = i
	}
	seen := map[string]bool{}
	after, last := "", -1
	stoppedAtExpiredCursor := false
	for pages := 0; ; pages++ {
		if pages > 2*n+2 {
			t.Fatalf("seed %d: the listing does not end", seed)
		}
		size := 1 + rng.IntN(6)
		from := time.Now()
		page, err := st.List(ctx, owner, after, size)
		to := time.Now()
		if err != nil {
			t.Fatalf("seed %d: List: %v", seed, err)
		}
		if len(page) > size {
			t.Fatalf("seed %d: a page of %d holds %d tasks", seed, size, len(page))
		}
		for _, rec := range page {
			i, ok := index[rec.ID]
			switch {
			case !ok || rec.Owner != owner:
				t.Fatalf("seed %d: List of %s's tasks returns %s (owner %q)", seed, owner, rec.ID, rec.Owner)
			case seen[rec.ID]:
				t.Fatalf("seed %d: %s listed twice", seed, rec.ID)
			case i <= last:
				t.Fatalf("seed %d: %s listed after %s: not in creation order", seed, rec.ID, mine[last].id)
			case mine[i].expires.Before(from.Add(-2 * time.Millisecond)):
				t.Fatalf("seed %d: %s listed %v after it expired", seed, rec.ID, from.Sub(mine[i].expires))
			}
			seen[rec.ID], last = true, i
		}
		if len(page) < size {
			if len(page) == 0 && after != "" && mine[index[after]].expires.Before(to) {
				stoppedAtExpiredCursor = true
			}
			break
		}
		after = page[len(page)-1].ID
		// Between pages: some tasks end (a status change must not move
		// them), time passes (some expire).
		for range rng.IntN(3) {
			i := rng.IntN(n)
			rec := &tasks.Record{ID: mine[i].id, Owner: owner, Status: tasks.Completed, CreatedAt: start, TTL: mine[i].expires.Sub(start)}
			if _, err := st.Update(ctx, rec); err != nil {
				t.Fatalf("seed %d: Update: %v", seed, err)
			}
		}
		time.Sleep(time.Duration(rng.IntN(40)) * time.Millisecond)
	}
	end := time.Now()
	for i, m := range mine {
		if seen[m.id] || !m.expires.After(end.Add(2*time.Millisecond)) {
			continue
		}
		if stoppedAtExpiredCursor && i > last {
			continue
		}
		t.Fatalf("seed %d: %s was alive throughout and never listed (%d tasks, %d seen)", seed, m.id, n, len(seen))
	}
}

// RequestStateModel uses ids from a small pool, some of them spelled alike
// (a prefix of another, a separator inside), with expiries an hour ahead or
// already past, at random, and checks every answer of st against the
// Store's promise:
//   - an id never used, or whose last accepted use has expired, is
//     accepted;
//   - an id whose last accepted use has not expired is refused, unless
//     bound (> 0) other uses were accepted since: a store of bound records
//     forgets the oldest first, and no sooner.
//
// bound 0 is a store without a bound (every live record is kept). A use
// with an expiry already past may have either answer (the runtime refuses
// it as expired anyway) and leaves a live record as it is.
func RequestStateModel(t *testing.T, st requeststate.Store, bound int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	pool := []string{"a", "b", "ab", "a:b", "a|b", "state:a", "A", "a ", fmt.Sprintf("s%d", seed)}
	type record struct {
		expires time.Time
		at      int // the number of uses accepted before this one
	}
	last := map[string]record{}
	accepted := 0
	var history []string
	for step := range 200 {
		id := pool[rng.IntN(len(pool))]
		expires := time.Now().Add(time.Hour + time.Duration(rng.IntN(1000))*time.Millisecond)
		if rng.IntN(4) == 0 {
			expires = time.Now().Add(-time.Second - time.Duration(rng.IntN(1000))*time.Millisecond)
		}
		r, used := last[id]
		want := !used || !time.Now().Before(r.expires) || (bound > 0 && accepted-r.at-1 >= bound)
		got, err := st.FirstUse(context.Background(), id, expires)
		if err != nil {
			t.Fatalf("seed %d step %d: FirstUse(%q): %v", seed, step, id, err)
		}
		past := expires.Before(time.Now())
		history = append(history, fmt.Sprintf("%q past=%v -> %v", id, past, got))
		if got != want && !past {
			t.Fatalf("seed %d step %d: FirstUse(%q, past=%v) = %v, want %v (bound %d); uses so far:\n%s",
				seed, step, id, past, got, want, bound, strings.Join(history, "\n"))
		}
		if got {
			if live := used && time.Now().Before(r.expires); !past || !live {
				last[id] = record{expires, accepted}
			}
			accepted++
		}
	}
}

// IdempotencyStore checks an idempotency Store's promises on the real
// clock: a kept result answers only its own owner, tool and key (no two
// that concatenate alike); the same key with other arguments is
// ErrConflict and runs nothing; a call that keeps nothing (keep false, or
// a nil result) frees its key for any arguments; a result expires after
// its ttl, and its key is then free for other arguments too.
func IdempotencyStore(t *testing.T, st idempotency.Store) {
	t.Helper()
	ctx := context.Background()
	do := func(k idempotency.Key, ttl time.Duration, result string, keep bool) (string, bool, error) {
		t.Helper()
		ran := false
		b, err := st.Do(ctx, k, ttl, func() ([]byte, bool) {
			ran = true
			if result == "" {
				return nil, keep
			}
			return []byte(result), keep
		})
		return string(b), ran, err
	}
	keys := []idempotency.Key{
		{Owner: "alice", Tool: "t", Key: "k"},
		{Owner: "bob", Tool: "t", Key: "k"},
		{Owner: "", Tool: "t", Key: "k"},
		{Owner: "alice", Tool: "u", Key: "k"},
		{Owner: "alice", Tool: "t", Key: "l"},
		{Owner: "alic", Tool: "et", Key: "k"},
		{Owner: "alice", Tool: "tk", Key: ""},
		{Owner: "alice\x00t", Tool: "", Key: "k"},
	}
	for i := range keys {
		keys[i].Fingerprint = "f"
		if got, ran, err := do(keys[i], time.Hour, fmt.Sprint("r", i), true); err != nil || !ran || got != fmt.Sprint("r", i) {
			t.Fatalf("%+v: %q (ran %v), %v; want its own run", keys[i], got, ran, err)
		}
	}
	for i, k := range keys {
		if got, ran, err := do(k, time.Hour, "again", true); err != nil || ran || got != fmt.Sprint("r", i) {
			t.Errorf("%+v again: %q (ran %v), %v; want its kept result r%d", k, got, ran, err, i)
		}
		other := k
		other.Fingerprint = "g"
		if _, ran, err := do(other, time.Hour, "other", true); !errors.Is(err, idempotency.ErrConflict) || ran {
			t.Errorf("%+v with other arguments: ran %v, %v; want ErrConflict", k, ran, err)
		}
	}
	for _, tc := range []struct {
		result string
		keep   bool
	}{{"r", false}, {"", true}, {"", false}} {
		k := idempotency.Key{Owner: "o", Tool: "t", Key: fmt.Sprintf("free-%s-%v", tc.result, tc.keep), Fingerprint: "f"}
		do(k, time.Hour, tc.result, tc.keep)
		k.Fingerprint = "g"
		if got, ran, err := do(k, time.Hour, "second", true); err != nil || !ran || got != "second" {
			t.Errorf("after a call keeping nothing (result %q, keep %v): %q (ran %v), %v; want a run with any arguments", tc.result, tc.keep, got, ran, err)
		}
	}
	short := idempotency.Key{Owner: "o", Tool: "t", Key: "short", Fingerprint: "f"}
	do(short, 100*time.Millisecond, "first", true)
	time.Sleep(200 * time.Millisecond)
	short.Fingerprint = "g"
	if got, ran, err := do(short, time.Hour, "new", true); err != nil || !ran || got != "new" {
		t.Errorf("after the ttl, other arguments: %q (ran %v), %v; want a run", got, ran, err)
	}
}
