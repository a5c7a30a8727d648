package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
)

// Tasks in the 2026-07-28 era over Streamable HTTP: the server makes a
// task of a call whose _meta declares io.modelcontextprotocol/tasks.

const tasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

type modernTasks struct {
	t    *testing.T
	url  string
	id   int
	auth string // the Authorization header, if any
}

// post sends method with params (a JSON object's members, _meta added)
// and returns the response's result or error.
func (m *modernTasks) post(method, params, meta string) response {
	m.t.Helper()
	m.id++
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s,%s}}`, m.id, method, params, meta)
	hdr := map[string]string{}
	if m.auth != "" {
		hdr["Authorization"] = m.auth
	}
	var p struct{ TaskID string }
	_ = json.Unmarshal([]byte("{"+params+"}"), &p)
	if p.TaskID != "" {
		hdr["Mcp-Name"] = p.TaskID
	}
	_, h, out := modernPost(m.t, m.url, body, hdr)
	data := sseData(h.Get("Content-Type"), out)
	return parse(m.t, data[len(data)-1])
}

type detailedTask struct {
	ResultType    string                     `json:"resultType"`
	TaskID        string                     `json:"taskId"`
	Status        string                     `json:"status"`
	TTLMs         int64                      `json:"ttlMs"`
	Result        json.RawMessage            `json:"result"`
	Error         *rpcError                  `json:"error"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
}

func (m *modernTasks) task(r response) detailedTask {
	m.t.Helper()
	if r.Error != nil {
		m.t.Fatalf("error %s", errorJSON(r))
	}
	var d detailedTask
	_ = json.Unmarshal(r.Result, &d)
	return d
}

// until polls tasks/get until the task's status is want.
func (m *modernTasks) until(taskID, want string) detailedTask {
	m.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		d := m.task(m.post("tasks/get", `"taskId":"`+taskID+`"`, tasksMeta))
		if d.Status == want {
			return d
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("task %s stayed %s, want %s", taskID, d.Status, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestTasksModern(t *testing.T) {
	srv, release, cancelled := taskServer(t)
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	m := &modernTasks{t: t, url: ts.URL}

	disc := m.post("server/discover", `"x":0`, tasksMeta)
	if !strings.Contains(string(disc.Result), `"extensions":{"io.modelcontextprotocol/tasks":{}}`) || strings.Contains(string(disc.Result), `"tasks":{`) {
		t.Errorf("server/discover = %s, want the extension and no capabilities.tasks", disc.Result)
	}

	// Without the extension: optional runs as a plain call, required is
	// -32021, tasks/* are -32021 too.
	if r := m.post("tools/call", `"name":"sync","arguments":{}`, modernMeta); r.Error != nil || strings.Contains(string(r.Result), "taskId") {
		t.Errorf("sync tool: %s %s", r.Result, errorJSON(r))
	}
	r := m.post("tools/call", `"name":"must","arguments":{}`, modernMeta)
	wantCode(t, r, -32021, "a required tool without the extension")
	if !strings.Contains(string(r.Error.Data), `"io.modelcontextprotocol/tasks"`) {
		t.Errorf("-32021 without requiredCapabilities: %s", r.Error.Data)
	}
	wantCode(t, m.post("tasks/get", `"taskId":"x"`, modernMeta), -32021, "tasks/get without the extension")
	wantCode(t, m.post("tasks/result", `"taskId":"x"`, tasksMeta), -32601, "tasks/result in 2026-07-28")
	wantCode(t, m.post("tasks/list", `"y":0`, tasksMeta), -32601, "tasks/list in 2026-07-28")

	// A task that asks for input: input_required with the request, then
	// tasks/update resumes it.
	close(release)
	created := m.task(m.post("tools/call", `"name":"job","arguments":{"mode":"ask"}`, tasksMeta))
	if created.ResultType != "task" || created.TaskID == "" || created.Status != "working" || created.TTLMs <= 0 {
		t.Fatalf("CreateTaskResult = %+v", created)
	}
	d := m.until(created.TaskID, "input_required")
	var key string
	for k, v := range d.InputRequests {
		key = k
		if !strings.Contains(string(v), `"method":"elicitation/create"`) {
			t.Errorf("inputRequests[%s] = %s", k, v)
		}
	}
	ack := m.post("tasks/update", `"taskId":"`+created.TaskID+`","inputResponses":{"`+key+`":{"action":"accept","content":{"name":"Ada"}}}`, tasksMeta)
	if ack.Error != nil || strings.Contains(string(ack.Result), "taskId") {
		t.Errorf("tasks/update ack = %s %s", ack.Result, errorJSON(ack))
	}
	d = m.until(created.TaskID, "completed")
	if !strings.Contains(string(d.Result), "hello Ada") {
		t.Errorf("inlined result = %s", d.Result)
	}

	// A tool error is completed with isError; a JSON-RPC error is failed
	// with the error inlined.
	d = m.until(m.task(m.post("tools/call", `"name":"job","arguments":{"mode":"tool-error"}`, tasksMeta)).TaskID, "completed")
	if !strings.Contains(string(d.Result), `"isError":true`) {
		t.Errorf("a tool error's task result = %s", d.Result)
	}
	d = m.until(m.task(m.post("tools/call", `"name":"job","arguments":{"mode":"rpc-error"}`, tasksMeta)).TaskID, "failed")
	if d.Error == nil || d.Error.Code != -32042 || d.Result != nil {
		t.Errorf("a JSON-RPC error's task: error %+v, result %s", d.Error, d.Result)
	}
	wantCode(t, m.post("tasks/get", `"taskId":"forged"`, tasksMeta), -32602, "tasks/get of an unknown task")
	_ = cancelled
}

func TestTasksModernCancel(t *testing.T) {
	srv, _, cancelled := taskServer(t)
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	m := &modernTasks{t: t, url: ts.URL}
	created := m.task(m.post("tools/call", `"name":"job","arguments":{}`, tasksMeta))
	ack := m.post("tasks/cancel", `"taskId":"`+created.TaskID+`"`, tasksMeta)
	if ack.Error != nil || strings.Contains(string(ack.Result), "status") {
		t.Errorf("tasks/cancel ack = %s %s", ack.Result, errorJSON(ack))
	}
	select {
	case <-cancelled:
	case <-time.After(wait):
		t.Fatal("tasks/cancel did not cancel the handler's context")
	}
	m.until(created.TaskID, "cancelled")
	// Cancelling again is the same ack (idempotent in 2026-07-28).
	if again := m.post("tasks/cancel", `"taskId":"`+created.TaskID+`"`, tasksMeta); again.Error != nil {
		t.Errorf("second tasks/cancel: %s", errorJSON(again))
	}
}

// With authorization a task is its user's: another user's token gets
// -32602 for it, exactly as for an id that does not exist.
func TestTasksModernOwner(t *testing.T) {
	k := jwttest.TheKeys(t)
	srv := authServer()
	srv.AddTool(runtime.Tool{Name: "job", Execution: &runtime.ToolExecution{TaskSupport: runtime.TaskRequired},
		Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}})
	ts := httptest.NewServer(srv.HTTPHandler(runtime.WithAuthorization(authConfig(t))))
	t.Cleanup(ts.Close)
	dave := &modernTasks{t: t, url: ts.URL, auth: "Bearer " + jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("dave", "mcp:access"))}
	erin := &modernTasks{t: t, url: ts.URL, auth: "Bearer " + jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("erin", "mcp:access"))}
	created := dave.task(dave.post("tools/call", `"name":"job","arguments":{}`, tasksMeta))
	id := `"taskId":"` + created.TaskID + `"`
	wantCode(t, erin.post("tasks/get", id, tasksMeta), -32602, "another user's tasks/get")
	wantCode(t, erin.post("tasks/update", id+`,"inputResponses":{}`, tasksMeta), -32602, "another user's tasks/update")
	wantCode(t, erin.post("tasks/cancel", id, tasksMeta), -32602, "another user's tasks/cancel")
	if d := dave.task(dave.post("tasks/get", id, tasksMeta)); d.Status != "working" {
		t.Errorf("dave's task after erin's attempts: %q", d.Status)
	}
	dave.post("tasks/cancel", id, tasksMeta)
	dave.until(created.TaskID, "cancelled")
}

// A polling storm: many clients polling one task at once get consistent
// answers (and, under -race, touch no shared state unguarded).
func TestTasksModernPollingStorm(t *testing.T) {
	srv, release, _ := taskServer(t)
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	m := &modernTasks{t: t, url: ts.URL}
	created := m.task(m.post("tools/call", `"name":"job","arguments":{}`, tasksMeta))
	errs := make(chan string, 400)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			p := &modernTasks{t: t, url: ts.URL}
			for range 20 {
				r := p.post("tasks/get", `"taskId":"`+created.TaskID+`"`, tasksMeta)
				var d detailedTask
				if r.Error != nil || json.Unmarshal(r.Result, &d) != nil || d.TaskID != created.TaskID {
					errs <- fmt.Sprintf("%s %s", r.Result, errorJSON(r))
				}
			}
		})
	}
	close(release)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("tasks/get in a storm: %s", e)
	}
	m.until(created.TaskID, "completed")
}

// SEP-2663 carries no notifications/progress for a task: a 2026-07-28
// task's Progress reports become its statusMessage, which tasks/get shows
// while it works, and which is gone once it completed.
func TestTasksModernProgress(t *testing.T) {
	srv, release, _ := taskServer(t)
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	m := &modernTasks{t: t, url: ts.URL}
	created := m.task(m.post("tools/call", `"name":"job","arguments":{}`, tasksMeta))
	var got struct {
		Status, StatusMessage string
	}
	deadline := time.Now().Add(wait)
	for got.StatusMessage != "half way" {
		r := m.post("tasks/get", `"taskId":"`+created.TaskID+`"`, tasksMeta)
		_ = json.Unmarshal(r.Result, &got)
		if time.Now().After(deadline) {
			t.Fatalf("tasks/get = %s, want statusMessage \"half way\" (the handler's progress)", r.Result)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got.Status != "working" {
		t.Errorf("status %q with the progress message, want working", got.Status)
	}
	close(release)
	m.until(created.TaskID, "completed")
	r := m.post("tasks/get", `"taskId":"`+created.TaskID+`"`, tasksMeta)
	if strings.Contains(string(r.Result), "half way") {
		t.Errorf("a completed task keeps the progress message: %s", r.Result)
	}
}

// TestTasksModernAnswerOneOfTwo: a task with two input requests pending
// stays input_required when the client answers one of them, listing the
// other only; it works on once both are answered.
func TestTasksModernAnswerOneOfTwo(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(runtime.Tool{Name: "pair", Execution: &runtime.ToolExecution{TaskSupport: runtime.TaskOptional},
		Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			var wg sync.WaitGroup
			names := make([]any, 2)
			errs := make([]error, 2)
			for i := range 2 {
				wg.Go(func() {
					res, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: fmt.Sprint("Name ", i, "?"),
						RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)})
					if err == nil {
						names[i] = res.Content["name"]
					}
					errs[i] = err
				})
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					return nil, err
				}
			}
			return runtime.TextResult(fmt.Sprint(names[0], " and ", names[1])), nil
		}})
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	m := &modernTasks{t: t, url: ts.URL}
	created := m.task(m.post("tools/call", `"name":"pair","arguments":{}`, tasksMeta))
	get := func() detailedTask { return m.task(m.post("tasks/get", `"taskId":"`+created.TaskID+`"`, tasksMeta)) }
	d := get()
	for deadline := time.Now().Add(wait); len(d.InputRequests) < 2; d = get() {
		if time.Now().After(deadline) {
			t.Fatalf("the task never asked twice at once: %+v", d)
		}
		time.Sleep(5 * time.Millisecond)
	}
	var keys []string
	for k := range d.InputRequests {
		keys = append(keys, k)
	}
	answer := func(key, name string) {
		ack := m.post("tasks/update", `"taskId":"`+created.TaskID+`","inputResponses":{"`+key+`":{"action":"accept","content":{"name":"`+name+`"}}}`, tasksMeta)
		if ack.Error != nil {
			t.Fatalf("tasks/update: %s", errorJSON(ack))
		}
	}
	answer(keys[0], "Ada")
	if d := get(); d.Status != "input_required" || len(d.InputRequests) != 1 || d.InputRequests[keys[1]] == nil {
		t.Errorf("after one of two answers: status %s, input requests %v; want input_required with %s alone", d.Status, d.InputRequests, keys[1])
	}
	answer(keys[1], "Bob")
	if d := m.until(created.TaskID, "completed"); !strings.Contains(string(d.Result), " and ") {
		t.Errorf("result %s", d.Result)
	}
}
