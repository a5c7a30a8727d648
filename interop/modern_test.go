package interop

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestModernEraWithGoSDK: the official Go SDK client left to its default
// probes with server/discover, and a generated server (dual-era by
// default) serves it the 2026-07-28 era, over stdio and HTTP: no session;
// a handler that elicits twice answered through input_required rounds that
// the client fulfils and retries on its own; -32602 for a resource not
// found; and list changes heard on the subscriptions/listen stream the
// client opens because it has a ToolListChangedHandler.
func TestModernEraWithGoSDK(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			toolsChanged := make(chan struct{}, 4)
			opts := &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
					toolsChanged <- struct{}{}
				},
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					switch {
					case strings.HasPrefix(req.Params.Message, "Step 1"):
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
					case strings.HasPrefix(req.Params.Message, "Step 2"):
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"color": "green"}}, nil
					}
					return &mcp.ElicitResult{Action: "decline"}, nil
				},
			}
			session := connectModern(t, transport, opts)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()

			if transport == "http" && session.ID() != "" {
				t.Errorf("the modern era has no sessions, got Mcp-Session-Id %q", session.ID())
			}
			tools, err := session.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) == 0 {
				t.Fatalf("tools/list: %v", err)
			}

			// Two rounds of input_required, fulfilled by the client.
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "test_input_required_result_multi_round", Arguments: map[string]any{}})
			if err != nil || res.IsError || textOf(res) != "Ada likes green" {
				t.Errorf("multi-round elicitation: %v %q", err, textOf(res))
			}

			_, err = session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://no-such-resource"})
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != -32602 {
				t.Errorf("resource not found: %v, want -32602", err)
			}

			if _, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "test_trigger_tool_change", Arguments: map[string]any{}}); err != nil {
				t.Fatal(err)
			}
			select {
			case <-toolsChanged:
			case <-ctx.Done():
				t.Fatal("no notifications/tools/list_changed on the subscriptions/listen stream")
			}
		})
	}
}

// connectModern connects the Go SDK client with its defaults: it probes
// with server/discover and stays in the 2026-07-28 era.
func connectModern(t *testing.T, transport string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "interop-test", Version: "1.0.0"}, opts)
	var tr mcp.Transport
	if transport == "stdio" {
		tr = &mcp.CommandTransport{Command: exec.Command(exampleBin(t, "conformance"))}
	} else {
		tr = &mcp.StreamableClientTransport{Endpoint: startHTTP(t, "conformance"), MaxRetries: 2}
	}
	session, err := client.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}
