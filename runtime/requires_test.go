package runtime_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Capability-gated items (context.go): a bare client sees N of each kind,
// a capable one N+k; a hidden item is refused as an unknown one.

func gatedServer(opts ...runtime.Option) *runtime.Server {
	srv := runtime.NewServer(testInfo(), opts...)
	srv.AddTool(echoTool("plain"))
	ask := echoTool("ask_user")
	ask.Requires = &runtime.Requires{Capabilities: []string{"elicitation"}}
	srv.AddTool(ask)
	summarize := echoTool("summarize")
	summarize.Requires = &runtime.Requires{Capabilities: []string{"sampling", "roots"}}
	srv.AddTool(summarize)
	view := echoTool("show_chart")
	view.Requires = &runtime.Requires{Extensions: []string{runtime.UIExtension}}
	srv.AddTool(view)

	prompt := func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		return textPrompt("hi"), nil
	}
	srv.AddPrompt(runtime.Prompt{Name: "plain", Handler: prompt})
	srv.AddPrompt(runtime.Prompt{Name: "sampled", Handler: prompt, Arguments: []runtime.PromptArgument{{Name: "tone", Enum: []string{"dry", "warm"}}},
		Requires: &runtime.Requires{Capabilities: []string{"sampling"}}})

	read := func(_ context.Context, req *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return &runtime.ReadResourceResult{Contents: []runtime.ResourceContents{{Text: "x"}}}, nil
	}
	srv.AddResource(runtime.Resource{URI: "file:///plain", Handler: read})
	srv.AddResource(runtime.Resource{URI: "file:///rooted", Handler: read, Requires: &runtime.Requires{Capabilities: []string{"roots"}}})
	srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "plain://{id}", Name: "plain", Handler: read})
	srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "task://{id}", Name: "tasked", Handler: read,
		Requires: &runtime.Requires{Capabilities: []string{"tasks"}}})
	return srv
}

// names lists the names (or URIs) of a list result's items.
func names(t *testing.T, res json.RawMessage, field, key string) []string {
	t.Helper()
	var r map[string]json.RawMessage
	var items []map[string]any
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(r[field], &items); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range items {
		out = append(out, it[key].(string))
	}
	return out
}

var bare = map[string][]string{
	"tools/list":               {"plain"},
	"prompts/list":             {"plain"},
	"resources/list":           {"file:///plain"},
	"resources/templates/list": {"plain"},
}

var capable = map[string]any{
	"roots": map[string]any{}, "sampling": map[string]any{}, "elicitation": map[string]any{},
	"tasks": map[string]any{}, "extensions": map[string]any{runtime.UIExtension: map[string]any{}, runtime.TasksExtension: map[string]any{}},
}

var all = map[string][]string{
	"tools/list":               {"plain", "ask_user", "summarize", "show_chart"},
	"prompts/list":             {"plain", "sampled"},
	"resources/list":           {"file:///plain", "file:///rooted"},
	"resources/templates/list": {"plain", "tasked"},
}

var listKeys = map[string][2]string{
	"tools/list": {"tools", "name"}, "prompts/list": {"prompts", "name"},
	"resources/list": {"resources", "uri"}, "resources/templates/list": {"resourceTemplates", "name"},
}

// hiddenCalls are the requests of the gated items, with the code an
// unknown item gets in the legacy era.
var hiddenCalls = []struct {
	method string
	params map[string]any
	code   int
}{
	{"tools/call", map[string]any{"name": "ask_user"}, runtime.CodeInvalidParams},
	{"prompts/get", map[string]any{"name": "sampled"}, runtime.CodeInvalidParams},
	{"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "sampled"}, "argument": map[string]any{"name": "tone", "value": "d"}}, runtime.CodeInvalidParams},
	{"resources/read", map[string]any{"uri": "file:///rooted"}, runtime.CodeResourceNotFound},
	{"resources/read", map[string]any{"uri": "task://7"}, runtime.CodeResourceNotFound},
}

func checkLists(t *testing.T, c *client, meta map[string]any, want map[string][]string) {
	t.Helper()
	for method, w := range want {
		var params map[string]any
		if meta != nil {
			params = map[string]any{"_meta": meta}
		}
		got := names(t, c.result(method, params), listKeys[method][0], listKeys[method][1])
		if !equalStrings(got, w) {
			t.Errorf("%s: got %v, want %v", method, got, w)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRequiresLegacy(t *testing.T) {
	for _, tc := range []struct {
		name string
		caps map[string]any
		want map[string][]string
	}{
		{"bare", map[string]any{}, bare},
		{"capable", capable, all},
		{"sampling only", map[string]any{"sampling": map[string]any{}}, map[string][]string{
			"tools/list": {"plain"}, "prompts/list": {"plain", "sampled"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, gatedServer())
			c.result("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": tc.caps,
				"clientInfo": map[string]any{"name": "t", "version": "1"}})
			c.notify("notifications/initialized", nil)
			checkLists(t, c, nil, tc.want)
			if tc.name != "bare" {
				return
			}
			for _, h := range hiddenCalls {
				r := c.request(h.method, h.params)
				if r.Error == nil || r.Error.Code != h.code {
					t.Errorf("%s %v: got %s, want error %d", h.method, h.params, errorJSON(r), h.code)
				}
			}
		})
	}
	// The capable client can call what the bare one cannot.
	c := serve(t, gatedServer())
	c.result("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": capable,
		"clientInfo": map[string]any{"name": "t", "version": "1"}})
	c.notify("notifications/initialized", nil)
	for _, h := range hiddenCalls {
		if r := c.request(h.method, h.params); r.Error != nil {
			t.Errorf("capable client: %s %v: error %s", h.method, h.params, errorJSON(r))
		}
	}
}

func gatedMeta(caps map[string]any) map[string]any {
	return map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": caps}
}

func TestRequiresModern(t *testing.T) {
	// One connection, two clients: each request's _meta says who asks.
	c := serve(t, gatedServer(runtime.WithCaching(time.Minute, "public")))
	checkLists(t, c, gatedMeta(map[string]any{}), bare)
	checkLists(t, c, gatedMeta(capable), all)
	for _, h := range hiddenCalls {
		p := map[string]any{"_meta": gatedMeta(map[string]any{})}
		for k, v := range h.params {
			p[k] = v
		}
		r := c.request(h.method, p)
		if r.Error == nil || r.Error.Code != runtime.CodeInvalidParams { // resource not found is invalid params from 2026-07-28 on
			t.Errorf("bare: %s %v: got %s, want error %d", h.method, h.params, errorJSON(r), runtime.CodeInvalidParams)
		}
		p["_meta"] = gatedMeta(capable)
		if r := c.request(h.method, p); r.Error != nil {
			t.Errorf("capable: %s %v: error %s", h.method, h.params, errorJSON(r))
		}
	}
}

// A list that depends on the client's capabilities is private, whatever the
// server's default; one that does not keeps it.
func TestRequiresCacheScope(t *testing.T) {
	srv := gatedServer(runtime.WithCaching(time.Minute, "public"))
	srv.AddPrompt(runtime.Prompt{Name: "x", Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		return textPrompt("x"), nil
	}})
	c := serve(t, srv)
	for method, want := range map[string]string{"tools/list": "private", "resources/list": "private"} {
		var r struct {
			CacheScope string `json:"cacheScope"`
			TTLMs      int64  `json:"ttlMs"`
		}
		if err := json.Unmarshal(c.result(method, map[string]any{"_meta": gatedMeta(map[string]any{})}), &r); err != nil {
			t.Fatal(err)
		}
		if r.CacheScope != want || r.TTLMs != 60000 {
			t.Errorf("%s: cacheScope %q ttlMs %d, want %q 60000", method, r.CacheScope, r.TTLMs, want)
		}
	}
	plain := runtime.NewServer(testInfo(), runtime.WithCaching(time.Minute, "public"))
	plain.AddTool(echoTool("plain"))
	var r struct {
		CacheScope string `json:"cacheScope"`
	}
	_ = json.Unmarshal(serve(t, plain).result("tools/list", map[string]any{"_meta": gatedMeta(map[string]any{})}), &r)
	if r.CacheScope != "public" {
		t.Errorf("ungated tools/list: cacheScope %q, want public", r.CacheScope)
	}
}

// benchToolsList is tools/list of 19 tools, gated of them requiring
// sampling, for a client that declares caps, through a Session.
func benchToolsList(b *testing.B, gated int, caps string) {
	srv := runtime.NewServer(testInfo())
	for i := range 19 {
		t := echoTool("tool_" + string(rune('a'+i)))
		if i >= 19-gated {
			t.Requires = &runtime.Requires{Capabilities: []string{"sampling"}}
		}
		srv.AddTool(t)
	}
	done := make(chan struct{}, 1)
	ss := srv.NewSession(func([]byte) { done <- struct{}{} })
	defer ss.Close()
	ctx := context.Background()
	ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"bench","version":"1"}}}`))
	<-done
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	b.ReportAllocs()
	for b.Loop() {
		ss.HandleMessage(ctx, req)
		<-done
	}
}

// The price of gating: 19 ungated tools, against 6 of 19 gated for a bare
// client (13 listed) and a capable one (19 listed).
func BenchmarkToolsListUngated(b *testing.B)      { benchToolsList(b, 0, `{}`) }
func BenchmarkToolsListGatedBare(b *testing.B)    { benchToolsList(b, 6, `{}`) }
func BenchmarkToolsListGatedCapable(b *testing.B) { benchToolsList(b, 6, `{"sampling":{}}`) }
