package redisstore

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
)

// replica is a runtime.Server over HTTP with WithStore(st): a replica of a
// server behind a load balancer.
func replica(t *testing.T, st *Store, tools ...runtime.Tool) *httptest.Server {
	srv := runtime.NewServer(runtime.Implementation{Name: "replica", Version: "1"}, runtime.WithStore(st))
	for _, tool := range tools {
		srv.AddTool(tool)
	}
	hs := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(hs.Close)
	return hs
}

// modernCall sends a 2026-07-28 request (no session: any replica serves
// it) and returns the status and body.
func modernCall(t *testing.T, url string, id int, method, name, params string) (int, string) {
	t.Helper()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"` + runtime.TasksExtension + `":{}}}}`
	body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":{` + params + meta + `}}`
	r, _ := http.NewRequest("POST", url, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", "2026-07-28")
	r.Header.Set("Mcp-Method", method)
	if name != "" {
		r.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func textTool(name, text string) runtime.Tool {
	return runtime.Tool{Name: name, Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return runtime.TextResult(text), nil
	}}
}

// A tool's rate limit holds across two replicas sharing Redis: of N+1
// calls spread over both, the last is refused (429, CodeRateLimited).
func TestQuotaAcrossReplicas(t *testing.T) {
	r := redistest.Start(t)
	limited := textTool("search", "found")
	limited.RateLimit = &runtime.RateLimit{Requests: 4, Per: time.Hour}
	replicas := []*httptest.Server{replica(t, openStore(t, r, Config{}), limited), replica(t, openStore(t, r, Config{}), limited)}
	for i := range 4 {
		if status, body := modernCall(t, replicas[i%2].URL, i, "tools/call", "search", `"name":"search",`); status != 200 || !strings.Contains(body, "found") {
			t.Fatalf("call %d of 4 on replica %d: %d %s", i+1, i%2, status, body)
		}
	}
	status, body := modernCall(t, replicas[0].URL, 5, "tools/call", "search", `"name":"search",`)
	if status != http.StatusTooManyRequests || !strings.Contains(body, strconv.Itoa(runtime.CodeRateLimited)) {
		t.Errorf("5th call: %d %s; want 429 with the rate-limited error", status, body)
	}
}

// A task started on replica A is read through replica B.
func TestTaskAcrossReplicas(t *testing.T) {
	r := redistest.Start(t)
	report := textTool("report", "the report")
	report.Execution = &runtime.ToolExecution{TaskSupport: runtime.TaskRequired}
	a, b := replica(t, openStore(t, r, Config{}), report), replica(t, openStore(t, r, Config{}), report)
	_, body := modernCall(t, a.URL, 1, "tools/call", "report", `"name":"report",`)
	i := strings.Index(body, `"taskId":"`)
	if i < 0 {
		t.Fatalf("tools/call on A did not create a task: %s", body)
	}
	id := body[i+len(`"taskId":"`):]
	id = id[:strings.IndexByte(id, '"')]
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		status, got := modernCall(t, b.URL, 2, "tasks/get", id, `"taskId":"`+id+`",`)
		if status != 200 {
			t.Fatalf("tasks/get on B: %d %s", status, got)
		}
		if strings.Contains(got, `"completed"`) && strings.Contains(got, "the report") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("tasks/get on B: %s, want the completed task", got)
		}
	}
}

// A requestState used through one replica is refused by another.
func TestRequestStateOnceAcrossReplicas(t *testing.T) {
	r := redistest.Start(t)
	a, b := openStore(t, r, Config{}).RequestStates(), openStore(t, r, Config{}).RequestStates()
	ctx := context.Background()
	until := time.Now().Add(time.Minute)
	if first, err := a.FirstUse(ctx, "state-1", until); !first || err != nil {
		t.Fatalf("first use on A: %v, %v", first, err)
	}
	if first, err := b.FirstUse(ctx, "state-1", until); first || err != nil {
		t.Errorf("replay on B: first=%v, %v; want a refusal", first, err)
	}
}

// A result over its tool's budget, linked on replica A, is read through
// replica B: the full result is kept in Redis.
func TestResultLinkAcrossReplicas(t *testing.T) {
	r := redistest.Start(t)
	dump := textTool("dump", strings.Repeat("x", 5000))
	dump.MaxResultBytes, dump.Overflow = 1000, runtime.OverflowLink
	a, b := replica(t, openStore(t, r, Config{}), dump), replica(t, openStore(t, r, Config{}), dump)
	status, body := modernCall(t, a.URL, 1, "tools/call", "dump", `"name":"dump",`)
	at := strings.Index(body, `"uri":"mcpgen-result://dump/`)
	if status != 200 || at < 0 {
		t.Fatalf("call on A: %d %s", status, body)
	}
	uri := body[at+len(`"uri":"`):]
	uri = uri[:strings.IndexByte(uri, '"')]
	status, body = modernCall(t, b.URL, 2, "resources/read", uri, `"uri":"`+uri+`",`)
	if status != 200 || !strings.Contains(body, strings.Repeat("x", 5000)) {
		t.Errorf("read on B: %d %.300s", status, body)
	}
}
