package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

func TestLifecycle(t *testing.T) {
	srv := runtime.NewServer(runtime.Implementation{
		Name: "orders", Title: "Orders desk", Version: "1.2.0", WebsiteURL: "https://example.com",
		Icons: []runtime.Icon{{Src: "https://example.com/i.png", MimeType: "image/png", Sizes: []string{"48x48"}, Theme: "dark"}},
	}, runtime.WithInstructions("Confirm before any refund."))
	srv.AddTool(echoTool("echo"))
	c := serve(t, srv)

	// ping works before initialize.
	jsonEqual(t, `{}`, c.result("ping", nil))

	jsonEqual(t, `{
		"protocolVersion": "2025-11-25",
		"capabilities": {"tools": {"listChanged": true}, "logging": {}},
		"serverInfo": {"name": "orders", "title": "Orders desk", "version": "1.2.0", "websiteUrl": "https://example.com",
			"icons": [{"src": "https://example.com/i.png", "mimeType": "image/png", "sizes": ["48x48"], "theme": "dark"}]},
		"instructions": "Confirm before any refund."
	}`, c.initialize())

	jsonEqual(t, `{}`, c.result("ping", map[string]any{}))
	jsonEqual(t, `{"tools":[{"name":"echo","description":"Echo the arguments.",
		"inputSchema":{"type":"object","additionalProperties":false}}]}`, c.result("tools/list", nil))
	jsonEqual(t, `{"content":[{"type":"text","text":"{\"a\":1}"}]}`, c.callTool("echo", map[string]any{"a": 1}))

	if err := c.closeInput(); err != nil {
		t.Fatalf("ServeStdio after EOF: %v", err)
	}
	if rest := c.rest(); len(rest) != 0 {
		t.Errorf("unexpected output after EOF: %q", rest)
	}
}

func TestServerWithoutTools(t *testing.T) {
	c := serve(t, runtime.NewServer(testInfo()))
	jsonEqual(t, `{"protocolVersion":"2025-11-25","capabilities":{"logging":{}},"serverInfo":{"name":"test-server","version":"0.1.0"}}`, c.initialize())
	r := c.request("tools/list", nil)
	if r.Error == nil || r.Error.Code != runtime.CodeMethodNotFound {
		t.Errorf("tools/list without tools: got %+v, want -32601", r)
	}
}

func TestVersionNegotiation(t *testing.T) {
	for _, tc := range []struct{ requested, want string }{
		{"2024-11-05", "2024-11-05"},
		{"2025-03-26", "2025-03-26"},
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		{"2026-07-28", "2025-11-25"}, // not spoken here: answer with our latest
		{"1.0.0", "2025-11-25"},
	} {
		t.Run(tc.requested, func(t *testing.T) {
			srv := runtime.NewServer(testInfo())
			var got string
			srv.AddTool(runtime.Tool{Name: "version", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
				got = runtime.ProtocolVersion(ctx)
				return runtime.TextResult(got), nil
			}})
			c := serve(t, srv)
			res := c.result("initialize", map[string]any{"protocolVersion": tc.requested, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "c", "version": "1"}})
			var init struct{ ProtocolVersion string }
			if err := json.Unmarshal(res, &init); err != nil {
				t.Fatal(err)
			}
			if init.ProtocolVersion != tc.want {
				t.Errorf("negotiated %q, want %q", init.ProtocolVersion, tc.want)
			}
			c.callTool("version", nil)
			if got != tc.want {
				t.Errorf("ProtocolVersion(ctx) = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestInitializeErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params any
		code   int
	}{
		{"no params", nil, runtime.CodeInvalidParams},
		{"params not an object", []int{1}, runtime.CodeInvalidParams},
		{"no protocolVersion", map[string]any{"capabilities": map[string]any{}}, runtime.CodeInvalidParams},
		{"protocolVersion not a string", map[string]any{"protocolVersion": 20251125}, runtime.CodeInvalidParams},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, runtime.NewServer(testInfo()))
			r := c.request("initialize", tc.params)
			if r.Error == nil || r.Error.Code != tc.code {
				t.Fatalf("got %+v, want error %d", r, tc.code)
			}
			// A failed initialize leaves the session uninitialized.
			c.initialize()
		})
	}
}

func TestSecondInitialize(t *testing.T) {
	c := serve(t, runtime.NewServer(testInfo()))
	c.initialize()
	r := c.request("initialize", map[string]any{"protocolVersion": "2025-11-25"})
	want := &rpcError{Code: runtime.CodeInvalidRequest, Message: "invalid request: the session is already initialized"}
	if diff := cmp.Diff(want, r.Error); diff != "" {
		t.Errorf("second initialize (-want +got):\n%s", diff)
	}
}

func TestRequestBeforeInitialize(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("echo"))
	c := serve(t, srv)
	for _, method := range []string{"tools/list", "tools/call", "no/such/method"} {
		r := c.request(method, map[string]any{"name": "echo"})
		want := &rpcError{Code: runtime.CodeInvalidRequest, Message: "invalid request: the session is not initialized; send initialize first"}
		if diff := cmp.Diff(want, r.Error); diff != "" {
			t.Errorf("%s before initialize (-want +got):\n%s", method, diff)
		}
	}
	// Notifications before initialize are ignored, not answered.
	c.notify("notifications/initialized", nil)
	c.initialize()
	c.result("tools/list", nil)
}
