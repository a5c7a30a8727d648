package inmemory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/inmemory"
)

// A test of a server through the in-memory pair: no process, no socket,
// the same session as stdio's. The client end answers the server's
// elicitation request (OnRequest) and records its notifications
// (OnNotification); Close waits until the last one was delivered.
func ExampleConnect() {
	srv := runtime.NewServer(runtime.Implementation{Name: "desk", Version: "1.0.0"})
	srv.AddTool(runtime.Tool{Name: "delete_all", Description: "Deletes everything, once the user agrees.",
		Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			answer, err := runtime.Elicit(ctx, &runtime.ElicitRequest{
				Message:         "Delete everything?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"sure":{"type":"boolean"}}}`),
			})
			if err != nil {
				return nil, err
			}
			_ = runtime.Log(ctx, runtime.LevelInfo, "desk", "the user chose "+answer.Action)
			return runtime.TextResult("done: " + answer.Action), nil
		}})

	var mu sync.Mutex
	var notes []string
	c, err := inmemory.Connect(srv, inmemory.Options{
		OnRequest: func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
			fmt.Println("server asks:", method, string(params))
			return json.RawMessage(`{"action":"decline"}`), nil
		},
		OnNotification: func(method string, params json.RawMessage) {
			mu.Lock()
			defer mu.Unlock()
			notes = append(notes, method+" "+string(params))
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	ctx := context.Background()
	if _, err := c.Call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{"elicitation": map[string]any{}},
		"clientInfo":      map[string]any{"name": "test", "version": "1"},
	}); err != nil {
		fmt.Println(err)
		return
	}
	_ = c.Notify(ctx, "notifications/initialized", nil)
	_, _ = c.Call(ctx, "logging/setLevel", map[string]any{"level": "info"})

	res, err := c.Call(ctx, "tools/call", map[string]any{"name": "delete_all"})
	fmt.Println("result:", string(res), err)
	_, err = c.Call(ctx, "tools/call", map[string]any{"name": "no_such_tool"})
	fmt.Println("error:", err)

	c.Close()
	for _, n := range notes {
		fmt.Println("notification:", n)
	}
	// Output:
	// server asks: elicitation/create {"message":"Delete everything?","requestedSchema":{"type":"object","properties":{"sure":{"type":"boolean"}}}}
	// result: {"content":[{"type":"text","text":"done: decline"}]} <nil>
	// error: JSON-RPC error -32602: unknown tool "no_such_tool"
	// notification: notifications/message {"level":"info","logger":"desk","data":"the user chose decline"}
}
