package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/examples/conformance/conformancemcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// fixtures implements the conformance suite's server fixtures, with the
// exact texts its scenarios check (see MCP-NOTES §8 and each scenario's
// description in @modelcontextprotocol/conformance).
type fixtures struct {
	srv *runtime.Server
}

var _ conformancemcp.Handler = (*fixtures)(nil)

// A 1×1 PNG and a tiny WAV (44-byte header, 1 sample of silence).
var (
	pngBytes, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
	wavBytes, _ = base64.StdEncoding.DecodeString("UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==")
)

func (f *fixtures) TestSimpleText(ctx context.Context) (*runtime.CallToolResult, error) {
	return runtime.TextResult("This is a simple text response for testing."), nil
}

func (f *fixtures) TestImageContent(ctx context.Context) (*runtime.CallToolResult, error) {
	return &runtime.CallToolResult{Content: []runtime.Content{runtime.Image(pngBytes, "image/png")}}, nil
}

func (f *fixtures) TestAudioContent(ctx context.Context) (*runtime.CallToolResult, error) {
	return &runtime.CallToolResult{Content: []runtime.Content{runtime.Audio(wavBytes, "audio/wav")}}, nil
}

func (f *fixtures) TestEmbeddedResource(ctx context.Context) (*runtime.CallToolResult, error) {
	return &runtime.CallToolResult{Content: []runtime.Content{runtime.EmbeddedResource{Resource: runtime.ResourceContents{
		URI: "test://embedded-resource", MimeType: "text/plain", Text: "This is an embedded resource content.",
	}}}}, nil
}

func (f *fixtures) TestMultipleContentTypes(ctx context.Context) (*runtime.CallToolResult, error) {
	return &runtime.CallToolResult{Content: []runtime.Content{
		runtime.Text("Multiple content types test:"),
		runtime.Image(pngBytes, "image/png"),
		runtime.EmbeddedResource{Resource: runtime.ResourceContents{
			URI: "test://mixed-content-resource", MimeType: "application/json", Text: `{"test":"data","value":123}`,
		}},
	}}, nil
}

func (f *fixtures) TestToolWithLogging(ctx context.Context) (*runtime.CallToolResult, error) {
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return nil, err
			}
		}
		if err := runtime.Log(ctx, runtime.LevelInfo, "conformance", msg); err != nil {
			return nil, err
		}
	}
	return runtime.TextResult("Tool with logging executed successfully"), nil
}

func (f *fixtures) TestErrorHandling(ctx context.Context) (*runtime.CallToolResult, error) {
	return nil, fmt.Errorf("This tool intentionally returns an error for testing")
}

func (f *fixtures) TestToolWithProgress(ctx context.Context) (*runtime.CallToolResult, error) {
	for i, p := range []float64{0, 50, 100} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return nil, err
			}
		}
		if err := runtime.Progress(ctx, p, 100, fmt.Sprintf("step %d of 3", i+1)); err != nil {
			return nil, err
		}
	}
	return runtime.TextResult("Tool with progress executed successfully"), nil
}

func (f *fixtures) TestSampling(ctx context.Context, in *conformancemcp.TestSamplingInput) (*runtime.CallToolResult, error) {
	res, err := runtime.CreateMessage(ctx, &runtime.CreateMessageRequest{
		Messages:  []runtime.SamplingMessage{{Role: "user", Content: runtime.Text(in.Prompt)}},
		MaxTokens: 100,
	})
	if err != nil {
		return nil, err
	}
	var content struct {
		Text string `json:"text"`
	}
	json.Unmarshal(res.Content, &content)
	return runtime.TextResult("LLM response: " + content.Text), nil
}

func (f *fixtures) TestElicitation(ctx context.Context, in *conformancemcp.TestElicitationInput) (*runtime.CallToolResult, error) {
	res, err := runtime.Elicit(ctx, &runtime.ElicitRequest{
		Message: in.Message,
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"username":{"type":"string","description":"User's response"},` +
			`"email":{"type":"string","description":"User's email address"}},` +
			`"required":["username","email"]}`),
	})
	if err != nil {
		return nil, err
	}
	content, _ := json.Marshal(res.Content)
	return runtime.TextResult(fmt.Sprintf("User response: <action: %s, content: %s>", res.Action, content)), nil
}

func (f *fixtures) TestElicitationSep1034Defaults(ctx context.Context) (*runtime.CallToolResult, error) {
	return f.elicitCompleted(ctx, "Please review the defaults", `{"type":"object","properties":{`+
		`"name":{"type":"string","default":"John Doe"},`+
		`"age":{"type":"integer","default":30},`+
		`"score":{"type":"number","default":95.5},`+
		`"status":{"type":"string","enum":["active","inactive","pending"],"default":"active"},`+
		`"verified":{"type":"boolean","default":true}}}`)
}

func (f *fixtures) TestElicitationSep1330Enums(ctx context.Context) (*runtime.CallToolResult, error) {
	return f.elicitCompleted(ctx, "Please choose", `{"type":"object","properties":{`+
		`"untitledSingle":{"type":"string","enum":["option1","option2","option3"]},`+
		`"titledSingle":{"type":"string","oneOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},`+
		`"legacyEnum":{"type":"string","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},`+
		`"untitledMulti":{"type":"array","items":{"type":"string","enum":["option1","option2","option3"]}},`+
		`"titledMulti":{"type":"array","items":{"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}}}`)
}

func (f *fixtures) elicitCompleted(ctx context.Context, message, schema string) (*runtime.CallToolResult, error) {
	res, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: message, RequestedSchema: json.RawMessage(schema)})
	if err != nil {
		return nil, err
	}
	content, _ := json.Marshal(res.Content)
	return runtime.TextResult(fmt.Sprintf("Elicitation completed: action=%s, content=%s", res.Action, content)), nil
}

func (f *fixtures) JSONSchema202012Tool(ctx context.Context, args json.RawMessage) (*runtime.CallToolResult, error) {
	return runtime.TextResult("Received: " + string(args)), nil
}

// TestReconnection closes its SSE stream before answering, so that the
// client reconnects with Last-Event-ID and gets the result from the event
// store (SEP-1699 polling).
func (f *fixtures) TestReconnection(ctx context.Context) (*runtime.CallToolResult, error) {
	runtime.CloseSSEStream(ctx)
	if err := sleep(ctx, 100*time.Millisecond); err != nil {
		return nil, err
	}
	return runtime.TextResult("Reconnection test completed"), nil
}

func (f *fixtures) ReadStaticText(ctx context.Context) (string, error) {
	return "This is the content of the static text resource.", nil
}

func (f *fixtures) ReadStaticBinary(ctx context.Context) ([]byte, error) {
	return pngBytes, nil
}

func (f *fixtures) ReadWatchedResource(ctx context.Context) (string, error) {
	return "Watched resource content at " + time.Now().UTC().Format(time.RFC3339), nil
}

// touchWatched notifies subscribers of test://watched-resource every 3 s,
// like the suite's reference server.
func (f *fixtures) touchWatched(ctx context.Context) {
	t := time.NewTicker(3 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f.srv.NotifyResourceUpdated("test://watched-resource")
		}
	}
}

func (f *fixtures) ReadTemplateData(ctx context.Context, p *conformancemcp.TemplateDataParams) (*conformancemcp.TemplateDataContent, error) {
	return &conformancemcp.TemplateDataContent{ID: p.ID, TemplateTest: true, Data: "Data for ID: " + p.ID}, nil
}

func (f *fixtures) CompleteTestPromptWithArgumentsArg1(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	var out []string
	for _, v := range []string{"paris", "park", "party", "pasta"} {
		if len(prefix) <= len(v) && v[:len(prefix)] == prefix {
			out = append(out, v)
		}
	}
	return out, nil
}

func (f *fixtures) PromptTestPromptWithEmbeddedResource(ctx context.Context, args *conformancemcp.TestPromptWithEmbeddedResourceArgs) (*runtime.GetPromptResult, error) {
	return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{
		{Role: "user", Content: runtime.EmbeddedResource{Resource: runtime.ResourceContents{
			URI: args.ResourceURI, MimeType: "text/plain", Text: "Embedded resource content for testing.",
		}}},
		{Role: "user", Content: runtime.Text("Please process the embedded resource above.")},
	}}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
