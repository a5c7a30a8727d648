package interop

import (
	"context"
	"net/http"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The official Go SDK client (go-sdk v1.8.0) in both eras, over stdio and
// Streamable HTTP, against examples/conformance, which serves both. The
// SDK picks the era from ClientSessionOptions.ProtocolVersion: 2026-07-28
// (its default) probes with server/discover and, when the server offers
// that revision, stays modern (per-request _meta, input_required results
// retried by its multi-round-trip middleware); 2025-11-25 sends initialize.

// connectGoSDK connects the Go SDK client to examples/conformance over
// transport (target: the binary for stdio, the endpoint for HTTP) in era,
// recording the wire in w (nil: no record), and checks that the era
// negotiated is the one asked for.
func connectGoSDK(t *testing.T, transport, target, era string, opts *mcp.ClientOptions, w *wireLog) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var tr mcp.Transport
	if transport == "stdio" {
		tr = &mcp.CommandTransport{Command: exec.Command(target)}
		if w != nil {
			tr = &mcp.LoggingTransport{Transport: tr, Writer: w}
		}
	} else {
		// The HTTP exchange is recorded below the SDK, so that its
		// connection keeps what the SDK needs of it.
		var rt http.RoundTripper = http.DefaultTransport
		if w != nil {
			rt = &recordingTransport{base: rt, log: w}
		}
		tr = &mcp.StreamableClientTransport{Endpoint: target, HTTPClient: &http.Client{Transport: rt}, MaxRetries: 2}
	}
	version, sessionOpts := legacyVersion, legacyEra
	if era == eraModern {
		version, sessionOpts = modernVersion, &mcp.ClientSessionOptions{ProtocolVersion: modernVersion}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "interop-test", Version: "1.0.0"}, opts)
	session, err := client.Connect(ctx, tr, sessionOpts)
	if err != nil {
		t.Fatalf("connect (%s era) to %s: %v", era, target, err)
	}
	t.Cleanup(func() { session.Close() })
	if got := session.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("%s era: negotiated protocol version %q, want %q", era, got, version)
	}
	return session
}

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
				var mu sync.Mutex
				var elicited []*mcp.ElicitParams
				opts := &mcp.ClientOptions{
					ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						mu.Lock()
						defer mu.Unlock()
						elicited = append(elicited, req.Params)
						if len(elicited) == 1 {
							return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "alice", "email": "alice@example.com"}}, nil
						}
						return &mcp.ElicitResult{Action: "decline"}, nil
					},
				}
				target := exampleBin(t, "conformance")
				if transport == "http" {
					target = startHTTP(t, "conformance")
				}
				w := &wireLog{}
				session := connectGoSDK(t, transport, target, era, opts, w)
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()

				if info := session.InitializeResult().ServerInfo; info == nil || info.Name != "mcpgen-conformance" {
					t.Errorf("serverInfo = %s", jsonOf(t, info))
				}
				tools, err := session.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, tool := range tools.Tools {
					found = found || tool.Name == "test_elicitation"
				}
				if !found {
					t.Errorf("tools/list has no test_elicitation: %s", jsonOf(t, tools))
				}
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
				if got := call("test_elicitation", map[string]any{"message": "Please provide your username and email"}); got != `User response: <action: accept, content: {"email":"alice@example.com","username":"alice"}>` {
					t.Errorf("test_elicitation (accepted) = %q", got)
				}
				if got := call("test_elicitation", map[string]any{"message": "Once more, please"}); got != `User response: <action: decline, content: null>` {
					t.Errorf("test_elicitation (declined) = %q", got)
				}
				mu.Lock()
				if len(elicited) != 2 || elicited[0].Message != "Please provide your username and email" || elicited[1].Message != "Once more, please" {
					t.Errorf("elicitations = %s, want the two messages", jsonOf(t, elicited))
				} else if diff := cmp.Diff([]any{"username", "email"}, asMap(t, elicited[0].RequestedSchema)["required"]); diff != "" {
					t.Errorf("requestedSchema.required (-want +got):\n%s", diff)
				}
				mu.Unlock()
				checkElicitationPath(t, w, era, "test_elicitation", 2)
			})
		}
	}
}
