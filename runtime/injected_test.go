package runtime_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/genimpl"
)

// injectedServer has a generated tool with a closed schema, and "declares",
// whose schema has a wait_for_previous property of its own.
func injectedServer(opts ...runtime.Option) *runtime.Server {
	srv := runtime.NewServer(testInfo(), opts...)
	srv.AddTool(genimpl.GeneratedTool(runtime.Tool{Name: "lookup_order", InputSchema: json.RawMessage(lookupSchema)}, nil, lookupOrder))
	declares := echoTool("declares")
	declares.InputSchema = json.RawMessage(`{"type":"object","properties":{"wait_for_previous":{"type":"string"}},"additionalProperties":false}`)
	srv.AddTool(declares)
	return srv
}

// Gemini CLI adds wait_for_previous to every tool's schema and sends it when
// its model sets it: by default the server drops it before validation (a
// closed schema would refuse the call); with RejectInjected the tool refuses
// it like any unknown argument. Other unknown arguments are refused either
// way, and a tool that declares the name gets it.
func TestInjectedArguments(t *testing.T) {
	gemini := map[string]any{"order_id": "A-1042", "qty": 2, "wait_for_previous": true}
	typo := map[string]any{"order_id": "A-1042", "qty": 2, "quantity": 2}
	for _, tc := range []struct {
		name       string
		opts       []runtime.Option
		geminiFail bool
	}{
		{"default", nil, false},
		{"drop", []runtime.Option{runtime.WithInjectedArguments(runtime.DropInjected)}, false},
		{"reject", []runtime.Option{runtime.WithInjectedArguments(runtime.RejectInjected)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, injectedServer(tc.opts...))
			c.initialize()
			res := string(c.callTool("lookup_order", gemini))
			if failed := strings.Contains(res, `"isError":true`); failed != tc.geminiFail {
				t.Errorf("a call with wait_for_previous: %s", res)
			}
			if tc.geminiFail && !strings.Contains(res, "wait_for_previous") {
				t.Errorf("the refusal does not name the argument: %s", res)
			}
			if res := string(c.callTool("lookup_order", typo)); !strings.Contains(res, `"isError":true`) || !strings.Contains(res, "quantity") {
				t.Errorf("an unknown argument that no client injects passed: %s", res)
			}
			res = string(c.callTool("declares", map[string]any{"wait_for_previous": "yes"}))
			if !strings.Contains(res, `wait_for_previous\":\"yes`) {
				t.Errorf("a tool that declares wait_for_previous lost it: %s", res)
			}
			// The modern era goes the same way.
			p := map[string]any{"name": "lookup_order", "arguments": gemini, "_meta": gatedMeta(map[string]any{})}
			res = string(c.result("tools/call", p))
			if failed := strings.Contains(res, `"isError":true`); failed != tc.geminiFail {
				t.Errorf("modern: a call with wait_for_previous: %s", res)
			}
		})
	}
}

// Behind search exposure, Gemini CLI adds the argument to the search tools'
// schemas too, and to call_tool's (not to the arguments call_tool passes on).
func TestInjectedArgumentsBehindSearch(t *testing.T) {
	c := serve(t, injectedServer(runtime.WithToolExposure(runtime.ExposeSearch)))
	c.initialize()
	if res := string(c.callTool(runtime.SearchToolsName, map[string]any{"query": "order", "wait_for_previous": false})); strings.Contains(res, `"isError":true`) || !strings.Contains(res, "lookup_order") {
		t.Errorf("search_tools with wait_for_previous: %s", res)
	}
	if res := string(c.callTool(runtime.DescribeToolsName, map[string]any{"names": []string{"lookup_order"}, "wait_for_previous": false})); strings.Contains(res, `"isError":true`) {
		t.Errorf("describe_tools with wait_for_previous: %s", res)
	}
	res := string(c.callTool(runtime.CallToolName, map[string]any{"name": "lookup_order", "arguments": map[string]any{"order_id": "A-1042", "qty": 1}, "wait_for_previous": true}))
	if strings.Contains(res, `"isError":true`) || !strings.Contains(res, "A-1042") {
		t.Errorf("call_tool with wait_for_previous: %s", res)
	}
}
