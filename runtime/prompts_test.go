package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

type Lang string

type ReviewArgs struct {
	Code     string            `json:"code" jsonschema:"title=Code,description=The code to review."`
	Language runtime.Opt[Lang] `json:"language,omitzero" jsonschema:"enum=go,enum=rust"`
}

// onePixel is a 1×1 PNG.
const onePixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

func textPrompt(text string) *runtime.GetPromptResult {
	return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{{Role: "user", Content: runtime.Text(text)}}}
}

func promptServer(t *testing.T, opts ...runtime.Option) (*runtime.Server, *client) {
	t.Helper()
	srv := runtime.NewServer(testInfo(), opts...)
	srv.AddResourceTemplate(runtime.TypedTemplate(runtime.ResourceTemplate{URITemplate: "notes://{topic}", MimeType: "text/markdown"},
		func(ctx context.Context, p *struct {
			Topic string `json:"topic"`
		}) (string, error) {
			if p.Topic == "missing" {
				return "", fmt.Errorf("%w: no notes on %s", runtime.ErrResourceNotFound, p.Topic)
			}
			return "Notes about " + p.Topic + ".", nil
		}))
	srv.AddPrompt(runtime.Prompt{Name: "test_simple_prompt", Description: "A simple prompt.",
		Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
			return textPrompt("This is a simple prompt for testing."), nil
		}})
	srv.AddPrompt(runtime.Prompt{Name: "test_prompt_with_arguments", Description: "A prompt with arguments.",
		Arguments: []runtime.PromptArgument{{Name: "arg1", Description: "First.", Required: true}, {Name: "arg2", Required: true}},
		Handler: func(_ context.Context, req *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
			return textPrompt(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", req.Arguments["arg1"], req.Arguments["arg2"])), nil
		}})
	srv.AddPrompt(runtime.TypedPrompt(runtime.Prompt{Name: "review", Title: "Code review", Description: "Review some code."},
		func(ctx context.Context, a *ReviewArgs) (*runtime.GetPromptResult, error) {
			lang, ok := a.Language.Get()
			return &runtime.GetPromptResult{Description: "A review.", Messages: []runtime.PromptMessage{
				{Role: "user", Content: runtime.Text(fmt.Sprintf("Review this %s code (language set: %v):\n%s", lang, ok, a.Code))},
				{Role: "assistant", Content: runtime.Text("Sure.")},
			}}, nil
		}))
	srv.AddPrompt(runtime.TypedPrompt(runtime.Prompt{Name: "noargs", Description: "No arguments."},
		func(ctx context.Context, _ *runtime.NoArgs) (*runtime.GetPromptResult, error) {
			return textPrompt("none"), nil
		}))
	srv.AddPrompt(runtime.DeclarativePrompt(runtime.Prompt{Name: "summarize", Description: "Summarize a topic.",
		Arguments: []runtime.PromptArgument{{Name: "topic", Required: true, ExplicitOptional: true}, {Name: "tone", Enum: []string{"formal", "casual"}, ExplicitOptional: true}}},
		[]runtime.MessageTemplate{
			{Text: "Summarize {{.topic}}{{if .tone}} in a {{.tone}} tone{{end}}. Tone: [{{.tone}}]"},
			{Resource: "notes://{{escape .topic}}"},
			{Content: runtime.ImageBase64(onePixel, "image/png")},
			{Role: "assistant", Text: "I will summarize {{.topic}}."},
		}))
	srv.AddPrompt(runtime.DeclarativePrompt(runtime.Prompt{Name: "test_prompt_with_embedded_resource", Description: "Embeds a resource.",
		Arguments: []runtime.PromptArgument{{Name: "resourceUri", Required: true}}},
		[]runtime.MessageTemplate{{Resource: "{{.resourceUri}}"}, {Text: "Please process the embedded resource above."}}))
	c := serve(t, srv)
	c.initialize()
	return srv, c
}

func TestPromptsListWire(t *testing.T) {
	_, c := promptServer(t)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`)
	want := `{"jsonrpc":"2.0","id":1,"result":{"prompts":[` +
		`{"name":"test_simple_prompt","description":"A simple prompt."},` +
		`{"name":"test_prompt_with_arguments","description":"A prompt with arguments.","arguments":[{"name":"arg1","description":"First.","required":true},{"name":"arg2","required":true}]},` +
		`{"name":"review","title":"Code review","description":"Review some code.","arguments":[{"name":"code","title":"Code","description":"The code to review.","required":true},{"name":"language"}]},` +
		`{"name":"noargs","description":"No arguments."},` +
		`{"name":"summarize","description":"Summarize a topic.","arguments":[{"name":"topic","required":true},{"name":"tone","required":false}]},` +
		`{"name":"test_prompt_with_embedded_resource","description":"Embeds a resource.","arguments":[{"name":"resourceUri","required":true}]}]}}`
	if got := c.recv(); got != want {
		t.Errorf("prompts/list:\n got %s\nwant %s", got, want)
	}
}

// TestPromptEmptyArguments: EmptyArguments lists "arguments": [] for a
// prompt without arguments, which is otherwise listed without the key.
func TestPromptEmptyArguments(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	handler := func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		return textPrompt("none"), nil
	}
	srv.AddPrompt(runtime.Prompt{Name: "listed", Description: "d", EmptyArguments: true, Handler: handler})
	srv.AddPrompt(runtime.Prompt{Name: "unlisted", Description: "d", Handler: handler})
	srv.AddPrompt(runtime.Prompt{Name: "some", Description: "d", EmptyArguments: true, Arguments: []runtime.PromptArgument{{Name: "a"}}, Handler: handler})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`)
	want := `{"jsonrpc":"2.0","id":1,"result":{"prompts":[` +
		`{"name":"listed","description":"d","arguments":[]},` +
		`{"name":"unlisted","description":"d"},` +
		`{"name":"some","description":"d","arguments":[{"name":"a"}]}]}}`
	if got := c.recv(); got != want {
		t.Errorf("prompts/list:\n got %s\nwant %s", got, want)
	}
}

func TestPromptsGet(t *testing.T) {
	_, c := promptServer(t)
	for _, tc := range []struct {
		name string
		args any
		want string
	}{
		{"test_simple_prompt", nil, `{"messages":[{"role":"user","content":{"type":"text","text":"This is a simple prompt for testing."}}]}`},
		{"test_prompt_with_arguments", map[string]string{"arg1": "hello", "arg2": "world"},
			`{"messages":[{"role":"user","content":{"type":"text","text":"Prompt with arguments: arg1='hello', arg2='world'"}}]}`},
		{"review", map[string]string{"code": "x := 1", "language": "go"},
			`{"description":"A review.","messages":[{"role":"user","content":{"type":"text","text":"Review this go code (language set: true):\nx := 1"}},` +
				`{"role":"assistant","content":{"type":"text","text":"Sure."}}]}`},
		{"review", map[string]string{"code": "x"},
			`{"description":"A review.","messages":[{"role":"user","content":{"type":"text","text":"Review this  code (language set: false):\nx"}},` +
				`{"role":"assistant","content":{"type":"text","text":"Sure."}}]}`},
		{"noargs", map[string]string{}, `{"messages":[{"role":"user","content":{"type":"text","text":"none"}}]}`},
		{"summarize", map[string]string{"topic": "otters", "tone": "casual"},
			`{"description":"Summarize a topic.","messages":[` +
				`{"role":"user","content":{"type":"text","text":"Summarize otters in a casual tone. Tone: [casual]"}},` +
				`{"role":"user","content":{"type":"resource","resource":{"uri":"notes://otters","mimeType":"text/markdown","text":"Notes about otters."}}},` +
				`{"role":"user","content":{"type":"image","data":"` + onePixel + `","mimeType":"image/png"}},` +
				`{"role":"assistant","content":{"type":"text","text":"I will summarize otters."}}]}`},
		// An absent optional argument renders as "".
		{"summarize", map[string]string{"topic": "a<b>"},
			`{"description":"Summarize a topic.","messages":[` +
				`{"role":"user","content":{"type":"text","text":"Summarize a<b>. Tone: []"}},` +
				`{"role":"user","content":{"type":"resource","resource":{"uri":"notes://a%3Cb%3E","mimeType":"text/markdown","text":"Notes about a<b>."}}},` +
				`{"role":"user","content":{"type":"image","data":"` + onePixel + `","mimeType":"image/png"}},` +
				`{"role":"assistant","content":{"type":"text","text":"I will summarize a<b>."}}]}`},
		{"test_prompt_with_embedded_resource", map[string]string{"resourceUri": "notes://x"},
			`{"description":"Embeds a resource.","messages":[{"role":"user","content":{"type":"resource","resource":{"uri":"notes://x","mimeType":"text/markdown","text":"Notes about x."}}},` +
				`{"role":"user","content":{"type":"text","text":"Please process the embedded resource above."}}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := map[string]any{"name": tc.name}
			if tc.args != nil {
				p["arguments"] = tc.args
			}
			r := c.request("prompts/get", p)
			if r.Error != nil {
				t.Fatalf("error %s", errorJSON(r))
			}
			if string(r.Result) != tc.want {
				t.Errorf("\n got %s\nwant %s", r.Result, tc.want)
			}
		})
	}
}

func TestPromptsGetErrors(t *testing.T) {
	_, c := promptServer(t)
	for _, tc := range []struct{ name, params, want string }{
		{"no params", ``, `{"code":-32602,"message":"invalid params: prompts/get takes an object with \"name\" and \"arguments\""}`},
		{"no name", `{}`, `{"code":-32602,"message":"invalid params: \"name\" must be the name of a prompt"}`},
		{"unknown prompt", `{"name":"nope\u0000"}`, `{"code":-32602,"message":"unknown prompt \"nope\\u0000\""}`},
		{"arguments an array", `{"name":"review","arguments":["x"]}`, `{"code":-32602,"message":"invalid params: \"arguments\" must be an object of strings"}`},
		{"argument a number", `{"name":"review","arguments":{"code":"x","n":1}}`,
			`{"code":-32602,"message":"invalid params: \"arguments\" must be an object of strings, and \"n\" is not a string"}`},
		{"_meta not an object", `{"name":"noargs","_meta":"m"}`, `{"code":-32602,"message":"invalid params: \"_meta\" must be a JSON object"}`},
		{"missing required", `{"name":"test_prompt_with_arguments","arguments":{"arg2":"x"}}`,
			`{"code":-32602,"message":"invalid arguments for prompt \"test_prompt_with_arguments\": missing required argument \"arg1\""}`},
		{"no arguments at all", `{"name":"test_prompt_with_arguments"}`,
			`{"code":-32602,"message":"invalid arguments for prompt \"test_prompt_with_arguments\": missing required argument \"arg1\"; missing required argument \"arg2\""}`},
		{"unknown argument", `{"name":"review","arguments":{"code":"x","lang":"go"}}`,
			`{"code":-32602,"message":"invalid arguments for prompt \"review\": unknown argument \"lang\" (arguments: code, language)"}`},
		{"argument to a prompt without any", `{"name":"noargs","arguments":{"x\n":""}}`,
			`{"code":-32602,"message":"invalid arguments for prompt \"noargs\": unknown argument \"x\\n\" (this prompt takes no arguments)"}`},
		{"outside the enum", `{"name":"summarize","arguments":{"topic":"t","tone":"angry"}}`,
			`{"code":-32602,"message":"invalid arguments for prompt \"summarize\": argument \"tone\" must be one of \"formal\", \"casual\" (got \"angry\")"}`},
		{"every problem at once", `{"name":"summarize","arguments":{"tone":"","zz":"1","aa":"2"}}`,
			`{"code":-32602,"message":"invalid arguments for prompt \"summarize\": missing required argument \"topic\"; unknown argument \"aa\" (arguments: topic, tone); ` +
				`argument \"tone\" must be one of \"formal\", \"casual\" (got \"\"); unknown argument \"zz\" (arguments: topic, tone)"}`},
		{"embedded resource not found", `{"name":"summarize","arguments":{"topic":"missing"}}`,
			`{"code":-32002,"message":"prompt \"summarize\": message 2: resource not found: no notes on missing","data":{"uri":"notes://missing"}}`},
		{"embedded resource that nothing serves", `{"name":"test_prompt_with_embedded_resource","arguments":{"resourceUri":"notes://a/b"}}`,
			`{"code":-32002,"message":"prompt \"test_prompt_with_embedded_resource\": message 1: resource not found: \"notes://a/b\"","data":{"uri":"notes://a/b"}}`},
		{"embedded resource URI invalid", `{"name":"test_prompt_with_embedded_resource","arguments":{"resourceUri":"notes://\u0007"}}`,
			`{"code":-32602,"message":"invalid params: prompt \"test_prompt_with_embedded_resource\": message 1 embeds \"notes://\\u0007\", which is not an absolute URI; check the arguments"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params := ""
			if tc.params != "" {
				params = `,"params":` + tc.params
			}
			c.send(`{"jsonrpc":"2.0","id":3,"method":"prompts/get"` + params + `}`)
			if got, want := c.recv(), `{"jsonrpc":"2.0","id":3,"error":`+tc.want+`}`; got != want {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
	// Many unknown arguments: the message stays short.
	args := map[string]string{}
	for i := range 50 {
		args[fmt.Sprintf("a%02d", i)] = "x"
	}
	r := c.request("prompts/get", map[string]any{"name": "noargs", "arguments": args})
	if r.Error == nil || !strings.HasSuffix(r.Error.Message, "; … and 40 more") || len(r.Error.Message) > 1000 {
		t.Errorf("50 unknown arguments: %+v", r.Error)
	}
}

func TestPromptHandlerOutcomes(t *testing.T) {
	logs, logOpt := newLog()
	srv := runtime.NewServer(testInfo(), logOpt)
	add := func(name string, res *runtime.GetPromptResult, err error) {
		srv.AddPrompt(runtime.Prompt{Name: name, Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
			return res, err
		}})
	}
	add("fails", nil, errors.New("the template store is down"))
	add("protocol", nil, fmt.Errorf("w: %w", &runtime.Error{Code: runtime.CodeInvalidParams, Message: "no"}))
	add("nothing", nil, nil)
	add("bad_role", &runtime.GetPromptResult{Messages: []runtime.PromptMessage{{Role: "system", Content: runtime.Text("x")}}}, nil)
	add("nil_content", &runtime.GetPromptResult{Messages: []runtime.PromptMessage{{Role: "user"}}}, nil)
	add("empty", &runtime.GetPromptResult{Meta: json.RawMessage(`{"m":1}`)}, nil)
	srv.AddPrompt(runtime.Prompt{Name: "boom", Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		panic("kaboom")
	}})
	c := serve(t, srv)
	c.initialize()
	for _, tc := range []struct{ name, want string }{
		{"fails", `"error":{"code":-32603,"message":"the template store is down"}`},
		{"protocol", `"error":{"code":-32602,"message":"no"}`},
		{"nothing", `"error":{"code":-32603,"message":"internal error: prompt \"nothing\" returned no result"}`},
		{"bad_role", `"error":{"code":-32603,"message":"internal error: the result could not be encoded"}`},
		{"nil_content", `"error":{"code":-32603,"message":"internal error: the result could not be encoded"}`},
		{"empty", `"result":{"messages":[],"_meta":{"m":1}}`},
		{"boom", `"error":{"code":-32603,"message":"internal error in prompt \"boom\""}`},
	} {
		c.send(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"` + tc.name + `"}}`)
		if got, want := c.recv(), `{"jsonrpc":"2.0","id":1,`+tc.want+`}`; got != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, want)
		}
	}
	if l := logs.String(); !contains(l, "prompt handler panicked") || !contains(l, "kaboom") || !contains(l, "role") {
		t.Errorf("log:\n%s", l)
	}
}

// TestPromptHandlersDirect calls adapters' handlers without a session.
func TestPromptHandlersDirect(t *testing.T) {
	typed := runtime.TypedPrompt(runtime.Prompt{Name: "n"}, func(ctx context.Context, a *struct {
		N string `json:"n"`
	}) (*runtime.GetPromptResult, error) {
		return textPrompt(a.N), nil
	})
	if res, err := typed.Handler(context.Background(), &runtime.GetPromptRequest{Arguments: map[string]string{"n": "v"}}); err != nil || res.Messages[0].Content.(runtime.TextContent).Text != "v" {
		t.Errorf("typed: %v %v", res, err)
	}
	decl := runtime.DeclarativePrompt(runtime.Prompt{Name: "d"}, []runtime.MessageTemplate{{Resource: "x://y"}})
	_, err := decl.Handler(context.Background(), &runtime.GetPromptRequest{})
	if e, ok := errors.AsType[*runtime.Error](err); !ok || e.Code != runtime.CodeInternalError || !contains(e.Message, "through a session") {
		t.Errorf("declarative prompt reading a resource outside a session: %v", err)
	}
}

func TestPromptPanics(t *testing.T) {
	h := func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) { return nil, nil }
	type NonString struct {
		N int `json:"n"`
	}
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"no name", func() { runtime.NewServer(testInfo()).AddPrompt(runtime.Prompt{Handler: h}) }, "no name"},
		{"nil handler", func() { runtime.NewServer(testInfo()).AddPrompt(runtime.Prompt{Name: "p"}) }, "nil Handler"},
		{"duplicate", func() {
			s := runtime.NewServer(testInfo())
			s.AddPrompt(runtime.Prompt{Name: "p", Handler: h})
			s.AddPrompt(runtime.Prompt{Name: "p", Handler: h})
		}, "already registered"},
		{"argument twice", func() {
			runtime.NewServer(testInfo()).AddPrompt(runtime.Prompt{Name: "p", Handler: h, Arguments: []runtime.PromptArgument{{Name: "a"}, {Name: "a"}}})
		}, `argument "a" is declared twice`},
		{"argument without a name", func() {
			runtime.NewServer(testInfo()).AddPrompt(runtime.Prompt{Name: "p", Handler: h, Arguments: []runtime.PromptArgument{{}}})
		}, "argument 0 has no name"},
		{"declarative, two parts", func() {
			runtime.DeclarativePrompt(runtime.Prompt{Name: "p"}, []runtime.MessageTemplate{{Text: "a", Resource: "x://y"}})
		}, "exactly one"},
		{"declarative, nothing", func() {
			runtime.DeclarativePrompt(runtime.Prompt{Name: "p"}, []runtime.MessageTemplate{{Role: "user"}})
		}, "exactly one"},
		{"declarative, role", func() {
			runtime.DeclarativePrompt(runtime.Prompt{Name: "p"}, []runtime.MessageTemplate{{Role: "system", Text: "a"}})
		}, `role "system"`},
		{"declarative, unknown placeholder", func() {
			runtime.DeclarativePrompt(runtime.Prompt{Name: "p", Arguments: []runtime.PromptArgument{{Name: "a"}}},
				[]runtime.MessageTemplate{{Text: "{{.a}}"}, {Text: "{{if .a}}{{.b}}{{end}}"}})
		}, "message 2: {{.b}} is not an argument"},
		{"declarative, does not parse", func() {
			runtime.DeclarativePrompt(runtime.Prompt{Name: "p"}, []runtime.MessageTemplate{{Text: "{{.a"}})
		}, "message 1"},
		{"typed, argument not a field", func() {
			runtime.TypedPrompt(runtime.Prompt{Name: "p", Arguments: []runtime.PromptArgument{{Name: "nope"}}},
				func(context.Context, *ReviewArgs) (*runtime.GetPromptResult, error) { return nil, nil })
		}, `argument "nope" is not a field`},
		{"typed, not a string", func() {
			runtime.TypedPrompt(runtime.Prompt{Name: "p"}, func(context.Context, *NonString) (*runtime.GetPromptResult, error) { return nil, nil })
		}, "prompt arguments are strings"},
		{"typed, not a struct", func() {
			runtime.TypedPrompt(runtime.Prompt{Name: "p"}, func(context.Context, *[]string) (*runtime.GetPromptResult, error) { return nil, nil })
		}, "must be a struct"},
		{"invalid base64", func() { runtime.AudioBase64("!!", "audio/wav") }, "AudioBase64: invalid base64"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if v := recover(); v == nil || !contains(fmt.Sprint(v), tc.want) {
					t.Errorf("panic %v, want one mentioning %q", v, tc.want)
				}
			}()
			tc.f()
		})
	}
}

func TestTypedPromptDerivedArguments(t *testing.T) {
	p := runtime.TypedPrompt(runtime.Prompt{Name: "review"}, func(context.Context, *ReviewArgs) (*runtime.GetPromptResult, error) { return nil, nil })
	b, _ := json.Marshal(p.Arguments)
	if want := `[{"name":"code","title":"Code","description":"The code to review.","required":true},{"name":"language"}]`; string(b) != want {
		t.Errorf("arguments %s, want %s", b, want)
	}
	if fmt.Sprint(p.Arguments[1].Enum) != "[go rust]" {
		t.Errorf("enum %v", p.Arguments[1].Enum)
	}
	if a := runtime.AudioBase64("UklGRg==", "audio/wav"); fmt.Sprint(a.(runtime.AudioContent).Data) != "[82 73 70 70]" {
		t.Errorf("AudioBase64: %v", a)
	}
}

func TestPromptAccessorsAndJSON(t *testing.T) {
	srv, _ := promptServer(t)
	var names []string
	for _, p := range srv.Prompts() {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, ","); got != "test_simple_prompt,test_prompt_with_arguments,review,noargs,summarize,test_prompt_with_embedded_resource" {
		t.Errorf("Prompts() = %s", got)
	}
	res := runtime.GetPromptResult{Description: "d", Messages: []runtime.PromptMessage{
		{Role: "assistant", Content: runtime.ImageBase64("iVBORw==", "image/png")},
	}, Meta: json.RawMessage(`{ "k": true }`)}
	b, err := json.Marshal(res)
	if want := `{"description":"d","messages":[{"role":"assistant","content":{"type":"image","data":"iVBORw==","mimeType":"image/png"}}],"_meta":{"k":true}}`; err != nil || string(b) != want {
		t.Errorf("GetPromptResult JSON:\n got %s %v\nwant %s", b, err, want)
	}
	if _, err := json.Marshal(runtime.PromptMessage{Role: "system", Content: runtime.Text("x")}); err == nil {
		t.Error("a message with role system encodes")
	}
}
