package requeststate_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/storetest"
	"github.com/mcpgen/mcpgen/runtime/requeststate"
)

// TestMemoryStore: a state id is accepted once until it
// expires; the store stays within its bound, forgetting the oldest first.
func TestMemoryStore(t *testing.T) {
	ctx := context.Background()
	store := requeststate.NewMemoryStore(3)
	later := time.Now().Add(time.Hour)
	use := func(id string, until time.Time) bool {
		first, err := store.FirstUse(ctx, id, until)
		if err != nil {
			t.Fatal(err)
		}
		return first
	}
	if !use("a", later) || use("a", later) {
		t.Error("a: want first use then a refusal")
	}
	if !use("past", time.Now().Add(-time.Second)) || !use("past", later) {
		t.Error("an expired record must not refuse its id")
	}
	use("b", later)
	use("c", later) // the bound (3) is reached: the oldest, a, goes
	if !use("a", later) {
		t.Error("past the bound the oldest record goes")
	}
	if use("c", later) {
		t.Error("c was forgotten before older records")
	}
}

func TestMemoryStoreContract(t *testing.T) {
	storetest.RequestStateStore(t, requeststate.NewMemoryStore(0))
}
