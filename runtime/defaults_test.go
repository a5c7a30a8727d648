package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/genimpl"
)

// pageInput is written as mcpgen generates it for
// `limit: {type: integer, minimum: 1, default: 5}` and
// `tags: {type: array, items: {type: string}, default: [new]}`.
type pageInput struct {
	Limit runtime.Opt[int64] `json:"limit,omitzero" jsonschema:"minimum=1"`
	Tags  []string           `json:"tags,omitempty"`
}

func (x *pageInput) ApplyDefaults() {
	if !x.Limit.Set {
		x.Limit = runtime.Some(int64(5))
	}
	if x.Tags == nil {
		genimpl.DecodeDefault(&x.Tags, `["new"]`)
	}
}

func TestTypedToolAppliesDefaultsAfterValidation(t *testing.T) {
	var got *pageInput
	tool := runtime.TypedToolResult(runtime.Tool{Name: "page"}, func(_ context.Context, in *pageInput) (*runtime.CallToolResult, error) {
		got = in
		return runtime.TextResult("ok"), nil
	})
	call := func(args string) *runtime.CallToolResult {
		t.Helper()
		got = nil
		res, err := tool.Handler(context.Background(), &runtime.CallToolRequest{Name: "page", Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		return res
	}

	call(`{}`)
	if got == nil || got.Limit != runtime.Some(int64(5)) || len(got.Tags) != 1 || got.Tags[0] != "new" {
		t.Errorf("left out: the handler got %+v, want limit 5 and tags [new]", got)
	}
	call(`{"limit":2,"tags":[]}`)
	if got == nil || got.Limit != runtime.Some(int64(2)) || got.Tags == nil || len(got.Tags) != 0 {
		t.Errorf("sent: the handler got %+v, want limit 2 and tags [] (empty, not nil)", got)
	}
	// The validator sees the arguments as sent: a default never turns an
	// invalid value into a valid one.
	if res := call(`{"limit":0}`); !res.IsError || got != nil {
		t.Errorf("limit 0 (below the minimum) reached the handler: %+v", res)
	}
}
