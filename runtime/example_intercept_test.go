package runtime_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/inmemory"
)

// audit is an interceptor that logs each tool call and how it went. It
// sees every request (initialize, lists, notifications too); this one
// keeps to tools/call.
func audit(next runtime.Handler) runtime.Handler {
	return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) {
		res, err := next(ctx, req)
		if req.Method == "tools/call" {
			fmt.Printf("audit: %s %s, error: %v\n", req.Method, req.Target, err)
		}
		return res, err
	}
}

// deny is an interceptor that refuses some tools without running them: it
// answers in place of next.
func deny(tools ...string) runtime.Interceptor {
	return func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) {
			if req.Method == "tools/call" && slices.Contains(tools, req.Target) {
				return nil, &runtime.Error{Code: runtime.CodeInvalidParams, Message: "tool " + req.Target + " is disabled here"}
			}
			return next(ctx, req)
		}
	}
}

// Interceptors wrap every request the server serves, for what belongs to
// all of them: audit logs, policies, tracing, caching. The first given is
// the outermost, so audit sees what deny answered.
func ExampleWithInterceptors() {
	srv := runtime.NewServer(runtime.Implementation{Name: "shop", Version: "1.0.0"},
		runtime.WithInterceptors(audit, deny("refund_order")))
	for _, name := range []string{"lookup_order", "refund_order"} {
		srv.AddTool(runtime.Tool{Name: name, Description: "Does " + name + ".",
			Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
				return runtime.TextResult(name + " done"), nil
			}})
	}

	ctx := context.Background()
	c, err := inmemory.Connect(srv, inmemory.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	if _, err := c.Call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "example", "version": "1"},
	}); err != nil {
		fmt.Println(err)
		return
	}
	_ = c.Notify(ctx, "notifications/initialized", nil)

	for _, name := range []string{"lookup_order", "refund_order"} {
		res, err := c.Call(ctx, "tools/call", map[string]any{"name": name, "arguments": map[string]any{}})
		if err != nil {
			fmt.Println("client:", err)
			continue
		}
		fmt.Println("client:", string(res))
	}
	// Output:
	// audit: tools/call lookup_order, error: <nil>
	// client: {"content":[{"type":"text","text":"lookup_order done"}]}
	// audit: tools/call refund_order, error: jsonrpc error -32602: tool refund_order is disabled here
	// client: JSON-RPC error -32602: tool refund_order is disabled here
}
