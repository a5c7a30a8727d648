package scaleout

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// TestScaleOutRedisTasks: three replicas of examples/conformance on one
// Redis, each reached directly, so that each step of a 2026-07-28 task
// (the io.modelcontextprotocol/tasks extension) lands where the test says:
// created on A, its input answered through B, polled through C and A; a
// second one created on A and cancelled through C; a 2025-11-25 one whose
// elicitation reaches the client on the stream of a tasks/result held by
// another replica; a last one running on C when C gets SIGKILL, which
// another replica reports failed with a reason once C's lease on it lapses.
func TestScaleOutRedisTasks(t *testing.T) {
	redis := redistest.Start(t, "--appendonly", "yes")
	c := startClusterOf(t, 3, "conformance", "-redis", redis.URL())
	t.Run("update-through-another", func(t *testing.T) { testTaskUpdateElsewhere(t, c) })
	t.Run("cancel-through-another", func(t *testing.T) { testTaskCancelElsewhere(t, c) })
	t.Run("legacy-side-channel", func(t *testing.T) { testLegacyTaskSideChannel(t, c) })
	t.Run("replica-killed", func(t *testing.T) { testTaskReplicaKilled(t, c) }) // last: it kills C
}

// testTaskUpdateElsewhere: created on A, polled and answered through B,
// polled through C and A.
func testTaskUpdateElsewhere(t *testing.T, c *cluster) {
	a, b, cc := c.Replicas[0].Addr, c.Replicas[1].Addr, c.Replicas[2].Addr
	created := createTask(t, a, "confirm_delete", `{"filename":"report.pdf"}`)
	d := pollTask(t, b, created, "input_required")
	var key string
	for k := range d.InputRequests {
		key = k
	}
	if key == "" {
		t.Fatalf("input_required without inputRequests: %+v", d)
	}
	if r := taskCall(t, b, "tasks/update", created, `,"inputResponses":{"`+key+`":{"action":"accept","content":{"confirm":true}}}`); r.Error != nil {
		t.Fatalf("tasks/update through B: %s", r.Error)
	}
	// B answers once A took the answers: C never sees them pending again.
	if d := getTask(t, cc, created); d.Status == "input_required" {
		t.Errorf("through C right after tasks/update through B: still input_required")
	}
	if d := pollTask(t, cc, created, "completed"); !strings.Contains(string(d.Result), "deleted report.pdf") {
		t.Errorf("result through C: %s", d.Result)
	}
	if d := getTask(t, a, created); d.Status != "completed" {
		t.Errorf("through A: %s, want completed", d.Status)
	}
}

// testTaskCancelElsewhere: created on A, cancelled through C, polled
// through A.
func testTaskCancelElsewhere(t *testing.T, c *cluster) {
	a, cc := c.Replicas[0].Addr, c.Replicas[2].Addr
	created := createTask(t, a, "slow_compute", `{"seconds":300,"label":"cancel me"}`)
	if r := taskCall(t, cc, "tasks/cancel", created, ""); r.Error != nil {
		t.Fatalf("tasks/cancel through C: %s", r.Error)
	}
	if d := pollTask(t, a, created, "cancelled"); d.Result != nil {
		t.Errorf("a cancelled task with a result: %s", d.Result)
	}
}

// testTaskReplicaKilled: a task runs on C when C gets SIGKILL; once its
// lease (redisstore's default LockTTL, 30 s) lapses, A reports it failed
// with the reason, never working forever.
func testTaskReplicaKilled(t *testing.T, c *cluster) {
	if testing.Short() {
		t.Skip("waits for a task lease to lapse (30 s)")
	}
	a, cc := c.Replicas[0].Addr, c.Replicas[2].Addr
	created := createTask(t, cc, "slow_compute", `{"seconds":300,"label":"orphan"}`)
	if err := c.Replicas[2].proc.Kill(); err != nil {
		t.Fatal(err)
	}
	d := pollTaskFor(t, a, created, "failed", 45*time.Second)
	if !strings.Contains(d.StatusMessage, "stopped before it finished") || d.Error == nil {
		t.Errorf("the killed replica's task: %+v, want failed with the reason and an error", d)
	}
}

// modernTasksMeta declares the tasks extension (and elicitation) in a
// 2026-07-28 request's _meta.
const modernTasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"scaleout-tasks","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

type taskView struct {
	ResultType    string                     `json:"resultType"`
	TaskID        string                     `json:"taskId"`
	Status        string                     `json:"status"`
	StatusMessage string                     `json:"statusMessage"`
	Result        json.RawMessage            `json:"result"`
	Error         json.RawMessage            `json:"error"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
}

type rpcReply struct {
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// modernCall POSTs a 2026-07-28 request to one replica (addr) and returns
// its response, from a JSON body or the last event of an SSE one.
func modernCall(t *testing.T, addr, method, name, params string) rpcReply {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{%s,%s}}`, method, params, modernTasksMeta)
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s on %s: %v", method, addr, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s on %s: %v", method, addr, err)
	}
	data := string(b)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		data = ""
		for line := range strings.SplitSeq(string(b), "\n") {
			if d, ok := strings.CutPrefix(line, "data:"); ok && strings.TrimSpace(d) != "" {
				data = d
			}
		}
	}
	var r rpcReply
	if err := json.Unmarshal([]byte(data), &r); err != nil {
		t.Fatalf("%s on %s: %d %q: %v", method, addr, resp.StatusCode, b, err)
	}
	return r
}

// createTask calls tool on addr and returns the id of the task it made.
func createTask(t *testing.T, addr, tool, args string) string {
	t.Helper()
	r := modernCall(t, addr, "tools/call", tool, `"name":"`+tool+`","arguments":`+args)
	var v taskView
	if r.Error != nil || json.Unmarshal(r.Result, &v) != nil || v.ResultType != "task" || v.TaskID == "" {
		t.Fatalf("tools/call %s on %s: %s %s, want a CreateTaskResult", tool, addr, r.Result, r.Error)
	}
	return v.TaskID
}

// taskCall sends a tasks/* request for task id, with more params.
func taskCall(t *testing.T, addr, method, id, more string) rpcReply {
	t.Helper()
	return modernCall(t, addr, method, id, `"taskId":"`+id+`"`+more)
}

func getTask(t *testing.T, addr, id string) taskView {
	t.Helper()
	r := taskCall(t, addr, "tasks/get", id, "")
	var v taskView
	if r.Error != nil || json.Unmarshal(r.Result, &v) != nil {
		t.Fatalf("tasks/get %s on %s: %s %s", id, addr, r.Result, r.Error)
	}
	return v
}

func pollTask(t *testing.T, addr, id, want string) taskView {
	t.Helper()
	return pollTaskFor(t, addr, id, want, 30*time.Second)
}

// pollTaskFor polls tasks/get on addr until the task is want, for at most
// limit; a task that reaches another terminal status fails at once.
func pollTaskFor(t *testing.T, addr, id, want string, limit time.Duration) taskView {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		v := getTask(t, addr, id)
		if v.Status == want {
			return v
		}
		if terminal := v.Status == "completed" || v.Status == "failed" || v.Status == "cancelled"; terminal || time.Now().After(deadline) {
			t.Fatalf("task %s through %s is %s (%s), want %s", id, addr, v.Status, v.StatusMessage, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// testLegacyTaskSideChannel: a 2025-11-25 session initialized on A; its
// task (confirm_delete, which elicits) runs on A; the client waits on
// tasks/result through B, whose stream carries A's elicitation/create;
// the answer, POSTed to C, reaches A; B's tasks/result answers with the
// tool's result.
func testLegacyTaskSideChannel(t *testing.T, c *cluster) {
	a, b, cc := c.Replicas[0].Addr, c.Replicas[1].Addr, c.Replicas[2].Addr
	init, _ := legacyPost(t, a, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"scaleout-tasks","version":"1"}}}`)
	session := init.Header.Get("Mcp-Session-Id")
	init.Body.Close()
	if session == "" {
		t.Fatalf("initialize on A: %d, no session id", init.StatusCode)
	}
	resp, _ := legacyPost(t, a, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	resp.Body.Close()
	resp, msgs := legacyPost(t, a, session, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"confirm_delete","arguments":{"filename":"q3.xlsx"},"task":{}}}`)
	var created struct {
		Result struct{ Task struct{ TaskID string } }
	}
	if json.Unmarshal([]byte(msgs(t)), &created) != nil || created.Result.Task.TaskID == "" {
		t.Fatalf("tools/call with task on A: %d", resp.StatusCode)
	}
	resp, next := legacyPost(t, b, session, `{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"`+created.Result.Task.TaskID+`"}}`)
	defer resp.Body.Close()
	var ask struct {
		ID     json.RawMessage
		Method string
	}
	for ask.Method != "elicitation/create" {
		if err := json.Unmarshal([]byte(next(t)), &ask); err != nil {
			t.Fatal(err)
		}
	}
	answer, _ := legacyPost(t, cc, session, `{"jsonrpc":"2.0","id":`+string(ask.ID)+`,"result":{"action":"accept","content":{"confirm":true}}}`)
	answer.Body.Close()
	if answer.StatusCode != http.StatusAccepted {
		t.Fatalf("the answer POSTed to C: %d", answer.StatusCode)
	}
	for {
		m := next(t)
		if !strings.Contains(m, `"id":2`) {
			continue
		}
		if !strings.Contains(m, "deleted q3.xlsx") {
			t.Errorf("tasks/result through B = %s, want the tool's result", m)
		}
		return
	}
}

// legacyPost POSTs msg to one replica in the legacy session (none before
// initialize) and returns the response and a reader of its messages: each
// call returns the next one (a JSON body is one message, an SSE stream's
// data lines one each), failing after 30 s without one; the exchange is
// cut after a minute.
func legacyPost(t *testing.T, addr, session, msg string) (*http.Response, func(*testing.T) string) {
	t.Helper()
	// A bound on the whole exchange: a server may send no header until
	// its first message, and an SSE stream may never end.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	resp, err := http.DefaultClient.Do(legacyRequest(t, ctx, "http://"+addr+"/mcp", session, msg))
	if err != nil {
		t.Fatalf("POST to %s: %v", addr, err)
	}
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			if b, _ := io.ReadAll(resp.Body); len(b) > 0 {
				lines <- string(b)
			}
			return
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data:"); ok && strings.TrimSpace(d) != "" {
				lines <- strings.TrimSpace(d)
			}
		}
	}()
	return resp, func(t *testing.T) string {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the response from %s ended without the message awaited", addr)
			}
			return l
		case <-time.After(30 * time.Second):
			t.Fatalf("no message from %s in 30 s", addr)
		}
		return ""
	}
}
