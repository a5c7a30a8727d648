package scaleout

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/interop/internal/testproc"
)

// TestScaleOutRedisTasks: three replicas of examples/conformance on one
// Redis, each reached directly, so that each step of a 2026-07-28 task
// (the io.modelcontextprotocol/tasks extension) lands where the test says:
// created on A, its input answered through B, polled through C and A; a
// second one created on A and cancelled through C; a third running on C
// when C gets SIGKILL, which another replica reports failed with a reason
// once C's lease on it lapses.
func TestScaleOutRedisTasks(t *testing.T) {
	redis := testproc.StartRedis(t)
	c := startClusterOf(t, 3, "conformance", "-redis", redis.URL)
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

	created = createTask(t, a, "slow_compute", `{"seconds":300,"label":"cancel me"}`)
	if r := taskCall(t, cc, "tasks/cancel", created, ""); r.Error != nil {
		t.Fatalf("tasks/cancel through C: %s", r.Error)
	}
	if d := pollTask(t, a, created, "cancelled"); d.Result != nil {
		t.Errorf("a cancelled task with a result: %s", d.Result)
	}

	if testing.Short() {
		t.Skip("the replica-killed case waits for a task lease to lapse (30 s)")
	}
	created = createTask(t, cc, "slow_compute", `{"seconds":300,"label":"orphan"}`)
	if err := c.Replicas[2].proc.Kill(); err != nil {
		t.Fatal(err)
	}
	// The lease (redisstore's default LockTTL, 30 s) lapses: the task is
	// failed, with a reason, never working forever.
	d = pollTaskFor(t, a, created, "failed", 45*time.Second)
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
