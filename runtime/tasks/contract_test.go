package tasks_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/tasks"
)

func rec(id, owner string, created time.Time, ttl time.Duration) *tasks.Record {
	return &tasks.Record{ID: id, Owner: owner, Status: tasks.Working, CreatedAt: created, UpdatedAt: created, TTL: ttl}
}

// TestMemoryStoreBounds: NewMemoryStore(limit) holds limit live tasks
// (DefaultMaxTasks for 0 or less), at most a tenth of them (at least one)
// per owner; at either bound Create fails with ErrStoreFull, one more
// below it succeeds.
func TestMemoryStoreBounds(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	for _, c := range []struct{ limit, total, perOwner int }{
		{0, tasks.DefaultMaxTasks, tasks.DefaultMaxTasks / 10},
		{-3, tasks.DefaultMaxTasks, tasks.DefaultMaxTasks / 10},
		{1, 1, 1}, {9, 9, 1}, {10, 10, 1}, {19, 19, 1}, {20, 20, 2}, {25, 25, 2}, {35, 35, 3},
	} {
		st := tasks.NewMemoryStore(c.limit)
		// One owner up to its share.
		for i := range c.perOwner {
			if err := st.Create(ctx, rec(fmt.Sprint("a", i), "alice", now, time.Hour)); err != nil {
				t.Fatalf("limit %d: alice's task %d of %d: %v", c.limit, i+1, c.perOwner, err)
			}
		}
		if err := st.Create(ctx, rec("a-over", "alice", now, time.Hour)); err != tasks.ErrStoreFull {
			t.Errorf("limit %d: alice's task %d, beyond her share of %d: %v, want ErrStoreFull", c.limit, c.perOwner+1, c.perOwner, err)
		}
		if c.total > 100 {
			continue
		}
		// Other owners up to the total.
		n := c.perOwner
		for o := 0; n < c.total; o++ {
			for i := 0; i < c.perOwner && n < c.total; i++ {
				if err := st.Create(ctx, rec(fmt.Sprint("o", o, "-", i), fmt.Sprint("owner", o), now, time.Hour)); err != nil {
					t.Fatalf("limit %d: task %d of %d: %v", c.limit, n+1, c.total, err)
				}
				n++
			}
		}
		if err := st.Create(ctx, rec("new", "newcomer", now, time.Hour)); err != tasks.ErrStoreFull {
			t.Errorf("limit %d: task %d of a store of %d: %v, want ErrStoreFull", c.limit, c.total+1, c.total, err)
		}
		if st.Len() != c.total {
			t.Errorf("limit %d: Len %d, want %d", c.limit, st.Len(), c.total)
		}
	}
}

// TestMemoryStoreExpiredMakeRoom: expired tasks are never returned, are
// kept (Len) until room is needed, and then make room in the whole store
// as in their owner's share.
func TestMemoryStoreExpiredMakeRoom(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	st := tasks.NewMemoryStore(3) // 1 per owner
	for _, o := range []string{"a", "b"} {
		if err := st.Create(ctx, rec(o, o, now, time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Create(ctx, rec("c", "c", now.Add(-time.Hour-time.Millisecond), time.Hour)); err != nil { // expired a millisecond ago
		t.Fatal(err)
	}
	if got, _ := st.Get(ctx, "c", "c"); got != nil {
		t.Error("Get returned an expired task")
	}
	if l, _ := st.List(ctx, "c", "", 10); len(l) != 0 {
		t.Errorf("List returned an expired task: %v", l)
	}
	if st.Len() != 3 {
		t.Errorf("Len %d before room was needed, want 3 (expired ones kept)", st.Len())
	}
	// The store is full (3), but c has expired: d gets its room.
	if err := st.Create(ctx, rec("d", "d", now, time.Hour)); err != nil {
		t.Fatalf("Create in a store full of 2 live and 1 expired: %v", err)
	}
	if st.Len() != 3 {
		t.Errorf("Len %d, want 3 (c dropped, d added)", st.Len())
	}
	// c's owner has room again (its expired task no longer counts), but
	// the store is full of live tasks.
	if err := st.Create(ctx, rec("c2", "c", now, time.Hour)); err != tasks.ErrStoreFull {
		t.Errorf("Create in a store of 3 live tasks: %v, want ErrStoreFull", err)
	}
	for _, id := range []string{"a", "b", "d"} {
		if got, _ := st.Get(ctx, id, id); got == nil {
			t.Errorf("live task %s lost", id)
		}
	}
}

// TestMemoryStoreUpdateByStatus: Update replaces a working or
// input_required task, never a terminal one (completed, failed,
// cancelled), nor one that does not exist; an Update leaves the owner's
// share as it was.
func TestMemoryStoreUpdateByStatus(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	for _, c := range []struct {
		from     tasks.Status
		terminal bool
	}{
		{tasks.Working, false}, {tasks.InputRequired, false},
		{tasks.Completed, true}, {tasks.Failed, true}, {tasks.Cancelled, true},
	} {
		if c.from.Terminal() != c.terminal {
			t.Errorf("%s.Terminal() = %v", c.from, !c.terminal)
		}
		st := tasks.NewMemoryStore(10)
		r := rec("t", "alice", now, time.Hour)
		r.Status = c.from
		if err := st.Create(ctx, r); err != nil {
			t.Fatal(err)
		}
		u := rec("t", "alice", now, time.Hour)
		u.Status, u.StatusMessage = tasks.Completed, "new"
		ok, err := st.Update(ctx, u)
		if err != nil || ok == c.terminal {
			t.Errorf("Update of a %s task: %v, %v; want replaced %v", c.from, ok, err, !c.terminal)
		}
		want := tasks.Completed
		if c.terminal {
			want = c.from
		}
		if got, _ := st.Get(ctx, "alice", "t"); got == nil || got.Status != want {
			t.Errorf("after Update of a %s task: %+v, want %s", c.from, got, want)
		}
		if err := st.Create(ctx, rec("t2", "alice", now, time.Hour)); err != tasks.ErrStoreFull {
			t.Errorf("an Update changed alice's share (1): a second task: %v", err)
		}
	}
	st := tasks.NewMemoryStore(10)
	if ok, _ := st.Update(ctx, rec("ghost", "alice", now, time.Hour)); ok || st.Len() != 0 {
		t.Error("Update of a task that does not exist replaced or created it")
	}
}

// TestMemoryStoreCopies: the store keeps a copy of what Create and Update
// are given and returns copies: changing them changes nothing stored.
func TestMemoryStoreCopies(t *testing.T) {
	ctx := context.Background()
	st := tasks.NewMemoryStore(10)
	r := rec("t", "alice", time.Now(), time.Hour)
	if err := st.Create(ctx, r); err != nil {
		t.Fatal(err)
	}
	r.Status, r.Owner = tasks.Completed, "bob"
	got, _ := st.Get(ctx, "alice", "t")
	if got == nil || got.Status != tasks.Working {
		t.Fatalf("a change to the created record reached the store: %+v", got)
	}
	got.Status = tasks.Failed
	again, _ := st.Get(ctx, "alice", "t")
	if again.Status != tasks.Working {
		t.Errorf("a change to a returned record reached the store: %+v", again)
	}
	l, _ := st.List(ctx, "alice", "", 1)
	l[0].Status = tasks.Failed
	u := rec("t", "alice", time.Now(), time.Hour)
	u.StatusMessage = "m"
	st.Update(ctx, u)
	u.StatusMessage = "changed"
	if again, _ := st.Get(ctx, "alice", "t"); again.Status != tasks.Working || again.StatusMessage != "m" {
		t.Errorf("a change to a listed or updated record reached the store: %+v", again)
	}
}

// TestMemoryStoreListPagesProperty: for random stores of several owners'
// tasks, some expired, paging an owner's List with random limits (each
// page after the last task of the one before) returns every live task of
// that owner exactly once, oldest first, each page at most its limit and
// full unless it is the last.
func TestMemoryStoreListPagesProperty(t *testing.T) {
	ctx := context.Background()
	owners := []string{"alice", "bob", "carol"}
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 31))
		st := tasks.NewMemoryStore(1000)
		base := time.Now()
		live := map[string][]string{}
		n := rng.IntN(25)
		for i := range n {
			o := owners[rng.IntN(len(owners))]
			id := fmt.Sprint("t", i)
			created := base.Add(time.Duration(i) * time.Millisecond)
			ttl := time.Hour
			if rng.IntN(4) == 0 {
				created = base.Add(-2*time.Hour + time.Duration(i)*time.Millisecond) // expired
			} else {
				live[o] = append(live[o], id)
			}
			if err := st.Create(ctx, rec(id, o, created, ttl)); err != nil {
				t.Fatal(err)
			}
		}
		for _, o := range owners {
			var got []string
			after := ""
			for pages := 0; ; pages++ {
				if pages > n+1 {
					t.Fatalf("seed %d, %s: paging does not end: %v", seed, o, got)
				}
				limit := 1 + rng.IntN(4)
				page, err := st.List(ctx, o, after, limit)
				if err != nil {
					t.Fatal(err)
				}
				if len(page) > limit {
					t.Fatalf("seed %d: List of %d returned %d", seed, limit, len(page))
				}
				for _, r := range page {
					if r.Owner != o {
						t.Fatalf("seed %d: %s's List returned %s's task", seed, o, r.Owner)
					}
					got = append(got, r.ID)
				}
				if len(page) < limit {
					break
				}
				after = page[len(page)-1].ID
			}
			if !slices.Equal(got, live[o]) {
				t.Errorf("seed %d, %s: pages %v, want %v", seed, o, got, live[o])
			}
		}
		if l, _ := st.List(ctx, "alice", "", 0); len(l) != 0 {
			t.Errorf("List of limit 0 returned %d", len(l))
		}
	}
}
