package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/examples/conformance/conformancemcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// The fixtures of the 2026-07-28 scenarios of the conformance suite's 0.2.0
// alpha (server-stateless, input-required-result-*). Each asks the client
// through runtime.Elicit, CreateMessage or ListRoots exactly as a legacy
// handler does: in the modern era the first call ends with an
// input_required result and the client's retry runs the handler again with
// the answers. runtime.WithInputKey gives each request the key the
// scenario expects in inputRequests.

// nameSchema, confirmSchema…: the forms the scenarios describe.
const (
	nameSchema    = `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`
	confirmSchema = `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`
	colorSchema   = `{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`
	contextSchema = `{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}`
)

func elicitAs(ctx context.Context, key, message, schema string) (*runtime.ElicitResult, error) {
	return runtime.Elicit(runtime.WithInputKey(ctx, key), &runtime.ElicitRequest{Message: message, RequestedSchema: json.RawMessage(schema)})
}

func sampleAs(ctx context.Context, key, prompt string, maxTokens int) (*runtime.CreateMessageResult, error) {
	return runtime.CreateMessage(runtime.WithInputKey(ctx, key), &runtime.CreateMessageRequest{
		Messages:  []runtime.SamplingMessage{{Role: "user", Content: runtime.Text(prompt)}},
		MaxTokens: maxTokens,
	})
}

// sampledText is the text of a sampling result's content block.
func sampledText(res *runtime.CreateMessageResult) string {
	var c struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(res.Content, &c)
	return c.Text
}

func (f *fixtures) TestMissingCapability(ctx context.Context) (*runtime.CallToolResult, error) {
	res, err := sampleAs(ctx, "completion", "Say hello.", 10)
	if err != nil {
		return nil, err // without the capability: -32021 in 2026-07-28
	}
	return runtime.TextResult("Sampled: " + sampledText(res)), nil
}

// TestTriggerToolChange toggles test_dynamic_tool: adding or removing a
// tool is announced to every listener, as any change of the server's lists.
func (f *fixtures) TestTriggerToolChange(ctx context.Context) (*runtime.CallToolResult, error) {
	if f.srv.RemoveTool("test_dynamic_tool") {
		return runtime.TextResult("Removed test_dynamic_tool"), nil
	}
	f.srv.AddTool(runtime.Tool{Name: "test_dynamic_tool", Description: "A tool added by test_trigger_tool_change.",
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("This is a dynamic tool."), nil
		}})
	return runtime.TextResult("Added test_dynamic_tool"), nil
}

func (f *fixtures) TestTriggerPromptChange(ctx context.Context) (*runtime.CallToolResult, error) {
	if f.srv.RemovePrompt("test_dynamic_prompt") {
		return runtime.TextResult("Removed test_dynamic_prompt"), nil
	}
	f.srv.AddPrompt(runtime.Prompt{Name: "test_dynamic_prompt", Description: "A prompt added by test_trigger_prompt_change.",
		Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
			return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{{Role: "user", Content: runtime.Text("This is a dynamic prompt.")}}}, nil
		}})
	return runtime.TextResult("Added test_dynamic_prompt"), nil
}

func (f *fixtures) TestStreamingElicitation(ctx context.Context) (*runtime.CallToolResult, error) {
	if err := runtime.Progress(ctx, 0, 1, "asking for a name"); err != nil {
		return nil, err
	}
	res, err := elicitAs(ctx, "user_name", "What is your name?", nameSchema)
	if err != nil {
		return nil, err
	}
	return runtime.TextResult(fmt.Sprintf("Hello, %v!", res.Content["name"])), nil
}

func (f *fixtures) TestLoggingTool(ctx context.Context) (*runtime.CallToolResult, error) {
	for _, msg := range []string{"Logging tool started", "Logging tool finished"} {
		if err := runtime.Log(ctx, runtime.LevelInfo, "conformance", msg); err != nil {
			return nil, err
		}
	}
	return runtime.TextResult("Logged two messages at level info"), nil
}

func (f *fixtures) TestInputRequiredResultElicitation(ctx context.Context) (*runtime.CallToolResult, error) {
	res, err := elicitAs(ctx, "user_name", "What is your name?", nameSchema)
	if err != nil {
		return nil, err
	}
	return runtime.TextResult(fmt.Sprintf("Hello, %v!", res.Content["name"])), nil
}

func (f *fixtures) TestInputRequiredResultSampling(ctx context.Context) (*runtime.CallToolResult, error) {
	res, err := sampleAs(ctx, "capital_question", "What is the capital of France?", 100)
	if err != nil {
		return nil, err
	}
	return runtime.TextResult("The model said: " + sampledText(res)), nil
}

func (f *fixtures) TestInputRequiredResultListRoots(ctx context.Context) (*runtime.CallToolResult, error) {
	roots, err := runtime.ListRoots(runtime.WithInputKey(ctx, "client_roots"))
	if err != nil {
		return nil, err
	}
	uris := make([]string, len(roots))
	for i, r := range roots {
		uris[i] = r.URI
	}
	return runtime.TextResult(fmt.Sprintf("The client has %d roots: %v", len(roots), uris)), nil
}

// TestInputRequiredResultRequestState: the runtime verifies the retry's
// requestState (HMAC, expiry, same request) before the handler runs again,
// so reaching the answer means the state was good.
func (f *fixtures) TestInputRequiredResultRequestState(ctx context.Context) (*runtime.CallToolResult, error) {
	res, err := elicitAs(ctx, "confirm", "Please confirm", confirmSchema)
	if err != nil {
		return nil, err
	}
	return runtime.TextResult(fmt.Sprintf("state-ok: confirmed=%v", res.Content["ok"])), nil
}

// TestInputRequiredResultMultipleInputs asks three things before looking
// at any answer, so that they travel in one round.
func (f *fixtures) TestInputRequiredResultMultipleInputs(ctx context.Context) (*runtime.CallToolResult, error) {
	name, err1 := elicitAs(ctx, "user_name", "What is your name?", nameSchema)
	greeting, err2 := sampleAs(ctx, "greeting", "Generate a greeting", 50)
	roots, err3 := runtime.ListRoots(runtime.WithInputKey(ctx, "client_roots"))
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, err
	}
	return runtime.TextResult(fmt.Sprintf("%s %v (%d roots)", sampledText(greeting), name.Content["name"], len(roots))), nil
}

func (f *fixtures) TestInputRequiredResultMultiRound(ctx context.Context) (*runtime.CallToolResult, error) {
	name, err := elicitAs(ctx, "step1", "Step 1: What is your name?", nameSchema)
	if err != nil {
		return nil, err
	}
	color, err := elicitAs(ctx, "step2", "Step 2: What is your favorite color?", colorSchema)
	if err != nil {
		return nil, err
	}
	return runtime.TextResult(fmt.Sprintf("%v likes %v", name.Content["name"], color.Content["color"])), nil
}

func (f *fixtures) TestInputRequiredResultTamperedState(ctx context.Context) (*runtime.CallToolResult, error) {
	res, err := elicitAs(ctx, "confirm", "Please confirm", confirmSchema)
	if err != nil {
		return nil, err
	}
	return runtime.TextResult(fmt.Sprintf("confirmed=%v", res.Content["ok"])), nil
}

// TestInputRequiredResultCapabilities asks for what the request's client
// capabilities allow: an elicitation the client cannot answer is skipped
// (the runtime refuses to ask it), sampling is asked if it can.
func (f *fixtures) TestInputRequiredResultCapabilities(ctx context.Context) (*runtime.CallToolResult, error) {
	var parts []string
	name, err1 := elicitAs(ctx, "user_name", "What is your name?", nameSchema)
	answer, err2 := sampleAs(ctx, "capital_question", "What is the capital of France?", 100)
	for _, err := range []error{err1, err2} {
		if err != nil && !errors.Is(err, runtime.ErrCapabilityNotSupported) {
			return nil, err
		}
	}
	if err1 == nil {
		parts = append(parts, fmt.Sprintf("name=%v", name.Content["name"]))
	}
	if err2 == nil {
		parts = append(parts, "model="+sampledText(answer))
	}
	return runtime.TextResult(fmt.Sprintf("Asked what the client can answer: %v", parts)), nil
}

func (f *fixtures) PromptTestInputRequiredResultPrompt(ctx context.Context) (*runtime.GetPromptResult, error) {
	res, err := elicitAs(ctx, "user_context", "What context should the prompt use?", contextSchema)
	if err != nil {
		return nil, err
	}
	return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{
		{Role: "user", Content: runtime.Text(fmt.Sprintf("Use this context: %v", res.Content["context"]))},
	}}, nil
}

// TestParamHeaders runs nothing: its interest is its input, whose region
// the runtime has checked against the Mcp-Param-Region header by now.
func (f *fixtures) TestParamHeaders(ctx context.Context, in *conformancemcp.TestParamHeadersInput) (*runtime.CallToolResult, error) {
	return runtime.TextResult(fmt.Sprintf("Ran %q in region %q", in.Query, in.Region)), nil
}
