package runtime_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// searchToolsetServer has "always" in no toolset, "read" behind search in
// the toolset "read" (exposure search), "write" listed in "write", and
// "both" in both toolsets.
func searchToolsetServer(opts ...runtime.Option) *runtime.Server {
	opts = append([]runtime.Option{runtime.WithToolsets(
		runtime.Toolset{Name: "read", Tools: []string{"read", "both"}, Exposure: runtime.ExposeSearch},
		runtime.Toolset{Name: "write", Tools: []string{"write", "both"}},
	)}, opts...)
	srv := runtime.NewServer(testInfo(), opts...)
	for _, n := range []string{"always", "read", "write", "both"} {
		srv.AddTool(echoTool(n))
	}
	return srv
}

var searchTools = []string{"search_tools", "describe_tools", "call_tool"}

// A search-exposed toolset's tools are behind the three search tools while
// it is served, and unknown when it is not; a tool also in a served
// toolset that lists its tools is listed.
func TestToolsetSearchExposure(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  []runtime.Option
		list  []string // tools/list
		found []string // search_tools, and callable through call_tool
	}{
		{"every toolset", nil, append([]string{"always", "write", "both"}, searchTools...), []string{"read"}},
		{"read", []runtime.Option{runtime.WithEnabledToolsets("read")}, append([]string{"always"}, searchTools...), []string{"both", "read"}},
		{"write", []runtime.Option{runtime.WithEnabledToolsets("write")}, []string{"always", "write", "both"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, searchToolsetServer(tc.opts...))
			c.initialize()
			if got := listedNames(t, c.result("tools/list", nil), "tools"); !slices.Equal(got, tc.list) {
				t.Errorf("tools/list: %v, want %v", got, tc.list)
			}
			r := c.request("tools/call", map[string]any{"name": "search_tools", "arguments": map[string]any{"query": "read both echo always write", "limit": 50}})
			var found []string
			if r.Error == nil {
				found = sortedNames(t, r.Result)
			}
			if !slices.Equal(found, tc.found) {
				t.Errorf("search_tools found %v, want %v (%s)", found, tc.found, errorJSON(r))
			}
			// The search tools are unknown where no search toolset is served.
			for n, args := range map[string]any{"search_tools": map[string]any{"query": "read"}, "describe_tools": map[string]any{"names": []string{"read"}}, "call_tool": map[string]any{"name": "read"}} {
				r := c.request("tools/call", map[string]any{"name": n, "arguments": args})
				unknown := r.Error != nil && strings.Contains(r.Error.Message, "unknown tool")
				if unknown == slices.Contains(tc.list, n) {
					t.Errorf("tools/call %s: %s %s; listed: %v", n, errorJSON(r), r.Result, slices.Contains(tc.list, n))
				}
			}
			for _, n := range []string{"always", "read", "write", "both"} {
				direct := c.request("tools/call", map[string]any{"name": n, "arguments": map[string]any{}})
				served := slices.Contains(tc.list, n) || slices.Contains(tc.found, n)
				if (direct.Error == nil) != served {
					t.Errorf("tools/call %s: %s; served: %v", n, errorJSON(direct), served)
				}
			}
		})
	}
}

// sortedNames reads search_tools' names in alphabetical order.
func sortedNames(t *testing.T, result json.RawMessage) []string {
	t.Helper()
	names := structuredNames(t, &response{Result: result})
	slices.Sort(names)
	return names
}

// The selection of an HTTP request counts, in both eras: a request that
// serves the search-exposed toolset gets the search tools, one that does
// not cannot reach its tools through call_tool.
func TestToolsetSearchPerRequest(t *testing.T) {
	p := serveHTTP(t, searchToolsetServer(runtime.WithEnabledToolsets("write")))
	p.initialize(`{}`)
	// params are the members of the request's params.
	legacy := func(method, params, toolsets string) response {
		resp, _ := p.call(method, "{"+params+"}", "Mcp-Toolsets", toolsets)
		msgs := readAll(t, resp)
		return parse(t, msgs[len(msgs)-1].Data)
	}
	modern := func(method, params, toolsets string) response {
		_, _, body := modernPost(t, p.url, `{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":{`+params+`,`+modernMeta+`}}`,
			map[string]string{"Mcp-Toolsets": toolsets})
		return parse(t, body)
	}
	for era, rpc := range map[string]func(method, params, toolsets string) response{"legacy": legacy, "2026-07-28": modern} {
		list := func(toolsets string) []string {
			return listedNames(t, rpc("tools/list", `"cursor":null`, toolsets).Result, "tools")
		}
		if got := list("read"); !slices.Equal(got, append([]string{"always"}, searchTools...)) {
			t.Errorf("%s: tools/list serving read: %v", era, got)
		}
		if got := list("write"); !slices.Equal(got, []string{"always", "write", "both"}) {
			t.Errorf("%s: tools/list serving write: %v", era, got)
		}
		viaSearch := `"name":"call_tool","arguments":{"name":"read","arguments":{}}`
		if r := rpc("tools/call", viaSearch, "read"); r.Error != nil || strings.Contains(string(r.Result), `"isError":true`) {
			t.Errorf("%s: call_tool read, serving read: %s %s", era, errorJSON(r), r.Result)
		}
		if r := rpc("tools/call", viaSearch, "write"); r.Error == nil || !strings.Contains(r.Error.Message, `unknown tool "read"`) {
			t.Errorf("%s: call_tool read, serving write: %s %s", era, errorJSON(r), r.Result)
		}
		r := rpc("tools/call", `"name":"describe_tools","arguments":{"names":["read","write"]}`, "read,write")
		if got := structuredNames(t, &r); !slices.Equal(got, []string{"read"}) {
			t.Errorf("%s: describe_tools read, write: %v (write is listed, not behind search)", era, got)
		}
	}
}

// Enabling a search-exposed toolset in dynamic mode lists the search tools
// (list_changed follows) and makes its tools found.
func TestToolsetSearchDynamic(t *testing.T) {
	c := serve(t, searchToolsetServer(runtime.WithDynamicToolsets(runtime.DynamicToolsets{})))
	c.initialize()
	if got := listedNames(t, c.result("tools/list", nil), "tools"); !slices.Equal(got, []string{"list_toolsets", "enable_toolset", "always"}) {
		t.Fatalf("tools/list at first: %v", got)
	}
	// The response and the list_changed the call sends come in either order.
	c.send(`{"jsonrpc":"2.0","id":"enable","method":"tools/call","params":{"name":"enable_toolset","arguments":{"toolset":"read"}}}`)
	got := []string{c.recv(), c.recv()}
	if !slices.Contains(got, toolsChanged) || !slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, "enabled toolset read") }) {
		t.Errorf("enable_toolset read: %v", got)
	}
	if got := listedNames(t, c.result("tools/list", nil), "tools"); !slices.Equal(got, append([]string{"list_toolsets", "enable_toolset", "always"}, searchTools...)) {
		t.Errorf("tools/list after enabling read: %v", got)
	}
	res := c.callTool("search_tools", map[string]any{"query": "read both", "limit": 50})
	if got := sortedNames(t, res); !slices.Equal(got, []string{"both", "read"}) {
		t.Errorf("search_tools after enabling read: %v", got)
	}
}

// benchToolsetList is tools/list of 19 tools, 12 of them in one toolset
// with the exposure e, through a Session: the price of choosing per request
// what is behind search.
func benchToolsetList(b *testing.B, e runtime.ToolExposure) {
	var grouped []string
	for i := range 12 {
		grouped = append(grouped, "tool_"+string(rune('a'+i)))
	}
	srv := runtime.NewServer(testInfo(), runtime.WithToolsets(runtime.Toolset{Name: "many", Tools: grouped, Exposure: e}))
	for i := range 19 {
		srv.AddTool(echoTool("tool_" + string(rune('a'+i))))
	}
	done := make(chan struct{}, 1)
	ss := srv.NewSession(func([]byte) { done <- struct{}{} })
	defer ss.Close()
	ctx := context.Background()
	ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`))
	<-done
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	b.ReportAllocs()
	for b.Loop() {
		ss.HandleMessage(ctx, req)
		<-done
	}
}

func BenchmarkToolsListToolsetListed(b *testing.B)   { benchToolsetList(b, runtime.ExposeAll) }
func BenchmarkToolsListToolsetSearched(b *testing.B) { benchToolsetList(b, runtime.ExposeSearch) }

// A tool added after a first search is found by the next one (the search
// index follows the tool set), and a tool removed is no longer found.
func TestSearchFindsToolsAddedLater(t *testing.T) {
	srv := runtime.NewServer(testInfo(), runtime.WithToolExposure(runtime.ExposeSearch))
	srv.AddTool(echoTool("echo"))
	p := newSessionPeer(t, srv) // 2026-07-28, stateless: no list_changed to read past
	search := func() []string {
		got := p.exchange(req(1, "tools/call", `{"name":"search_tools","arguments":{"query":"echo zebra","limit":50},`+modernMeta+`}`))
		return sortedNames(t, parse(t, got[len(got)-1]).Result)
	}
	if got := search(); !slices.Equal(got, []string{"echo"}) {
		t.Fatalf("first search: %v", got)
	}
	srv.AddTool(runtime.Tool{Name: "zebra_stripes", Description: "Counts a zebra's stripes.", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return runtime.TextResult("42"), nil
	}})
	if got := search(); !slices.Equal(got, []string{"echo", "zebra_stripes"}) {
		t.Errorf("search after adding zebra_stripes: %v", got)
	}
	srv.RemoveTool("echo")
	if got := search(); !slices.Equal(got, []string{"zebra_stripes"}) {
		t.Errorf("search after removing echo: %v", got)
	}
}
