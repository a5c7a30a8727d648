package redisstore

import (
	"context"
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
