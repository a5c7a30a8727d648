package runtime_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/genimpl"
)

// appServer has one view and two tools linked to it: "summary" returns a
// text block, "bare" only structured content (a server bug AppTool catches),
// and "who" says whether the client supports the extension.
func appServer(opts ...runtime.Option) *runtime.Server {
	srv := runtime.NewServer(testInfo(), opts...)
	srv.AddResource(runtime.AppResource(runtime.Resource{URI: "ui://t/view", Name: "view", Meta: json.RawMessage(`{"k":1}`)},
		runtime.AppUI{CSP: &runtime.AppCSP{ConnectDomains: []string{"https://api.example.com"}}, Permissions: &runtime.AppPermissions{ClipboardWrite: true}, PrefersBorder: new(true)},
		genimpl.StaticHTML("<!doctype html><title>v</title>")))
	link := runtime.ToolUI{ResourceURI: "ui://t/view"}
	srv.AddTool(runtime.AppTool(runtime.Tool{Name: "summary", Description: "Sums.", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return &runtime.CallToolResult{Content: []runtime.Content{runtime.Text("3 rows")}, StructuredContent: map[string]int{"rows": 3}}, nil
	}}, link))
	srv.AddTool(runtime.AppTool(runtime.Tool{Name: "bare", Description: "Bare.", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return &runtime.CallToolResult{StructuredContent: map[string]int{"rows": 3}}, nil
	}}, runtime.ToolUI{ResourceURI: "ui://t/view", Visibility: []string{"app"}}))
	srv.AddTool(runtime.AppTool(runtime.Tool{Name: "who", Description: "Who.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		if runtime.ClientSupportsUI(ctx) {
			return runtime.TextResult("ui"), nil
		}
		return runtime.TextResult("text only"), nil
	}}, link))
	return srv
}

// uiCaps declares the MCP Apps extension, as a host that shows views does.
var uiCaps = map[string]any{"extensions": map[string]any{runtime.UIExtension: map[string]any{"mimeTypes": []string{runtime.AppMIMEType}}}}

func TestAppWire(t *testing.T) {
	_, logOpt := newLog()
	c := serve(t, appServer(logOpt))
	c.result("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": uiCaps, "clientInfo": map[string]any{"name": "host", "version": "1"}})
	c.notify("notifications/initialized", nil)
	ui := `{"csp":{"connectDomains":["https://api.example.com"]},"permissions":{"clipboardWrite":{}},"prefersBorder":true}`
	jsonEqual(t, `{"resources":[{"uri":"ui://t/view","name":"view","mimeType":"text/html;profile=mcp-app","_meta":{"k":1,"ui":`+ui+`}}]}`,
		c.result("resources/list", nil))
	jsonEqual(t, `{"contents":[{"uri":"ui://t/view","mimeType":"text/html;profile=mcp-app","text":"<!doctype html><title>v</title>","_meta":{"ui":`+ui+`}}]}`,
		c.result("resources/read", map[string]any{"uri": "ui://t/view"}))

	var list struct {
		Tools []struct {
			Name string          `json:"name"`
			Meta json.RawMessage `json:"_meta"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(c.result("tools/list", nil), &list); err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, `{"ui":{"resourceUri":"ui://t/view"},"ui/resourceUri":"ui://t/view"}`, list.Tools[0].Meta)
	jsonEqual(t, `{"ui":{"resourceUri":"ui://t/view","visibility":["app"]},"ui/resourceUri":"ui://t/view"}`, list.Tools[1].Meta)

	jsonEqual(t, `{"content":[{"type":"text","text":"3 rows"}],"structuredContent":{"rows":3}}`, c.callTool("summary", nil))
	bare := string(c.callTool("bare", nil))
	if !strings.Contains(bare, `"isError":true`) || !strings.Contains(bare, "returned no text content") {
		t.Errorf("a UI-linked result without text passed: %s", bare)
	}
}

// TestAppWithoutSettings: a view whose ui sets nothing sends no _meta.ui,
// on its list entry or its content; its other _meta keys stay.
func TestAppWithoutSettings(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddResource(runtime.AppResource(runtime.Resource{URI: "ui://t/plain", Name: "plain"}, runtime.AppUI{}, genimpl.StaticHTML("p")))
	srv.AddResource(runtime.AppResource(runtime.Resource{URI: "ui://t/kept", Name: "kept", Meta: json.RawMessage(`{"k":1}`)}, runtime.AppUI{}, genimpl.StaticHTML("k")))
	c := serve(t, srv)
	c.initialize()
	jsonEqual(t, `{"resources":[{"uri":"ui://t/plain","name":"plain","mimeType":"text/html;profile=mcp-app"},`+
		`{"uri":"ui://t/kept","name":"kept","mimeType":"text/html;profile=mcp-app","_meta":{"k":1}}]}`,
		c.result("resources/list", nil))
	jsonEqual(t, `{"contents":[{"uri":"ui://t/plain","mimeType":"text/html;profile=mcp-app","text":"p"}]}`,
		c.result("resources/read", map[string]any{"uri": "ui://t/plain"}))
}

// An app-only tool is listed and callable only for a client that declared
// the extension, in both eras: the CLIs that show no views (Claude Code,
// Gemini CLI, Codex) would hand it to the model. The others stay.
func TestAppOnlyToolHiddenWithoutExtension(t *testing.T) {
	toolNames := func(res json.RawMessage) string {
		var list struct{ Tools []struct{ Name string } }
		if err := json.Unmarshal(res, &list); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tool := range list.Tools {
			out = append(out, tool.Name)
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		name string
		caps map[string]any
		want string
	}{
		{"no extension", map[string]any{"roots": map[string]any{}}, "summary,who"},
		{"other extension", map[string]any{"extensions": map[string]any{"x/y": map[string]any{}}}, "summary,who"},
		{"ui host", uiCaps, "summary,bare,who"},
	} {
		t.Run("legacy/"+tc.name, func(t *testing.T) {
			c := serve(t, appServer())
			c.result("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": tc.caps, "clientInfo": map[string]any{"name": "c", "version": "1"}})
			c.notify("notifications/initialized", nil)
			if got := toolNames(c.result("tools/list", nil)); got != tc.want {
				t.Errorf("tools/list: %s, want %s", got, tc.want)
			}
			r := c.request("tools/call", map[string]any{"name": "bare"})
			if hidden := !strings.Contains(tc.want, "bare"); hidden != (r.Error != nil && r.Error.Code == runtime.CodeInvalidParams) {
				t.Errorf("tools/call of the app-only tool: %s %s", r.Result, errorJSON(r))
			}
		})
		t.Run("modern/"+tc.name, func(t *testing.T) {
			c := serve(t, appServer(runtime.WithModernEra()))
			meta := map[string]any{"_meta": gatedMeta(tc.caps)}
			if got := toolNames(c.result("tools/list", meta)); got != tc.want {
				t.Errorf("tools/list: %s, want %s", got, tc.want)
			}
			r := c.request("tools/call", map[string]any{"name": "bare", "_meta": gatedMeta(tc.caps)})
			if hidden := !strings.Contains(tc.want, "bare"); hidden != (r.Error != nil && r.Error.Code == runtime.CodeInvalidParams) {
				t.Errorf("tools/call of the app-only tool: %s %s", r.Result, errorJSON(r))
			}
		})
	}
}

// The server reads the client's support for the extension from the
// capabilities it declared.
func TestClientSupportsUI(t *testing.T) {
	for _, tc := range []struct {
		caps map[string]any
		want string
	}{
		{map[string]any{}, "text only"},
		{map[string]any{"extensions": map[string]any{runtime.UIExtension: map[string]any{"mimeTypes": []string{runtime.AppMIMEType}}}}, "ui"},
		{map[string]any{"extensions": map[string]any{runtime.UIExtension: map[string]any{"mimeTypes": []string{"text/html"}}}}, "text only"},
	} {
		c := serve(t, appServer())
		c.result("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": tc.caps, "clientInfo": map[string]any{"name": "c", "version": "1"}})
		c.notify("notifications/initialized", nil)
		got := string(c.callTool("who", nil))
		if !strings.Contains(got, `"text":"`+tc.want+`"`) {
			t.Errorf("caps %v: got %s, want %q", tc.caps, got, tc.want)
		}
	}
}

// The extension is advertised where the revision has capabilities.extensions
// (2026-07-28's server/discover), and not in a 2025-11-25 initialize.
func TestAppExtensionAdvertised(t *testing.T) {
	c := serve(t, appServer(runtime.WithModernEra()))
	disc := string(c.result("server/discover", json.RawMessage(`{`+modernMeta+`}`)))
	if !strings.Contains(disc, `"extensions":{"io.modelcontextprotocol/ui":{}}`) {
		t.Errorf("server/discover lacks the extension: %s", disc)
	}
	c2 := serve(t, appServer())
	if init := string(c2.initialize()); strings.Contains(init, "extensions") {
		t.Errorf("initialize advertises extensions: %s", init)
	}
	plain := runtime.NewServer(testInfo(), runtime.WithModernEra())
	plain.AddTool(echoTool("echo"))
	c3 := serve(t, plain)
	if disc := string(c3.result("server/discover", json.RawMessage(`{`+modernMeta+`}`))); strings.Contains(disc, "extensions") {
		t.Errorf("a server without views advertises the extension: %s", disc)
	}
}

func TestAppRegistrationPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"resource not ui://": func() {
			runtime.AppResource(runtime.Resource{URI: "file:///v.html"}, runtime.AppUI{}, genimpl.StaticHTML(""))
		},
		"resource _meta.ui": func() {
			runtime.AppResource(runtime.Resource{URI: "ui://v", Meta: json.RawMessage(`{"ui":{}}`)}, runtime.AppUI{}, genimpl.StaticHTML(""))
		},
		"tool link not ui://": func() { runtime.AppTool(echoTool("e"), runtime.ToolUI{ResourceURI: "file:///v"}) },
		"tool visibility": func() {
			runtime.AppTool(echoTool("e"), runtime.ToolUI{ResourceURI: "ui://v", Visibility: []string{"user"}})
		},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		})
	}
}

type summarized struct {
	Rows int `json:"rows"`
}

func (s *summarized) TextSummary() string { return "3 rows" }

// An output that summarizes itself is sent as that summary, then its JSON.
func TestTypedToolTextSummary(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "s", Description: "S."}, func(context.Context, *runtime.NoArgs) (*summarized, error) {
		return &summarized{Rows: 3}, nil
	}))
	c := serve(t, srv)
	c.initialize()
	jsonEqual(t, `{"content":[{"type":"text","text":"3 rows"},{"type":"text","text":"{\"rows\":3}"}],"structuredContent":{"rows":3}}`, c.callTool("s", nil))
}

// In the 2026-07-28 era the client declares the extension in each
// request's _meta, and ClientSupportsUI reads it there.
func TestClientSupportsUIModern(t *testing.T) {
	c := serve(t, appServer())
	for caps, want := range map[string]string{
		`{}`: "text only",
		`{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`: "ui",
	} {
		params := `{"name":"who","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}}`
		got := string(c.result("tools/call", json.RawMessage(params)))
		if !strings.Contains(got, `"text":"`+want+`"`) {
			t.Errorf("caps %s: got %s, want %q", caps, got, want)
		}
	}
}

// BenchmarkAppToolCall measures what AppTool's text check adds to a call:
// the same handler, bare and wrapped.
func BenchmarkAppToolCall(b *testing.B) {
	plain := runtime.Tool{Name: "t", Description: "T.", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return &runtime.CallToolResult{Content: []runtime.Content{runtime.Text("3 rows")}, StructuredContent: map[string]int{"rows": 3}}, nil
	}}
	linked := runtime.AppTool(plain, runtime.ToolUI{ResourceURI: "ui://t/view"})
	req := &runtime.CallToolRequest{Name: "t"}
	for _, tc := range []struct {
		name string
		tool runtime.Tool
	}{{"plain", plain}, {"AppTool", linked}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tc.tool.Handler(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// WithoutAppViews rolls the app back and keeps the tools: no view is
// listed, the tools lose their link (and only it), and they answer as
// before.
func TestWithoutAppViews(t *testing.T) {
	c := serve(t, appServer(runtime.WithoutAppViews()))
	c.initialize()
	if r := c.request("resources/list", nil); r.Error == nil {
		t.Errorf("resources/list with the view off: %s", r.Result)
	}
	var list struct {
		Tools []struct {
			Name string          `json:"name"`
			Meta json.RawMessage `json:"_meta"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(c.result("tools/list", nil), &list); err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Meta != nil {
			t.Errorf("%s keeps _meta %s", tool.Name, tool.Meta)
		}
	}
	jsonEqual(t, `{"content":[{"type":"text","text":"3 rows"}],"structuredContent":{"rows":3}}`, c.callTool("summary", nil))

	srv := runtime.NewServer(testInfo(), runtime.WithoutAppViews())
	tool := echoTool("e")
	tool.Meta = json.RawMessage(`{"a":1,"ui":{"x":1},"ui/resourceUri":"ui://v","z":"\u00e9"}`)
	srv.AddTool(tool)
	jsonEqual(t, `{"a":1,"z":"é"}`, srv.Tools()[0].Meta)
}
