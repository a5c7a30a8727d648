package runtime_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

func TestClientInfoInContext(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	type seen struct {
		info    runtime.Implementation
		ok      bool
		caps    string
		version string
	}
	got := make(chan seen, 1)
	srv.AddTool(runtime.Tool{Name: "whoami", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		info, ok := runtime.ClientInfo(ctx)
		got <- seen{info, ok, string(runtime.ClientCapabilities(ctx)), runtime.ProtocolVersion(ctx)}
		return runtime.TextResult("ok"), nil
	}})
	c := serve(t, srv)
	c.result("initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{"sampling": map[string]any{}},
		"clientInfo":      map[string]any{"name": "claude", "title": "Claude", "version": "2.0"},
	})
	c.callTool("whoami", nil)
	want := seen{runtime.Implementation{Name: "claude", Title: "Claude", Version: "2.0"}, true, `{"sampling":{}}`, "2025-06-18"}
	if diff := cmp.Diff(want, <-got, cmp.AllowUnexported(seen{})); diff != "" {
		t.Errorf("context (-want +got):\n%s", diff)
	}
}

func TestContextOutsideSession(t *testing.T) {
	ctx := context.Background()
	if _, ok := runtime.ClientInfo(ctx); ok {
		t.Error("ClientInfo outside a session: ok")
	}
	if c := runtime.ClientCapabilities(ctx); c != nil {
		t.Errorf("ClientCapabilities outside a session = %s", c)
	}
	if v := runtime.ProtocolVersion(ctx); v != "" {
		t.Errorf("ProtocolVersion outside a session = %q", v)
	}
}
