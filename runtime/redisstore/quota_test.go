package redisstore

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/storetest"
)

func TestQuotaStoreContract(t *testing.T) {
	storetest.QuotaStore(t, openStore(t, startRedis(t), Config{}).Quotas())
}

// Replicas taking from one bucket at once never spend more tokens than it
// has.
func TestQuotaConcurrentReplicas(t *testing.T) {
	r := startRedis(t)
	replicas := []runtime.QuotaStore{openStore(t, r, Config{}).Quotas(), openStore(t, r, Config{}).Quotas(), openStore(t, r, Config{}).Quotas()}
	limit := runtime.RateLimit{Requests: 10, Per: time.Hour}
	taken := make(chan bool, 60)
	for i := range 60 {
		go func() {
			ok, _, err := replicas[i%3].Take(context.Background(), "carol", limit)
			if err != nil {
				t.Error(err)
			}
			taken <- ok
		}()
	}
	n := 0
	for range 60 {
		if <-taken {
			n++
		}
	}
	if n != 10 {
		t.Errorf("%d tokens taken from a bucket of 10", n)
	}
}

func TestQuotaRedisUnresponsive(t *testing.T) {
	r := startRedis(t)
	st := openStore(t, r, Config{Timeout: 200 * time.Millisecond}).Quotas()
	r.pause()
	_, _, err := st.Take(context.Background(), "alice", runtime.RateLimit{Requests: 1, Per: time.Second})
	r.resume()
	if err == nil || !strings.Contains(err.Error(), "quota store") {
		t.Errorf("Take with Redis paused: %v, want an error naming the quota store", err)
	}
}
