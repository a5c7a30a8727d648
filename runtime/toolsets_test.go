package runtime_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// toolsetServer has the tool "always" in no toolset, "read" and "write" in
// the toolsets of their names, and the prompt "p" in "write".
func toolsetServer(opts ...runtime.Option) *runtime.Server {
	opts = append([]runtime.Option{runtime.WithToolsets(
		runtime.Toolset{Name: "read", Description: "Reading.", Tools: []string{"read"}},
		runtime.Toolset{Name: "write", Title: "Writing", Tools: []string{"write"}, Prompts: []string{"p"}},
	)}, opts...)
	srv := runtime.NewServer(testInfo(), opts...)
	for _, n := range []string{"always", "read", "write"} {
		srv.AddTool(echoTool(n))
	}
	srv.AddPrompt(runtime.Prompt{Name: "p", Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		return &runtime.GetPromptResult{}, nil
	}})
	return srv
}

// listedNames reads the names of a tools/list or prompts/list result.
func listedNames(t *testing.T, result []byte, field string) []string {
	t.Helper()
	var res map[string]json.RawMessage
	if err := json.Unmarshal(result, &res); err != nil {
		t.Fatalf("%s: %v", result, err)
	}
	var items []struct{ Name string }
	if err := json.Unmarshal(res[field], &items); err != nil {
		t.Fatalf("%s: %v", result, err)
	}
	var names []string
	for _, it := range items {
		names = append(names, it.Name)
	}
	return names
}

func TestToolsetsServeTheChosenSet(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []runtime.Option
		want []string
	}{
		{"no selection: every toolset", nil, []string{"always", "read", "write"}},
		{"read", []runtime.Option{runtime.WithEnabledToolsets("read")}, []string{"always", "read"}},
		{"comma list", []runtime.Option{runtime.WithEnabledToolsets("write, read")}, []string{"always", "read", "write"}},
		{"all", []runtime.Option{runtime.WithEnabledToolsets("all")}, []string{"always", "read", "write"}},
		{"none chosen", []runtime.Option{runtime.WithEnabledToolsets()}, []string{"always"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, toolsetServer(tc.opts...))
			c.initialize()
			if got := listedNames(t, c.result("tools/list", nil), "tools"); !slices.Equal(got, tc.want) {
				t.Errorf("tools/list: %v, want %v", got, tc.want)
			}
			for _, n := range []string{"always", "read", "write"} {
				r := c.request("tools/call", map[string]any{"name": n, "arguments": map[string]any{}})
				if served := r.Error == nil; served != slices.Contains(tc.want, n) {
					t.Errorf("tools/call %s: %s; listed: %v", n, errorJSON(r), tc.want)
				}
			}
		})
	}
}

// A hidden tool is refused as an unknown one, and a hidden prompt too.
func TestToolsetsHiddenIsUnknown(t *testing.T) {
	c := serve(t, toolsetServer(runtime.WithEnabledToolsets("read")))
	c.initialize()
	r := c.request("tools/call", map[string]any{"name": "write", "arguments": map[string]any{}})
	unknown := c.request("tools/call", map[string]any{"name": "nosuch", "arguments": map[string]any{}})
	if r.Error == nil || unknown.Error == nil || r.Error.Code != unknown.Error.Code ||
		strings.Replace(r.Error.Message, "write", "nosuch", 1) != unknown.Error.Message {
		t.Errorf("hidden tool: %s; unknown tool: %s", errorJSON(r), errorJSON(unknown))
	}
	if got := listedNames(t, c.result("prompts/list", nil), "prompts"); len(got) != 0 {
		t.Errorf("prompts/list: %v, want none (p is in write)", got)
	}
	if r := c.request("prompts/get", map[string]any{"name": "p"}); r.Error == nil {
		t.Error("prompts/get of a prompt in a toolset not served: no error")
	}
}

func TestToolsetsUnknownSelectionFailsServing(t *testing.T) {
	srv := toolsetServer(runtime.WithEnabledToolsets("read,wirte"))
	err := srv.ServeStdio(context.Background(), strings.NewReader(""), io.Discard)
	if err == nil || !strings.Contains(err.Error(), `unknown toolset "wirte"`) || !strings.Contains(err.Error(), "read, write") {
		t.Fatalf("ServeStdio: %v, want an error naming wirte and the toolsets", err)
	}
	err = runtime.ListenAndServe(context.Background(), runtime.NewServer(testInfo(), runtime.WithEnabledToolsets("x")), "127.0.0.1:0")
	if err == nil || !strings.Contains(err.Error(), "this server has no toolsets") {
		t.Errorf("ListenAndServe: %v, want an error: the server has no toolsets", err)
	}
}

// Over HTTP, a request chooses with the Mcp-Toolsets header or the
// toolsets query parameter; a bad name is a 400 that names it.
func TestToolsetsPerHTTPRequest(t *testing.T) {
	p := serveHTTP(t, toolsetServer(runtime.WithEnabledToolsets("read")))
	p.initialize(`{}`)
	list := func(hdr ...string) (int, []string, string) {
		resp, _ := p.call("tools/list", "", hdr...)
		msgs := readAll(t, resp)
		if resp.StatusCode != http.StatusOK {
			return resp.StatusCode, nil, msgs[0].Data
		}
		return resp.StatusCode, listedNames(t, parse(t, msgs[0].Data).Result, "tools"), ""
	}
	if _, got, _ := list(); !slices.Equal(got, []string{"always", "read"}) {
		t.Errorf("without a header: %v", got)
	}
	if _, got, _ := list("Mcp-Toolsets", "write"); !slices.Equal(got, []string{"always", "write"}) {
		t.Errorf("Mcp-Toolsets: write: %v", got)
	}
	if status, _, body := list("Mcp-Toolsets", "writ"); status != http.StatusBadRequest || !strings.Contains(body, `unknown toolset \"writ\" in the Mcp-Toolsets header`) {
		t.Errorf("Mcp-Toolsets: writ: %d %s", status, body)
	}
	p.url += "?toolsets=all"
	if _, got, _ := list(); !slices.Equal(got, []string{"always", "read", "write"}) {
		t.Errorf("?toolsets=all: %v", got)
	}
	if _, got, _ := list("Mcp-Toolsets", "read"); !slices.Equal(got, []string{"always", "read"}) {
		t.Errorf("the header before the query: %v", got)
	}
}

// In the 2026-07-28 era, a list chosen by the request is cacheScope
// private; the server's own selection keeps the configured scope.
func TestToolsetsModernCacheScope(t *testing.T) {
	p := serveHTTP(t, toolsetServer(runtime.WithEnabledToolsets("read"), runtime.WithCaching(0, "public")))
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + modernMeta + `}}`
	_, _, body := modernPost(t, p.url, msg, nil)
	if !strings.Contains(body, `"cacheScope":"public"`) || strings.Contains(body, `"write"`) {
		t.Errorf("server's selection: %s", body)
	}
	_, _, body = modernPost(t, p.url, msg, map[string]string{"Mcp-Toolsets": "write"})
	if !strings.Contains(body, `"cacheScope":"private"`) || !strings.Contains(body, `"write"`) || strings.Contains(body, `"name":"read"`) {
		t.Errorf("request's selection: %s", body)
	}
}

func TestDynamicToolsetsLegacy(t *testing.T) {
	c := serve(t, toolsetServer(runtime.WithDynamicToolsets(runtime.DynamicToolsets{})))
	c.initialize()
	if got := listedNames(t, c.result("tools/list", nil), "tools"); !slices.Equal(got, []string{"list_toolsets", "enable_toolset", "always"}) {
		t.Fatalf("tools/list at first: %v", got)
	}
	listing := string(c.callTool("list_toolsets", map[string]any{}))
	if !strings.Contains(listing, `{"name":"write","title":"Writing","enabled":false,"tools":["write"]}`) {
		t.Errorf("list_toolsets: %s", listing)
	}
	// The response and the two list_changed come in any order.
	c.send(`{"jsonrpc":"2.0","id":"enable","method":"tools/call","params":{"name":"enable_toolset","arguments":{"toolset":"write"}}}`)
	var got []string
	for range 3 {
		if l := c.recv(); strings.Contains(l, `"id":"enable"`) {
			if !strings.Contains(l, "enabled toolset write") {
				t.Errorf("enable_toolset: %s", l)
			}
		} else {
			got = append(got, l)
		}
	}
	slices.Sort(got)
	if want := []string{`{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}`, toolsChanged}; !slices.Equal(got, want) {
		t.Errorf("after enable_toolset: %v, want %v", got, want)
	}
	if got := listedNames(t, c.result("tools/list", nil), "tools"); !slices.Equal(got, []string{"list_toolsets", "enable_toolset", "always", "write"}) {
		t.Errorf("tools/list after enabling write: %v", got)
	}
	if got := listedNames(t, c.result("prompts/list", nil), "prompts"); !slices.Equal(got, []string{"p"}) {
		t.Errorf("prompts/list after enabling write: %v", got)
	}
	if res := string(c.callTool("enable_toolset", map[string]any{"toolset": "nope"})); !strings.Contains(res, `"isError":true`) || !strings.Contains(res, `unknown toolset \"nope\"`) {
		t.Errorf("enable_toolset nope: %s", res)
	}
	// Enabling it again changes nothing: it says so, and no list changed.
	c.send(`{"jsonrpc":"2.0","id":"again","method":"tools/call","params":{"name":"enable_toolset","arguments":{"toolset":"write"}}}`)
	for {
		l := c.recv()
		if !strings.Contains(l, `"id":"again"`) {
			t.Errorf("enabling an enabled toolset sent %s", l)
			continue
		}
		if !strings.Contains(l, "toolset write was already enabled") {
			t.Errorf("enable_toolset write again: %s", l)
		}
		break
	}
	c.result("ping", nil) // a list_changed sent late would come before its answer
}

// A stateless 2026-07-28 request has no session to enable a toolset in:
// the tool says how to choose with the header instead.
func TestDynamicToolsetsModern(t *testing.T) {
	p := serveHTTP(t, toolsetServer(runtime.WithDynamicToolsets(runtime.DynamicToolsets{EnableTool: "enable"})))
	_, _, body := modernPost(t, p.url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"enable","arguments":{"toolset":"read"},`+modernMeta+`}}`, nil)
	if !strings.Contains(body, `"isError":true`) || !strings.Contains(body, "Mcp-Toolsets") {
		t.Errorf("enable in the modern era: %s", body)
	}
	_, _, body = modernPost(t, p.url, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{`+modernMeta+`}}`, map[string]string{"Mcp-Toolsets": "read"})
	if !strings.Contains(body, `"name":"read"`) || !strings.Contains(body, `"cacheScope":"private"`) {
		t.Errorf("tools/list with the header: %s", body)
	}
}

// A toolset enabled on one replica is enabled for the session on every
// replica: it is in the shared session record.
func TestDynamicToolsetsSharedSession(t *testing.T) {
	shared := &sharedInMemory{runtime.NewMemoryIdempotencyStore(0), runtime.NewMemoryEventStore(100), runtime.NewMemoryBus(), newMemSessions()}
	replica := func() *httpPeer {
		return serveHTTP(t, toolsetServer(runtime.WithStore(shared), runtime.WithDynamicToolsets(runtime.DynamicToolsets{})))
	}
	a, b := replica(), replica()
	a.initialize(`{}`)
	b.session = a.session
	get := a.do(http.MethodGet, "")
	defer get.Body.Close()
	stream := newSSE(get.Body)
	if res := string(b.result("tools/call", `{"name":"enable_toolset","arguments":{"toolset":"read"}}`)); !strings.Contains(res, "enabled toolset read") {
		t.Fatalf("enable on B: %s", res)
	}
	for {
		ev := nextEvent(t, stream)
		if ev.Data == "" {
			continue // the priming event
		}
		if ev.Data != toolsChanged {
			t.Fatalf("A's GET stream: %q, want tools/list_changed", ev.Data)
		}
		break
	}
	if got := listedNames(t, a.result("tools/list", ""), "tools"); !slices.Contains(got, "read") {
		t.Errorf("tools/list on A after enabling read on B: %v", got)
	}
}
