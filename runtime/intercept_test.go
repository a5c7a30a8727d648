package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// seen is what a recording interceptor saw of one request.
type seen struct {
	Method, Target, Transport, Version, Session, HTTPVersion string
	Modern, HasID, HasHeader                                 bool
	Call                                                     string // the type of Request.Call
	Result                                                   string // the type of the result
	Err                                                      string
}

// recorder is an interceptor that records every request it sees.
type recorder struct {
	mu  sync.Mutex
	got []seen
}

func (r *recorder) intercept(next runtime.Handler) runtime.Handler {
	return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) {
		res, err := next(ctx, req)
		s := seen{Method: req.Method, Target: req.Target, Transport: req.Transport, Version: req.ProtocolVersion,
			Session: req.SessionID, HTTPVersion: req.HTTPVersion, Modern: req.Modern, HasID: req.ID != nil,
			HasHeader: req.Header != nil}
		if req.Call != nil {
			s.Call = fmt.Sprintf("%T", req.Call)
		}
		if res != nil {
			s.Result = fmt.Sprintf("%T", res)
		}
		if err != nil {
			s.Err = err.Error()
		}
		r.mu.Lock()
		r.got = append(r.got, s)
		r.mu.Unlock()
		return res, err
	}
}

func (r *recorder) last() seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.got[len(r.got)-1]
}

func (r *recorder) methods() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var m []string
	for _, s := range r.got {
		m = append(m, s.Method)
	}
	return m
}

func interceptedServer(opts ...runtime.Option) *runtime.Server {
	srv := modernServer(opts...)
	srv.AddPrompt(runtime.Prompt{Name: "greet", Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{{Role: "user", Content: runtime.TextContent{Text: "hi"}}}}, nil
	}})
	return srv
}

// Every method and notification of a legacy stdio session goes through the
// interceptor, which sees its target, decoded params and outcome.
func TestInterceptorSeesEveryMethodOnStdio(t *testing.T) {
	rec := &recorder{}
	c := serve(t, interceptedServer(runtime.WithInterceptors(rec.intercept)))
	c.initialize()
	c.result("ping", nil)
	if got := rec.last(); got.Method != "ping" || got.Transport != runtime.TransportStdio || got.Version != "2025-11-25" || got.Modern || got.HasHeader {
		t.Errorf("ping: %+v", got)
	}
	c.result("tools/list", nil)
	c.callTool("echo", map[string]any{"x": 1})
	if got := rec.last(); got != (seen{Method: "tools/call", Target: "echo", Transport: "stdio", Version: "2025-11-25", HasID: true,
		Call: "*runtime.CallToolRequest", Result: "*runtime.CallToolResult"}) {
		t.Errorf("tools/call: %+v", got)
	}
	if r := c.request("tools/call", map[string]any{"name": "nope"}); r.Error == nil {
		t.Fatal("unknown tool: no error")
	}
	if got := rec.last(); got.Target != "nope" || got.Call != "" || !strings.Contains(got.Err, `unknown tool "nope"`) {
		t.Errorf("unknown tool: %+v", got)
	}
	c.result("resources/read", map[string]any{"uri": "test://a"})
	if got := rec.last(); got.Target != "test://a" || got.Call != "*runtime.ReadResourceRequest" || got.Result != "*runtime.ReadResourceResult" {
		t.Errorf("resources/read: %+v", got)
	}
	c.result("prompts/get", map[string]any{"name": "greet"})
	if got := rec.last(); got.Target != "greet" || got.Call != "*runtime.GetPromptRequest" || got.Result != "*runtime.GetPromptResult" {
		t.Errorf("prompts/get: %+v", got)
	}
	c.result("resources/list", nil)
	if got := rec.last(); got.Result != "runtime.EncodedResult" {
		t.Errorf("resources/list: %+v", got)
	}
	c.notify("notifications/cancelled", map[string]any{"requestId": 99})
	c.result("ping", nil) // the notification was handled before
	want := []string{"initialize", "notifications/initialized", "ping", "tools/list", "tools/call", "tools/call",
		"resources/read", "prompts/get", "resources/list", "notifications/cancelled", "ping"}
	if got := rec.methods(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("methods seen:\n got %v\nwant %v", got, want)
	}
}

// Modern requests over HTTP go through the same interceptors, and say so.
func TestInterceptorSeesModernHTTP(t *testing.T) {
	rec := &recorder{}
	p := serveHTTP(t, interceptedServer(runtime.WithInterceptors(rec.intercept)))
	status, _, body := modernPost(t, p.url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{},`+modernMeta+`}}`, nil)
	if status != http.StatusOK || !strings.Contains(body, `"result"`) {
		t.Fatalf("%d %s", status, body)
	}
	if got := rec.last(); got != (seen{Method: "tools/call", Target: "echo", Transport: "http", Version: modernVersion, HTTPVersion: "1.1",
		Modern: true, HasID: true, HasHeader: true, Call: "*runtime.CallToolRequest", Result: "*runtime.CallToolResult"}) {
		t.Errorf("modern tools/call: %+v", got)
	}
	// a legacy session on the same handler
	p.initialize(`{}`)
	p.result("tools/list", "")
	if got := rec.last(); got.Method != "tools/list" || got.Session == "" || got.Session != p.session || got.Modern {
		t.Errorf("legacy tools/list over HTTP: %+v", got)
	}
}

// denyList is the README's example: refuse some tools to everyone.
func denyList(tools ...string) runtime.Interceptor {
	return func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) {
			for _, t := range tools {
				if req.Method == "tools/call" && req.Target == t {
					return nil, &runtime.Error{Code: runtime.CodeInvalidParams, Message: "tool " + t + " is disabled on this server"}
				}
			}
			return next(ctx, req)
		}
	}
}

// An interceptor answers without the handler: with an error or a result.
func TestInterceptorShortCircuits(t *testing.T) {
	ran := false
	srv := runtime.NewServer(testInfo(), runtime.WithInterceptors(denyList("rm"), func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) {
			if req.Target == "cached" {
				return runtime.TextResult("from the cache"), nil
			}
			if req.Target == "plain" {
				return nil, errors.New("no, thanks")
			}
			return next(ctx, req)
		}
	}))
	for _, name := range []string{"rm", "cached", "plain"} {
		srv.AddTool(runtime.Tool{Name: name, Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			ran = true
			return runtime.TextResult("ran"), nil
		}})
	}
	c := serve(t, srv)
	c.initialize()
	r := c.request("tools/call", map[string]any{"name": "rm"})
	if r.Error == nil || r.Error.Code != runtime.CodeInvalidParams || r.Error.Message != "tool rm is disabled on this server" {
		t.Errorf("denied: %+v", r)
	}
	jsonEqual(t, `{"content":[{"type":"text","text":"from the cache"}]}`, c.callTool("cached", nil))
	jsonEqual(t, `{"content":[{"type":"text","text":"no, thanks"}],"isError":true}`, c.callTool("plain", nil))
	if ran {
		t.Error("a handler ran")
	}
}

// A request refused before any method runs reaches the interceptors,
// marked Refused, with the refusal from next; an interceptor that answers
// it anyway does not change what the client gets.
func TestInterceptorSeesRefusals(t *testing.T) {
	var mu sync.Mutex
	var refused []string
	srv := runtime.NewServer(testInfo(), runtime.WithInterceptors(func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) {
			if !req.Refused {
				return next(ctx, req)
			}
			_, err := next(ctx, req)
			mu.Lock()
			refused = append(refused, req.Method+": "+err.Error())
			mu.Unlock()
			return runtime.TextResult("served anyway"), nil
		}
	}))
	c := serve(t, srv)
	if r := c.request("tools/list", nil); r.Error == nil || r.Error.Code != runtime.CodeInvalidRequest {
		t.Errorf("before initialize: %+v", r)
	}
	c.initialize()
	if r := c.request("no/such", nil); r.Error == nil || r.Error.Code != runtime.CodeMethodNotFound {
		t.Errorf("unknown method: %+v", r)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{
		"tools/list: jsonrpc error -32600: invalid request: the session is not initialized; send initialize first",
		`no/such: jsonrpc error -32601: method "no/such" not found`,
	}
	if strings.Join(refused, "\n") != strings.Join(want, "\n") {
		t.Errorf("refusals seen:\n%s\nwant:\n%s", strings.Join(refused, "\n"), strings.Join(want, "\n"))
	}
	if runtime.KnownMethod("no/such") || !runtime.KnownMethod("tools/call") {
		t.Error("KnownMethod")
	}
}

type ctxKey struct{}

// Interceptors run in order, and the context one passes to next is the
// handler's.
func TestInterceptorOrderAndContext(t *testing.T) {
	var order []string // of tools/call only: notifications/initialized may come in any time
	mark := func(name string) runtime.Interceptor {
		return func(next runtime.Handler) runtime.Handler {
			return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) {
				if req.Method != "tools/call" {
					return next(ctx, req)
				}
				order = append(order, name+">")
				res, err := next(context.WithValue(ctx, ctxKey{}, name), req)
				order = append(order, "<"+name)
				return res, err
			}
		}
	}
	srv := runtime.NewServer(testInfo(), runtime.WithInterceptors(mark("a")), runtime.WithInterceptors(mark("b")))
	srv.AddTool(runtime.Tool{Name: "who", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		v, _ := ctx.Value(ctxKey{}).(string)
		return runtime.TextResult(v + " " + runtime.ProtocolVersion(ctx)), nil
	}})
	c := serve(t, srv)
	c.initialize()
	jsonEqual(t, `{"content":[{"type":"text","text":"b 2025-11-25"}]}`, c.callTool("who", nil))
	if got := strings.Join(order, " "); got != "a> b> <b <a" {
		t.Errorf("order: %s", got)
	}
}

type transfer struct {
	To     string `json:"to"`
	Amount int    `json:"amount"`
}

// An input interceptor sees a typed tool's decoded input.
func TestInputInterceptorSeesTypedInput(t *testing.T) {
	limit := func(_ context.Context, tool string, in any) (*runtime.CallToolResult, error) {
		if tr, ok := in.(*transfer); ok && tr.Amount > 100 {
			return nil, fmt.Errorf("%s: %d is over the limit of 100", tool, tr.Amount)
		}
		return nil, nil
	}
	srv := runtime.NewServer(testInfo(), runtime.WithInputInterceptors(limit))
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "pay"}, func(_ context.Context, in *transfer) (*struct {
		OK bool `json:"ok"`
	}, error) {
		return &struct {
			OK bool `json:"ok"`
		}{true}, nil
	}))
	c := serve(t, srv)
	c.initialize()
	jsonEqual(t, `{"content":[{"type":"text","text":"pay: 500 is over the limit of 100"}],"isError":true}`,
		c.callTool("pay", map[string]any{"to": "bob", "amount": 500}))
	var res struct{ IsError bool }
	json.Unmarshal(c.callTool("pay", map[string]any{"to": "bob", "amount": 5}), &res)
	if res.IsError {
		t.Error("a small transfer was refused")
	}
}

// Session hooks are told when a session starts and ends.
func TestSessionHook(t *testing.T) {
	events := make(chan string, 4)
	srv := runtime.NewServer(testInfo(), runtime.WithSessionHook(func(info runtime.SessionInfo) func() {
		events <- "start " + info.Transport + " " + info.ProtocolVersion
		return func() { events <- "end" }
	}))
	p := newSessionPeer(t, srv)
	p.exchange(req(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`))
	if got := <-events; got != "start  2025-06-18" {
		t.Errorf("got %q", got)
	}
	p.ss.Close()
	p.ss.Close()
	if got := <-events; got != "end" {
		t.Errorf("got %q", got)
	}
	if len(events) != 0 {
		t.Errorf("more events: %d", len(events))
	}
}
