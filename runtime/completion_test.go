package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/genimpl"
)

func many(n int, format string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(format, i)
	}
	return out
}

func completionServer(t *testing.T, opts ...runtime.Option) (*runtime.Server, *client, chan *runtime.CompleteRequest) {
	t.Helper()
	seen := make(chan *runtime.CompleteRequest, 10)
	srv := runtime.NewServer(testInfo(), opts...)
	h := func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		return textPrompt("x"), nil
	}
	srv.AddPrompt(runtime.Prompt{Name: "summarize", Handler: h,
		Arguments: []runtime.PromptArgument{{Name: "topic"}, {Name: "tone", Enum: []string{"formal", "casual", "Funny"}}, {Name: "plain"}},
		Complete: func(ctx context.Context, req *runtime.CompleteRequest) (*runtime.Completion, error) {
			seen <- req
			switch req.Argument {
			case "topic":
				return genimpl.CompleteList(many(150, req.Value+"%03d"), nil)
			case "plain":
				return nil, nil
			}
			return nil, fmt.Errorf("no completion for %s", req.Argument)
		}})
	srv.AddPrompt(runtime.Prompt{Name: "enum_only", Handler: h, Arguments: []runtime.PromptArgument{{Name: "lang", Enum: []string{"en", "fr"}}, {Name: "free"}}})
	srv.AddPrompt(runtime.Prompt{Name: "misbehaving", Handler: h, Arguments: []runtime.PromptArgument{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Complete: func(ctx context.Context, req *runtime.CompleteRequest) (*runtime.Completion, error) {
			switch req.Argument {
			case "a":
				return &runtime.Completion{Values: many(120, "v%d")}, nil // too many, no total
			case "b":
				return nil, &runtime.Error{Code: runtime.CodeInvalidParams, Message: "b cannot be completed yet"}
			}
			panic("completion bug")
		}})
	srv.AddResourceTemplate(echoParams[SearchParams]("search://s{?q,lang}")) // completes lang from its enum
	srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "github://{owner}/{repo}",
		Handler: func(context.Context, *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
			return nil, nil
		},
		Complete: func(ctx context.Context, req *runtime.CompleteRequest) (*runtime.Completion, error) {
			seen <- req
			return runtime.CompleteValues(req.Value, "mcpgen", "mcp-go", "other"), nil
		}})
	srv.AddResource(runtime.TypedResource(runtime.Resource{URI: "config://app"}, func(context.Context) (string, error) { return "", nil }))
	c := serve(t, srv)
	c.initialize()
	return srv, c, seen
}

func completeParams(refType, key, name, arg, value string, ctx map[string]string) map[string]any {
	p := map[string]any{"ref": map[string]any{"type": refType, key: name}, "argument": map[string]any{"name": arg, "value": value}}
	if ctx != nil {
		p["context"] = map[string]any{"arguments": ctx}
	}
	return p
}

func TestCompletionCapability(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddPrompt(runtime.Prompt{Name: "p", Arguments: []runtime.PromptArgument{{Name: "lang", Enum: []string{"en"}}},
		Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) { return nil, nil }})
	c2 := serve(t, srv)
	// An enum is enough to complete.
	jsonEqual(t, `{"protocolVersion":"2025-11-25","capabilities":{"prompts":{"listChanged":true},"completions":{},"logging":{}},"serverInfo":{"name":"test-server","version":"0.1.0"}}`, c2.initialize())
}

func TestComplete(t *testing.T) {
	_, c, seen := completionServer(t)
	for _, tc := range []struct {
		name   string
		params map[string]any
		want   string
		seen   *runtime.CompleteRequest // what the handler got, if it ran
	}{
		{"prompt enum, prefix ignores case", completeParams("ref/prompt", "name", "summarize", "tone", "F", nil),
			`{"completion":{"values":["formal","Funny"],"total":2}}`, nil},
		{"prompt enum, no prefix", completeParams("ref/prompt", "name", "enum_only", "lang", "", nil),
			`{"completion":{"values":["en","fr"],"total":2}}`, nil},
		{"prompt enum, nothing matches", completeParams("ref/prompt", "name", "enum_only", "lang", "de", nil),
			`{"completion":{"values":[]}}`, nil},
		{"prompt argument without completion", completeParams("ref/prompt", "name", "enum_only", "free", "x", nil),
			`{"completion":{"values":[]}}`, nil},
		{"prompt handler, capped at 100", completeParams("ref/prompt", "name", "summarize", "topic", "ot", map[string]string{"tone": "formal"}),
			`{"completion":{"values":` + mustJSON(many(100, "ot%03d")) + `,"total":150,"hasMore":true}}`,
			&runtime.CompleteRequest{Argument: "topic", Value: "ot", Context: map[string]string{"tone": "formal"}}},
		{"prompt handler, nil completion", completeParams("ref/prompt", "name", "summarize", "plain", "", nil),
			`{"completion":{"values":[]}}`, &runtime.CompleteRequest{Argument: "plain", Context: map[string]string{}}},
		{"handler sends too many", completeParams("ref/prompt", "name", "misbehaving", "a", "", nil),
			`{"completion":{"values":` + mustJSON(many(100, "v%d")) + `,"total":120,"hasMore":true}}`, nil},
		{"template enum from the params type", completeParams("ref/resource", "uri", "search://s{?q,lang}", "lang", "", nil),
			`{"completion":{"values":["en","fr"],"total":2}}`, nil},
		{"template variable without enum", completeParams("ref/resource", "uri", "search://s{?q,lang}", "q", "x", nil),
			`{"completion":{"values":[]}}`, nil},
		{"template handler", completeParams("ref/resource", "uri", "github://{owner}/{repo}", "repo", "MCP", map[string]string{"owner": "mcpgen"}),
			`{"completion":{"values":["mcpgen","mcp-go"],"total":2}}`,
			&runtime.CompleteRequest{Argument: "repo", Value: "MCP", Context: map[string]string{"owner": "mcpgen"}}},
		{"static resource", completeParams("ref/resource", "uri", "config://app", "x", "", nil), `{"completion":{"values":[]}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.request("completion/complete", tc.params)
			if r.Error != nil {
				t.Fatalf("error %s", errorJSON(r))
			}
			if string(r.Result) != tc.want {
				t.Errorf("\n got %s\nwant %s", r.Result, tc.want)
			}
			if tc.seen != nil {
				if diff := cmp.Diff(tc.seen, <-seen); diff != "" {
					t.Errorf("request seen by the handler (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestCompleteErrors(t *testing.T) {
	logs, logOpt := newLog()
	_, c, _ := completionServer(t, logOpt)
	for _, tc := range []struct{ name, params, want string }{
		{"no params", ``, `{"code":-32602,"message":"invalid params: completion/complete takes an object with \"ref\" and \"argument\""}`},
		{"no ref", `{"argument":{"name":"a","value":""}}`,
			`{"code":-32602,"message":"invalid params: \"ref\" must be {\"type\":\"ref/prompt\",\"name\":…} or {\"type\":\"ref/resource\",\"uri\":…}"}`},
		{"ref a string", `{"ref":"summarize","argument":{"name":"a","value":""}}`,
			`{"code":-32602,"message":"invalid params: \"ref\" must be {\"type\":\"ref/prompt\",\"name\":…} or {\"type\":\"ref/resource\",\"uri\":…}"}`},
		{"bad ref type", `{"ref":{"type":"ref/tool","name":"x"},"argument":{"name":"a","value":""}}`,
			`{"code":-32602,"message":"invalid params: \"ref\" must be {\"type\":\"ref/prompt\",\"name\":…} or {\"type\":\"ref/resource\",\"uri\":…}"}`},
		{"no argument", `{"ref":{"type":"ref/prompt","name":"summarize"}}`,
			`{"code":-32602,"message":"invalid params: \"argument\" must be an object with \"name\" and \"value\" strings"}`},
		{"argument value a number", `{"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"tone","value":1}}`,
			`{"code":-32602,"message":"invalid params: \"argument\" must be an object with \"name\" and \"value\" strings"}`},
		{"context not strings", `{"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"tone","value":""},"context":{"arguments":{"a":1}}}`,
			`{"code":-32602,"message":"invalid params: \"context\" must be {\"arguments\":{…}} with string values"}`},
		{"unknown prompt", `{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"a","value":""}}`, `{"code":-32602,"message":"unknown prompt \"nope\""}`},
		{"unknown prompt argument", `{"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"zz","value":""}}`,
			`{"code":-32602,"message":"prompt \"summarize\" has no argument \"zz\""}`},
		{"unknown resource", `{"ref":{"type":"ref/resource","uri":"search://s"},"argument":{"name":"q","value":""}}`,
			`{"code":-32602,"message":"unknown resource or resource template \"search://s\""}`},
		{"unknown template variable", `{"ref":{"type":"ref/resource","uri":"github://{owner}/{repo}"},"argument":{"name":"branch","value":""}}`,
			`{"code":-32602,"message":"resource template \"github://{owner}/{repo}\" has no variable \"branch\""}`},
		{"handler *Error", `{"ref":{"type":"ref/prompt","name":"misbehaving"},"argument":{"name":"b","value":""}}`,
			`{"code":-32602,"message":"b cannot be completed yet"}`},
		{"handler panics", `{"ref":{"type":"ref/prompt","name":"misbehaving"},"argument":{"name":"c","value":""}}`,
			`{"code":-32603,"message":"internal error completing prompt \"misbehaving\""}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params := ""
			if tc.params != "" {
				params = `,"params":` + tc.params
			}
			c.send(`{"jsonrpc":"2.0","id":4,"method":"completion/complete"` + params + `}`)
			r := parse(t, c.recv())
			if got := errorJSON(r); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
	if l := logs.String(); !contains(l, "completion handler panicked") || !contains(l, "completion bug") {
		t.Errorf("the panic is not logged:\n%s", l)
	}
}

func TestCompleteHandlerError(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddPrompt(runtime.Prompt{Name: "p", Arguments: []runtime.PromptArgument{{Name: "a"}},
		Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) { return nil, nil },
		Complete: func(context.Context, *runtime.CompleteRequest) (*runtime.Completion, error) {
			return genimpl.CompleteList(nil, errors.New("the index is rebuilding"))
		}})
	c := serve(t, srv)
	c.initialize()
	r := c.request("completion/complete", completeParams("ref/prompt", "name", "p", "a", "", nil))
	if got, want := errorJSON(r), `{"code":-32603,"message":"the index is rebuilding"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestCompleteValues(t *testing.T) {
	values := append(many(120, "match%d"), many(30, "other%d")...)
	c := runtime.CompleteValues("MATCH", values...)
	if len(c.Values) != 100 || c.Total != 120 || !c.HasMore || c.Values[0] != "match0" || c.Values[99] != "match99" {
		t.Errorf("CompleteValues over 100: %d values, total %d, hasMore %v", len(c.Values), c.Total, c.HasMore)
	}
	if c := runtime.CompleteValues("é", "École", "été", "e"); fmt.Sprint(c.Values) != "[École été]" || c.Total != 2 || c.HasMore {
		t.Errorf("CompleteValues non-ASCII: %+v", c)
	}
	if c := runtime.CompleteValues("x"); c.Values == nil || len(c.Values) != 0 || c.Total != 0 {
		t.Errorf("CompleteValues of nothing: %+v", c)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
