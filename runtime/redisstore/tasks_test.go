package redisstore

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/internal/storetest"
	"github.com/mcpgen/mcpgen/runtime"
)

// The Redis task store keeps the contract of every TaskStore (two tasks
// per owner, like the in-memory store the contract test was written for).
func TestTaskStoreContract(t *testing.T) {
	storetest.TaskStore(t, openStore(t, redistest.Start(t), Config{MaxTasksPerOwner: 2}).Tasks())
}

// A task created through one replica is read, cancelled and listed through
// another; the replica running it cannot then overwrite the cancellation;
// Redis forgets it when it expires.
func TestTasksAcrossReplicas(t *testing.T) {
	r := redistest.Start(t)
	a, b := openStore(t, r, Config{}).Tasks(), openStore(t, r, Config{}).Tasks()
	ctx := context.Background()
	task := &runtime.TaskRecord{ID: "t1", Owner: "iss|alice", Status: runtime.TaskWorking, CreatedAt: time.Now(), TTL: 500 * time.Millisecond}
	if err := a.Create(ctx, task); err != nil {
		t.Fatal(err)
	}
	got, err := b.Get(ctx, "iss|alice", "t1")
	if err != nil || got == nil || got.Status != runtime.TaskWorking {
		t.Fatalf("Get through replica B: %+v, %v", got, err)
	}
	got.Status, got.StatusMessage = runtime.TaskCancelled, "cancelled by the client"
	if ok, err := b.Update(ctx, got); !ok || err != nil {
		t.Fatalf("cancel through replica B: %v, %v", ok, err)
	}
	done := *task
	done.Status, done.Result = runtime.TaskCompleted, []byte(`{"content":[]}`)
	if ok, _ := a.Update(ctx, &done); ok {
		t.Error("replica A's completion overwrote B's cancellation")
	}
	if list, _ := a.List(ctx, "iss|alice", "", 10); len(list) != 1 || list[0].Status != runtime.TaskCancelled || list[0].StatusMessage != "cancelled by the client" {
		t.Errorf("List through replica A: %+v", list)
	}
	time.Sleep(600 * time.Millisecond)
	if got, _ := b.Get(ctx, "iss|alice", "t1"); got != nil {
		t.Error("the task outlived its TTL")
	}
	if n, _ := r.Client(t).Exists(ctx, "mcpgen:task:"+ownerTag("iss|alice")+":t1", "mcpgen:tasks:"+ownerTag("iss|alice")).Result(); n != 0 {
		t.Errorf("%d keys of the expired task are still in Redis", n)
	}
}

// Two replicas creating tasks for one owner at once never pass the bound
// together.
func TestTasksBoundAcrossReplicas(t *testing.T) { tasksBoundAcrossReplicas(t, redistest.Start(t)) }

func tasksBoundAcrossReplicas(t *testing.T, r redistest.Deployment) {
	replicas := []runtime.TaskStore{openStore(t, r, Config{MaxTasksPerOwner: 5}).Tasks(), openStore(t, r, Config{MaxTasksPerOwner: 5}).Tasks()}
	created := make(chan error, 20)
	for i := range 20 {
		go func() {
			created <- replicas[i%2].Create(context.Background(), &runtime.TaskRecord{ID: "t" + string(rune('a'+i)), Owner: "bob",
				Status: runtime.TaskWorking, CreatedAt: time.Now(), TTL: time.Minute})
		}()
	}
	ok, full := 0, 0
	for range 20 {
		switch err := <-created; err {
		case nil:
			ok++
		case runtime.ErrTaskStoreFull:
			full++
		default:
			t.Fatal(err)
		}
	}
	if ok != 5 || full != 15 {
		t.Errorf("%d created, %d refused; want 5 and 15", ok, full)
	}
}

func TestTasksRedisUnresponsive(t *testing.T) {
	r := redistest.Start(t)
	st := openStore(t, r, Config{Timeout: 200 * time.Millisecond}).Tasks()
	r.Pause()
	start := time.Now()
	_, err := st.Get(context.Background(), "alice", "t1")
	took := time.Since(start)
	r.Resume()
	if err == nil || !strings.Contains(err.Error(), "task store") || !strings.Contains(err.Error(), "did not answer in time") {
		t.Errorf("Get with Redis paused: %v, want an error naming the task store and the timeout", err)
	}
	if took > time.Second {
		t.Errorf("Get took %v with a 200ms timeout", took)
	}
}

// A replica killed mid-task (here: its Store closed, so nothing renews the
// task's lease) leaves the task failed, with a reason, once its lease
// lapses; a live replica's task stays working however long it runs.
func TestTaskOfDeadReplicaFails(t *testing.T) {
	r := redistest.Start(t)
	cfg := Config{LockTTL: 300 * time.Millisecond}
	dead, live, reader := openStore(t, r, cfg), openStore(t, r, cfg), openStore(t, r, cfg).Tasks()
	ctx := context.Background()
	// The dead replica's tasks: one working, one waiting for input (a
	// task waiting for its client is not over either).
	deadID, deadWaitingID, liveID := "dead-replica's", "dead-replica's waiting", "live-replica's"
	for _, c := range []struct {
		id     string
		s      *Store
		status runtime.TaskStatus
	}{{deadID, dead, runtime.TaskWorking}, {deadWaitingID, dead, runtime.TaskInputRequired}, {liveID, live, runtime.TaskWorking}} {
		task := &runtime.TaskRecord{ID: c.id, Owner: "alice", Status: c.status, CreatedAt: time.Now(), TTL: time.Minute}
		if err := c.s.Tasks().Create(ctx, task); err != nil {
			t.Fatal(err)
		}
	}
	dead.Close() // SIGKILL: no StopTasks, no renewal
	time.Sleep(time.Second)
	for _, id := range []string{deadID, deadWaitingID} {
		got, err := reader.Get(ctx, "alice", id)
		if err != nil || got == nil || got.Status != runtime.TaskFailed || got.StatusMessage != OrphanedTaskMessage || !strings.Contains(string(got.Error), "-32603") {
			t.Errorf("the dead replica's task %q: %+v, %v; want failed with %q", id, got, err, OrphanedTaskMessage)
		}
	}
	if got, err := reader.Get(ctx, "alice", liveID); err != nil || got == nil || got.Status != runtime.TaskWorking {
		t.Errorf("the live replica's task after 3 lease TTLs: %+v, %v; want working", got, err)
	}
	done := runtime.TaskRecord{ID: liveID, Owner: "alice", Status: runtime.TaskCompleted, CreatedAt: time.Now(), TTL: time.Minute}
	if ok, err := live.Tasks().Update(ctx, &done); !ok || err != nil {
		t.Errorf("completing the live task: %v, %v", ok, err)
	}
	if n, _ := r.Client(t).Exists(ctx, "mcpgen:task-lease:"+ownerTag("alice")+":"+liveID).Result(); n != 0 {
		t.Error("a completed task keeps its lease")
	}
}

// Close and the first Tasks may run at the same time (a replica shutting
// down while a request arrives): the race detector sees no unguarded
// access, and a task store had after Close refuses new tasks rather than
// holding leases nobody renews.
func TestTasksAndCloseRace(t *testing.T) {
	r := redistest.Start(t)
	for i := 0; i < 20; i++ {
		s, err := Open(context.Background(), r.URL(), Config{})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Tasks()
		}()
		s.Close()
		<-done
	}
	s, err := Open(context.Background(), r.URL(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	task := &runtime.TaskRecord{ID: "late", Owner: "iss|alice", Status: runtime.TaskWorking, CreatedAt: time.Now(), TTL: time.Minute}
	err = s.Tasks().Create(context.Background(), task)
	if err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Create after Close: %v, want an error saying the store is closed", err)
	}
}

// A task id that exists is refused, through any replica: the first task
// stays as it was, and does not count twice against its owner.
func TestTaskCreateExistingID(t *testing.T) {
	r := redistest.Start(t)
	a, b := openStore(t, r, Config{MaxTasksPerOwner: 2}).Tasks(), openStore(t, r, Config{MaxTasksPerOwner: 2}).Tasks()
	ctx := context.Background()
	first := &runtime.TaskRecord{ID: "t1", Owner: "alice", Status: runtime.TaskWorking, CreatedAt: time.Now(), TTL: time.Hour, Result: []byte(`"first"`)}
	if err := a.Create(ctx, first); err != nil {
		t.Fatal(err)
	}
	again := *first
	again.Result = []byte(`"second"`)
	if err := b.Create(ctx, &again); err == nil || !strings.Contains(err.Error(), `task "t1" exists`) {
		t.Errorf("Create of an existing id: %v", err)
	}
	if got, _ := a.Get(ctx, "alice", "t1"); got == nil || string(got.Result) != `"first"` {
		t.Errorf("the first task after a second Create of its id: %+v", got)
	}
	if err := a.Create(ctx, &runtime.TaskRecord{ID: "t2", Owner: "alice", CreatedAt: time.Now(), TTL: time.Hour}); err != nil {
		t.Errorf("a second task of alice's (bound 2): %v", err)
	}
}

// The Redis task store pages as storetest.TaskPaging says, under random
// schedules of page sizes, expiries and status changes.
func TestTaskPaging(t *testing.T) {
	st := openStore(t, redistest.Start(t), Config{MaxTasksPerOwner: 100}).Tasks()
	for seed := range uint64(8) {
		storetest.TaskPaging(t, st, seed)
	}
}
