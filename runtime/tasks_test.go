package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Tasks in the 2025-11-25 era, on the wire of a stdio session: the client
// asks for a task with params.task and follows it with tasks/get,
// tasks/result, tasks/list and tasks/cancel.

// taskServer has "job", a task tool that runs until release is closed (or
// its context ends, which it reports on cancelled), "sync" that never runs
// as a task, and "must" that only does.
func taskServer(t *testing.T, opts ...runtime.Option) (srv *runtime.Server, release, cancelled chan struct{}) {
	srv = runtime.NewServer(testInfo(), opts...)
	release, cancelled = make(chan struct{}), make(chan struct{}, 10)
	srv.AddTool(runtime.Tool{Name: "job", Execution: &runtime.ToolExecution{TaskSupport: runtime.TaskOptional},
		Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			var a struct{ Mode string }
			_ = json.Unmarshal(req.Arguments, &a)
			_ = runtime.Progress(ctx, 1, 2, "half way")
			select {
			case <-release:
			case <-ctx.Done():
				cancelled <- struct{}{}
				return nil, ctx.Err()
			}
			switch a.Mode {
			case "tool-error":
				return nil, errors.New("the job went wrong")
			case "rpc-error":
				return nil, &runtime.Error{Code: -32042, Message: "a JSON-RPC error of the tool's", Data: map[string]any{"why": "test"}}
			case "ask":
				res, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: "Name?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)})
				if err != nil {
					return nil, err
				}
				return runtime.TextResult(fmt.Sprint("hello ", res.Content["name"])), nil
			}
			return runtime.TextResult("done"), nil
		}})
	srv.AddTool(runtime.Tool{Name: "sync", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return runtime.TextResult("sync"), nil
	}})
	srv.AddTool(runtime.Tool{Name: "must", Execution: &runtime.ToolExecution{TaskSupport: runtime.TaskRequired},
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("must"), nil
		}})
	return srv, release, cancelled
}

// taskClient is a raw 2025-11-25 client that keeps the notifications it
// reads while waiting for a response.
type taskClient struct {
	*client
	notes []string
}

func newTaskClient(t *testing.T, srv *runtime.Server, caps string) *taskClient {
	c := &taskClient{client: serve(t, srv)}
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"clientInfo":{"name":"t","version":"1"}}}`)
	c.await("0")
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

// call sends a request with the given id and returns its response.
func (c *taskClient) call(id, method, params string) response {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`)
	return c.await(id)
}

// await reads until the response to id, keeping notifications and failing
// on anything else: a request of the server's (its ids count from 1 too)
// is not taken for the response.
func (c *taskClient) await(id string) response {
	c.t.Helper()
	for {
		line := c.recv()
		if strings.Contains(line, `"method":"notifications/`) {
			c.notes = append(c.notes, line)
			continue
		}
		if strings.Contains(line, `"method":`) {
			c.t.Fatalf("got the server's request %s while waiting for the response to %s", line, id)
		}
		r := parse(c.t, line)
		if string(r.ID) != id {
			c.t.Fatalf("got %s while waiting for the response to %s", line, id)
		}
		return r
	}
}

type wireTask struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage"`
	CreatedAt     string `json:"createdAt"`
	LastUpdatedAt string `json:"lastUpdatedAt"`
	TTL           int64  `json:"ttl"`
	PollInterval  int64  `json:"pollInterval"`
}

func (c *taskClient) startJob(id, args string) wireTask {
	c.t.Helper()
	r := c.call(id, "tools/call", `{"name":"job","arguments":`+args+`,"task":{"ttl":60000},"_meta":{"progressToken":"p`+id+`"}}`)
	if r.Error != nil {
		c.t.Fatalf("tools/call with task: %s", errorJSON(r))
	}
	var res struct{ Task wireTask }
	if err := json.Unmarshal(r.Result, &res); err != nil || res.Task.TaskID == "" {
		c.t.Fatalf("tools/call with task answered %s, want {task:{taskId…}}", r.Result)
	}
	return res.Task
}

func (c *taskClient) get(id, taskID string) wireTask {
	c.t.Helper()
	r := c.call(id, "tasks/get", `{"taskId":"`+taskID+`"}`)
	if r.Error != nil {
		c.t.Fatalf("tasks/get: %s", errorJSON(r))
	}
	var task wireTask
	_ = json.Unmarshal(r.Result, &task)
	return task
}

func wantCode(t *testing.T, r response, code int, what string) {
	t.Helper()
	if r.Error == nil || r.Error.Code != code {
		t.Fatalf("%s: got %s %s, want error %d", what, r.Result, errorJSON(r), code)
	}
}

func TestTasksLegacyLifecycle(t *testing.T) {
	srv, release, _ := taskServer(t)
	c := newTaskClient(t, srv, `{}`)

	r := c.call("1", "tools/list", `{}`)
	if !strings.Contains(string(r.Result), `"execution":{"taskSupport":"optional"}`) {
		t.Errorf("tools/list does not advertise the job's task support: %s", r.Result)
	}

	task := c.startJob("2", `{}`)
	if task.Status != "working" || task.TTL != 60000 || task.PollInterval <= 0 || task.CreatedAt == "" {
		t.Errorf("created task = %+v, want working with ttl 60000 and a poll interval", task)
	}
	if got := c.get("3", task.TaskID); got.Status != "working" {
		t.Errorf("tasks/get while running: status %q", got.Status)
	}
	// tasks/result blocks until the task is terminal: its response comes
	// only after the job is released.
	c.send(`{"jsonrpc":"2.0","id":4,"method":"tasks/result","params":{"taskId":"` + task.TaskID + `"}}`)
	if r := c.call("5", "ping", `{}`); r.Error != nil {
		t.Fatalf("ping while tasks/result waits: %s", errorJSON(r))
	}
	close(release)
	r = c.await("4")
	if r.Error != nil {
		t.Fatalf("tasks/result: %s", errorJSON(r))
	}
	jsonEqual(t, `{"content":[{"type":"text","text":"done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"`+task.TaskID+`"}}}`, r.Result)

	if got := c.get("6", task.TaskID); got.Status != "completed" {
		t.Errorf("tasks/get after the end: status %q", got.Status)
	}
	wantCode(t, c.call("7", "tasks/cancel", `{"taskId":"`+task.TaskID+`"}`), -32602, "tasks/cancel of a completed task")

	r = c.call("8", "tasks/list", `{}`)
	if !strings.Contains(string(r.Result), task.TaskID) {
		t.Errorf("tasks/list = %s, want the task", r.Result)
	}
	notes := strings.Join(c.notes, "\n")
	if !strings.Contains(notes, `"method":"notifications/tasks/status","params":{"taskId":"`+task.TaskID+`","status":"completed"`) {
		t.Errorf("no notifications/tasks/status completed among\n%s", notes)
	}
	if !strings.Contains(notes, `"progressToken":"p2"`) {
		t.Errorf("the handler's progress did not reach the client:\n%s", notes)
	}
}

func TestTasksLegacyCapabilities(t *testing.T) {
	srv, _, _ := taskServer(t)
	c := serve(t, srv)
	res := c.initialize()
	if !strings.Contains(string(res), `"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}`) {
		t.Errorf("initialize does not advertise tasks: %s", res)
	}
	plain := runtime.NewServer(testInfo())
	plain.AddTool(echoTool("echo"))
	if res := serve(t, plain).initialize(); strings.Contains(string(res), `"tasks"`) {
		t.Errorf("a server without task tools advertises tasks: %s", res)
	}
}

func TestTasksLegacyCancel(t *testing.T) {
	srv, _, cancelled := taskServer(t)
	c := newTaskClient(t, srv, `{}`)
	task := c.startJob("1", `{}`)
	r := c.call("2", "tasks/cancel", `{"taskId":"`+task.TaskID+`"}`)
	if r.Error != nil || !strings.Contains(string(r.Result), `"status":"cancelled"`) {
		t.Fatalf("tasks/cancel = %s %s, want the cancelled task", r.Result, errorJSON(r))
	}
	select {
	case <-cancelled:
	case <-time.After(wait):
		t.Fatal("tasks/cancel did not cancel the handler's context")
	}
	if got := c.get("3", task.TaskID); got.Status != "cancelled" {
		t.Errorf("tasks/get after cancel: %q, want cancelled (the handler's own end must not overwrite it)", got.Status)
	}
	wantCode(t, c.call("4", "tasks/cancel", `{"taskId":"`+task.TaskID+`"}`), -32602, "second tasks/cancel")
}

func TestTasksLegacyOutcomes(t *testing.T) {
	srv, release, _ := taskServer(t)
	close(release)
	c := newTaskClient(t, srv, `{}`)

	// A tool error makes the task failed; tasks/result gives the isError
	// result as the call would have.
	task := c.startJob("1", `{"mode":"tool-error"}`)
	r := c.call("2", "tasks/result", `{"taskId":"`+task.TaskID+`"}`)
	if r.Error != nil || !strings.Contains(string(r.Result), `"isError":true`) || !strings.Contains(string(r.Result), "the job went wrong") {
		t.Errorf("tasks/result of a tool error = %s %s", r.Result, errorJSON(r))
	}
	if got := c.get("3", task.TaskID); got.Status != "failed" {
		t.Errorf("status after a tool error = %q, want failed", got.Status)
	}

	// A JSON-RPC error is kept, code, message and data.
	task = c.startJob("4", `{"mode":"rpc-error"}`)
	r = c.call("5", "tasks/result", `{"taskId":"`+task.TaskID+`"}`)
	wantCode(t, r, -32042, "tasks/result of a JSON-RPC error")
	if string(r.Error.Data) != `{"why":"test"}` || r.Error.Message != "a JSON-RPC error of the tool's" {
		t.Errorf("the error was not kept: %s", errorJSON(r))
	}
}

func TestTasksLegacyElicitInsideTask(t *testing.T) {
	srv, release, _ := taskServer(t)
	close(release)
	c := newTaskClient(t, srv, `{"elicitation":{}}`)
	// The CreateTaskResult comes first (startJob fails on a request
	// before it): the client cannot relate the task's request to a task
	// it has not heard of.
	task := c.startJob("1", `{"mode":"ask"}`)
	// The handler asks the client; the task is input_required meanwhile.
	line := c.recv()
	for strings.Contains(line, `"method":"notifications/`) {
		c.notes = append(c.notes, line)
		line = c.recv()
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal([]byte(line), &req) != nil || req.Method != "elicitation/create" {
		t.Fatalf("want elicitation/create from the task, got %s", line)
	}
	if got := c.get("2", task.TaskID); got.Status != "input_required" {
		t.Errorf("status while asking = %q, want input_required", got.Status)
	}
	c.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	r := c.call("3", "tasks/result", `{"taskId":"`+task.TaskID+`"}`)
	if !strings.Contains(string(r.Result), "hello Ada") {
		t.Errorf("tasks/result = %s %s, want hello Ada", r.Result, errorJSON(r))
	}
}

func TestTasksLegacyTaskSupportRules(t *testing.T) {
	srv, _, _ := taskServer(t)
	c := newTaskClient(t, srv, `{}`)
	wantCode(t, c.call("1", "tools/call", `{"name":"sync","task":{}}`), -32601, "a task of a forbidden tool")
	wantCode(t, c.call("2", "tools/call", `{"name":"must"}`), -32601, "a required tool without a task")
	wantCode(t, c.call("3", "tools/call", `{"name":"job","task":"soon"}`), -32602, "a task param that is not an object")
	wantCode(t, c.call("4", "tools/call", `{"name":"job","task":{"ttl":-5}}`), -32602, "a negative ttl")
	wantCode(t, c.call("5", "tasks/update", `{"taskId":"x","inputResponses":{}}`), -32601, "tasks/update in 2025-11-25")
}

func TestTasksTTLExpiry(t *testing.T) {
	srv, release, _ := taskServer(t)
	close(release)
	c := newTaskClient(t, srv, `{}`)
	r := c.call("1", "tools/call", `{"name":"job","arguments":{},"task":{"ttl":30}}`)
	var res struct{ Task wireTask }
	_ = json.Unmarshal(r.Result, &res)
	deadline := time.Now().Add(wait)
	for i := 2; ; i++ {
		r := c.call(fmt.Sprint(i), "tasks/get", `{"taskId":"`+res.Task.TaskID+`"}`)
		if r.Error != nil {
			wantCode(t, r, -32602, "tasks/get of an expired task")
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the task outlived its ttl")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Hostile callers: forged and foreign ids, a huge ttl, a full store.
func TestTasksHostile(t *testing.T) {
	srv, _, _ := taskServer(t, runtime.WithTaskStore(runtime.NewMemoryTaskStore(30)) /* 3 per owner */, runtime.WithTaskTTL(time.Minute, time.Hour))
	a := newTaskClient(t, srv, `{}`)
	b := newTaskClient(t, srv, `{}`)

	r := a.call("1", "tools/call", `{"name":"job","arguments":{},"task":{"ttl":9007199254740991}}`)
	var res struct{ Task wireTask }
	_ = json.Unmarshal(r.Result, &res)
	if res.Task.TTL != time.Hour.Milliseconds() {
		t.Errorf("a huge ttl became %d ms, want the maximum %d", res.Task.TTL, time.Hour.Milliseconds())
	}
	// Another session cannot see, wait on or cancel it: to it, the task
	// does not exist.
	for i, m := range []string{"tasks/get", "tasks/result", "tasks/cancel"} {
		wantCode(t, b.call(fmt.Sprint(i+1), m, `{"taskId":"`+res.Task.TaskID+`"}`), -32602, "another session's "+m)
	}
	if r := b.call("9", "tasks/list", `{}`); strings.Contains(string(r.Result), res.Task.TaskID) {
		t.Errorf("another session lists the task: %s", r.Result)
	}
	for i, forged := range []string{`""`, `"../../etc"`, `"` + strings.Repeat("A", 100000) + `"`, `12`, `null`} {
		r := a.call(fmt.Sprint(10+i), "tasks/get", `{"taskId":`+forged+`}`)
		wantCode(t, r, -32602, "tasks/get of a forged id")
		if len(r.Error.Message) > 300 {
			t.Errorf("the error repeats the forged id at length (%d bytes)", len(r.Error.Message))
		}
	}
	// The store holds 3 tasks per owner: a's 4th call is refused, the
	// others live, and b still has room.
	a.startJob("20", `{}`)
	a.startJob("21", `{}`)
	r = a.call("22", "tools/call", `{"name":"job","arguments":{},"task":{}}`)
	wantCode(t, r, -32603, "a task beyond the store's bound")
	if got := a.get("23", res.Task.TaskID); got.Status != "working" {
		t.Errorf("the first task after the refusal: %q", got.Status)
	}
	b.startJob("24", `{}`)
}

// A server that stops leaves its running tasks failed with a reason.
func TestTasksStopTasks(t *testing.T) {
	srv, _, cancelled := taskServer(t)
	c := newTaskClient(t, srv, `{}`)
	task := c.startJob("1", `{}`)
	srv.StopTasks("the server stopped")
	select {
	case <-cancelled:
	case <-time.After(wait):
		t.Fatal("StopTasks did not cancel the handler")
	}
	got := c.get("2", task.TaskID)
	if got.Status != "failed" || got.StatusMessage != "the server stopped" {
		t.Errorf("task after StopTasks = %+v, want failed with the reason", got)
	}
	wantCode(t, c.call("3", "tasks/result", `{"taskId":"`+task.TaskID+`"}`), -32603, "tasks/result of a stopped task")
}

// Over Streamable HTTP the tools/call's stream is closed once the task is
// created: a task's request to the client goes on the stream of the
// client's tasks/result, and the answer, POSTed back, resumes the task.
func TestTasksLegacyHTTPInputThroughTasksResult(t *testing.T) {
	srv, release, _ := taskServer(t)
	p := serveHTTP(t, srv)
	p.initialize(`{"elicitation":{}}`)
	res := p.result("tools/call", `{"name":"job","arguments":{"mode":"ask"},"task":{}}`)
	var created struct{ Task wireTask }
	if json.Unmarshal(res, &created) != nil || created.Task.TaskID == "" {
		t.Fatalf("tools/call with task: %s", res)
	}
	close(release) // the handler asks only now, its call's stream closed
	if got := answerOnTasksResult(t, p, p, created.Task.TaskID); !strings.Contains(got, "hello Ada") {
		t.Errorf("tasks/result = %s, want hello Ada", got)
	}
}

// answerOnTasksResult sends tasks/result for taskID through waiter, answers
// the elicitation that comes on its stream (POSTed through answerer) with
// the name Ada, and returns the tasks/result's response.
func answerOnTasksResult(t *testing.T, waiter, answerer *httpPeer, taskID string) string {
	t.Helper()
	// The waiting tasks/result sends no headers before its first message,
	// so a request or answer lost between replicas would block here until
	// the test binary's timeout: a watchdog fails it sooner, saying why.
	watchdog := time.AfterFunc(3*wait, func() {
		panic("answerOnTasksResult: task " + taskID + ": no elicitation or result after " + (3 * wait).String() +
			" (a request or its answer did not reach the process running the handler)")
	})
	defer watchdog.Stop()
	resp, id := waiter.call("tasks/result", `{"taskId":"`+taskID+`"}`)
	defer resp.Body.Close()
	s := newSSE(resp.Body)
	var ask struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	for ask.Method != "elicitation/create" {
		ev := nextEvent(t, s)
		if ev.Data != "" {
			_ = json.Unmarshal([]byte(ev.Data), &ask)
		}
	}
	answer := answerer.do(http.MethodPost, `{"jsonrpc":"2.0","id":`+string(ask.ID)+`,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	answer.Body.Close()
	for {
		if ev := nextEvent(t, s); strings.Contains(ev.Data, `"id":`+id) {
			return ev.Data
		}
	}
}

// WithTaskPollInterval is the interval advertised in both eras: in the
// task as created and as tasks/get returns it; without it, the default.
func TestTasksPollInterval(t *testing.T) {
	for _, tc := range []struct {
		opts []runtime.Option
		want int64
	}{
		{nil, runtime.DefaultTaskPollInterval.Milliseconds()},
		{[]runtime.Option{runtime.WithTaskPollInterval(250 * time.Millisecond)}, 250},
		{[]runtime.Option{runtime.WithTaskPollInterval(100 * time.Microsecond)}, 1}, // a whole millisecond at least
	} {
		srv, release, _ := taskServer(t, tc.opts...)
		c := newTaskClient(t, srv, `{}`)
		task := c.startJob("1", `{}`)
		if task.PollInterval != tc.want {
			t.Errorf("2025-11-25 CreateTaskResult pollInterval = %d, want %d", task.PollInterval, tc.want)
		}
		if got := c.get("2", task.TaskID); got.PollInterval != tc.want {
			t.Errorf("2025-11-25 tasks/get pollInterval = %d, want %d", got.PollInterval, tc.want)
		}
		ts := httptest.NewServer(srv.HTTPHandler())
		m := &modernTasks{t: t, url: ts.URL}
		var created struct {
			PollIntervalMs int64 `json:"pollIntervalMs"`
		}
		r := m.post("tools/call", `"name":"job","arguments":{}`, tasksMeta)
		if json.Unmarshal(r.Result, &created) != nil || created.PollIntervalMs != tc.want {
			t.Errorf("2026-07-28 CreateTaskResult = %s, want pollIntervalMs %d", r.Result, tc.want)
		}
		close(release)
		ts.Close()
	}
}

// tasks/list pages while tasks expire between its pages: a task gone before
// its page is not listed, every live task is listed once, in creation
// order, and a cursor whose task expired still leads to the next page
// (not to "invalid cursor", nor back to the start).
func TestTasksListPagingWithExpiries(t *testing.T) {
	srv, release, _ := taskServer(t, runtime.WithPageSize(2))
	defer close(release)
	c := newTaskClient(t, srv, `{}`)
	id := 0
	next := func() string { id++; return fmt.Sprint(id) }
	create := func(ttl int) string {
		r := c.call(next(), "tools/call", `{"name":"job","arguments":{},"task":{"ttl":`+fmt.Sprint(ttl)+`}}`)
		var res struct{ Task wireTask }
		if err := json.Unmarshal(r.Result, &res); err != nil || res.Task.TaskID == "" {
			t.Fatalf("creating a task: %s %s", r.Result, errorJSON(r))
		}
		return res.Task.TaskID
	}
	// The 2nd task, which ends the first page, and the 4th, on the second,
	// expire in a second; the others live.
	const short = 1000
	var all []string
	for _, ttl := range []int{3_600_000, short, 3_600_000, short, 3_600_000, 3_600_000} {
		all = append(all, create(ttl))
	}
	gone := func(task string) bool {
		return c.call(next(), "tasks/get", `{"taskId":"`+task+`"}`).Error != nil
	}
	list := func(cursor string) ([]string, string) {
		params := `{}`
		if cursor != "" {
			params = `{"cursor":"` + cursor + `"}`
		}
		r := c.call(next(), "tasks/list", params)
		if r.Error != nil {
			t.Fatalf("tasks/list %s: %s", params, errorJSON(r))
		}
		var page struct {
			Tasks      []wireTask
			NextCursor string
		}
		json.Unmarshal(r.Result, &page)
		var ids []string
		for _, tk := range page.Tasks {
			ids = append(ids, tk.TaskID)
		}
		return ids, page.NextCursor
	}
	first, cursor := list("")
	exercised := len(first) == 2 && first[1] == all[1]
	deadline := time.Now().Add(wait)
	for !gone(all[1]) || !gone(all[3]) {
		if time.Now().After(deadline) {
			t.Fatal("the short tasks outlived their ttl")
		}
		time.Sleep(20 * time.Millisecond)
	}
	listed := first
	for pages := 1; cursor != ""; pages++ {
		if pages > len(all) {
			t.Fatalf("paging does not end: listed %v of %v", listed, all)
		}
		var page []string
		page, cursor = list(cursor)
		listed = append(listed, page...)
	}
	want := []string{all[0], all[2], all[4], all[5]}
	if exercised {
		want = []string{all[0], all[1], all[2], all[4], all[5]}
	} else {
		t.Log("the 2nd task expired before the first page: its cursor expiring was not tried")
	}
	if fmt.Sprint(listed) != fmt.Sprint(want) {
		t.Errorf("listed %v, want %v (of %v)", listed, want, all)
	}
}

// A last page that is exactly full has no nextCursor: the client is not
// sent for an empty page.
func TestTasksListLastPageHasNoCursor(t *testing.T) {
	srv, release, _ := taskServer(t, runtime.WithPageSize(2))
	defer close(release)
	c := newTaskClient(t, srv, `{}`)
	for i := range 2 {
		c.call(fmt.Sprint(i+1), "tools/call", `{"name":"job","arguments":{},"task":{}}`)
	}
	r := c.call("3", "tasks/list", `{}`)
	var page struct {
		Tasks      []wireTask
		NextCursor *string
	}
	if json.Unmarshal(r.Result, &page); len(page.Tasks) != 2 || page.NextCursor != nil {
		t.Errorf("two tasks, pages of two: %s, want both and no nextCursor", r.Result)
	}
	c.call("4", "tools/call", `{"name":"job","arguments":{},"task":{}}`)
	r = c.call("5", "tasks/list", `{}`)
	if json.Unmarshal(r.Result, &page); len(page.Tasks) != 2 || page.NextCursor == nil {
		t.Errorf("three tasks, pages of two: %s, want two and a nextCursor", r.Result)
	}
}

// tasks/list's cursors: a bare task id (an earlier version's cursor) still
// pages while its task lives; an unknown id, or a cursor whose time is not
// a number, is invalid params.
func TestTasksListCursors(t *testing.T) {
	srv, release, _ := taskServer(t, runtime.WithPageSize(1))
	defer close(release)
	c := newTaskClient(t, srv, `{}`)
	var ids []string
	for i := range 2 {
		r := c.call(fmt.Sprint(i+1), "tools/call", `{"name":"job","arguments":{},"task":{}}`)
		var res struct{ Task wireTask }
		json.Unmarshal(r.Result, &res)
		ids = append(ids, res.Task.TaskID)
	}
	r := c.call("3", "tasks/list", `{"cursor":"`+ids[0]+`"}`)
	if r.Error != nil || !strings.Contains(string(r.Result), ids[1]) || strings.Contains(string(r.Result), ids[0]) {
		t.Errorf("a bare id cursor: %s %s", r.Result, errorJSON(r))
	}
	for i, cursor := range []string{"NOSUCHTASK", ids[0] + ".soon", ".123"} {
		wantCode(t, c.call(fmt.Sprint(4+i), "tasks/list", `{"cursor":"`+cursor+`"}`), -32602, "tasks/list with cursor "+cursor)
	}
}
