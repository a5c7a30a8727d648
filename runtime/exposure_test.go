package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
)

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addOut struct {
	Sum int `json:"sum"`
}

type orderIn struct {
	OrderID string `json:"order_id"`
}

// searchServer is a server with search exposure whose tools exercise what
// a call goes through: input validation, idempotency, a quota, requires,
// handler errors and panics. targets records what the interceptor saw.
func searchServer(targets *[]string, mu *sync.Mutex) *runtime.Server {
	record := func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) {
			if req.Method == "tools/call" {
				mu.Lock()
				*targets = append(*targets, fmt.Sprintf("%s call=%v", req.Target, req.Call != nil))
				mu.Unlock()
			}
			return next(ctx, req)
		}
	}
	_, logOpt := newLog()
	srv := runtime.NewServer(testInfo(), runtime.WithToolExposure(runtime.ExposeSearch), runtime.WithInterceptors(record), logOpt)
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "add_numbers", Description: "Adds two numbers."},
		func(_ context.Context, in *addIn) (*addOut, error) { return &addOut{in.A + in.B}, nil }))
	srv.AddTool(echoTool("echo"))
	var orders atomic.Int32
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "place_order", Description: "Places an order once per order id.",
		Idempotency: &runtime.Idempotency{Key: "order_id"}},
		func(_ context.Context, in *orderIn) (*addOut, error) { return &addOut{int(orders.Add(1))}, nil }))
	srv.AddTool(runtime.Tool{Name: "scarce", Description: "One call an hour.", RateLimit: &runtime.RateLimit{Requests: 1, Per: time.Hour},
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("ok"), nil
		}})
	srv.AddTool(runtime.Tool{Name: "needs_sampling", Description: "Only for clients that sample.", Requires: &runtime.Requires{Capabilities: []string{"sampling"}},
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("sampled"), nil
		}})
	srv.AddTool(runtime.Tool{Name: "refuse", Description: "Answers a protocol error.",
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return nil, &runtime.Error{Code: runtime.CodeInvalidParams, Message: "refused"}
		}})
	srv.AddTool(runtime.Tool{Name: "fail", Description: "Fails.",
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return nil, errors.New("it failed")
		}})
	srv.AddTool(runtime.Tool{Name: "job", Description: "May run as a task.", Execution: &runtime.ToolExecution{TaskSupport: runtime.TaskOptional},
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("done"), nil
		}})
	srv.AddTool(runtime.Tool{Name: "must", Description: "Runs only as a task.", Execution: &runtime.ToolExecution{TaskSupport: runtime.TaskRequired},
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("done"), nil
		}})
	srv.AddTool(runtime.Tool{Name: "boom", Description: "Panics.",
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) { panic("boom") }})
	return srv
}

// directCalls are tools/call params, each made directly on one server and
// through call_tool on another: the answers must be the same.
var directCalls = []string{
	`"name":"add_numbers","arguments":{"a":1,"b":2}`,
	`"name":"add_numbers","arguments":{"a":"one","b":2}`, // invalid input
	`"name":"add_numbers","arguments":{"a":1}`,           // missing required
	`"name":"add_numbers"`,                               // no arguments
	`"name":"echo","arguments":{"x":[1,2,{"y":null}]}`,
	`"name":"place_order","arguments":{"order_id":"o-1"}`,
	`"name":"place_order","arguments":{"order_id":"o-1"}`, // a retry: the first result
	`"name":"place_order","arguments":{"order_id":"o-2"}`,
	`"name":"scarce"`,
	`"name":"scarce"`, // over its quota
	`"name":"needs_sampling"`,
	`"name":"refuse"`,
	`"name":"fail"`,
	`"name":"boom"`,
	`"name":"no_such_tool"`,
	`"name":"echo","arguments":{"x":1},"_meta":{"progressToken":"p1"}`,
	`"name":"job","arguments":{},"task":{"ttl":60000}`, // a task is created
	`"name":"job","arguments":{}`,
	`"name":"must"`,           // refused: only as a task
	`"name":"echo","task":{}`, // refused: never as a task
}

// taskIDs are what differs between two servers creating the same task.
var taskIDs = regexp.MustCompile(`"(taskId|createdAt|lastUpdatedAt)":"[^"]*"`)

// viaCallTool turns direct params into those of the same call made
// through call_tool.
func viaCallTool(t *testing.T, direct string) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte("{"+direct+"}"), &m); err != nil {
		t.Fatal(err)
	}
	inner := map[string]json.RawMessage{"name": m["name"]}
	if a, ok := m["arguments"]; ok {
		inner["arguments"] = a
	}
	m["name"], _ = json.Marshal("call_tool")
	m["arguments"], _ = json.Marshal(inner)
	b, _ := json.Marshal(m)
	return string(b[1 : len(b)-1])
}

func TestCallToolIsADirectCall(t *testing.T) {
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			answers := func(via bool) ([]string, []string) {
				var targets []string
				var mu sync.Mutex
				p := newSessionPeer(t, searchServer(&targets, &mu))
				if era == "legacy" {
					p.exchange(req(0, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`))
					p.ss.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
				}
				var out []string
				for i, params := range directCalls {
					if via {
						params = viaCallTool(t, params)
					}
					if era == "modern" {
						params = strings.Replace(params, `"_meta":{`, `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},`, 1)
						if !strings.Contains(params, `"_meta"`) {
							params += "," + modernMeta
						}
					}
					got := p.exchange(req(i+1, "tools/call", "{"+params+"}"))
					// A task's status notifications come when it moves on,
					// amid later answers: they are left out.
					got = slices.DeleteFunc(got, func(m string) bool { return strings.Contains(m, `"method":"notifications/tasks/status"`) })
					out = append(out, taskIDs.ReplaceAllString(strings.Join(got, "\n"), `"$1":"…"`))
				}
				return out, targets
			}
			direct, directTargets := answers(false)
			via, viaTargets := answers(true)
			for i := range directCalls {
				if direct[i] != via[i] {
					t.Errorf("call %d {%s}:\ndirect:        %s\nvia call_tool: %s", i+1, directCalls[i], direct[i], via[i])
				}
			}
			if strings.Join(directTargets, "|") != strings.Join(viaTargets, "|") {
				t.Errorf("the interceptor saw\ndirect:        %q\nvia call_tool: %q", directTargets, viaTargets)
			}
		})
	}
}

func TestSearchExposureLists(t *testing.T) {
	var targets []string
	var mu sync.Mutex
	p := newSessionPeer(t, searchServer(&targets, &mu))
	got := p.exchange(req(1, "tools/list", `{`+modernMeta+`}`))
	var res struct {
		Tools []struct {
			Name        string
			InputSchema map[string]any
			Annotations map[string]any
		}
	}
	if err := json.Unmarshal([]byte(got[0]), &struct{ Result any }{&res}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		// search_tools and describe_tools only read; call_tool may run
		// anything, which MCP's default hints say (so it lists none).
		readOnly := tool.Annotations["readOnlyHint"] == true
		if tool.InputSchema["type"] != "object" || readOnly != (tool.Name != "call_tool") {
			t.Errorf("%s: schema %v, annotations %v", tool.Name, tool.InputSchema, tool.Annotations)
		}
	}
	if strings.Join(names, " ") != "search_tools describe_tools call_tool" {
		t.Fatalf("tools/list with search exposure lists %q", names)
	}
}

func TestSearchAndDescribe(t *testing.T) {
	var targets []string
	var mu sync.Mutex
	p := newSessionPeer(t, searchServer(&targets, &mu))
	call := func(id int, name, args string) string {
		got := p.exchange(req(id, "tools/call", `{"name":"`+name+`","arguments":`+args+`,`+modernMeta+`}`))
		return got[len(got)-1]
	}
	for _, c := range []struct{ name, args, want string }{
		{"search_tools", `{"query":"sum of two numbers","limit":1}`,
			`"structuredContent":{"tools":[{"name":"add_numbers","description":"Adds two numbers."}]}`},
		// needs_sampling is hidden from a client that does not sample: not found.
		{"search_tools", `{"query":"clients that sample"}`, `"structuredContent":{"tools":[]}`},
		{"search_tools", `{"query":""}`, `"isError":true`},
		{"search_tools", `{"query":"x","limit":0}`, `limit must be between 1 and 50`},
		{"search_tools", `{"query":"x","extra":1}`, `"isError":true`},
		{"describe_tools", `{"names":["add_numbers","nope"]}`, `"unknown":["nope"]`},
		{"describe_tools", `{"names":["add_numbers"]}`, `\"inputSchema\":{\"properties\":{\"a\":{\"type\":\"integer\"}`},
		{"describe_tools", `{"names":["needs_sampling"]}`, `no tool is named \"needs_sampling\"`},
		{"call_tool", `{"arguments":{}}`, `"code":-32602,"message":"invalid params: call_tool takes {\"name\"`},
		{"call_tool", `{"name":"echo","arguments":[1]}`, `"code":-32602`},
		{"call_tool", `{"name":"echo","extra":true}`, `"code":-32602`},
	} {
		if got := call(1, c.name, c.args); !strings.Contains(got, c.want) {
			t.Errorf("%s %s:\n got %s\nwant it to contain %s", c.name, c.args, got, c.want)
		}
	}
}

func TestSearchExposureReservesNames(t *testing.T) {
	srv := runtime.NewServer(testInfo(), runtime.WithToolExposure(runtime.ExposeSearch))
	defer func() {
		if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), "search tool's") {
			t.Fatalf("AddTool(call_tool) with search exposure: %v", v)
		}
	}()
	srv.AddTool(echoTool("call_tool"))
}

// TestCallToolScopes: over HTTP with authorization, call_tool of a tool
// needing a scope is refused with the same 403 step-up challenge as a
// direct call, and served once the token has the scope.
func TestCallToolScopes(t *testing.T) {
	k := jwttest.TheKeys(t)
	p := serveAuth(t, authServer(runtime.WithToolExposure(runtime.ExposeSearch)), authConfig(t))
	alice := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "mcp:access")))
	resp := p.do(http.MethodPost, initializeV2, alice...)
	readAll(t, resp)
	p.session = resp.Header.Get("Mcp-Session-Id")
	mustStatus(t, p.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, alice...), 202)
	for _, params := range []string{`{"name":"refund"}`, `{"name":"call_tool","arguments":{"name":"refund"}}`} {
		resp, _ = p.call("tools/call", params, alice...)
		status, www, _ := challenge(t, resp)
		if status != 403 || !strings.Contains(www, `scope="mcp:access orders:write"`) {
			t.Errorf("%s without orders:write: %d %q", params, status, www)
		}
	}
	stepped := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "mcp:access orders:write")))
	if got := toolText(t, p, `{"name":"call_tool","arguments":{"name":"refund"}}`, stepped); got != "refunded" {
		t.Errorf("call_tool refund after step-up: %q", got)
	}
}

// TestSearchWhileToolsChange: searches in parallel with tools being added
// and removed see either set, whole (run with -race).
func TestSearchWhileToolsChange(t *testing.T) {
	var targets []string
	var mu sync.Mutex
	srv := searchServer(&targets, &mu)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			p := newSessionPeer(t, srv)
			for i := range 20 {
				got := p.exchange(req(i, "tools/call", `{"name":"search_tools","arguments":{"query":"add numbers"},`+modernMeta+`}`))
				if !strings.Contains(got[len(got)-1], `"name":"add_numbers"`) {
					t.Errorf("searcher %d: %s", g, got[len(got)-1])
					return
				}
			}
		})
	}
	for i := range 20 {
		name := fmt.Sprintf("extra_%d", i)
		srv.AddTool(echoTool(name))
		srv.RemoveTool(name)
	}
	wg.Wait()
}

// TestSearchExposureCallToolTasks: call_tool may run as a task (optional)
// when any hidden tool may, wherever it is among them; with none, call_tool
// declares no task support, and search_tools and describe_tools never do.
func TestSearchExposureCallToolTasks(t *testing.T) {
	task := func(name string, support runtime.TaskSupport) runtime.Tool {
		tool := echoTool(name)
		tool.Execution = &runtime.ToolExecution{TaskSupport: support}
		return tool
	}
	for _, tc := range []struct {
		name  string
		tools []runtime.Tool
		want  string
	}{
		{"task tool first", []runtime.Tool{task("job", runtime.TaskOptional), echoTool("a"), echoTool("b")}, "optional"},
		{"task tool between", []runtime.Tool{echoTool("a"), task("must", runtime.TaskRequired), echoTool("b")}, "optional"},
		{"task tool last", []runtime.Tool{echoTool("a"), task("job", runtime.TaskOptional)}, "optional"},
		{"no task tool", []runtime.Tool{echoTool("a"), echoTool("b")}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := runtime.NewServer(testInfo(), runtime.WithToolExposure(runtime.ExposeSearch))
			for _, tool := range tc.tools {
				srv.AddTool(tool)
			}
			c := serve(t, srv)
			c.initialize()
			var res struct {
				Tools []struct {
					Name      string
					Execution *struct{ TaskSupport string }
				}
			}
			if err := json.Unmarshal(c.result("tools/list", nil), &res); err != nil {
				t.Fatal(err)
			}
			listed := false
			for _, tool := range res.Tools {
				want := ""
				if tool.Name == runtime.CallToolName {
					listed, want = true, tc.want
				}
				got := ""
				if tool.Execution != nil {
					got = tool.Execution.TaskSupport
				}
				if got != want {
					t.Errorf("%s's taskSupport is %q, want %q", tool.Name, got, want)
				}
			}
			if !listed {
				t.Fatalf("no call_tool listed: %+v", res.Tools)
			}
		})
	}
}
