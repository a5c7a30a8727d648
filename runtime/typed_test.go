package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

type LookupInput struct {
	OrderID string              `json:"order_id" jsonschema:"pattern=^[A-Z]-\\d{4}$,description=An order id such as A-1042."`
	Qty     int                 `json:"qty" jsonschema:"minimum=1,maximum=10"`
	Note    runtime.Opt[string] `json:"note,omitzero" jsonschema:"maxLength=20"`
}

type Order struct {
	OrderID string              `json:"order_id"`
	Status  string              `json:"status" jsonschema:"enum=pending,enum=paid,enum=refunded"`
	Note    runtime.Opt[string] `json:"note,omitzero"`
}

type Address struct {
	City string `json:"city"`
}

type KitchenSink struct {
	When   string             `json:"when,omitempty" jsonschema:"format=date-time"`
	Status string             `json:"status,omitempty" jsonschema:"enum=pending,enum=paid"`
	Addr   *Address           `json:"addr,omitempty"`
	Maybe  *string            `json:"maybe,omitempty" jsonschema:"nullable"`
	Small  int8               `json:"small,omitempty"`
	Tags   []string           `json:"tags,omitempty" jsonschema:"maxItems=2,uniqueItems=true"`
	Big    runtime.Opt[int64] `json:"big,omitzero" jsonschema:"maximum=9007199254740993"`
}

func lookupOrder(ctx context.Context, in *LookupInput) (*Order, error) {
	switch in.OrderID {
	case "E-0000":
		return nil, errors.New("order E-0000 is archived; ask the user for a newer order")
	case "P-0000":
		return nil, &runtime.Error{Code: runtime.CodeInvalidParams, Message: "refused"}
	case "N-0000":
		return nil, nil
	case "L-0000":
		return &Order{OrderID: in.OrderID, Status: "lost"}, nil // not in the enum: a server bug
	}
	return &Order{OrderID: in.OrderID, Status: "paid", Note: in.Note}, nil
}

func typedServer(t *testing.T, opts ...runtime.Option) (*runtime.Server, *client) {
	t.Helper()
	srv := runtime.NewServer(testInfo(), opts...)
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "lookup_order", Description: "Look up an order."}, lookupOrder))
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "sink"}, func(ctx context.Context, in *KitchenSink) (*KitchenSink, error) {
		return in, nil
	}))
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "list_ids"}, func(ctx context.Context, in *runtime.NoArgs) (*[]string, error) {
		return &[]string{"A-1042", "B-2000"}, nil
	}))
	srv.AddTool(runtime.TypedToolResult(runtime.Tool{Name: "picture"}, func(ctx context.Context, in *runtime.NoArgs) (*runtime.CallToolResult, error) {
		return &runtime.CallToolResult{Content: []runtime.Content{runtime.Text("a dot:"), runtime.Image([]byte{0x89, 'P', 'N', 'G'}, "image/png")}}, nil
	}))
	c := serve(t, srv)
	c.initialize()
	return srv, c
}

func TestTypedToolValid(t *testing.T) {
	_, c := typedServer(t)
	jsonEqual(t, `{
		"content": [{"type":"text","text":"{\"order_id\":\"A-1042\",\"status\":\"paid\",\"note\":\"rush\"}"}],
		"structuredContent": {"order_id":"A-1042","status":"paid","note":"rush"}
	}`, c.callTool("lookup_order", map[string]any{"order_id": "A-1042", "qty": 2, "note": "rush"}))
	// Absent optional field: omitted on the way out too.
	jsonEqual(t, `{
		"content": [{"type":"text","text":"{\"order_id\":\"A-1042\",\"status\":\"paid\"}"}],
		"structuredContent": {"order_id":"A-1042","status":"paid"}
	}`, c.callTool("lookup_order", map[string]any{"order_id": "A-1042", "qty": 1}))
}

func TestTypedToolInvalidArguments(t *testing.T) {
	_, c := typedServer(t)
	for _, tc := range []struct {
		name string
		tool string
		args any
		want string
	}{
		{"pattern, missing and unknown", "lookup_order", map[string]any{"order_id": "a-1", "extra": 1},
			"invalid arguments for tool \"lookup_order\":\n" +
				"- /extra: is not allowed: unknown property; allowed properties: note, order_id, qty\n" +
				"- /order_id: must match pattern \"^[A-Z]-\\d{4}$\" (got \"a-1\")\n" +
				"- /qty: is required but missing"},
		{"types and bounds", "lookup_order", map[string]any{"order_id": 5, "qty": 0, "note": "this note is far too long"},
			"invalid arguments for tool \"lookup_order\":\n" +
				"- /note: must be at most 20 characters long (got 25)\n" +
				"- /order_id: must be a string (got 5)\n" +
				"- /qty: must be greater than or equal to 1 (got 0)"},
		{"no arguments at all", "lookup_order", nil,
			"invalid arguments for tool \"lookup_order\":\n" +
				"- /order_id: is required but missing\n" +
				"- /qty: is required but missing"},
		{"format, enum, nested, nullable, items", "sink", map[string]any{
			"when": "yesterday", "status": "lost", "addr": map[string]any{"city": 3}, "maybe": 5, "tags": []string{"a", "a", "b"},
			"big": json.Number("9007199254740994"),
		},
			"invalid arguments for tool \"sink\":\n" +
				"- /addr/city: must be a string (got 3)\n" +
				"- /big: must be less than or equal to 9007199254740993 (got 9007199254740994)\n" +
				"- /maybe: must be a string or null (got 5)\n" +
				"- /status: must be one of \"pending\", \"paid\" (got \"lost\")\n" +
				"- /tags: must have at most 2 items (got 3)\n" +
				"- /tags: must not contain duplicates (items 0 and 1 are equal)\n" +
				"- /when: must be a valid date-time (got \"yesterday\")"},
		{"integer overflow", "sink", map[string]any{"small": 300},
			"invalid arguments for tool \"sink\":\n" +
				"- /small: is out of range (got 300)"},
		{"arguments to a tool without any", "list_ids", map[string]any{"x": 1},
			"invalid arguments for tool \"list_ids\":\n" +
				"- /x: is not allowed: unknown property; this object takes no properties"},
		{"hostile property name", "list_ids", map[string]any{"a/b~\n": 1},
			"invalid arguments for tool \"list_ids\":\n" +
				"- /a~1b~0\\n: is not allowed: unknown property; this object takes no properties"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := c.callTool(tc.tool, tc.args)
			var got struct {
				Content []struct{ Type, Text string }
				IsError bool
			}
			if err := json.Unmarshal(res, &got); err != nil {
				t.Fatal(err)
			}
			if !got.IsError || len(got.Content) != 1 || got.Content[0].Type != "text" {
				t.Fatalf("want an isError result with one text block, got %s", res)
			}
			if diff := cmp.Diff(tc.want, got.Content[0].Text); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTypedToolValidEdgeValues(t *testing.T) {
	_, c := typedServer(t)
	// Integers beyond 2^53 are validated and decoded exactly, null is
	// accepted where the schema says nullable (and the nil pointer is then
	// omitted on the way out).
	jsonEqual(t, `{
		"content": [{"type":"text","text":"{\"when\":\"2026-01-02T03:04:05Z\",\"big\":9007199254740993}"}],
		"structuredContent": {"when":"2026-01-02T03:04:05Z","big":9007199254740993}
	}`, c.callTool("sink", map[string]any{"when": "2026-01-02T03:04:05Z", "maybe": nil, "big": json.Number("9007199254740993")}))
}

func TestTypedToolErrors(t *testing.T) {
	logs, logOpt := newLog()
	_, c := typedServer(t, logOpt)
	for _, tc := range []struct{ order, want string }{
		{"E-0000", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"order E-0000 is archived; ask the user for a newer order"}],"isError":true}}`},
		{"P-0000", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"refused"}}`},
		{"N-0000", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"tool returned no result"}],"isError":true}}`},
		{"L-0000", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"internal error: tool \"lookup_order\" produced output that does not match its output schema; this is a bug in the server"}],"isError":true}}`},
	} {
		c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"` + tc.order + `","qty":1}}}`)
		if got := c.recv(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.order, got, tc.want)
		}
	}
	if l := logs.String(); !contains(l, "does not match its output schema") || !contains(l, `/status: must be one of`) {
		t.Errorf("invalid output not logged with its violations:\n%s", l)
	}
}

func TestTypedToolNonObjectOutput(t *testing.T) {
	srv, c := typedServer(t)
	// A non-object output is sent as text only (2025-11-25 structuredContent
	// and outputSchema are objects).
	jsonEqual(t, `{"content":[{"type":"text","text":"[\"A-1042\",\"B-2000\"]"}]}`, c.callTool("list_ids", nil))
	jsonEqual(t, `{"content":[{"type":"text","text":"a dot:"},{"type":"image","data":"iVBORw==","mimeType":"image/png"}]}`, c.callTool("picture", nil))
	for _, tl := range srv.Tools() {
		switch tl.Name {
		case "list_ids", "picture":
			if tl.OutputSchema != nil {
				t.Errorf("%s advertises outputSchema %s", tl.Name, tl.OutputSchema)
			}
			if got := string(tl.InputSchema); got != `{"type":"object","additionalProperties":false}` {
				t.Errorf("%s inputSchema %s", tl.Name, got)
			}
		case "lookup_order":
			if tl.OutputSchema == nil {
				t.Error("lookup_order advertises no outputSchema")
			}
		}
	}
}

func TestTypedToolPresetSchemas(t *testing.T) {
	type In struct {
		ID string `json:"id"`
	}
	type Out struct {
		N int `json:"n"`
	}
	in := json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","minLength":3}},"required":["id"]}`)
	out := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","maximum":5}},"required":["n"]}`)
	tool := runtime.TypedTool(runtime.Tool{Name: "preset", InputSchema: in, OutputSchema: out}, func(ctx context.Context, in *In) (*Out, error) {
		return &Out{N: len(in.ID)}, nil
	})
	if string(tool.InputSchema) != string(in) || string(tool.OutputSchema) != string(out) {
		t.Errorf("preset schemas replaced: %s %s", tool.InputSchema, tool.OutputSchema)
	}
	// The preset schemas are the ones validated against.
	call := func(args string) string {
		res, err := tool.Handler(context.Background(), &runtime.CallToolRequest{Name: "preset", Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		return string(b)
	}
	if got, want := call(`{"id":"ab"}`), `{"content":[{"type":"text","text":"invalid arguments for tool \"preset\":\n- /id: must be at least 3 characters long (got 2)"}],"isError":true}`; got != want {
		t.Errorf("input:\n got %s\nwant %s", got, want)
	}
	if got, want := call(`{"id":"abc"}`), `{"content":[{"type":"text","text":"{\"n\":3}"}],"structuredContent":{"n":3}}`; got != want {
		t.Errorf("valid:\n got %s\nwant %s", got, want)
	}
	if got := call(`{"id":"abcdef"}`); !contains(got, "does not match its output schema") {
		t.Errorf("output over the preset maximum: %s", got)
	}
	// Arguments that are not an object are a protocol error.
	_, err := tool.Handler(context.Background(), &runtime.CallToolRequest{Name: "preset", Arguments: json.RawMessage(`[]`)})
	if e, ok := errors.AsType[*runtime.Error](err); !ok || e.Code != runtime.CodeInvalidParams {
		t.Errorf("array arguments: %v", err)
	}
}

func TestTypedToolPanicsOnNonObjectInput(t *testing.T) {
	defer func() {
		if v := recover(); v == nil || !contains(fmt.Sprint(v), `"type":"object"`) {
			t.Errorf("panic = %v", v)
		}
	}()
	runtime.TypedTool(runtime.Tool{Name: "bad"}, func(ctx context.Context, in *string) (*string, error) { return in, nil })
}

// TestTypedToolHandlerOutcomes calls the adapter's handler directly: errors
// are already results, except *Error.
func TestTypedToolHandlerOutcomes(t *testing.T) {
	type In struct{}
	for _, tc := range []struct {
		name    string
		err     error
		want    string
		wantErr bool
	}{
		{"not implemented", &runtime.NotImplementedError{Kind: "tool", Name: "t"}, `{"content":[{"type":"text","text":"tool \"t\" is not implemented"}],"isError":true}`, false},
		{"plain error", errors.New("boom"), `{"content":[{"type":"text","text":"boom"}],"isError":true}`, false},
		{"protocol error", fmt.Errorf("wrapped: %w", &runtime.Error{Code: runtime.CodeInvalidParams, Message: "no"}), ``, true},
		{"nothing", nil, `{"content":[{"type":"text","text":"tool returned no result"}],"isError":true}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, tool := range []runtime.Tool{
				runtime.TypedTool(runtime.Tool{Name: "t"}, func(context.Context, *In) (*Order, error) { return nil, tc.err }),
				runtime.TypedToolResult(runtime.Tool{Name: "t"}, func(context.Context, *In) (*runtime.CallToolResult, error) { return nil, tc.err }),
			} {
				res, err := tool.Handler(context.Background(), &runtime.CallToolRequest{Name: "t"})
				if tc.wantErr {
					if _, ok := errors.AsType[*runtime.Error](err); !ok || res != nil {
						t.Errorf("got %v, %v; want an *Error", res, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("error %v", err)
				}
				if b, _ := json.Marshal(res); string(b) != tc.want {
					t.Errorf("got %s, want %s", b, tc.want)
				}
			}
		})
	}
}
