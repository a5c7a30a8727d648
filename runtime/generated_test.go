package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/genimpl"
)

// lookupSchema is what a generator would write for LookupInput.
const lookupSchema = `{"type":"object","properties":{"order_id":{"type":"string","pattern":"^[A-Z]-\\d{4}$","description":"An order id such as A-1042."},"qty":{"type":"integer","minimum":1,"maximum":10},"note":{"type":"string","maxLength":20}},"required":["order_id","qty"],"additionalProperties":false}`

func callTool(t *testing.T, tool runtime.Tool, args string) *runtime.CallToolResult {
	t.Helper()
	res, err := tool.Handler(context.Background(), &runtime.CallToolRequest{Name: tool.Name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s(%s): %v", tool.Name, args, err)
	}
	return res
}

func TestGeneratedToolValidatesWithTheGivenSchema(t *testing.T) {
	tool := genimpl.GeneratedTool(runtime.Tool{Name: "lookup_order", InputSchema: json.RawMessage(lookupSchema)}, nil, lookupOrder)
	if string(tool.InputSchema) != lookupSchema {
		t.Errorf("InputSchema = %s, want the given constant", tool.InputSchema)
	}
	if res := callTool(t, tool, `{"order_id":"A-1042","qty":2}`); res.IsError {
		t.Errorf("valid call: %+v", res)
	}
	res := callTool(t, tool, `{"order_id":"a-1","qty":0}`)
	if !res.IsError {
		t.Fatalf("invalid call accepted: %+v", res)
	}
	text := res.Content[0].(runtime.TextContent).Text
	for _, want := range []string{"/order_id", "/qty"} {
		if !strings.Contains(text, want) {
			t.Errorf("the violations %q do not mention %s", text, want)
		}
	}
	// The output schema was reflected (the generator left it out) and is
	// enforced: "lost" is not in Order's status enum.
	if res := callTool(t, tool, `{"order_id":"L-0000","qty":1}`); !res.IsError {
		t.Errorf("an output outside its schema was sent: %+v", res)
	}
	if got, want := string(tool.OutputSchema), string(runtime.SchemaFor[Order]()); got != want {
		t.Errorf("OutputSchema = %s, want the reflected %s", got, want)
	}
}

// The generator's schemas are compiled on first call, not at registration:
// a schema that does not compile (which the generator's tests rule out)
// fails that call with an internal error, and the server keeps serving.
func TestGeneratedToolCompilesOnFirstCall(t *testing.T) {
	bad := `{"type":"object","properties":{"order_id":{"type":"string","pattern":"(unclosed"}}}`
	tool := genimpl.GeneratedTool(runtime.Tool{Name: "lookup_order", InputSchema: json.RawMessage(bad)}, nil, lookupOrder)
	_, err := tool.Handler(context.Background(), &runtime.CallToolRequest{Name: tool.Name, Arguments: json.RawMessage(`{}`)})
	var rpcErr *runtime.Error
	if e, ok := err.(*runtime.Error); ok {
		rpcErr = e
	}
	if rpcErr == nil || rpcErr.Code != runtime.CodeInternalError || !strings.Contains(rpcErr.Message, "does not compile") {
		t.Errorf("first call with a broken schema: err = %v, want an internal error saying the schema does not compile", err)
	}
}

func TestGeneratedToolRefusesNonObjectInput(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for an input schema that is not an object schema")
		}
	}()
	genimpl.GeneratedTool(runtime.Tool{Name: "x", InputSchema: json.RawMessage(`{"type":"string"}`)}, nil, lookupOrder)
}

func TestGeneratedSchemas(t *testing.T) {
	tool := genimpl.GeneratedTool(runtime.Tool{Name: "lookup_order", InputSchema: json.RawMessage(lookupSchema)}, nil, lookupOrder)
	src, ok := genimpl.Schemas(tool)
	if !ok {
		t.Fatal("GeneratedSchemas: not a generated tool")
	}
	if string(src.Input) != lookupSchema || string(src.ReflectedInput) != string(runtime.SchemaFor[LookupInput]()) {
		t.Errorf("input sources = %s / %s", src.Input, src.ReflectedInput)
	}
	if src.Output == nil || string(src.Output) != string(src.ReflectedOutput) {
		t.Errorf("output sources = %s / %s, want both reflected", src.Output, src.ReflectedOutput)
	}

	result := genimpl.GeneratedToolResult(runtime.Tool{Name: "r"}, nil, func(ctx context.Context, in *runtime.NoArgs) (*runtime.CallToolResult, error) {
		return runtime.TextResult("ok"), nil
	})
	if src, ok := genimpl.Schemas(result); !ok || src.Output != nil || src.ReflectedOutput != nil {
		t.Errorf("GeneratedToolResult sources = %+v, %v; want no output", src, ok)
	}
	if res := callTool(t, result, `{"unexpected":1}`); !res.IsError {
		t.Errorf("NoArgs accepted an argument: %+v", res)
	}

	typed := runtime.TypedTool(runtime.Tool{Name: "lookup_order"}, lookupOrder)
	if _, ok := genimpl.Schemas(typed); ok {
		t.Error("GeneratedSchemas reports a TypedTool tool as generated")
	}
}

// An output schema that is not an object is enforced but not advertised
// (2025-11-25 wants an object outputSchema).
func TestGeneratedToolNonObjectOutput(t *testing.T) {
	tool := genimpl.GeneratedTool(runtime.Tool{Name: "tags", OutputSchema: json.RawMessage(`{"type":"array","items":{"type":"string"},"maxItems":1}`)}, nil,
		func(ctx context.Context, in *runtime.NoArgs) (*[]string, error) { return &[]string{"a", "b"}, nil })
	if tool.OutputSchema != nil {
		t.Errorf("OutputSchema = %s, want none advertised", tool.OutputSchema)
	}
	if res := callTool(t, tool, `{}`); !res.IsError {
		t.Errorf("two items sent where the schema allows one: %+v", res)
	}
}

// The generator writes schemas indented, for review; clients must receive
// them compact, byte for byte as json.Compact gives them.
func TestGeneratedToolAdvertisesCompactSchemas(t *testing.T) {
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(lookupSchema), "", "\t"); err != nil {
		t.Fatal(err)
	}
	out := `{"type":"object","properties":{"id":{"type":"string"}},"additionalProperties":false}`
	var outIndented bytes.Buffer
	if err := json.Indent(&outIndented, []byte(out), "", "\t"); err != nil {
		t.Fatal(err)
	}
	tool := genimpl.GeneratedTool(runtime.Tool{Name: "lookup_order", InputSchema: indented.Bytes(), OutputSchema: outIndented.Bytes()}, nil, lookupOrder)
	if string(tool.InputSchema) != lookupSchema {
		t.Errorf("InputSchema = %s, want the compact %s", tool.InputSchema, lookupSchema)
	}
	if string(tool.OutputSchema) != out {
		t.Errorf("OutputSchema = %s, want the compact %s", tool.OutputSchema, out)
	}
	if res := callTool(t, tool, `{"order_id":"a-1","qty":0}`); !res.IsError {
		t.Errorf("the compacted schema does not validate: %+v", res)
	}
}

// postSchema is a schema of PostParams as a generator would write it,
// indented, with a maximum that the reflection of PostParams lacks.
const postSchema = "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"id\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 99}\n  },\n  \"required\": [\"id\"]\n}"

func TestGeneratedTemplateReadsAsTypedTemplate(t *testing.T) {
	tmpl := genimpl.GeneratedTemplate(runtime.ResourceTemplate{URITemplate: "post://{id}"}, json.RawMessage(postSchema),
		func(ctx context.Context, p *PostParams) (*PostParams, error) { return p, nil })
	res, err := tmpl.Handler(context.Background(), &runtime.ReadResourceRequest{URI: "post://12"})
	if b, _ := json.Marshal(res); err != nil || string(b) != `{"contents":[{"uri":"post://12","mimeType":"application/json","text":"{\"id\":12}"}]}` {
		t.Errorf("read post://12: %s %v", b, err)
	}
	for uri, want := range map[string]string{
		"post://0":   `resource not found: "post://0": variable id: must be greater than or equal to 1 (got 0)`,
		"post://100": `resource not found: "post://100": variable id: must be less than or equal to 99 (got 100)`, // the given schema validates
		"post://x":   `resource not found: "post://x": variable id: must be an integer (got "x")`,
	} {
		if _, err := tmpl.Handler(context.Background(), &runtime.ReadResourceRequest{URI: uri}); err == nil || err.Error() != want {
			t.Errorf("read %s: %v, want %s", uri, err, want)
		}
	}
	generated, reflected, ok := genimpl.TemplateSchemas(tmpl)
	if !ok || bytes.ContainsRune(generated, '\n') || !json.Valid(generated) || !json.Valid(reflected) {
		t.Errorf("TemplateSchemas = %s, %s, %v; want the compacted given schema and the reflected one", generated, reflected, ok)
	}
	typed := runtime.TypedTemplate(runtime.ResourceTemplate{URITemplate: "post://{id}"},
		func(ctx context.Context, p *PostParams) (string, error) { return "", nil })
	if _, _, ok := genimpl.TemplateSchemas(typed); ok {
		t.Error("TemplateSchemas of a TypedTemplate: ok")
	}
}

func TestGeneratedPromptTakesArgumentsAsGiven(t *testing.T) {
	declared := []runtime.PromptArgument{{Name: "code", Title: "Written", Required: true}}
	p := genimpl.GeneratedPrompt(runtime.Prompt{Name: "review", Arguments: declared},
		func(ctx context.Context, a *ReviewArgs) (*runtime.GetPromptResult, error) {
			lang, _ := a.Language.Get()
			return textPrompt(a.Code + "/" + string(lang)), nil
		})
	if len(p.Arguments) != 1 || p.Arguments[0].Title != "Written" {
		t.Errorf("Arguments = %+v, want those given", p.Arguments)
	}
	res, err := p.Handler(context.Background(), &runtime.GetPromptRequest{Name: "review", Arguments: map[string]string{"code": "x := 1", "language": "go"}})
	if err != nil || res.Messages[0].Content.(runtime.TextContent).Text != "x := 1/go" {
		t.Errorf("get: %+v %v", res, err)
	}
	got, reflected, ok := genimpl.PromptArguments(p)
	if !ok || len(got) != 1 || len(reflected) != 2 || reflected[0].Title != "Code" || reflected[1].Name != "language" {
		t.Errorf("PromptArguments = %+v, %+v, %v", got, reflected, ok)
	}
	typed := runtime.TypedPrompt(runtime.Prompt{Name: "review"}, func(ctx context.Context, a *ReviewArgs) (*runtime.GetPromptResult, error) { return nil, nil })
	if _, _, ok := genimpl.PromptArguments(typed); ok {
		t.Error("PromptArguments of a TypedPrompt: ok")
	}
}

// A generated tool without arguments decodes its {} (or null) with
// genimpl's table of NoArgs, in one pass, not with the general validator
// and encoding/json; an argument it is sent is refused by that table and
// worded by the general validator.
func TestGeneratedToolNoArgsDecoded(t *testing.T) {
	tool := genimpl.GeneratedToolResult(runtime.Tool{Name: "ping"}, nil, func(ctx context.Context, _ *runtime.NoArgs) (*runtime.CallToolResult, error) {
		return runtime.TextResult("pong"), nil
	})
	for args, accepted := range map[string]bool{`{}`: true, ` { } `: true, `{"x":1}`: false, `{"x":1,}`: false} {
		has, ok := runtime.DecodeFast(tool, []byte(args))
		if !has || ok != accepted {
			t.Errorf("DecodeFast(%s) = has %v, accepted %v; want a decoder that accepts: %v", args, has, ok, accepted)
		}
	}
	for _, args := range []string{`{}`, `null`, ``} {
		if res := callTool(t, tool, args); res.IsError {
			t.Errorf("call with %q: %+v", args, res)
		}
	}
	res := callTool(t, tool, `{"x":1}`)
	if !res.IsError || !strings.Contains(res.Content[0].(runtime.TextContent).Text, "x") {
		t.Errorf("an argument to a tool without arguments: %+v, want the violation named", res)
	}
}
