package scaleout

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// TestRedisRollingRestart: three support replicas on Redis behind nginx's
// round robin, under steady load of idempotent writes (2026-07-28, a new
// key each); each replica in turn gets SIGINT (a graceful shutdown: it
// finishes what it serves and stops accepting), is started again on its
// address, and serves again before the next one goes. No call fails: nginx
// sends the connections a stopped replica refuses to the next one, and a
// stopping replica answers every request it accepted; a rare 502 of a
// connection reset in its listen queue is retried once with the call's
// idempotency key (see below).
func TestRedisRollingRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 40 s")
	}
	redis := redistest.Start(t, "--appendonly", "yes")
	c := startClusterOf(t, 3, "support", "-redis", redis.URL())
	const workers = 4
	clients := make([]*mcp.ClientSession, workers)
	for i := range clients {
		clients[i] = connect(t, c.plain, "2026-07-28", newHopLog(c), nil)
	}
	var calls, failures, retried atomic.Int64
	var mu sync.Mutex
	var errs []string
	stop := underLoad(clients, 0x100, func(s *mcp.ClientSession, key string) {
		call := func() (*mcp.CallToolResult, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			return s.CallTool(ctx, &mcp.CallToolParams{Name: "reply_to_ticket",
				Arguments: map[string]any{"id": "T-1017", "body": "restart test " + key, "idempotency_key": key}})
		}
		res, err := call()
		// One 502 is tolerated, and the call retried with the same
		// idempotency key, which makes the retry safe whether or not the
		// first attempt was served. A connection the kernel completed
		// into the listen queue of a replica that closes its listener
		// before accepting it is reset; nginx had sent the POST on it and,
		// rightly, does not resend a POST (it cannot know it was not
		// served): 502. No server can close a listener without that
		// window (streamhttp.Serve makes it as short as it can: it serves
		// every connection it accepted); the client's retry with its key
		// is the remedy.
		if err != nil && strings.Contains(err.Error(), "Bad Gateway") { // the go-sdk says 502 so
			retried.Add(1)
			res, err = call()
		}
		calls.Add(1)
		if err != nil || res.IsError {
			failures.Add(1)
			mu.Lock()
			errs = append(errs, fmt.Sprint(err, res))
			mu.Unlock()
		}
		time.Sleep(20 * time.Millisecond)
	})
	time.Sleep(2 * time.Second)
	for i := range c.Replicas {
		r := &c.Replicas[i]
		r.stop()
		r.stop = r.restart()
		// It serves again, on its own address, before the next one goes:
		// else the run would restart a replica while another is down.
		s := direct(t, c, i, "2026-07-28", nil)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, err := s.ListTools(ctx, nil)
		cancel()
		if err != nil {
			t.Fatalf("replica %s does not serve after its restart: %v", r.Name, err)
		}
		s.Close()
		// nginx leaves an upstream it could not reach alone for 10 s
		// (fail_timeout): the next replica goes after that, so that it
		// always has another to send a request to.
		time.Sleep(11 * time.Second)
	}
	stop()
	t.Logf("rolling restart of 3 replicas under load: %d calls, %d retried after a 502, %d failed", calls.Load(), retried.Load(), failures.Load())
	for _, e := range errs[:min(len(errs), 5)] {
		t.Errorf("a call failed during the rolling restart: %s", e)
	}
}
