package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// TestWithToolsetsRefusesBadDeclarations: a toolset without a name, one
// named all, and a name declared twice are programming errors: NewServer
// panics naming them.
func TestWithToolsetsRefusesBadDeclarations(t *testing.T) {
	for _, c := range []struct {
		sets []runtime.Toolset
		want string
	}{
		{[]runtime.Toolset{{Name: "a"}, {Name: ""}}, `toolset 1 is named ""`},
		{[]runtime.Toolset{{Name: "all"}}, `toolset 0 is named "all"`},
		{[]runtime.Toolset{{Name: "a"}, {Name: "b"}, {Name: "a"}}, `toolset "a" is declared twice`},
	} {
		func() {
			defer func() {
				if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), c.want) {
					t.Errorf("toolsets %v: panic %v, want one saying %s", c.sets, v, c.want)
				}
			}()
			runtime.NewServer(testInfo(), runtime.WithToolsets(c.sets...))
		}()
	}
}

// TestEnabledToolsetsSelection: WithEnabledToolsets takes names and comma
// lists (blanks dropped) and all; given twice, the last one is what is
// served.
func TestEnabledToolsetsSelection(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []runtime.Option
		want []string
	}{
		{"blanks", []runtime.Option{runtime.WithEnabledToolsets(" , read ,, ")}, []string{"always", "read"}},
		{"names apart", []runtime.Option{runtime.WithEnabledToolsets("read", "write")}, []string{"always", "read", "write"}},
		{"all beside a name", []runtime.Option{runtime.WithEnabledToolsets("read,all")}, []string{"always", "read", "write"}},
		{"the last wins", []runtime.Option{runtime.WithEnabledToolsets("write"), runtime.WithEnabledToolsets("read")}, []string{"always", "read"}},
		{"the last wins, empty", []runtime.Option{runtime.WithEnabledToolsets("write"), runtime.WithEnabledToolsets()}, []string{"always"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, toolsetServer(tc.opts...))
			c.initialize()
			if got := listedNames(t, c.result("tools/list", nil), "tools"); !slices.Equal(got, tc.want) {
				t.Errorf("tools/list: %v, want %v", got, tc.want)
			}
		})
	}
}

// TestToolsetsSelectionErrors: over HTTP an unknown name in the
// Mcp-Toolsets header or the toolsets query parameter is a 400 that says
// where and what, the same whether or not the server has toolsets (on one
// without, every name but all is unknown).
func TestToolsetsSelectionErrors(t *testing.T) {
	plain := runtime.NewServer(testInfo())
	plain.AddTool(echoTool("always"))
	for _, c := range []struct {
		srv        *runtime.Server
		query, hdr string
		want       string
	}{
		{plain, "", "read", `unknown toolset \"read\" in the Mcp-Toolsets header; this server has no toolsets`},
		{plain, "?toolsets=read", "", `unknown toolset \"read\" in the toolsets query parameter; this server has no toolsets`},
		{plain, "?x=1&toolsets=all,nope", "", `unknown toolset \"nope\" in the toolsets query parameter; this server has no toolsets`},
		{toolsetServer(), "?toolsets=read,nope", "", `unknown toolset \"nope\" in the toolsets query parameter; the toolsets are read, write (or all)`},
		{toolsetServer(), "", "read, nope", `unknown toolset \"nope\" in the Mcp-Toolsets header`},
	} {
		p := serveHTTP(t, c.srv)
		p.url += c.query
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		var hdr []string
		if c.hdr != "" {
			hdr = []string{"Mcp-Toolsets", c.hdr}
		}
		resp := p.do(http.MethodPost, body, hdr...)
		msgs := readAll(t, resp)
		if resp.StatusCode != http.StatusBadRequest || len(msgs) == 0 || !strings.Contains(msgs[0].Data, c.want) {
			t.Errorf("%s %s: %d %v, want 400 saying %s", c.query, c.hdr, resp.StatusCode, msgs, c.want)
		}
	}
	// Naming no toolset, or all of none, is no error there.
	for _, query := range []string{"?toolsets=", "?toolsets=all", "?toolsets=%20,all"} {
		p := serveHTTP(t, plain)
		p.url += query
		p.initialize(`{}`)
		if got := listedNames(t, p.result("tools/list", ""), "tools"); !slices.Equal(got, []string{"always"}) {
			t.Errorf("%s on a server without toolsets: tools %v, want [always]", query, got)
		}
	}
}

// toolsetKindsServer has, in toolset "a": the tool x, the prompt pa, the
// resource res://a and the template ta; in "b": the tool y, and the tool
// both (also in a); in no toolset: the prompt x (a prompt's key is not a
// tool's) and the resource res://free.
func toolsetKindsServer(opts ...runtime.Option) *runtime.Server {
	opts = append([]runtime.Option{runtime.WithToolsets(
		runtime.Toolset{Name: "a", Tools: []string{"x", "both"}, Prompts: []string{"pa"}, Resources: []string{"res://a"}, Templates: []string{"ta"}},
		runtime.Toolset{Name: "b", Tools: []string{"y", "both"}},
	)}, opts...)
	srv := runtime.NewServer(testInfo(), opts...)
	for _, n := range []string{"x", "y", "both"} {
		srv.AddTool(echoTool(n))
	}
	prompt := func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		return &runtime.GetPromptResult{}, nil
	}
	srv.AddPrompt(runtime.Prompt{Name: "pa", Handler: prompt})
	srv.AddPrompt(runtime.Prompt{Name: "x", Handler: prompt})
	read := func(_ context.Context, req *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return &runtime.ReadResourceResult{Contents: []runtime.ResourceContents{{URI: req.URI, Text: "t"}}}, nil
	}
	srv.AddResource(runtime.Resource{URI: "res://a", Handler: read})
	srv.AddResource(runtime.Resource{URI: "res://free", Handler: read})
	srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "tpl://{id}", Name: "ta", Handler: read})
	return srv
}

// TestToolsetsEveryKind: a toolset's prompts, resources (by URI) and
// templates (by name) are listed and served only while it is, like its
// tools; an item in two toolsets is served while either is; the kinds'
// keys are apart (the prompt x is in no toolset though the tool x is).
func TestToolsetsEveryKind(t *testing.T) {
	for _, tc := range []struct {
		enabled                          string
		tools, prompts, resources, tmpls []string
	}{
		{"a", []string{"x", "both"}, []string{"pa", "x"}, []string{"res://a", "res://free"}, []string{"ta"}},
		{"b", []string{"y", "both"}, []string{"x"}, []string{"res://free"}, nil},
		{"a,b", []string{"x", "y", "both"}, []string{"pa", "x"}, []string{"res://a", "res://free"}, []string{"ta"}},
	} {
		t.Run(tc.enabled, func(t *testing.T) {
			c := serve(t, toolsetKindsServer(runtime.WithEnabledToolsets(tc.enabled)))
			c.initialize()
			if got := listedNames(t, c.result("tools/list", nil), "tools"); !slices.Equal(got, tc.tools) {
				t.Errorf("tools/list: %v, want %v", got, tc.tools)
			}
			if got := listedNames(t, c.result("prompts/list", nil), "prompts"); !slices.Equal(got, tc.prompts) {
				t.Errorf("prompts/list: %v, want %v", got, tc.prompts)
			}
			var res struct{ Resources []struct{ URI string } }
			json.Unmarshal(c.result("resources/list", nil), &res)
			var uris []string
			for _, r := range res.Resources {
				uris = append(uris, r.URI)
			}
			if !slices.Equal(uris, tc.resources) {
				t.Errorf("resources/list: %v, want %v", uris, tc.resources)
			}
			if got := listedNames(t, c.result("resources/templates/list", nil), "resourceTemplates"); !slices.Equal(got, tc.tmpls) {
				t.Errorf("resources/templates/list: %v, want %v", got, tc.tmpls)
			}
			for _, n := range []string{"x", "y", "both"} {
				r := c.request("tools/call", map[string]any{"name": n, "arguments": map[string]any{}})
				if (r.Error == nil) != slices.Contains(tc.tools, n) {
					t.Errorf("tools/call %s: %s", n, errorJSON(r))
				}
			}
			for _, n := range []string{"pa", "x"} {
				r := c.request("prompts/get", map[string]any{"name": n})
				if (r.Error == nil) != slices.Contains(tc.prompts, n) {
					t.Errorf("prompts/get %s: %s", n, errorJSON(r))
				}
			}
			for _, u := range []string{"res://a", "res://free"} {
				r := c.request("resources/read", map[string]any{"uri": u})
				if (r.Error == nil) != slices.Contains(tc.resources, u) {
					t.Errorf("resources/read %s: %s", u, errorJSON(r))
				}
			}
			r := c.request("resources/read", map[string]any{"uri": "tpl://7"})
			if (r.Error == nil) != (tc.tmpls != nil) {
				t.Errorf("resources/read of the template's tpl://7: %s", errorJSON(r))
			}
		})
	}
}

// TestDynamicToolsetsStart: in dynamic mode what WithEnabledToolsets
// names is served from the start (and listed enabled); a malformed call
// of the enable tool says how to call it and names the toolsets.
func TestDynamicToolsetsStart(t *testing.T) {
	c := serve(t, toolsetServer(runtime.WithDynamicToolsets(runtime.DynamicToolsets{ListTool: "sets", EnableTool: "turn_on"}), runtime.WithEnabledToolsets("read")))
	c.initialize()
	if got := listedNames(t, c.result("tools/list", nil), "tools"); !slices.Equal(got, []string{"sets", "turn_on", "always", "read"}) {
		t.Fatalf("tools/list at first: %v", got)
	}
	listing := string(c.callTool("sets", map[string]any{}))
	if !strings.Contains(listing, `{"name":"read","description":"Reading.","enabled":true,"tools":["read"]}`) ||
		!strings.Contains(listing, `{"name":"write","title":"Writing","enabled":false,"tools":["write"]}`) {
		t.Errorf("the list tool: %s", listing)
	}
	for _, args := range []map[string]any{{}, {"toolset": ""}, {"toolset": 3}} {
		if res := string(c.callTool("turn_on", args)); !strings.Contains(res, `"isError":true`) || !strings.Contains(res, "the toolsets are read, write (or all)") {
			t.Errorf("turn_on %v: %s", args, res)
		}
	}
}

// TestDynamicToolsetsEnableAll: enable_toolset of all enables every
// toolset and names the tools of them all (not only the first toolset's),
// and again says they were enabled, with the same tools.
func TestDynamicToolsetsEnableAll(t *testing.T) {
	c := serve(t, toolsetServer(runtime.WithDynamicToolsets(runtime.DynamicToolsets{})))
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":"all","method":"tools/call","params":{"name":"enable_toolset","arguments":{"toolset":"all"}}}`)
	var answer string
	for range 3 { // the answer, tools and prompts list_changed, in any order
		if l := c.recv(); strings.Contains(l, `"id":"all"`) {
			answer = l
		}
	}
	if !strings.Contains(answer, "enabled toolset all; its tools are listed now: read, write") {
		t.Errorf("enable_toolset all: %s, want it to name read and write", answer)
	}
	if got := listedNames(t, c.result("tools/list", nil), "tools"); !slices.Equal(got, []string{"list_toolsets", "enable_toolset", "always", "read", "write"}) {
		t.Errorf("tools/list after all: %v", got)
	}
	if res := string(c.callTool("enable_toolset", map[string]any{"toolset": "all"})); !strings.Contains(res, "toolset all was already enabled; its tools: read, write") {
		t.Errorf("enable_toolset all again: %s", res)
	}
}
