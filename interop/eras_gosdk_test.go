package interop

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The official Go SDK client (go-sdk v1.8.0) in both eras, over stdio and
// Streamable HTTP, against examples/conformance, which serves both. The
// SDK picks the era from ClientSessionOptions.ProtocolVersion: 2026-07-28
// (its default) probes with server/discover and, when the server offers
// that revision, stays modern (per-request _meta, input_required results
// retried by its multi-round-trip middleware); 2025-11-25 sends initialize.

// TestGoSDKBothEras: the Go SDK client in each era, over each transport:
// the server's identity and tools, a plain call, and an elicitation
// round trip, accepted then declined, against one handler
// (examples/conformance's test_elicitation, which calls runtime.Elicit
// once): in the legacy era it travels as the server's elicitation/create
// request, in the modern era as an input_required result and the client's
// retry; the handler's answer is the same.
func TestGoSDKBothEras(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		for _, era := range eras {
			t.Run(transport+"/"+era, func(t *testing.T) {
				answers := &elicitAnswers{}
				opts := &mcp.ClientOptions{ElicitationHandler: answers.handle}
				w := &wireLog{}
				session := connectGoSDK(t, transport, exampleTarget(t, "conformance", transport), era, opts, w)
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()

				if info := session.InitializeResult().ServerInfo; info == nil || info.Name != "mcpgen-conformance" {
					t.Errorf("serverInfo = %s", jsonOf(t, info))
				}
				tools, err := session.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				checkHasTool(t, tools, "test_elicitation")
				call := func(name string, args map[string]any) string {
					t.Helper()
					res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if res.IsError {
						t.Errorf("%s: isError: %s", name, textOf(res))
					}
					return textOf(res)
				}
				if got := call("test_simple_text", nil); got != "This is a simple text response for testing." {
					t.Errorf("test_simple_text = %q", got)
				}
				if got := call("test_elicitation", map[string]any{"message": elicitAcceptMessage}); got != elicitAcceptedText {
					t.Errorf("test_elicitation (accepted) = %q", got)
				}
				if got := call("test_elicitation", map[string]any{"message": elicitDeclineMessage}); got != elicitDeclinedText {
					t.Errorf("test_elicitation (declined) = %q", got)
				}
				checkElicitRequests(t, "the Go SDK's elicitation handler", answers.params())
				checkElicitationPath(t, w, era, "test_elicitation", 2)
			})
		}
	}
}

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
			session := connectGoSDK(t, transport, exampleTarget(t, "conformance", transport), eraModern, opts, nil)
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
