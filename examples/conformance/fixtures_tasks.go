package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/examples/conformance/conformancemcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// The fixtures of the conformance suite's tasks-* scenarios (the
// io.modelcontextprotocol/tasks extension, SEP-2663). Each is an ordinary
// tool method; mcpgen.yaml's `execution: {taskSupport: …}` lets the runtime
// run it as a task.

const confirmForm = `{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}`

func (f *fixtures) Greet(_ context.Context, in *conformancemcp.GreetInput) (*runtime.CallToolResult, error) {
	return runtime.TextResult("Hello, " + in.Name + "!"), nil
}

func (f *fixtures) SlowCompute(ctx context.Context, in *conformancemcp.SlowComputeInput) (*runtime.CallToolResult, error) {
	seconds := in.Seconds.Or(0)
	if err := sleep(ctx, time.Duration(min(seconds, 600)*float64(time.Second))); err != nil {
		return nil, err // cancelled: the task already says so
	}
	return runtime.TextResult(fmt.Sprintf("computed %s after %gs", in.Label.Or(""), seconds)), nil
}

func (f *fixtures) FailingJob(ctx context.Context) (*runtime.CallToolResult, error) {
	if err := sleep(ctx, time.Second); err != nil {
		return nil, err
	}
	return nil, errors.New("the job failed: its input was rejected")
}

func (f *fixtures) ProtocolErrorJob(context.Context) (*runtime.CallToolResult, error) {
	panic("protocol_error_job: a crash inside the handler")
}

func (f *fixtures) ConfirmDelete(ctx context.Context, in *conformancemcp.ConfirmDeleteInput) (*runtime.CallToolResult, error) {
	filename := in.Filename.Or("")
	res, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: "Delete " + filename + "?", RequestedSchema: json.RawMessage(confirmForm)})
	if err != nil {
		return nil, err
	}
	if res.Action == "accept" && res.Content["confirm"] == true {
		return runtime.TextResult("deleted " + filename), nil
	}
	return runtime.TextResult("kept " + filename), nil
}

// MultiInput asks two things at once, so that both are pending together.
func (f *fixtures) MultiInput(ctx context.Context) (*runtime.CallToolResult, error) {
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

// TestToolWithTask gathers the user's name with input_required rounds (its
// tool is inputFirst), then works on as a task.
func (f *fixtures) TestToolWithTask(ctx context.Context) (*runtime.CallToolResult, error) {
	res, err := elicitAs(ctx, "user_name", "What is your name?", nameSchema)
	if err != nil {
		return nil, err
	}
	if err := sleep(ctx, time.Second); err != nil {
		return nil, err
	}
	return runtime.TextResult(fmt.Sprintf("Hello, %v!", res.Content["name"])), nil
}
