package scaleout

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// TestRedisOutage: three support replicas on one redis-server behind the
// round robin, under steady load of idempotent writes (each with its own
// key); Redis is stopped for 10 s, then started again (same data). While
// it is down, calls fail fast with an error naming the store (none hangs);
// once it is back, calls succeed again without restarting anything, and
// every write acknowledged before, during or after the outage answers its
// retry with the same result (it was neither lost nor run twice). The
// notification bus subscribes again by itself. The figures are logged
// (RELIABILITY.md, "Redis outage").
func TestRedisOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 20 s")
	}
	redis := redistest.Start(t, "--appendonly", "yes")
	c := startClusterOf(t, 3, "support", "-redis", redis.URL())
	log := newHopLog(c)
	const workers = 4
	clients := make([]*mcp.ClientSession, workers)
	for i := range clients {
		clients[i] = connect(t, c.plain, "2026-07-28", log, nil)
	}

	type outcome struct {
		key     string
		start   time.Time
		took    time.Duration
		result  string // the structured result of a success
		errText string // the error of a failure
	}
	var (
		mu       sync.Mutex
		outcomes []outcome
	)
	call := func(s *mcp.ClientSession, key string) outcome {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		o := outcome{key: key, start: time.Now()}
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "reply_to_ticket",
			Arguments: map[string]any{"id": "T-1003", "body": "outage test " + key, "idempotency_key": key}})
		o.took = time.Since(o.start)
		switch {
		case err != nil:
			o.errText = err.Error()
		case res.IsError:
			b, _ := json.Marshal(res.Content)
			o.errText = "isError: " + string(b)
		default:
			b, _ := json.Marshal(res.StructuredContent)
			o.result = string(b)
		}
		return o
	}

	stop := underLoad(clients, 0, func(s *mcp.ClientSession, key string) {
		o := call(s, key)
		mu.Lock()
		outcomes = append(outcomes, o)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	})
	time.Sleep(3 * time.Second)
	down := time.Now()
	redis.Stop()
	time.Sleep(10 * time.Second)
	redis.Restart()
	up := time.Now()
	time.Sleep(4 * time.Second)
	stop()

	var failed, unclean []outcome
	var longest time.Duration
	lastFailure := time.Time{}
	acknowledged := map[string]string{}
	for _, o := range outcomes {
		longest = max(longest, o.took)
		if o.errText == "" {
			acknowledged[o.key] = o.result
			continue
		}
		failed = append(failed, o)
		lastFailure = o.start.Add(o.took)
		if !strings.Contains(o.errText, "idempotency store") {
			unclean = append(unclean, o)
		}
	}
	t.Logf("%d calls: %d succeeded, %d failed (Redis down %v); longest call %v; last failure %v after Redis was back",
		len(outcomes), len(acknowledged), len(failed), up.Sub(down).Round(time.Millisecond), longest.Round(time.Millisecond), lastFailure.Sub(up).Round(time.Millisecond))
	if len(failed) == 0 {
		t.Error("no call failed while Redis was down: the test did not test the outage")
	}
	for _, o := range unclean[:min(len(unclean), 5)] {
		t.Errorf("a failure does not name the store: %s", o.errText)
	}
	if longest > 10*time.Second {
		t.Errorf("a call took %v: calls must fail within the store's bounded timeout, not hang", longest)
	}
	var afterUp int
	for _, o := range outcomes {
		if o.start.After(up.Add(2 * time.Second)) {
			afterUp++
			if o.errText != "" {
				t.Errorf("a call 2 s after Redis came back failed (after %v): %s", o.took, o.errText)
			}
		}
	}
	if afterUp == 0 {
		t.Error("no call after Redis came back")
	}
	// Every acknowledged write answers its retry with its result.
	keys := make([]string, 0, len(acknowledged))
	for k := range acknowledged {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	changed := 0
	for i, k := range keys {
		o := call(clients[i%workers], k)
		if o.errText != "" || o.result != acknowledged[k] {
			changed++
			if changed <= 5 {
				t.Errorf("retry of acknowledged write %s: got %q (error %q), want its result %s", k, o.result, o.errText, acknowledged[k])
			}
		}
	}
	if changed > 0 {
		t.Errorf("%d of %d acknowledged writes were lost or ran again", changed, len(keys))
	}
}
