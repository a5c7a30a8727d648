package inmemory_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/inmemory"
)

// newServer serves a tool that asks the client to confirm (a request of the
// server to the client) and logs what it did (a notification).
func newServer() *runtime.Server {
	srv := runtime.NewServer(runtime.Implementation{Name: "test", Version: "1.0.0"})
	srv.AddTool(runtime.Tool{
		Name:        "confirm",
		Description: "Ask the user to confirm.",
		Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			res, err := runtime.Elicit(ctx, &runtime.ElicitRequest{
				Message:         "Proceed?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`),
			})
			if err != nil {
				return nil, err
			}
			if err := runtime.Log(ctx, runtime.LevelWarning, "confirm", "the user said "+res.Action); err != nil {
				return nil, err
			}
			return runtime.TextResult(res.Action), nil
		},
	})
	return srv
}

func initialize(t *testing.T, ctx context.Context, c *inmemory.Client) {
	t.Helper()
	_, err := c.Call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{"elicitation": map[string]any{}},
		"clientInfo":      map[string]any{"name": "test client", "version": "1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Notify(ctx, "notifications/initialized", nil); err != nil {
		t.Fatal(err)
	}
}

// TestWhatStdioDoes: list, call, a request of the server answered by the
// client while the call waits, and the notifications of the call and of a
// change to the tools.
func TestWhatStdioDoes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := newServer()
	notes := make(chan string, 16)
	c, err := inmemory.Connect(srv, inmemory.Options{
		OnRequest: func(_ context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
			if method != "elicitation/create" || !strings.Contains(string(params), `"Proceed?"`) {
				return nil, &inmemory.Error{Code: -32601, Message: "unexpected " + method}
			}
			return json.RawMessage(`{"action":"accept","content":{"ok":true}}`), nil
		},
		OnNotification: func(method string, params json.RawMessage) { notes <- method + " " + string(params) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	initialize(t, ctx, c)

	list, err := c.Call(ctx, "tools/list", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(list), `"name":"confirm"`) {
		t.Errorf("tools/list: %s", list)
	}

	res, err := c.Call(ctx, "tools/call", map[string]any{"name": "confirm", "arguments": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"content":[{"type":"text","text":"accept"}]}`; string(res) != want {
		t.Errorf("tools/call: %s, want %s", res, want)
	}
	if got := <-notes; !strings.HasPrefix(got, "notifications/message ") || !strings.Contains(got, "the user said accept") {
		t.Errorf("first notification: %s", got)
	}

	srv.AddTool(runtime.Tool{Name: "later", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return runtime.TextResult("ok"), nil
	}})
	if got := <-notes; got != "notifications/tools/list_changed " && !strings.HasPrefix(got, "notifications/tools/list_changed {") {
		t.Errorf("after AddTool: %s", got)
	}

	// An error of the server comes back as an *Error.
	_, err = c.Call(ctx, "no/such/method", nil)
	var rpc *inmemory.Error
	if !errors.As(err, &rpc) || rpc.Code != -32601 {
		t.Errorf("unknown method: %v, want a -32601 error", err)
	}
}

// TestNoRequests: a session that cannot carry requests to the client fails
// Elicit at once rather than waiting for an answer that cannot come.
func TestNoRequests(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := inmemory.Connect(newServer(), inmemory.Options{
		NoRequests: true,
		OnRequest: func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
			t.Error("the server sent a request on a session that cannot carry one")
			return nil, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	initialize(t, ctx, c)
	res, err := c.Call(ctx, "tools/call", map[string]any{"name": "confirm", "arguments": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res), `"isError":true`) {
		t.Errorf("tools/call without a way to ask: %s, want an isError result", res)
	}
}

// TestCallCancelled: a Call whose context ends cancels its request.
func TestCallCancelled(t *testing.T) {
	srv := runtime.NewServer(runtime.Implementation{Name: "test", Version: "1.0.0"})
	stopped := make(chan struct{})
	srv.AddTool(runtime.Tool{Name: "block", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		<-ctx.Done()
		close(stopped)
		return nil, ctx.Err()
	}})
	c, err := inmemory.Connect(srv, inmemory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	initialize(t, ctx, c)
	callCtx, stop := context.WithCancel(ctx)
	go func() {
		// Cancel once the handler runs: the list of tools answers after
		// the call was dispatched, on the same session.
		_, _ = c.Call(ctx, "tools/list", nil)
		stop()
	}()
	if _, err := c.Call(callCtx, "tools/call", map[string]any{"name": "block"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Call: %v, want context.Canceled", err)
	}
	select {
	case <-stopped:
	case <-ctx.Done():
		t.Fatal("the handler's context was not cancelled")
	}
}
