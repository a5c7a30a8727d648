package runtime_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// downStore is a RequestStateStore that fails while down is set (Redis
// down), and records uses in memory otherwise.
type downStore struct {
	mem  runtime.RequestStateStore
	down atomic.Bool
}

func (s *downStore) FirstUse(ctx context.Context, id string, expires time.Time) (bool, error) {
	if s.down.Load() {
		return false, errors.New("requestState store: connection refused")
	}
	return s.mem.FirstUse(ctx, id, expires)
}

// While the requestState store fails, a retry carrying a requestState is
// refused with an internal error (retry later), never let through: a state
// already used must not replay because its use cannot be checked.
func TestMRTRStateStoreFails(t *testing.T) {
	store := &downStore{mem: runtime.NewMemoryRequestStateStore(0)}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			store.down.Store(false)
			ex := tr.make(t, mrtrServer(runtime.WithRequestStateStore(store)))
			_, s1 := roundResult(t, ex(t, req(1, "tools/call", callParams("rounds", allCaps, ""))))
			retry := req(2, "tools/call", callParams("rounds", allCaps, `,"inputResponses":{"input-0":{"action":"accept","content":{"name":"a"}}},"requestState":`+jsonString(s1)))
			if got := ex(t, retry); !strings.Contains(got, `"input-1"`) {
				t.Fatalf("first use, store up: %s", got)
			}
			_, s2 := roundResult(t, ex(t, req(3, "tools/call", callParams("rounds", allCaps, ""))))

			store.down.Store(true)
			want := fail("2", `{"code":-32603,"message":"internal error: requestState cannot be checked now; retry later"}`)
			if got := ex(t, retry); got != want {
				t.Errorf("replay of a used state, store down:\n got %s\nwant %s", got, want)
			}
			first := req(2, "tools/call", callParams("rounds", allCaps, `,"inputResponses":{"input-0":{"action":"accept","content":{"name":"a"}}},"requestState":`+jsonString(s2)))
			if got := ex(t, first); got != want {
				t.Errorf("first use of a state, store down:\n got %s\nwant %s", got, want)
			}

			// Once the store is back, the state not used yet is accepted.
			store.down.Store(false)
			if got := ex(t, first); !strings.Contains(got, `"input-1"`) {
				t.Errorf("first use, store back: %s", got)
			}
		})
	}
}
