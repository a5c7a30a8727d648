package runtime_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// foundNames runs search_tools on c and returns the names found.
func foundNames(t *testing.T, c *client, query string) []string {
	t.Helper()
	var res struct {
		StructuredContent struct {
			Tools []struct{ Name string }
		}
		IsError bool
	}
	raw := c.callTool("search_tools", map[string]any{"query": query})
	if err := json.Unmarshal(raw, &res); err != nil || res.IsError {
		t.Fatalf("search_tools %q: %s", query, raw)
	}
	var names []string
	for _, tl := range res.StructuredContent.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// TestSearchFindsByEveryField: search_tools finds a tool by its
// parameters' names and descriptions, the string values of a parameter's
// enum and of its items' enum, its keywords, and its annotations' title
// when it has no title of its own (a title of its own wins).
func TestSearchFindsByEveryField(t *testing.T) {
	srv := runtime.NewServer(testInfo(), runtime.WithToolExposure(runtime.ExposeSearch))
	add := func(tl runtime.Tool) {
		h := echoTool(tl.Name)
		tl.Handler = h.Handler
		if tl.Description == "" {
			tl.Description = "Does things."
		}
		srv.AddTool(tl)
	}
	add(runtime.Tool{Name: "t_param_desc", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","description":"zebrafish count"}}}`)})
	add(runtime.Tool{Name: "t_param_name", InputSchema: json.RawMessage(`{"type":"object","properties":{"axolotl_id":{"type":"string"}}}`)})
	add(runtime.Tool{Name: "t_enum", InputSchema: json.RawMessage(`{"type":"object","properties":{"kind":{"type":"string","enum":["quokka",7,null]}}}`)})
	add(runtime.Tool{Name: "t_items_enum", InputSchema: json.RawMessage(`{"type":"object","properties":{"kinds":{"type":"array","items":{"enum":["narwhal"]}}}}`)})
	add(runtime.Tool{Name: "t_keywords", Keywords: []string{"wombat", "burrow"}})
	add(runtime.Tool{Name: "t_annotation_title", Annotations: &runtime.ToolAnnotations{Title: "Platypus watcher"}})
	add(runtime.Tool{Name: "t_own_title", Title: "Other thing", Annotations: &runtime.ToolAnnotations{Title: "Capybara keeper"}})
	c := serve(t, srv)
	c.initialize()
	for _, tc := range []struct{ query, want string }{
		{"zebrafish", "t_param_desc"},
		{"axolotl", "t_param_name"},
		{"quokka", "t_enum"},
		{"narwhal", "t_items_enum"},
		{"wombat", "t_keywords"},
		{"burrow", "t_keywords"},
		{"platypus", "t_annotation_title"},
		{"capybara", ""},
	} {
		got := foundNames(t, c, tc.query)
		if want := []string{tc.want}; tc.want == "" && len(got) != 0 || tc.want != "" && !slices.Equal(got, want) {
			t.Errorf("search_tools %q found %v, want [%s]", tc.query, got, tc.want)
		}
	}
}

// TestSearchHitShape: a hit is the tool's name, its title and the first
// sentence of its description, nothing more.
func TestSearchHitShape(t *testing.T) {
	srv := runtime.NewServer(testInfo(), runtime.WithToolExposure(runtime.ExposeSearch))
	tl := echoTool("get_forecast")
	tl.Title, tl.Description = "Weather forecast", "Returns the forecast. Give a city or coordinates."
	tl.InputSchema = json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)
	srv.AddTool(tl)
	c := serve(t, srv)
	c.initialize()
	raw := string(c.callTool("search_tools", map[string]any{"query": "forecast"}))
	if want := `"structuredContent":{"tools":[{"name":"get_forecast","title":"Weather forecast","description":"Returns the forecast."}]}`; !strings.Contains(raw, want) {
		t.Errorf("search_tools: %s\nwant %s", raw, want)
	}
}

// TestCallToolNullArguments: call_tool with arguments null is the direct
// call without arguments; the hidden tools stay callable by their names.
func TestCallToolNullArguments(t *testing.T) {
	srv := runtime.NewServer(testInfo(), runtime.WithToolExposure(runtime.ExposeSearch))
	srv.AddTool(echoTool("echo"))
	c := serve(t, srv)
	c.initialize()
	direct := string(c.result("tools/call", map[string]any{"name": "echo"}))
	via := string(c.result("tools/call", map[string]any{"name": "call_tool", "arguments": map[string]any{"name": "echo", "arguments": nil}}))
	if direct != via {
		t.Errorf("call_tool with null arguments: %s, direct without: %s", via, direct)
	}
	withArgs := string(c.result("tools/call", map[string]any{"name": "call_tool", "arguments": map[string]any{"name": "echo", "arguments": map[string]any{"k": "v"}}}))
	if !strings.Contains(withArgs, `{\"k\":\"v\"}`) {
		t.Errorf("call_tool's inner arguments did not reach the tool: %s", withArgs)
	}
}

// TestSearchToolsOnlyWhenServed: without search exposure, or with a
// search-exposed toolset that is not served, search_tools, describe_tools
// and call_tool are unknown tools; SearchTools lists the three, without
// handlers.
func TestSearchToolsOnlyWhenServed(t *testing.T) {
	plain := runtime.NewServer(testInfo())
	plain.AddTool(echoTool("echo"))
	hidden := runtime.NewServer(testInfo(), runtime.WithToolsets(runtime.Toolset{Name: "s", Tools: []string{"echo"}, Exposure: runtime.ExposeSearch}, runtime.Toolset{Name: "o"}),
		runtime.WithEnabledToolsets("o"))
	hidden.AddTool(echoTool("echo"))
	for _, srv := range []*runtime.Server{plain, hidden} {
		c := serve(t, srv)
		c.initialize()
		for _, n := range []string{"search_tools", "describe_tools", "call_tool"} {
			if r := c.request("tools/call", map[string]any{"name": n, "arguments": map[string]any{"query": "echo", "names": []string{"echo"}, "name": "echo"}}); r.Error == nil {
				t.Errorf("%s served without search exposure served: %s", n, r.Result)
			}
		}
	}
	var names []string
	for _, tl := range runtime.SearchTools() {
		if tl.Handler != nil {
			t.Errorf("SearchTools' %s has a handler", tl.Name)
		}
		names = append(names, tl.Name)
	}
	if strings.Join(names, " ") != "search_tools describe_tools call_tool" {
		t.Errorf("SearchTools: %v", names)
	}
}
