package runtime_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// The in-memory TaskStore: owners are isolated, a terminal task is not
// overwritten, expired tasks are gone and make room, the bounds hold.
func TestMemoryTaskStore(t *testing.T) {
	ctx := context.Background()
	st := runtime.NewMemoryTaskStore(20) // 2 per owner
	now := time.Now()
	a := &runtime.TaskRecord{ID: "a", Owner: "alice", Status: runtime.TaskWorking, CreatedAt: now, TTL: time.Hour}
	if err := st.Create(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Get(ctx, "bob", "a"); got != nil {
		t.Error("bob reads alice's task")
	}
	cancelled := *a
	cancelled.Status = runtime.TaskCancelled
	if ok, _ := st.Update(ctx, &cancelled); !ok {
		t.Fatal("Update of a working task refused")
	}
	completed := *a
	completed.Status = runtime.TaskCompleted
	if ok, _ := st.Update(ctx, &completed); ok {
		t.Error("Update overwrote a cancelled task")
	}
	if got, _ := st.Get(ctx, "alice", "a"); got == nil || got.Status != runtime.TaskCancelled {
		t.Errorf("alice's task = %+v, want cancelled", got)
	}
	if ok, _ := st.Update(ctx, &runtime.TaskRecord{ID: "nope", Status: runtime.TaskWorking}); ok {
		t.Error("Update created a task")
	}

	old := &runtime.TaskRecord{ID: "old", Owner: "alice", Status: runtime.TaskWorking, CreatedAt: now.Add(-2 * time.Hour), TTL: time.Hour}
	if err := st.Create(ctx, old); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Get(ctx, "alice", "old"); got != nil {
		t.Error("an expired task is returned")
	}
	// Full (a and old), but old has expired: it makes room.
	if err := st.Create(ctx, &runtime.TaskRecord{ID: "b", Owner: "alice", CreatedAt: now, TTL: time.Hour}); err != nil {
		t.Fatalf("Create with an expired task to drop: %v", err)
	}
	if err := st.Create(ctx, &runtime.TaskRecord{ID: "c", Owner: "alice", CreatedAt: now, TTL: time.Hour}); err != runtime.ErrTaskStoreFull {
		t.Errorf("Create beyond alice's bound: %v, want ErrTaskStoreFull", err)
	}
	if err := st.Create(ctx, &runtime.TaskRecord{ID: "d", Owner: "bob", CreatedAt: now, TTL: time.Hour}); err != nil {
		t.Errorf("alice's full share keeps bob out: %v", err)
	}
	list, _ := st.List(ctx, "alice", "", 10)
	if len(list) != 2 || list[0].ID != "a" || list[1].ID != "b" {
		t.Errorf("List = %v, want a, b", list)
	}
	if list, _ := st.List(ctx, "alice", "a", 10); len(list) != 1 || list[0].ID != "b" {
		t.Errorf("List after a = %v, want b", list)
	}
}
