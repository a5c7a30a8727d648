package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

// clientReqServer has a tool for each request to the client; each answers
// with what it got, or with its error (and whether it wraps
// ErrCapabilityNotSupported).
func clientReqServer() *runtime.Server {
	srv := runtime.NewServer(testInfo())
	report := func(text string, err error) (*runtime.CallToolResult, error) {
		if err != nil {
			return runtime.ErrorResult(fmt.Sprintf("unsupported=%v: %v", errors.Is(err, runtime.ErrCapabilityNotSupported), err)), nil
		}
		return runtime.TextResult(text), nil
	}
	srv.AddTool(runtime.Tool{Name: "sample", Description: "Samples.", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		temp := 0.5
		res, err := runtime.CreateMessage(ctx, &runtime.CreateMessageRequest{
			Messages:     []runtime.SamplingMessage{{Role: "user", Content: runtime.Text("What is 2+2?")}},
			MaxTokens:    100,
			SystemPrompt: "Be brief.",
			Temperature:  &temp,
		})
		if err != nil {
			return report("", err)
		}
		return report(fmt.Sprintf("%s %s %s %s", res.Role, res.Content, res.Model, res.StopReason), nil)
	}})
	srv.AddTool(runtime.Tool{Name: "elicit", Description: "Elicits.", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		res, err := runtime.Elicit(ctx, &runtime.ElicitRequest{
			Message:         "Who are you?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name"]}`),
		})
		if err != nil {
			return report("", err)
		}
		return report(fmt.Sprintf("%s %v", res.Action, res.Content), nil)
	}})
	srv.AddTool(runtime.Tool{Name: "elicit_url", Description: "Elicits by URL.", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		res, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Mode: "url", Message: "Sign in", URL: "https://example.com/login", ElicitationID: "e1"})
		if err != nil {
			return report("", err)
		}
		return report(res.Action, nil)
	}})
	srv.AddTool(runtime.Tool{Name: "roots", Description: "Lists roots.", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		roots, err := runtime.ListRoots(ctx)
		if err != nil {
			return report("", err)
		}
		return report(fmt.Sprint(roots), nil)
	}})
	return srv
}

var clientReqCases = []struct {
	name, caps, tool string
	wantRequest      string // the server's request, as sent
	answer           string // the client's answer: a "result" or "error" member
	wantText         string
	wantError        bool
}{
	{"sampling", `{"sampling":{}}`, "sample",
		`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"What is 2+2?"}}],"systemPrompt":"Be brief.","temperature":0.5,"maxTokens":100}}`,
		`"result":{"role":"assistant","content":{"type":"text","text":"4"},"model":"m-1","stopReason":"endTurn"}`,
		`assistant {"type":"text","text":"4"} m-1 endTurn`, false},
	{"sampling refused", `{"sampling":{}}`, "sample", "", `"error":{"code":-1,"message":"User rejected sampling request"}`,
		`unsupported=false: sampling/createMessage: the client answered with error -1: User rejected sampling request`, true},
	{"sampling not supported", `{"roots":{}}`, "sample", "", "",
		`unsupported=true: runtime: sampling/createMessage needs the client capability sampling: client does not support this capability`, true},
	{"elicitation", `{"elicitation":{}}`, "elicit",
		`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Who are you?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name"]}}}`,
		`"result":{"action":"accept","content":{"name":"Ada","age":36}}`,
		`accept map[age:36 name:Ada]`, false},
	{"elicitation declined", `{"elicitation":{"form":{}}}`, "elicit", "", `"result":{"action":"decline"}`, `decline map[]`, false},
	{"elicitation bad action", `{"elicitation":{}}`, "elicit", "", `"result":{"action":"maybe"}`,
		`unsupported=false: runtime: elicitation/create: the client answered with action "maybe"; want accept, decline or cancel`, true},
	{"elicitation url only", `{"elicitation":{"url":{}}}`, "elicit", "", "",
		`unsupported=true: runtime: elicitation/create needs the client capability elicitation (form mode): client does not support this capability`, true},
	{"elicitation url", `{"elicitation":{"url":{}}}`, "elicit_url",
		`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://example.com/login","elicitationId":"e1"}}`,
		`"result":{"action":"accept"}`, `accept`, false},
	{"elicitation url not supported", `{"elicitation":{}}`, "elicit_url", "", "",
		`unsupported=true: runtime: elicitation/create needs the client capability elicitation.url: client does not support this capability`, true},
	{"roots", `{"roots":{"listChanged":true}}`, "roots",
		`{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}`,
		`"result":{"roots":[{"uri":"file:///src","name":"src"},{"uri":"file:///tmp"}]}`,
		`[{file:///src src} {file:///tmp }]`, false},
	{"roots not supported", `{}`, "roots", "", "",
		`unsupported=true: runtime: roots/list needs the client capability roots: client does not support this capability`, true},
}

// TestClientRequestsStdio plays the client over stdio: it answers the
// server's request, then gets the tool's result.
func TestClientRequestsStdio(t *testing.T) {
	for _, tc := range clientReqCases {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, clientReqServer())
			c.result("initialize", json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":`+tc.caps+`,"clientInfo":{"name":"c","version":"1"}}`))
			c.send(`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"` + tc.tool + `"}}`)
			line := c.recv()
			if tc.wantRequest != "" || tc.answer != "" {
				if tc.wantRequest != "" && line != tc.wantRequest {
					t.Errorf("request\n got %s\nwant %s", line, tc.wantRequest)
				}
				c.send(`{"jsonrpc":"2.0","id":1,` + tc.answer + `}`)
				line = c.recv()
			}
			checkToolText(t, line, tc.wantText, tc.wantError)
		})
	}
}

// TestClientRequestsHTTP plays the client over Streamable HTTP: the request
// comes on the tools/call's SSE stream, the answer goes in a POST of its own
// (202), and the result follows on the stream.
func TestClientRequestsHTTP(t *testing.T) {
	for _, tc := range clientReqCases {
		t.Run(tc.name, func(t *testing.T) {
			p := serveHTTP(t, clientReqServer())
			p.initialize(tc.caps)
			resp, _ := p.call("tools/call", `{"name":"`+tc.tool+`"}`)
			defer resp.Body.Close()
			if tc.wantRequest == "" && tc.answer == "" {
				msgs := readAll(t, resp)
				checkToolText(t, msgs[len(msgs)-1].Data, tc.wantText, tc.wantError)
				return
			}
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Fatalf("Content-Type %q, want an SSE stream", ct)
			}
			s := newSSE(resp.Body)
			ev := nextEvent(t, s)
			if tc.wantRequest != "" && ev.Data != tc.wantRequest {
				t.Errorf("request\n got %s\nwant %s", ev.Data, tc.wantRequest)
			}
			ans := p.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,`+tc.answer+`}`)
			ans.Body.Close()
			if ans.StatusCode != http.StatusAccepted {
				t.Errorf("the answer's POST: %d, want 202", ans.StatusCode)
			}
			checkToolText(t, nextEvent(t, s).Data, tc.wantText, tc.wantError)
		})
	}
}

func checkToolText(t *testing.T, line, want string, isError bool) {
	t.Helper()
	r := parse(t, line)
	var res struct {
		Content []struct{ Text string }
		IsError bool
	}
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || len(res.Content) != 1 {
		t.Fatalf("not a tool result: %s", line)
	}
	if res.Content[0].Text != want || res.IsError != isError {
		t.Errorf("tool result %q (isError %v)\nwant %q (isError %v)", res.Content[0].Text, res.IsError, want, isError)
	}
}

// TestClientRequestCancelled: when the client cancels the tools/call, the
// handler's context is cancelled, the pending sampling request is cancelled
// in turn (notifications/cancelled to the client), and there is no response.
func TestClientRequestCancelled(t *testing.T) {
	c := serve(t, clientReqServer())
	c.result("initialize", json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"c","version":"1"}}`))
	c.send(`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"sample"}}`)
	if req := c.recv(); !strings.Contains(req, `"method":"sampling/createMessage"`) {
		t.Fatalf("want the sampling request, got %s", req)
	}
	c.notify("notifications/cancelled", map[string]any{"requestId": "call", "reason": "user gave up"})
	if got, want := c.recv(), `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"context canceled"}}`; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	// The late answer to the cancelled request is ignored; the session serves on.
	c.send(`{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"late"},"model":"m"}}`)
	jsonEqual(t, `{}`, c.result("ping", nil))
}

// TestClientRequestSessionClosed: a handler waiting for the client returns
// once the session ends.
func TestClientRequestSessionClosed(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	errs := make(chan error, 1)
	srv.AddTool(runtime.Tool{Name: "roots", Description: "Lists roots.", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		_, err := runtime.ListRoots(context.WithoutCancel(ctx)) // only the session's end can stop it
		errs <- err
		return nil, err
	}})
	sent := make(chan string, 10)
	ss := srv.NewSession(func(msg []byte) { sent <- string(msg) })
	ss.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}}}}`))
	<-sent
	ss.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"roots"}}`))
	if got := <-sent; got != `{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}` {
		t.Fatalf("got %s", got)
	}
	ss.Close()
	if err := <-errs; err == nil || !strings.Contains(err.Error(), "the session closed before the client answered") {
		t.Errorf("ListRoots after Close: %v", err)
	}
}

func TestElicitSchemaChecked(t *testing.T) {
	for _, tc := range []struct{ name, schema, err string }{
		{"not an object", `{"type":"string"}`, `RequestedSchema must be an object schema`},
		{"no properties", `{"type":"object"}`, `RequestedSchema must be an object schema`},
		{"nested object", `{"type":"object","properties":{"a":{"type":"object","properties":{}}}}`, `property "a": type must be string, number, integer, boolean or an array of enum strings (forms are flat), not "object"`},
		{"array of strings", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}`, `property "a": an array must be a multi-select of enum items`},
		{"enums", `{"type":"object","properties":{"a":{"type":"string","enum":["x"]},"b":{"type":"array","items":{"enum":["x","y"]}},"c":{"type":"array","items":{"anyOf":[{"const":"x","title":"X"}]}},"d":{"type":"boolean","default":true}}}`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := runtime.NewServer(testInfo())
			got := make(chan error, 1)
			srv.AddTool(runtime.Tool{Name: "e", Description: "Elicits.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
				_, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: "m", RequestedSchema: json.RawMessage(tc.schema)})
				got <- err
				return runtime.TextResult("ok"), nil
			}})
			c := serve(t, srv)
			c.result("initialize", json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}`))
			c.send(`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"e"}}`)
			if tc.err == "" {
				if req := c.recv(); !strings.Contains(req, `"method":"elicitation/create"`) {
					t.Fatalf("want the request, got %s", req)
				}
				c.send(`{"jsonrpc":"2.0","id":1,"result":{"action":"cancel"}}`)
				if err := <-got; err != nil {
					t.Errorf("valid schema: %v", err)
				}
				return
			}
			if err := <-got; err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}
}

// TestLogging: logging/setLevel sets the least severe level sent (info
// before it), an invalid level is invalid params, and the slog bridge maps
// levels.
func TestLogging(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(runtime.Tool{Name: "log", Description: "Logs at every level.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		for _, l := range []runtime.LogLevel{runtime.LevelDebug, runtime.LevelInfo, runtime.LevelWarning, runtime.LevelEmergency} {
			runtime.Log(ctx, l, "", string(l))
		}
		if err := runtime.Log(ctx, "loud", "", 1); err == nil {
			return nil, fmt.Errorf("an unknown level was accepted")
		}
		runtime.Logger(ctx).With("tool", "log").Warn("slog says", "n", 1)
		runtime.Logger(ctx).Debug("slog debug")
		return runtime.TextResult("ok"), nil
	}})
	c := serve(t, srv)
	c.initialize()
	logs := func() []string {
		c.send(`{"jsonrpc":"2.0","id":"log","method":"tools/call","params":{"name":"log"}}`)
		var out []string
		for {
			line := c.recv()
			if strings.Contains(line, `"id":"log"`) {
				return out
			}
			out = append(out, line)
		}
	}
	msg := func(level, data string) string {
		return `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"` + level + `","data":` + data + `}}`
	}
	slogWarn := msg("warning", `{"msg":"slog says","tool":"log","n":1}`)
	if diff := cmp.Diff([]string{msg("info", `"info"`), msg("warning", `"warning"`), msg("emergency", `"emergency"`), slogWarn}, logs()); diff != "" {
		t.Errorf("default level (-want +got):\n%s", diff)
	}
	jsonEqual(t, `{}`, c.result("logging/setLevel", map[string]any{"level": "debug"}))
	if diff := cmp.Diff([]string{msg("debug", `"debug"`), msg("info", `"info"`), msg("warning", `"warning"`), msg("emergency", `"emergency"`), slogWarn, msg("debug", `{"msg":"slog debug"}`)}, logs()); diff != "" {
		t.Errorf("level debug (-want +got):\n%s", diff)
	}
	jsonEqual(t, `{}`, c.result("logging/setLevel", map[string]any{"level": "error"}))
	if diff := cmp.Diff([]string{msg("emergency", `"emergency"`)}, logs()); diff != "" {
		t.Errorf("level error (-want +got):\n%s", diff)
	}
	for _, bad := range []any{map[string]any{"level": "verbose"}, map[string]any{}, nil, map[string]any{"level": 3}} {
		r := c.request("logging/setLevel", bad)
		if r.Error == nil || r.Error.Code != runtime.CodeInvalidParams {
			t.Errorf("setLevel %v: %+v, want -32602", bad, r)
		}
	}
}

func TestRequestUtilitiesOutsideSession(t *testing.T) {
	ctx := context.Background()
	if err := runtime.Log(ctx, runtime.LevelInfo, "", "x"); err != nil {
		t.Errorf("Log: %v", err)
	}
	if err := runtime.Progress(ctx, 1, 2, ""); err != nil {
		t.Errorf("Progress: %v", err)
	}
	runtime.Logger(ctx).Error("nowhere")
	runtime.CloseSSEStream(ctx)
	if _, err := runtime.ListRoots(ctx); err == nil {
		t.Error("ListRoots outside a session: no error")
	}
	if runtime.SessionID(ctx) != "" || runtime.RequestHeader(ctx) != nil {
		t.Error("SessionID or RequestHeader outside a session")
	}
}
