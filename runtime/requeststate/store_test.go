package requeststate_test

import (
	"context"
	"fmt"
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

// TestMemoryStoreHoldsExactlyItsBound: with n live records the store keeps
// them all; the record n+1 makes the oldest go, and only it.
func TestMemoryStoreHoldsExactlyItsBound(t *testing.T) {
	ctx := context.Background()
	later := time.Now().Add(time.Hour)
	for n := 1; n <= 4; n++ {
		store := requeststate.NewMemoryStore(n)
		use := func(i int) bool {
			first, err := store.FirstUse(ctx, fmt.Sprint(i), later)
			if err != nil {
				t.Fatal(err)
			}
			return first
		}
		for i := range n {
			if !use(i) {
				t.Fatalf("bound %d: state %d refused on its first use", n, i)
			}
		}
		for i := range n {
			if use(i) {
				t.Errorf("bound %d: state %d accepted twice with %d records held", n, i, n)
			}
		}
		use(n) // one past the bound: state 0, the oldest, goes
		for i := 1; i <= n; i++ {
			if use(i) {
				t.Errorf("bound %d: state %d forgotten, not the oldest", n, i)
			}
		}
		if !use(0) {
			t.Errorf("bound %d: %d records held, the oldest kept", n, n+1)
		}
	}
}

func TestMemoryStoreContract(t *testing.T) {
	storetest.RequestStateStore(t, requeststate.NewMemoryStore(0))
}

// TestMemoryStoreModel: under random ids (some spelled alike) and
// expiries, past and ahead, every answer is the Store's promise for a
// store of bound records (RequestStateModel).
func TestMemoryStoreModel(t *testing.T) {
	for _, bound := range []int{1, 2, 3, 5, 100} {
		for seed := range uint64(8) {
			storetest.RequestStateModel(t, requeststate.NewMemoryStore(bound), bound, seed)
		}
	}
}
