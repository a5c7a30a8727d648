package runtime_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Tasks across replicas that share a task store and a bus: what must reach
// the handler (tasks/update's answers, tasks/cancel, the 2025-11-25
// handler's requests to the client) reaches the replica running it,
// wherever the client's request lands.

// taskReplica is one replica of taskServer, serving over HTTP.
type taskReplica struct {
	srv                *runtime.Server
	url                string
	release, cancelled chan struct{}
}

func taskReplicas(t *testing.T, n int, opts ...runtime.Option) []taskReplica {
	var out []taskReplica
	for range n {
		srv, release, cancelled := taskServer(t, append(opts, runtime.WithTaskPollInterval(20*time.Millisecond))...)
		out = append(out, taskReplica{srv, serveHTTP(t, srv).url, release, cancelled})
	}
	return out
}

// 2026-07-28: created on A, its input answered through B, polled through
// C; another cancelled through C, which cancels the handler on A.
func TestTasksModernAcrossReplicas(t *testing.T) {
	store, bus := runtime.NewMemoryTaskStore(0), runtime.NewMemoryBus()
	r := taskReplicas(t, 3, runtime.WithTaskStore(store), runtime.WithNotificationBus(bus))
	a, b, c := &modernTasks{t: t, url: r[0].url}, &modernTasks{t: t, url: r[1].url}, &modernTasks{t: t, url: r[2].url}

	close(r[0].release)
	created := a.task(a.post("tools/call", `"name":"job","arguments":{"mode":"ask"}`, tasksMeta))
	d := b.until(created.TaskID, "input_required")
	var key string
	for k := range d.InputRequests {
		key = k
	}
	ack := b.post("tasks/update", `"taskId":"`+created.TaskID+`","inputResponses":{"`+key+`":{"action":"accept","content":{"name":"Ada"}}}`, tasksMeta)
	if ack.Error != nil {
		t.Fatalf("tasks/update through another replica: %s", errorJSON(ack))
	}
	// B answered once A took the answers: no replica shows them pending.
	if d := c.task(c.post("tasks/get", `"taskId":"`+created.TaskID+`"`, tasksMeta)); d.Status == "input_required" {
		t.Errorf("right after tasks/update, the task is still input_required: %+v", d)
	}
	if d := c.until(created.TaskID, "completed"); !strings.Contains(string(d.Result), "hello Ada") {
		t.Errorf("result polled through a third replica: %s", d.Result)
	}

	// A job that runs until cancelled (B's release stays open), created
	// on B and cancelled through C.
	created = b.task(b.post("tools/call", `"name":"job","arguments":{}`, tasksMeta))
	if ack := c.post("tasks/cancel", `"taskId":"`+created.TaskID+`"`, tasksMeta); ack.Error != nil {
		t.Fatalf("tasks/cancel through another replica: %s", errorJSON(ack))
	}
	select {
	case <-r[1].cancelled:
	case <-time.After(wait):
		t.Fatal("tasks/cancel through C did not cancel the handler's context on B")
	}
	if d := b.until(created.TaskID, "cancelled"); d.Result != nil {
		t.Errorf("cancelled task with a result: %s", d.Result)
	}
}

// Without a bus the replica running the task cannot be reached: tasks/update
// says so, instead of pretending.
func TestTasksModernUpdateWithoutBus(t *testing.T) {
	store := runtime.NewMemoryTaskStore(0)
	r := taskReplicas(t, 2, runtime.WithTaskStore(store))
	a, b := &modernTasks{t: t, url: r[0].url}, &modernTasks{t: t, url: r[1].url}
	close(r[0].release)
	created := a.task(a.post("tools/call", `"name":"job","arguments":{"mode":"ask"}`, tasksMeta))
	b.until(created.TaskID, "input_required")
	r2 := b.post("tasks/update", `"taskId":"`+created.TaskID+`","inputResponses":{"x":{"action":"decline"}}`, tasksMeta)
	wantCode(t, r2, -32603, "tasks/update on a replica that cannot reach the task's")
	if !strings.Contains(r2.Error.Message, "cannot reach") {
		t.Errorf("the error does not say why: %s", r2.Error.Message)
	}
}

// 2025-11-25 in a shared session: the task runs on A; the client's
// tasks/result waits on B, whose stream carries A's elicitation; the
// answer, POSTed to B, reaches A, and B's tasks/result gets the result.
func TestTasksLegacyAcrossReplicas(t *testing.T) {
	r, a, b := legacyOnTwoReplicas(t)

	res := a.result("tools/call", `{"name":"job","arguments":{"mode":"ask"},"task":{}}`)
	var created struct{ Task wireTask }
	if json.Unmarshal(res, &created) != nil || created.Task.TaskID == "" {
		t.Fatalf("tools/call with task: %s", res)
	}
	close(r[0].release) // A's handler asks only now, its call's stream closed
	if got := answerOnTasksResult(t, b, b, created.Task.TaskID); !strings.Contains(got, "hello Ada") {
		t.Errorf("tasks/result through B = %s, want hello Ada", got)
	}

	// tasks/cancel through A cancels the handler on B (whose release
	// stays open).
	res = b.result("tools/call", `{"name":"job","arguments":{},"task":{}}`)
	if json.Unmarshal(res, &created) != nil || created.Task.TaskID == "" {
		t.Fatalf("tools/call with task: %s", res)
	}
	got := a.result("tasks/cancel", `{"taskId":"`+created.Task.TaskID+`"}`)
	if !strings.Contains(string(got), `"status":"cancelled"`) {
		t.Errorf("tasks/cancel through A = %s", got)
	}
	select {
	case <-r[1].cancelled:
	case <-time.After(wait):
		t.Fatal("tasks/cancel through A did not cancel the handler's context on B")
	}
}

// A flood of task-making calls from many sessions, across two replicas
// sharing a store, fills the store to its bound and no further: each
// session gets its share (a tenth), the rest are refused, counted.
func TestTasksFloodBounded(t *testing.T) {
	const limit = 30 // 3 per owner
	store := runtime.NewMemoryTaskStore(limit)
	shared := &sharedInMemory{runtime.NewMemoryIdempotencyStore(0), runtime.NewMemoryEventStore(100), runtime.NewMemoryBus(), newMemSessions()}
	r := taskReplicas(t, 2, runtime.WithStore(shared), runtime.WithTaskStore(store))
	refused := 0
	for s := range 12 { // 12 sessions × 5 calls: 2 sessions more than the store has shares for
		p := &httpPeer{t: t, url: r[s%2].url}
		p.initialize(`{}`)
		for range 5 {
			resp, _ := p.call("tools/call", `{"name":"job","arguments":{},"task":{}}`)
			msgs := readAll(t, resp)
			if parse(t, msgs[len(msgs)-1].Data).Error != nil {
				refused++
			}
		}
	}
	if n := runtime.StoredTasks(store); n != limit || refused != 60-limit {
		t.Errorf("after 60 calls: %d tasks stored, %d refused; want %d and %d", n, refused, limit, 60-limit)
	}
}

// A polling storm on one task through the replica running it (A) and
// another (B): every tasks/result gets the result, every tasks/get the
// task; B holds one waiter per tasks/result waiting there, no more, and
// neither replica holds anything once the task is over.
func TestTasksPollingStormAcrossReplicas(t *testing.T) {
	shared := &sharedInMemory{runtime.NewMemoryIdempotencyStore(0), runtime.NewMemoryEventStore(100), runtime.NewMemoryBus(), newMemSessions()}
	var srvs []*runtime.Server
	var peers []*httpPeer
	var release chan struct{}
	store := runtime.NewMemoryTaskStore(0)
	for i := range 2 {
		srv, rel, _ := taskServer(t, runtime.WithStore(shared), runtime.WithTaskStore(store), runtime.WithTaskPollInterval(5*time.Millisecond))
		if i == 0 {
			release = rel
		}
		srvs, peers = append(srvs, srv), append(peers, serveHTTP(t, srv))
	}
	a, b := peers[0], peers[1]
	a.initialize(`{}`)
	b.session = a.session
	b.nextID.Store(1 << 20)
	var created struct{ Task wireTask }
	_ = json.Unmarshal(a.result("tools/call", `{"name":"job","arguments":{},"task":{}}`), &created)
	id := `{"taskId":"` + created.Task.TaskID + `"}`

	const results, getters = 8, 8 // tasks/result on each replica; tasks/get pollers
	errs := make(chan string, 2*results+getters*20)
	var wg sync.WaitGroup
	for i := range 2 * results {
		p := peers[i%2]
		wg.Go(func() {
			resp, rid := p.call("tasks/result", id)
			msgs := readAll(t, resp)
			if last := msgs[len(msgs)-1].Data; !strings.Contains(last, `"id":`+rid) || !strings.Contains(last, "done") {
				errs <- "tasks/result: " + last
			}
		})
	}
	for i := range getters {
		p := peers[i%2]
		wg.Go(func() {
			for range 20 {
				resp, _ := p.call("tasks/get", id)
				msgs := readAll(t, resp)
				if last := msgs[len(msgs)-1].Data; !strings.Contains(last, created.Task.TaskID) {
					errs <- "tasks/get: " + last
				}
			}
		})
	}
	// Every tasks/result on B waits with one waiter there, and no more.
	deadline := time.Now().Add(wait)
	for {
		_, waiters := runtime.TaskCounts(srvs[1])
		if waiters > results {
			t.Fatalf("B holds %d waiters for %d tasks/result", waiters, results)
		}
		if waiters == results {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("B holds %d waiters, want %d", waiters, results)
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for i, srv := range srvs {
		if runs, waiters := runtime.TaskCounts(srv); runs != 0 || waiters != 0 {
			t.Errorf("replica %d after the task: %d runs, %d waiters; want none", i, runs, waiters)
		}
	}
}

// A tasks/result cancelled on B (notifications/cancelled) before the task
// asked leaves a stale offer of B's stream on A; the task's elicitation
// still reaches the client on the tasks/result it sends next.
func TestTasksLegacyAbandonedTasksResult(t *testing.T) {
	r, a, b := legacyOnTwoReplicas(t)
	var created struct{ Task wireTask }
	if json.Unmarshal(a.result("tools/call", `{"name":"job","arguments":{"mode":"ask"},"task":{}}`), &created) != nil || created.Task.TaskID == "" {
		t.Fatal("tools/call with task: no task")
	}
	// The abandoned tasks/result: B sends nothing before the task asks
	// (not even headers); the client cancels it and hangs up.
	ctx, abandon := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, b.url, strings.NewReader(`{"jsonrpc":"2.0","id":99,"method":"tasks/result","params":{"taskId":"`+created.Task.TaskID+`"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", b.session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	waitFor(t, "B's waiter", func() bool { _, w := runtime.TaskCounts(r[1].srv); return w == 1 })
	cancel := b.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`)
	cancel.Body.Close()
	abandon()
	<-done
	waitFor(t, "B's waiter gone", func() bool { _, w := runtime.TaskCounts(r[1].srv); return w == 0 })
	time.Sleep(50 * time.Millisecond) // the stale offer outlives its two poll intervals (20 ms each)
	close(r[0].release)
	if got := answerOnTasksResult(t, b, b, created.Task.TaskID); !strings.Contains(got, "hello Ada") {
		t.Errorf("tasks/result through B after an abandoned one = %s, want hello Ada", got)
	}
}

// waitFor polls cond until it holds, failing after wait.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after %v", what, wait)
		}
		time.Sleep(time.Millisecond)
	}
}

// legacyOnTwoReplicas starts two replicas sharing sessions, tasks and a
// bus, and one 2025-11-25 session (with elicitation) initialized on the
// first, a, and used through the second too, b.
func legacyOnTwoReplicas(t *testing.T) (r []taskReplica, a, b *httpPeer) {
	shared := &sharedInMemory{runtime.NewMemoryIdempotencyStore(0), runtime.NewMemoryEventStore(100), runtime.NewMemoryBus(), newMemSessions()}
	r = taskReplicas(t, 2, runtime.WithStore(shared), runtime.WithTaskStore(runtime.NewMemoryTaskStore(0)))
	a, b = &httpPeer{t: t, url: r[0].url}, &httpPeer{t: t, url: r[1].url}
	a.initialize(`{"elicitation":{}}`)
	b.session = a.session
	b.nextID.Store(100) // ids of its own, as a client's
	return r, a, b
}

// 2025-11-25 in a shared session, the handler asking late: the client's
// tasks/result has waited on B for many poll intervals (B's first "I am
// waiting" is older than A keeps an offer) when A's handler elicits; B,
// seeing the task wait for input, says so again, and the elicitation
// reaches the client on B's stream.
func TestTasksLegacyLateRequestAcrossReplicas(t *testing.T) {
	r, a, b := legacyOnTwoReplicas(t)
	res := a.result("tools/call", `{"name":"job","arguments":{"mode":"ask"},"task":{}}`)
	var created struct{ Task wireTask }
	if json.Unmarshal(res, &created) != nil || created.Task.TaskID == "" {
		t.Fatalf("tools/call with task: %s", res)
	}
	got := make(chan string, 1)
	go func() { got <- answerOnTasksResult(t, b, b, created.Task.TaskID) }()
	time.Sleep(10 * 20 * time.Millisecond) // ten poll intervals: B's offer is stale on A
	close(r[0].release)                    // A's handler asks only now
	select {
	case res := <-got:
		if !strings.Contains(res, "hello Ada") {
			t.Errorf("tasks/result through B = %s, want hello Ada", res)
		}
	case <-time.After(4 * wait):
		t.Fatal("tasks/result through B got no elicitation or result")
	}
}
