package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/support/supportmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// reportDesk is a desk whose report takes step per ticket.
func reportDesk(step time.Duration) *desk {
	d := testDesk()
	d.reportStep = step
	return d
}

func TestBuildReportCounts(t *testing.T) {
	d, ctx := reportDesk(0), context.Background()
	all, err := d.BuildReport(ctx, &supportmcp.BuildReportInput{})
	if err != nil || all.Customer != "" || all.Tickets != 4 || all.Open+all.PendingCustomer+all.Solved != 4 {
		t.Errorf("all customers: %+v %v", all, err)
	}
	acme, err := d.BuildReport(ctx, &supportmcp.BuildReportInput{Customer: runtime.Some("acme")})
	if err != nil || acme.Tickets != 2 || acme.Open != 2 || !slices.Equal(acme.PastSLA, []supportmcp.TicketID{"T-1001"}) {
		t.Errorf("acme: %+v %v", acme, err)
	}
	if _, err := d.BuildReport(ctx, &supportmcp.BuildReportInput{Customer: runtime.Some("initech")}); err == nil || !strings.Contains(err.Error(), `no customer "initech"`) {
		t.Errorf("unknown customer: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := reportDesk(time.Hour).BuildReport(cctx, &supportmcp.BuildReportInput{}); err == nil {
		t.Error("a cancelled report finished")
	}
}

// TestBuildReportTaskLegacy: a 2025-11-25 client asks for a task with
// params.task, polls tasks/get, and gets the report from tasks/result,
// with progress and status notifications on the way.
func TestBuildReportTaskLegacy(t *testing.T) {
	w := newLegacyWire(t, reportDesk(20*time.Millisecond), `{"tasks":{}}`)
	tools := w.call(2, `"method":"tools/list"`)
	if !strings.Contains(tools, `"name":"build_report"`) || !strings.Contains(tools, `"execution":{"taskSupport":"optional"}`) {
		t.Fatalf("tools/list: %s", tools)
	}
	created := w.call(3, `"method":"tools/call","params":{"name":"build_report","arguments":{},"task":{"ttl":60000},"_meta":{"progressToken":"r1"}}`)
	var c struct {
		Result struct {
			Task struct{ TaskID, Status string }
		}
	}
	if err := json.Unmarshal([]byte("{"+created), &c); err != nil || c.Result.Task.TaskID == "" || c.Result.Task.Status != "working" {
		t.Fatalf("tools/call with params.task: %s", created)
	}
	id := c.Result.Task.TaskID
	if got := w.call(4, `"method":"tasks/get","params":{"taskId":"`+id+`"}`); !strings.Contains(got, `"taskId":"`+id+`"`) || !strings.Contains(got, `"status":"working"`) {
		t.Errorf("tasks/get while the report runs: %s", got)
	}
	// tasks/result blocks until the task is terminal, then returns exactly
	// the call's result.
	res := w.call(5, `"method":"tasks/result","params":{"taskId":"`+id+`"}`)
	if !strings.Contains(res, `"structuredContent":{"customer":"","tickets":4,`) || !strings.Contains(res, `"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}`) {
		t.Errorf("tasks/result: %s", res)
	}
	if got := w.call(6, `"method":"tasks/get","params":{"taskId":"`+id+`"}`); !strings.Contains(got, `"status":"completed"`) {
		t.Errorf("tasks/get after the result: %s", got)
	}
	if p := w.notifications("notifications/progress"); len(p) != 4 || !strings.Contains(p[3], `"progress":4,"total":4`) {
		t.Errorf("progress notifications: %q", p)
	}
	if s := w.notifications("notifications/tasks/status"); len(s) == 0 || !strings.Contains(s[len(s)-1], `"status":"completed"`) {
		t.Errorf("status notifications: %q", s)
	}
}

// The _meta of a 2026-07-28 request from a client that declares the tasks
// extension.
const modernTasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// modernPost sends a 2026-07-28 request over Streamable HTTP, with the
// headers that mirror it (Mcp-Method, Mcp-Name), and returns the response
// message (the last of an SSE stream).
func modernPost(t *testing.T, url string, id int, method, name, params string) string {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s,%s}}`, id, method, params, modernTasksMeta)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: HTTP %d: %s", method, resp.StatusCode, out)
	}
	msg := string(out)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.SplitSeq(msg, "\n") {
			if data, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(data, `"id":`) {
				msg = data
			}
		}
	}
	return msg
}

// TestBuildReportTaskModern: in 2026-07-28 the server makes the call a task
// because the request declares the extension; the client polls tasks/get
// until the report is inline.
func TestBuildReportTaskModern(t *testing.T) {
	d := reportDesk(20 * time.Millisecond)
	srv := supportmcp.NewServer(d)
	d.srv = srv
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	url := ts.URL + "/mcp"

	created := modernPost(t, url, 1, "tools/call", "build_report", `"name":"build_report","arguments":{"customer":"acme"}`)
	var c struct {
		Result struct{ ResultType, TaskID, Status string }
	}
	if err := json.Unmarshal([]byte(created), &c); err != nil || c.Result.ResultType != "task" || c.Result.TaskID == "" || c.Result.Status != "working" {
		t.Fatalf("tools/call: %s, want a CreateTaskResult", created)
	}
	var got string
	for i, deadline := 2, time.Now().Add(10*time.Second); ; i++ {
		got = modernPost(t, url, i, "tasks/get", c.Result.TaskID, `"taskId":"`+c.Result.TaskID+`"`)
		if !strings.Contains(got, `"status":"working"`) || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(got, `"status":"completed"`) || !strings.Contains(got, `"structuredContent":{"customer":"acme","tickets":2,`) || !strings.Contains(got, `"past_sla":["T-1001"]`) {
		t.Errorf("tasks/get to completion: %s", got)
	}
}
