package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// The tests at the edges of the runtime's limits: each at the limit − 1,
// the limit and the limit + 1 (and 0 where it means something), so that a
// bound moved by one either way fails (RELIABILITY.md, "Limits and the
// tests at their edges").

// search_tools' limit is 1 to 50 (8 without one); describe_tools takes 1
// to 20 names.
func TestSearchAndDescribeLimitsAtTheirEdges(t *testing.T) {
	srv := runtime.NewServer(testInfo(), runtime.WithToolExposure(runtime.ExposeSearch))
	var names []string
	for i := range 60 {
		tl := echoTool(fmt.Sprintf("pet_tool_%02d", i))
		tl.Description = "pets"
		srv.AddTool(tl)
		names = append(names, tl.Name)
	}
	c := serve(t, srv)
	c.initialize()
	call := func(name string, args any) (hits int, isError bool) {
		t.Helper()
		var res struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(c.callTool(name, args), &res); err != nil || len(res.Content) == 0 {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		if res.IsError {
			return 0, true
		}
		var out struct{ Tools []json.RawMessage }
		json.Unmarshal([]byte(res.Content[0].Text), &out)
		return len(out.Tools), false
	}
	for _, tc := range []struct {
		limit any // nil: none given
		hits  int
		err   bool
	}{{nil, 8, false}, {0, 0, true}, {1, 1, false}, {2, 2, false}, {49, 49, false}, {50, 50, false}, {51, 0, true}} {
		args := map[string]any{"query": "pets"}
		if tc.limit != nil {
			args["limit"] = tc.limit
		}
		if hits, isErr := call("search_tools", args); hits != tc.hits || isErr != tc.err {
			t.Errorf("search_tools limit %v: %d hits, isError %v; want %d, %v", tc.limit, hits, isErr, tc.hits, tc.err)
		}
	}
	for _, tc := range []struct {
		n   int
		err bool
	}{{0, true}, {1, false}, {19, false}, {20, false}, {21, true}} {
		if hits, isErr := call("describe_tools", map[string]any{"names": names[:tc.n]}); isErr != tc.err || !tc.err && hits != tc.n {
			t.Errorf("describe_tools of %d names: %d described, isError %v; want isError %v", tc.n, hits, isErr, tc.err)
		}
	}
}

// CompleteValues keeps 100 values: 100 matches have no more, 101 do.
// A handler's completion of more than 100 values is cut to 100, with
// hasMore.
func TestCompletionLimitAtItsEdges(t *testing.T) {
	for _, n := range []int{99, 100, 101} {
		c := runtime.CompleteValues("v", many(n, "v%d")...)
		if want := min(n, 100); len(c.Values) != want || c.Total != n || c.HasMore != (n > 100) {
			t.Errorf("CompleteValues of %d: %d values, total %d, hasMore %v; want %d, %d, %v", n, len(c.Values), c.Total, c.HasMore, want, n, n > 100)
		}
	}
	for _, n := range []int{99, 100, 101} {
		srv := runtime.NewServer(testInfo())
		srv.AddPrompt(runtime.Prompt{Name: "p", Arguments: []runtime.PromptArgument{{Name: "a"}},
			Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
				return &runtime.GetPromptResult{}, nil
			},
			Complete: func(context.Context, *runtime.CompleteRequest) (*runtime.Completion, error) {
				return &runtime.Completion{Values: many(n, "v%d")}, nil
			}})
		c := serve(t, srv)
		c.initialize()
		var res struct {
			Completion struct {
				Values  []string `json:"values"`
				Total   int      `json:"total"`
				HasMore bool     `json:"hasMore"`
			} `json:"completion"`
		}
		json.Unmarshal(c.result("completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "p"},
			"argument": map[string]any{"name": "a", "value": "v"}}), &res)
		if got := res.Completion; len(got.Values) != min(n, 100) || got.HasMore != (n > 100) || n > 100 && got.Total < n {
			t.Errorf("a handler's %d values: %d sent, total %d, hasMore %v", n, len(got.Values), got.Total, got.HasMore)
		}
	}
}

// A URI looked up among the templates may be 1024 bytes long; one byte
// more is refused (a static resource is found at any length).
func TestTemplateURILimitAtItsEdges(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddResourceTemplate(echoParams[FileParams]("file:///{+path}"))
	long := "file:///" + strings.Repeat("a", 2000)
	srv.AddResource(textResource(long))
	c := serve(t, srv)
	c.initialize()
	for _, n := range []int{1023, 1024, 1025} {
		uri := "file:///" + strings.Repeat("a", n-len("file:///"))
		r := c.request("resources/read", map[string]any{"uri": uri})
		if refused := r.Error != nil; refused != (n > 1024) {
			t.Errorf("a template URI of %d bytes: error %v, want refused %v", n, r.Error, n > 1024)
		}
	}
	if r := c.request("resources/read", map[string]any{"uri": long}); r.Error != nil {
		t.Errorf("a static resource of %d bytes: %v", len(long), r.Error.Message)
	}
}

// A session may subscribe to 10000 URIs: the 10001st is refused, unless it
// is one it holds already, and unsubscribing one makes room.
func TestSubscriptionLimitAtItsEdges(t *testing.T) {
	if testing.Short() {
		t.Skip("10001 requests")
	}
	srv := runtime.NewServer(testInfo())
	srv.AddResourceTemplate(echoParams[FileParams]("file:///{+path}"))
	c := serve(t, srv)
	c.initialize()
	sub := func(method string, i int) *rpcError {
		t.Helper()
		return c.request(method, map[string]any{"uri": fmt.Sprintf("file:///%d", i)}).Error
	}
	for i := range 9999 {
		if e := sub("resources/subscribe", i); e != nil {
			t.Fatalf("subscription %d: %v", i+1, e.Message)
		}
	}
	if e := sub("resources/subscribe", 9999); e != nil {
		t.Fatalf("subscription 10000 (the limit): %v", e.Message)
	}
	if e := sub("resources/subscribe", 10000); e == nil || e.Code != runtime.CodeInvalidParams {
		t.Errorf("subscription 10001: %v, want invalid params", e)
	}
	if e := sub("resources/subscribe", 5); e != nil {
		t.Errorf("subscribing again to a held URI at the limit: %v", e.Message)
	}
	if e := sub("resources/unsubscribe", 5); e != nil {
		t.Fatal(e.Message)
	}
	if e := sub("resources/subscribe", 10000); e != nil {
		t.Errorf("subscription 10000 after an unsubscribe: %v", e.Message)
	}
}
