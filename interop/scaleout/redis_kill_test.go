package scaleout

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// TestRedisReplicaKilled: three support replicas on Redis behind nginx's
// round robin, under load of idempotent writes (2026-07-28, a new key
// each); replica 2 gets SIGKILL. Only calls in flight on it fail (at most
// one per client); each failed call, retried with its key until it
// succeeds, has run at most once on the surviving replicas (their tickets
// are read to count), and no call that succeeded ran again. The kill must
// meet a call in flight, or the test would prove nothing of the retry
// path: a build_report sent to replica 2 directly has reported progress
// when the kill comes; it must fail, and its retry through nginx must be
// answered by a surviving replica.
func TestRedisReplicaKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("takes up to 40 s")
	}
	redis := redistest.Start(t, "--appendonly", "yes")
	c := startClusterOf(t, 3, "support", "-redis", redis.URL())
	const workers = 6
	clients := make([]*mcp.ClientSession, workers)
	for i := range clients {
		clients[i] = connect(t, c.plain, "2026-07-28", newHopLog(c), nil)
	}
	reply := func(s *mcp.ClientSession, key string) error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "reply_to_ticket",
			Arguments: map[string]any{"id": "T-1002", "body": "kill test " + key, "idempotency_key": key}})
		if err == nil && res.IsError {
			b, _ := json.Marshal(res.Content)
			err = fmt.Errorf("isError: %s", b)
		}
		return err
	}
	var (
		mu     sync.Mutex
		keys   []string
		failed = map[string]string{} // key → error
	)
	stop := underLoad(clients, 0x200, func(s *mcp.ClientSession, key string) {
		err := reply(s, key)
		mu.Lock()
		keys = append(keys, key)
		if err != nil {
			failed[key] = err.Error()
		}
		mu.Unlock()
	})
	inFlight := make(chan struct{}, 1)
	onReplica2 := direct(t, c, 1, "2025-06-18", &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			select {
			case inFlight <- struct{}{}:
			default:
			}
		}})
	report := &mcp.CallToolParams{Name: "build_report", Arguments: map[string]any{}}
	report.SetProgressToken("kill-test")
	reportDone := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		_, err := onReplica2.CallTool(ctx, report)
		reportDone <- err
	}()
	select {
	case <-inFlight:
	case err := <-reportDone:
		t.Fatalf("build_report on replica 2 ended (%v) before it reported progress", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("build_report on replica 2 reported no progress in 2 minutes")
	}
	if err := c.Replicas[1].proc.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := <-reportDone; err == nil {
		t.Fatal("build_report succeeded on replica 2 although it was killed mid-call: the kill met no call in flight")
	}
	time.Sleep(3 * time.Second)
	stop()
	t.Logf("%d calls, %d failed when replica 2 was killed", len(keys), len(failed))
	retry := connect(t, c.plain, "2025-06-18", newHopLog(c), nil)
	if res := callText(t, retry, "build_report", map[string]any{}); !strings.Contains(res, "tickets") {
		t.Errorf("build_report retried through nginx: %s", res)
	}
	if len(failed) > workers {
		t.Errorf("%d calls failed, more than the %d that can be in flight on one replica: %v", len(failed), workers, failed)
	}
	start := time.Now()
	for key := range failed {
		if err := reply(clients[0], key); err != nil {
			t.Errorf("retry of %s: %v", key, err)
		}
	}
	t.Logf("retries of the failed calls took %v (a lock left by the killed replica holds for LockTTL)", time.Since(start).Round(time.Millisecond))

	runs := map[string]int{}
	for _, i := range []int{0, 2} {
		for _, m := range ticketMessages(t, direct(t, c, i, "2026-07-28", nil), "T-1002") {
			if key, ok := strings.CutPrefix(m, "kill test "); ok {
				runs[key]++
			}
		}
	}
	for key, n := range runs {
		if n > 1 {
			t.Errorf("the call with key %s ran %d times on the surviving replicas", key, n)
		}
	}
}
