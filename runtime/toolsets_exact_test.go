package runtime_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// TestEnableToolsetNotificationsExact: in dynamic mode, enabling a
// toolset sends exactly the list_changed of the kinds it has members of
// (resources for resources and templates alike), once each, and nothing
// else; the lists then show exactly its members beside what is in no
// toolset. Enabling it again sends nothing.
func TestEnableToolsetNotificationsExact(t *testing.T) {
	const (
		tools     = `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`
		prompts   = `{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}`
		resources = `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}`
	)
	newServer := func() *runtime.Server {
		srv := runtime.NewServer(testInfo(), runtime.WithDynamicToolsets(runtime.DynamicToolsets{}), runtime.WithToolsets(
			runtime.Toolset{Name: "t", Tools: []string{"x"}},
			runtime.Toolset{Name: "p", Prompts: []string{"pa"}},
			runtime.Toolset{Name: "r", Resources: []string{"res://a"}},
			runtime.Toolset{Name: "m", Templates: []string{"ta"}},
			runtime.Toolset{Name: "tp", Tools: []string{"y"}, Prompts: []string{"pb"}},
		))
		srv.AddTool(echoTool("free"))
		srv.AddTool(echoTool("x"))
		srv.AddTool(echoTool("y"))
		prompt := func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
			return &runtime.GetPromptResult{}, nil
		}
		srv.AddPrompt(runtime.Prompt{Name: "pa", Handler: prompt})
		srv.AddPrompt(runtime.Prompt{Name: "pb", Handler: prompt})
		read := func(_ context.Context, req *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
			return &runtime.ReadResourceResult{Contents: []runtime.ResourceContents{{URI: req.URI, Text: "t"}}}, nil
		}
		srv.AddResource(runtime.Resource{URI: "res://a", Name: "a", Handler: read})
		srv.AddResource(runtime.Resource{URI: "res://free", Name: "free", Handler: read})
		srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "tpl://{id}", Name: "ta", Handler: read})
		return srv
	}
	// enable calls the enable tool and returns the notifications that
	// came with its answer, sorted: at least want of them (the outbox
	// sends them a moment later than the answer, maybe after a ping's),
	// and any that came before the answer of a ping sent after it. One
	// sent later still is read by the next request of the test as an
	// unexpected message, which fails it too.
	enable := func(c *client, name string, want int) []string {
		args, _ := json.Marshal(map[string]any{"toolset": name})
		c.send(`{"jsonrpc":"2.0","id":"en","method":"tools/call","params":{"name":"enable_toolset","arguments":` + string(args) + `}}`)
		var notes []string
		// The answer, with the notifications in any order around it; then
		// a ping, whose answer comes after any notification still due.
		for _, until := range []string{`"id":"en"`, `"id":"ping"`} {
			if until == `"id":"ping"` {
				c.send(`{"jsonrpc":"2.0","id":"ping","method":"ping"}`)
			}
			for {
				l := c.recv()
				if strings.Contains(l, until) {
					if strings.Contains(l, `"isError":true`) {
						t.Errorf("enable %s: %s", name, l)
					}
					break
				}
				notes = append(notes, l)
			}
		}
		for len(notes) < want {
			notes = append(notes, c.recv())
		}
		slices.Sort(notes)
		return notes
	}
	dyn := []string{"list_toolsets", "enable_toolset"}
	for _, tc := range []struct {
		toolset         string
		notes           []string
		tools, prompts  []string
		uris, templates []string
	}{
		{"t", []string{tools}, append(dyn, "free", "x"), nil, []string{"res://free"}, nil},
		{"p", []string{prompts}, append(dyn, "free"), []string{"pa"}, []string{"res://free"}, nil},
		{"r", []string{resources}, append(dyn, "free"), nil, []string{"res://a", "res://free"}, nil},
		{"m", []string{resources}, append(dyn, "free"), nil, []string{"res://free"}, []string{"ta"}},
		{"tp", []string{prompts, tools}, append(dyn, "free", "y"), []string{"pb"}, []string{"res://free"}, nil},
		{"all", []string{prompts, resources, tools}, append(dyn, "free", "x", "y"), []string{"pa", "pb"}, []string{"res://a", "res://free"}, []string{"ta"}},
	} {
		c := serve(t, newServer())
		c.initialize()
		if got := enable(c, tc.toolset, len(tc.notes)); !slices.Equal(got, tc.notes) {
			t.Errorf("enable %s: notifications %q, want %q", tc.toolset, got, tc.notes)
		}
		if got := listedNames(t, c.result("tools/list", nil), "tools"); !slices.Equal(got, tc.tools) {
			t.Errorf("enable %s: tools %v, want %v", tc.toolset, got, tc.tools)
		}
		if got := listedNames(t, c.result("prompts/list", nil), "prompts"); !slices.Equal(got, tc.prompts) {
			t.Errorf("enable %s: prompts %v, want %v", tc.toolset, got, tc.prompts)
		}
		var res struct{ Resources []struct{ URI string } }
		json.Unmarshal(c.result("resources/list", nil), &res)
		var uris []string
		for _, r := range res.Resources {
			uris = append(uris, r.URI)
		}
		if !slices.Equal(uris, tc.uris) {
			t.Errorf("enable %s: resources %v, want %v", tc.toolset, uris, tc.uris)
		}
		if got := listedNames(t, c.result("resources/templates/list", nil), "resourceTemplates"); !slices.Equal(got, tc.templates) {
			t.Errorf("enable %s: templates %v, want %v", tc.toolset, got, tc.templates)
		}
		if got := enable(c, tc.toolset, 0); len(got) != 0 {
			t.Errorf("enable %s again: %q, want nothing", tc.toolset, got)
		}
		c.result("ping", nil) // a notification sent late fails this read
	}
	// Enabling a second toolset announces only its own kinds.
	c := serve(t, newServer())
	c.initialize()
	enable(c, "tp", 2)
	if got := enable(c, "m", 1); !slices.Equal(got, []string{resources}) {
		t.Errorf("m after tp: %q, want only resources", got)
	}
	if got := enable(c, "all", 3); !slices.Equal(got, []string{prompts, resources, tools}) {
		t.Errorf("all after tp and m (t, p, r new): %q", got)
	}
}
