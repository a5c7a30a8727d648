package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

func TestToolsListWire(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	tool := echoTool("lookup_order")
	tool.Title = "Look up an order"
	tool.InputSchema = json.RawMessage(`{
		"type": "object",
		"properties": {"order_id": {"type": "string"}},
		"required": ["order_id"]
	}`)
	tool.OutputSchema = json.RawMessage(`{"type":"object","properties":{"status":{"type":"string"}}}`)
	tool.Annotations = &runtime.ToolAnnotations{Title: "Lookup", ReadOnlyHint: new(true), DestructiveHint: new(false), IdempotentHint: new(true)}
	tool.Icons = []runtime.Icon{{Src: "data:image/png;base64,AA=="}}
	tool.Meta = json.RawMessage(`{"ui": {"resourceUri": "ui://orders"}}`)
	srv.AddTool(tool)
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	// Exact bytes: schemas are compacted, field order is fixed.
	want := `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"lookup_order","title":"Look up an order","description":"Echo the arguments.",` +
		`"inputSchema":{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]},` +
		`"outputSchema":{"type":"object","properties":{"status":{"type":"string"}}},` +
		`"annotations":{"title":"Lookup","readOnlyHint":true,"destructiveHint":false,"idempotentHint":true},` +
		`"icons":[{"src":"data:image/png;base64,AA=="}],"_meta":{"ui":{"resourceUri":"ui://orders"}}}]}}`
	if got := c.recv(); got != want {
		t.Errorf("tools/list:\n got %s\nwant %s", got, want)
	}
	tools := srv.Tools()
	if got := string(tools[0].InputSchema); got != `{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]}` {
		t.Errorf("Tools()[0].InputSchema = %s", got)
	}
}

func TestToolsListPagination(t *testing.T) {
	srv := runtime.NewServer(testInfo(), runtime.WithPageSize(2))
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		srv.AddTool(echoTool(n))
	}
	c := serve(t, srv)
	c.initialize()

	var names []string
	var pages int
	var cursor any
	for {
		var params any
		if cursor != nil {
			params = map[string]any{"cursor": cursor}
		}
		var page struct {
			Tools      []struct{ Name string }
			NextCursor *string
		}
		if err := json.Unmarshal(c.result("tools/list", params), &page); err != nil {
			t.Fatal(err)
		}
		pages++
		for _, tl := range page.Tools {
			names = append(names, tl.Name)
		}
		if page.NextCursor == nil {
			break
		}
		if pages > 5 {
			t.Fatal("pagination does not end")
		}
		cursor = *page.NextCursor
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "d", "e"}, names); diff != "" {
		t.Errorf("tools across pages (-want +got):\n%s", diff)
	}
	if pages != 3 {
		t.Errorf("%d pages, want 3", pages)
	}

	for _, bad := range []any{"garbage", "", "bWNwZ2VuLzE6OTk", "bWNwZ2VuLzE6MA", 42, map[string]any{}} {
		r := c.request("tools/list", map[string]any{"cursor": bad})
		if r.Error == nil || r.Error.Code != runtime.CodeInvalidParams {
			t.Errorf("cursor %v: got %+v, want -32602", bad, r)
		}
	}
	for _, bad := range []any{[]int{1}, "x"} {
		if r := c.request("tools/list", bad); r.Error == nil || r.Error.Code != runtime.CodeInvalidParams {
			t.Errorf("params %v: got %+v, want -32602", bad, r)
		}
	}
	// An explicit null cursor is the first page.
	c.result("tools/list", map[string]any{"cursor": nil})
}

func TestToolsCallProtocolErrors(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("echo"))
	c := serve(t, srv)
	c.initialize()
	for _, tc := range []struct {
		name   string
		params string
		msg    string
	}{
		{"no params", ``, `invalid params: tools/call takes an object with "name" and "arguments"`},
		{"params not an object", `,"params":[1]`, `invalid params: tools/call takes an object with "name" and "arguments"`},
		{"missing name", `,"params":{}`, `invalid params: "name" must be the name of a tool`},
		{"name not a string", `,"params":{"name":1}`, `invalid params: "name" must be the name of a tool`},
		{"unknown tool", `,"params":{"name":"nope"}`, `unknown tool "nope"`},
		{"unknown tool, long name", `,"params":{"name":"` + strings.Repeat("n", 300) + `"}`, `unknown tool "` + strings.Repeat("n", 100) + `…"`},
		{"arguments an array", `,"params":{"name":"echo","arguments":[]}`, `invalid params: "arguments" must be a JSON object`},
		{"arguments a string", `,"params":{"name":"echo","arguments":"{}"}`, `invalid params: "arguments" must be a JSON object`},
		{"_meta not an object", `,"params":{"name":"echo","_meta":5}`, `invalid params: "_meta" must be a JSON object`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call"` + tc.params + `}`)
			r := parse(t, c.recv())
			want := &rpcError{Code: runtime.CodeInvalidParams, Message: tc.msg}
			if diff := cmp.Diff(want, r.Error); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestToolsCallRawHandler(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	type seen struct{ name, args, meta string }
	got := make(chan seen, 1)
	srv.AddTool(runtime.Tool{Name: "raw", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		got <- seen{req.Name, string(req.Arguments), string(req.Meta)}
		return runtime.TextResult("done"), nil
	}})
	c := serve(t, srv)
	c.initialize()
	for _, tc := range []struct {
		params string
		want   seen
	}{
		{`{"name":"raw","arguments":{"x":[1, 2]},"_meta":{"progressToken":"p1"}}`, seen{"raw", `{"x":[1, 2]}`, `{"progressToken":"p1"}`}},
		{`{"name":"raw"}`, seen{"raw", "", ""}},
		{`{"name":"raw","arguments":null}`, seen{"raw", "", ""}},
	} {
		c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + tc.params + `}`)
		if line := c.recv(); line != `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}]}}` {
			t.Errorf("response %s", line)
		}
		if diff := cmp.Diff(tc.want, <-got, cmp.AllowUnexported(seen{})); diff != "" {
			t.Errorf("request seen by the handler (-want +got):\n%s", diff)
		}
	}
}

// TestToolsCallOutcomes covers what a handler's return values become.
func TestToolsCallOutcomes(t *testing.T) {
	logs, logOpt := newLog()
	srv := runtime.NewServer(testInfo(), logOpt)
	add := func(name string, res *runtime.CallToolResult, err error) {
		srv.AddTool(runtime.Tool{Name: name, Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return res, err
		}})
	}
	add("fails", nil, errors.New("the warehouse API is down; retry in a minute"))
	add("protocol", nil, fmt.Errorf("wrapped: %w", &runtime.Error{Code: runtime.CodeInvalidParams, Message: "bad cursor", Data: map[string]int{"at": 3}}))
	add("unimplemented", nil, &runtime.NotImplementedError{Kind: "tool", Name: "unimplemented"})
	add("nothing", nil, nil)
	add("business_error", runtime.ErrorResult("order A-1042 is already refunded"), nil)
	add("nil_content", &runtime.CallToolResult{Content: []runtime.Content{nil}}, nil)
	add("marshal_panics", &runtime.CallToolResult{StructuredContent: panicky{}}, nil)
	c := serve(t, srv)
	c.initialize()
	for _, tc := range []struct{ tool, want string }{
		{"fails", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"the warehouse API is down; retry in a minute"}],"isError":true}}`},
		{"protocol", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad cursor","data":{"at":3}}}`},
		{"unimplemented", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"tool \"unimplemented\" is not implemented"}],"isError":true}}`},
		{"nothing", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"tool returned no result"}],"isError":true}}`},
		{"business_error", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"order A-1042 is already refunded"}],"isError":true}}`},
		{"nil_content", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error: the result could not be encoded"}}`},
		{"marshal_panics", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error: the result could not be encoded"}}`},
		{"business_error", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"order A-1042 is already refunded"}],"isError":true}}`}, // still serving
	} {
		c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tc.tool + `"}}`)
		if got := c.recv(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.tool, got, tc.want)
		}
	}
	if !contains(logs.String(), "nil Content") {
		t.Errorf("an unencodable result is not logged:\n%s", logs)
	}
}

type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("cannot marshal") }

func TestToolPanic(t *testing.T) {
	logs, logOpt := newLog()
	srv := runtime.NewServer(testInfo(), logOpt)
	srv.AddTool(runtime.Tool{Name: "boom", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		panic("secret database password in panic value")
	}})
	srv.AddTool(echoTool("echo"))
	c := serve(t, srv)
	c.initialize()
	for range 2 {
		c.send(`{"jsonrpc":"2.0","id":"p","method":"tools/call","params":{"name":"boom"}}`)
		if got, want := c.recv(), `{"jsonrpc":"2.0","id":"p","error":{"code":-32603,"message":"internal error in tool \"boom\""}}`; got != want {
			t.Errorf("panic answer:\n got %s\nwant %s", got, want)
		}
		// The server keeps serving.
		jsonEqual(t, `{"content":[{"type":"text","text":"{}"}]}`, c.callTool("echo", map[string]any{}))
	}
	if l := logs.String(); !contains(l, "tool handler panicked") || !contains(l, "secret database password") || !contains(l, "tools_test.go") {
		t.Errorf("the panic and its stack are not logged:\n%s", l)
	}
}

func TestCancellation(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	started := make(chan struct{})
	finished := make(chan error, 1)
	srv.AddTool(runtime.Tool{Name: "slow", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		close(started)
		<-ctx.Done()
		finished <- ctx.Err()
		return runtime.TextResult("too late"), nil
	}})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":"slow-1","method":"tools/call","params":{"name":"slow"}}`)
	<-started
	// The id is spelled differently (escaped) in the cancellation: it is the
	// same id.
	c.notify("notifications/cancelled", map[string]any{"requestId": "slow-1", "reason": "user pressed stop"})
	select {
	case err := <-finished:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("handler context: %v, want context.Canceled", err)
		}
	case <-time.After(wait):
		t.Fatal("the handler's context was not cancelled")
	}
	jsonEqual(t, `{}`, c.result("ping", nil))
	// EOF waits for every handler; nothing may have been sent for the
	// cancelled request.
	if err := c.closeInput(); err != nil {
		t.Fatal(err)
	}
	if rest := c.rest(); len(rest) != 0 {
		t.Errorf("a cancelled request was answered: %q", rest)
	}
}

func TestCancellationEscapedID(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	started := make(chan struct{})
	srv.AddTool(runtime.Tool{Name: "slow", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":"ab","method":"tools/call","params":{"name":"slow"}}`)
	<-started
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a\u0062"}}`)
	if err := c.closeInput(); err != nil {
		t.Fatal(err)
	}
	if rest := c.rest(); len(rest) != 0 {
		t.Errorf("a cancelled request was answered: %q", rest)
	}
}

func TestEOFWaitsForInFlight(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	started := make(chan struct{})
	release := make(chan struct{})
	srv.AddTool(runtime.Tool{Name: "slow", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		close(started)
		<-release
		return runtime.TextResult("finished"), ctx.Err()
	}})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)
	<-started
	c.w.Close() // EOF while the call is in flight
	select {
	case err := <-c.done:
		t.Fatalf("ServeStdio returned (%v) with a call in flight", err)
	default:
	}
	close(release)
	if got, want := c.recv(), `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"finished"}]}}`; got != want {
		t.Errorf("in-flight call after EOF:\n got %s\nwant %s", got, want)
	}
	if err := c.closeInput(); err != nil {
		t.Errorf("ServeStdio after EOF: %v", err)
	}
}

// TestConcurrentCalls shows each call runs in its own goroutine: the first
// call can only finish once the second has run.
func TestConcurrentCalls(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	second := make(chan struct{})
	srv.AddTool(runtime.Tool{Name: "first", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		select {
		case <-second:
			return runtime.TextResult("first"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}})
	srv.AddTool(runtime.Tool{Name: "second", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		close(second)
		return runtime.TextResult("second"), nil
	}})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"first"}}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"second"}}`)
	got := map[string]bool{c.recv(): true, c.recv(): true}
	want := map[string]bool{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"first"}]}}`:  true,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"second"}]}}`: true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

func TestDuplicateInFlightID(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	started := make(chan struct{})
	release := make(chan struct{})
	srv.AddTool(runtime.Tool{Name: "slow", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		close(started)
		<-release
		return runtime.TextResult("done"), nil
	}})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}}`)
	<-started
	c.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}}`)
	if got, want := c.recv(), `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: id 7 is already used by a request in flight"}}`; got != want {
		t.Errorf("duplicate id:\n got %s\nwant %s", got, want)
	}
	close(release)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"done"}]}}` {
		t.Errorf("first call: %s", got)
	}
}

func TestServeContextCancelled(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	started := make(chan struct{})
	handlerDone := make(chan error, 1)
	srv.AddTool(runtime.Tool{Name: "slow", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		close(started)
		<-ctx.Done()
		handlerDone <- ctx.Err()
		return runtime.TextResult("late"), nil
	}})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)
	<-started
	c.cancel()
	select {
	case err := <-c.done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeStdio = %v, want context.Canceled", err)
		}
		c.done <- err
	case <-time.After(wait):
		t.Fatal("ServeStdio did not return after cancel")
	}
	if err := <-handlerDone; !errors.Is(err, context.Canceled) {
		t.Errorf("handler context: %v", err)
	}
	if rest := c.rest(); len(rest) != 0 {
		t.Errorf("written after ServeStdio returned: %q", rest)
	}
}

func TestAddToolPanics(t *testing.T) {
	h := func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) { return nil, nil }
	for _, tc := range []struct {
		name string
		tool runtime.Tool
		want string
	}{
		{"no name", runtime.Tool{Handler: h}, "no name"},
		{"nil handler", runtime.Tool{Name: "x"}, "nil Handler"},
		{"duplicate", runtime.Tool{Name: "dup", Handler: h}, "already registered"},
		{"invalid input schema", runtime.Tool{Name: "x", Handler: h, InputSchema: json.RawMessage(`{`)}, "not valid JSON"},
		{"input schema not an object", runtime.Tool{Name: "x", Handler: h, InputSchema: json.RawMessage(`true`)}, "must be a JSON object"},
		{"input schema not of type object", runtime.Tool{Name: "x", Handler: h, InputSchema: json.RawMessage(`{"type":"string"}`)}, `"type":"object"`},
		{"output schema not an object", runtime.Tool{Name: "x", Handler: h, OutputSchema: json.RawMessage(`[]`)}, "must be a JSON object"},
		{"meta not an object", runtime.Tool{Name: "x", Handler: h, Meta: json.RawMessage(`"m"`)}, "must be a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := runtime.NewServer(testInfo())
			srv.AddTool(runtime.Tool{Name: "dup", Handler: h})
			defer func() {
				v := recover()
				if v == nil || !contains(fmt.Sprint(v), tc.want) {
					t.Errorf("panic %v, want one mentioning %q", v, tc.want)
				}
			}()
			srv.AddTool(tc.tool)
		})
	}
}

type countIn struct {
	N int `json:"n" jsonschema:"minimum=1"`
}

// A tool's AdvertisedInputSchema is what tools/list shows; arguments are
// still validated against InputSchema (here: reflected, with minimum 1).
func TestAdvertisedInputSchema(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	advertised := `{"type":"object","properties":{"n":{"type":"integer","description":"(minimum: 1)"}},"required":["n"]}`
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "count", AdvertisedInputSchema: json.RawMessage(advertised)},
		func(_ context.Context, in *countIn) (*countIn, error) { return in, nil }))
	c := serve(t, srv)
	c.initialize()
	var list struct {
		Tools []struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(c.result("tools/list", nil), &list); err != nil || len(list.Tools) != 1 {
		t.Fatalf("tools/list: %v %+v", err, list)
	}
	jsonEqual(t, advertised, list.Tools[0].InputSchema)
	if res := string(c.callTool("count", map[string]any{"n": 0})); !strings.Contains(res, `"isError":true`) || !strings.Contains(res, "greater than or equal to 1") {
		t.Errorf("n = 0 breaks the validated schema's minimum, yet: %s", res)
	}
	jsonEqual(t, `{"content":[{"type":"text","text":"{\"n\":2}"}],"structuredContent":{"n":2}}`, c.callTool("count", map[string]any{"n": 2}))
}
