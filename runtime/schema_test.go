package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

func TestSchemaFor(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  []byte
		want string
	}{
		{"struct with tags and an Opt field", runtime.SchemaFor[LookupInput](),
			`{"properties":{"order_id":{"type":"string","pattern":"^[A-Z]-\\d{4}$","description":"An order id such as A-1042."},` +
				`"qty":{"type":"integer","maximum":10,"minimum":1},"note":{"type":"string","maxLength":20}},` +
				`"additionalProperties":false,"type":"object","required":["order_id","qty"]}`},
		{"named types go to $defs", runtime.SchemaFor[KitchenSink](),
			`{"$defs":{"Address":{"properties":{"city":{"type":"string"}},"additionalProperties":false,"type":"object","required":["city"]}},` +
				`"properties":{"when":{"type":"string","format":"date-time"},"status":{"type":"string","enum":["pending","paid"]},` +
				`"addr":{"$ref":"#/$defs/Address"},"maybe":{"oneOf":[{"type":"string"},{"type":"null"}]},"small":{"type":"integer"},` +
				`"tags":{"items":{"type":"string"},"type":"array","maxItems":2,"uniqueItems":true},"big":{"type":"integer","maximum":9007199254740993}},` +
				`"additionalProperties":false,"type":"object"}`},
		{"pointer is its element", runtime.SchemaFor[*Address](),
			`{"properties":{"city":{"type":"string"}},"additionalProperties":false,"type":"object","required":["city"]}`},
		{"NoArgs", runtime.SchemaFor[runtime.NoArgs](), `{"type":"object","additionalProperties":false}`},
		{"empty struct", runtime.SchemaFor[struct{}](), `{"additionalProperties":false,"type":"object"}`},
		{"array", runtime.SchemaFor[[]Address](),
			`{"$defs":{"Address":{"properties":{"city":{"type":"string"}},"additionalProperties":false,"type":"object","required":["city"]}},` +
				`"items":{"$ref":"#/$defs/Address"},"type":"array"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if string(tc.got) != tc.want {
				t.Errorf("schema:\n got %s\nwant %s", tc.got, tc.want)
			}
		})
	}
}

// TestAdvertisedSchemas checks that what tools/list shows is what TypedTool
// validates against and what Tools() reports.
func TestAdvertisedSchemas(t *testing.T) {
	srv, c := typedServer(t)
	var list struct {
		Tools []struct {
			Name         string
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
	}
	if err := json.Unmarshal(c.result("tools/list", nil), &list); err != nil {
		t.Fatal(err)
	}
	tools := srv.Tools()
	if len(list.Tools) != len(tools) {
		t.Fatalf("tools/list has %d tools, Tools() %d", len(list.Tools), len(tools))
	}
	for i, tl := range tools {
		if string(list.Tools[i].InputSchema) != string(tl.InputSchema) || string(list.Tools[i].OutputSchema) != string(tl.OutputSchema) {
			t.Errorf("%s: tools/list and Tools() disagree:\n%s %s\n%s %s", tl.Name,
				list.Tools[i].InputSchema, list.Tools[i].OutputSchema, tl.InputSchema, tl.OutputSchema)
		}
	}
	if got, want := string(tools[0].InputSchema), string(runtime.SchemaFor[LookupInput]()); got != want {
		t.Errorf("lookup_order input schema %s, want %s", got, want)
	}
	if got, want := string(tools[0].OutputSchema), string(runtime.SchemaFor[Order]()); got != want {
		t.Errorf("lookup_order output schema %s, want %s", got, want)
	}
}

type TreeNode struct {
	Name     string     `json:"name"`
	Children []TreeNode `json:"children,omitempty"`
}

// TestSchemaForRecursiveType: the root is expanded, and its definition stays
// in $defs for the references inside it.
func TestSchemaForRecursiveType(t *testing.T) {
	got := string(runtime.SchemaFor[TreeNode]())
	want := `{"$defs":{"TreeNode":{"properties":{"name":{"type":"string"},"children":{"items":{"$ref":"#/$defs/TreeNode"},"type":"array"}},` +
		`"additionalProperties":false,"type":"object","required":["name"]}},` +
		`"properties":{"name":{"type":"string"},"children":{"items":{"$ref":"#/$defs/TreeNode"},"type":"array"}},` +
		`"additionalProperties":false,"type":"object","required":["name"]}`
	if got != want {
		t.Errorf("schema:\n got %s\nwant %s", got, want)
	}
	tool := runtime.TypedTool(runtime.Tool{Name: "tree"}, func(ctx context.Context, in *TreeNode) (*TreeNode, error) { return in, nil })
	res, err := tool.Handler(context.Background(), &runtime.CallToolRequest{Arguments: json.RawMessage(`{"name":"a","children":[{"name":"b","children":[{"nam":"c"}]}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if want := `{"content":[{"type":"text","text":"invalid arguments for tool \"tree\":\n` +
		`- /children/0/children/0/nam: is not allowed: unknown property; allowed properties: children, name\n` +
		`- /children/0/children/0/name: is required but missing"}],"isError":true}`; string(b) != want {
		t.Errorf("nested violations:\n got %s\nwant %s", b, want)
	}
}
