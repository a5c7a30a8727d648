package scaleout

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/loadtest"
	"github.com/mcpgen/mcpgen/internal/redistest"
)

// TestScaleOutRedisTopologies runs the scale-out proofs made on one Redis
// (redis_test.go, tasks_test.go) on the deployments teams run instead: a
// Redis Cluster of 3 primaries and 3 replicas, and a primary with a
// replica under 3 sentinels (internal/redistest starts both, as
// runtime/redisstore's TestTopologies does). On each, three replicas of
// examples/conformance behind nginx's round robin pass both conformance
// suites, a legacy Go SDK session and the tasks spread over the replicas;
// then three replicas of examples/support run an idempotent write once,
// and serve a steady load while a Redis primary fails over (last: it takes
// a primary away).
func TestScaleOutRedisTopologies(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Redis Cluster and a Sentinel set, fails each over")
	}
	type topology struct {
		name string
		// start starts the deployment; failover takes a primary away,
		// for the cluster the one holding the given legacy session.
		start func(t *testing.T) (url string, failover func(session string))
		// slack is how many acknowledged writes the failover may lose or
		// run twice: none for the cluster's coordinated failover (the
		// replica catches up first); one per call in flight for a killed
		// Sentinel primary (Redis replicates asynchronously: the writes of
		// the instant before the kill may not have reached the replica).
		slack int
	}
	for _, top := range []topology{
		{"cluster", func(t *testing.T) (string, func(string)) {
			c := redistest.StartCluster(t)
			return c.URL(), func(session string) {
				// The primary that holds a legacy session's record (the
				// store's key for it) goes. The idempotency keys spread
				// over the slots: the primary that took over must hold
				// some, or the failover met no write.
				p := c.FailoverOwnerOf(t, "mcpgen:session:"+session)
				if n, err := p.Client(t).DBSize(context.Background()).Result(); err != nil || n == 0 {
					t.Errorf("the primary that took over holds %d keys (%v): the failover met no write", n, err)
				}
			}
		}, 0},
		{"sentinel", func(t *testing.T) (string, func(string)) {
			s := redistest.StartSentinel(t)
			return s.URL(), func(string) { s.KillPrimary(t) }
		}, failoverWorkers},
	} {
		t.Run(top.name, func(t *testing.T) {
			url, failover := top.start(t)
			t.Run("conformance", func(t *testing.T) {
				c := startClusterOf(t, 3, "conformance", "-redis", url)
				t.Run("conformance-round-robin", func(t *testing.T) { testConformanceRoundRobin(t, c) })
				t.Run("go-sdk-session-round-robin", func(t *testing.T) { testLegacySessionRoundRobin(t, c) })
				t.Run("task-update-through-another", func(t *testing.T) { testTaskUpdateElsewhere(t, c) })
				t.Run("task-cancel-through-another", func(t *testing.T) { testTaskCancelElsewhere(t, c) })
				t.Run("task-legacy-side-channel", func(t *testing.T) { testLegacyTaskSideChannel(t, c) })
			})
			t.Run("support", func(t *testing.T) {
				c := startClusterOf(t, 3, "support", "-redis", url)
				t.Run("idempotent-write-runs-once", func(t *testing.T) { testIdempotentAcrossReplicas(t, c) })
				t.Run("failover-under-load", func(t *testing.T) { testFailoverUnderLoad(t, c, failover, top.slack) })
			})
		})
	}
}

// failoverWorkers is how many clients keep a call in flight during the
// failover: half of them in 2026-07-28 requests, half in legacy sessions.
const failoverWorkers = 6

// testFailoverUnderLoad: while the support replicas serve a steady load of
// idempotent writes (reply_to_ticket, a fresh key each) through nginx's
// round robin, from 2026-07-28 clients and from legacy (2025-11-25)
// sessions, failover takes a Redis primary away. A call that fails is
// retried with its key, as a client would; a client told its connection
// closed or its session gone (404) initializes again, and any other error
// is retried on the same session, which must then serve it. Afterwards: every acknowledged write answers its
// retry with its result, and ran its handler once (the replicas keep the
// tickets in their own memory: the replies written across the three tell
// how many times it ran), at most slack excepted; no call hung; calls
// succeed again. The figures are logged.
func testFailoverUnderLoad(t *testing.T, c *cluster, failover func(session string), slack int) {
	const ticket = "T-1003"
	type worker struct {
		version string
		session *mcp.ClientSession
	}
	workers := make([]*worker, failoverWorkers)
	for i := range workers {
		w := &worker{version: "2026-07-28"}
		if i%2 == 1 {
			w.version = "2025-11-25"
		}
		w.session = connect(t, c.plain, w.version, newHopLog(c), nil)
		workers[i] = w
	}
	legacyIDs := map[string]bool{}
	var legacyID string // one of them
	for _, w := range workers {
		if w.session.ID() != "" {
			legacyIDs[w.session.ID()] = true
			legacyID = w.session.ID()
		}
	}
	if len(legacyIDs) != failoverWorkers/2 {
		t.Fatalf("%d legacy sessions have an id, want %d", len(legacyIDs), failoverWorkers/2)
	}
	reply := func(s *mcp.ClientSession, key string) (string, error) {
		// Far longer than a failover: a call still unanswered then hung.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "reply_to_ticket",
			Arguments: map[string]any{"id": ticket, "body": "failover test " + key, "idempotency_key": key}})
		if err == nil && res.IsError {
			b, _ := json.Marshal(res.Content)
			err = fmt.Errorf("isError: %s", b)
		}
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(res.StructuredContent)
		return string(b), nil
	}
	var (
		mu     sync.Mutex
		acked  = map[string]string{} // key → the result the client got
		errs   = map[string]int{}    // the errors' texts, session ids cut
		hung   []string
		reinit []string // why a client initialized again
		tally  loadtest.Tally
	)
	stop := loadtest.Run(failoverWorkers, func(wi, n int) {
		w := workers[wi]
		key := fmt.Sprintf("%08x-0000-4000-8000-%012x", 0x400+wi, n)
		err := tally.Retry(300, 100*time.Millisecond, func(int) error {
			res, err := reply(w.session, key)
			if err == nil {
				mu.Lock()
				acked[key] = res
				mu.Unlock()
				return nil
			}
			mu.Lock()
			errs[errorKind(err)]++
			if errors.Is(err, context.DeadlineExceeded) {
				hung = append(hung, key)
			}
			mu.Unlock()
			if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, mcp.ErrSessionMissing) {
				// The error a client recovers from: a new connection (for
				// a legacy one, a new session). Any other is retried on
				// the same session.
				s, cerr := reconnect(c, w.version)
				if cerr != nil {
					return fmt.Errorf("%v; initializing again: %w", err, cerr)
				}
				w.session.Close()
				w.session = s
				mu.Lock()
				reinit = append(reinit, w.version+": "+errorKind(err))
				mu.Unlock()
			}
			return err
		})
		if err != nil && !errors.Is(err, loadtest.ErrAborted) {
			t.Errorf("key %s still fails after 300 attempts: %v", key, err)
		}
	})
	// A failure below stops the load before the test ends.
	defer func() { tally.Abort(); stop() }()
	time.Sleep(2 * time.Second)
	start := time.Now()
	failover(legacyID)
	took := time.Since(start)
	before := tally.Acked()
	redistest.WaitFor(t, "a call to succeed after the failover", func() bool { return tally.Acked() > before+failoverWorkers })
	stop()
	t.Logf("failover took %v; %d calls in flight; %v", took.Round(time.Millisecond), failoverWorkers, &tally)
	t.Logf("clients initialized again: %d (%v); errors the clients saw: %v", len(reinit), reinit, errs)
	if len(hung) > 0 {
		t.Errorf("%d calls hung (no answer in 2 minutes): %v", len(hung), hung)
	}
	continued, moved := 0, false
	for _, w := range workers {
		if legacyIDs[w.session.ID()] {
			continued++
		}
		moved = moved || w.session.ID() == legacyID
	}
	t.Logf("%d of %d legacy sessions continued through the failover on their session id (the one whose record the failed primary held: %v)", continued, len(legacyIDs), moved)

	// Every acknowledged write, retried with its key, answers its result:
	// one that was lost would run again, and be written twice below.
	check := connect(t, c.plain, "2026-07-28", newHopLog(c), nil)
	lost := 0
	for key, want := range acked {
		got, err := reply(check, key)
		if err != nil || got != want {
			lost++
			if lost <= 5 {
				t.Logf("key %s, acknowledged %s, answers %s (%v) after the failover", key, want, got, err)
			}
		}
	}
	runs := map[string]int{}
	for i := range c.Replicas {
		for _, m := range ticketMessages(t, direct(t, c, i, "2026-07-28", nil), ticket) {
			if key, ok := strings.CutPrefix(m, "failover test "); ok {
				runs[key]++
			}
		}
	}
	twice := 0
	for key := range acked {
		switch runs[key] {
		case 1:
		case 0:
			t.Errorf("acknowledged key %s was written by no replica", key)
		default:
			twice++
			if twice <= 5 {
				t.Logf("key %s ran its handler %d times", key, runs[key])
			}
		}
	}
	t.Logf("%d acknowledged writes: %d answer another result after the failover, %d ran twice", len(acked), lost, twice)
	if lost+twice > slack {
		t.Errorf("%d acknowledged writes answer another result and %d ran twice, more than the %d this failover allows", lost, twice, slack)
	}
}

// reconnect initializes a new session through nginx's round robin.
func reconnect(c *cluster, version string) (*mcp.ClientSession, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "scaleout-test", Version: "1.0.0"}, nil)
	return client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: c.plain, HTTPClient: newHopLog(c).client()},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
}

// errorKind is err's text with the ids cut, to count the kinds of errors.
func errorKind(err error) string {
	s := err.Error()
	if i := strings.Index(s, "(session ID:"); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:160]
	}
	return s
}

// ticketMessages is the bodies of ticket id's messages, as one replica has
// them.
func ticketMessages(t *testing.T, s *mcp.ClientSession, id string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ticket://" + id})
	if err != nil {
		t.Fatalf("read ticket://%s: %v", id, err)
	}
	var ticket struct{ Messages []struct{ Body string } }
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &ticket); err != nil {
		t.Fatalf("ticket://%s: %v", id, err)
	}
	var bodies []string
	for _, m := range ticket.Messages {
		bodies = append(bodies, m.Body)
	}
	sort.Strings(bodies)
	return bodies
}
