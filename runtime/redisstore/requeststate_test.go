package redisstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/internal/storetest"
)

func TestRequestStateStoreContract(t *testing.T) {
	storetest.RequestStateStore(t, openStore(t, redistest.Start(t), Config{}).RequestStates())
}

func TestRequestStateRedisUnresponsive(t *testing.T) {
	r := redistest.Start(t)
	st := openStore(t, r, Config{Timeout: 200 * time.Millisecond}).RequestStates()
	r.Pause()
	_, err := st.FirstUse(context.Background(), "s", time.Now().Add(time.Minute))
	r.Resume()
	if err == nil || !strings.Contains(err.Error(), "requestState store") {
		t.Errorf("FirstUse with Redis paused: %v, want an error naming the requestState store", err)
	}
}

// TestRequestStateStoreModel: under random ids (some spelled alike: their
// hashed keys never meet) and expiries, past and ahead, every answer is the
// Store's promise for a store without a bound (RequestStateModel); two
// prefixes on one Redis are two stores.
func TestRequestStateStoreModel(t *testing.T) {
	r := redistest.Start(t)
	for seed := range uint64(3) {
		storetest.RequestStateModel(t, openStore(t, r, Config{Prefix: fmt.Sprintf("model%d:", seed)}).RequestStates(), 0, seed)
	}
	ctx := context.Background()
	later := time.Now().Add(time.Hour)
	one, two := openStore(t, r, Config{Prefix: "one:"}).RequestStates(), openStore(t, r, Config{Prefix: "two:"}).RequestStates()
	if first, err := one.FirstUse(ctx, "s", later); !first || err != nil {
		t.Fatalf("prefix one: %v, %v", first, err)
	}
	if first, err := two.FirstUse(ctx, "s", later); !first || err != nil {
		t.Errorf("prefix two refuses a state used under prefix one: %v, %v", first, err)
	}
}
