package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// The fixtures of the conformance suite's tasks-* scenarios (the
// io.modelcontextprotocol/tasks extension, SEP-2663). They are registered
// by hand until the spec grammar has a key for a tool's task support
// (issue 14); then they move to mcpgen.yaml. Each handler is an ordinary
// tool handler: the runtime runs it as a task.

const (
	greetSchema   = `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`
	computeSchema = `{"type":"object","properties":{"seconds":{"type":"number","minimum":0,"maximum":600},"label":{"type":"string"}}}`
	fileSchema    = `{"type":"object","properties":{"filename":{"type":"string"}}}`
	confirmForm   = `{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}`
)

func registerTaskFixtures(srv *runtime.Server) {
	optional := &runtime.ToolExecution{TaskSupport: runtime.TaskOptional}
	add := func(name, description, schema string, exec *runtime.ToolExecution, h runtime.ToolHandler) {
		srv.AddTool(runtime.Tool{Name: name, Description: description, InputSchema: json.RawMessage(schema), Execution: exec, Handler: h})
	}
	add("greet", "Greets name (never a task).", greetSchema, nil, greet)
	add("slow_compute", "Sleeps seconds, then answers (a task).", computeSchema, optional, slowCompute)
	add("failing_job", "Fails with a tool error after a second (always a task).", `{"type":"object"}`,
		&runtime.ToolExecution{TaskSupport: runtime.TaskRequired}, failingJob)
	add("protocol_error_job", "Panics: a protocol error (a task).", `{"type":"object"}`, optional, protocolErrorJob)
	add("confirm_delete", "Asks to confirm deleting filename (a task).", fileSchema, optional, confirmDelete)
	add("multi_input", "Asks two questions at once (a task).", `{"type":"object"}`, optional, multiInput)
	add("test_tool_with_task", "Asks the user's name, then greets them as a task.", `{"type":"object"}`,
		&runtime.ToolExecution{TaskSupport: runtime.TaskRequired, InputFirst: true}, toolWithTask)
}

func greet(_ context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
	var a struct{ Name string }
	_ = json.Unmarshal(req.Arguments, &a)
	return runtime.TextResult("Hello, " + a.Name + "!"), nil
}

func slowCompute(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
	var a struct {
		Seconds float64
		Label   string
	}
	_ = json.Unmarshal(req.Arguments, &a)
	select {
	case <-time.After(time.Duration(min(a.Seconds, 600) * float64(time.Second))):
	case <-ctx.Done():
		return nil, ctx.Err() // cancelled: the task already says so
	}
	return runtime.TextResult(fmt.Sprintf("computed %s after %gs", a.Label, a.Seconds)), nil
}

func failingJob(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
	select {
	case <-time.After(time.Second):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return nil, errors.New("the job failed: its input was rejected")
}

func protocolErrorJob(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
	panic("protocol_error_job: a crash inside the handler")
}

func confirmDelete(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
	var a struct{ Filename string }
	_ = json.Unmarshal(req.Arguments, &a)
	res, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: "Delete " + a.Filename + "?", RequestedSchema: json.RawMessage(confirmForm)})
	if err != nil {
		return nil, err
	}
	if res.Action == "accept" && res.Content["confirm"] == true {
		return runtime.TextResult("deleted " + a.Filename), nil
	}
	return runtime.TextResult("kept " + a.Filename), nil
}

// multiInput asks two things at once, so that both are pending together.
func multiInput(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
	questions := []struct{ key, message, schema string }{
		{"name", "What is your name?", nameSchema},
		{"confirm", "Proceed?", confirmForm},
	}
	answers := make([]*runtime.ElicitResult, len(questions))
	errs := make([]error, len(questions))
	var wg sync.WaitGroup
	for i, q := range questions {
		wg.Go(func() { answers[i], errs[i] = elicitAs(ctx, q.key, q.message, q.schema) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return runtime.TextResult(fmt.Sprintf("name=%v confirm=%v", answers[0].Content["name"], answers[1].Content["confirm"])), nil
}

// toolWithTask gathers the user's name with input_required rounds (its
// tool is InputFirst), then works on as a task.
func toolWithTask(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
	res, err := elicitAs(ctx, "user_name", "What is your name?", nameSchema)
	if err != nil {
		return nil, err
	}
	select {
	case <-time.After(time.Second):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return runtime.TextResult(fmt.Sprintf("Hello, %v!", res.Content["name"])), nil
}
