package gen_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/golden/defaults"
	"github.com/mcpgen/mcpgen/runtime"
)

// echoDefaults is a handler of golden/defaults that answers with the
// arguments it received, as JSON: what the test compares is exactly what a
// handler sees after validation, decoding and ApplyDefaults.
type echoDefaults struct{ defaults.UnimplementedHandler }

func (echoDefaults) Search(_ context.Context, in *defaults.SearchInput) (*defaults.SearchOutput, error) {
	b, err := json.Marshal(in)
	return &defaults.SearchOutput{Echo: b}, err
}

func (echoDefaults) Order(_ context.Context, in *defaults.OrderInput) (*defaults.OrderOutput, error) {
	b, err := json.Marshal(in)
	return &defaults.OrderOutput{Echo: b}, err
}

func (echoDefaults) ReadPage(_ context.Context, p *defaults.PageParams) (string, error) {
	b, err := json.Marshal(p)
	return string(b), err
}

// TestDefaultsApplied proves that a defaulted argument the client left out
// reaches the handler with the spec's default, and that one it sent (zero
// values, empty arrays and null included) reaches it untouched, at every
// depth.
func TestDefaultsApplied(t *testing.T) {
	srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"})
	defaults.Register(srv, echoDefaults{})
	tools := map[string]runtime.ToolHandler{}
	for _, tool := range srv.Tools() {
		tools[tool.Name] = tool.Handler
	}
	cases := []struct {
		name, tool, args, want string
	}{
		{
			name: "scalars left out", tool: "search",
			args: `{"query":"q","offset":3}`,
			want: `{"query":"q","limit":10,"offset":3,"exact":false,"boost":1.5,"tone":"formal","ratio":0.25,
				"ratio_default":0.5,"sort":"date","label":"none","cursor":null}`,
		},
		{
			name: "scalars sent", tool: "search",
			args: `{"query":"q","offset":0,"limit":3,"exact":true,"boost":0,"tone":"casual","ratio":1,
				"ratio_default":0,"sort":"relevance","label":null,"cursor":"c"}`,
			want: `{"query":"q","limit":3,"offset":0,"exact":true,"boost":0,"tone":"casual","ratio":1,
				"ratio_default":0,"sort":"relevance","label":null,"cursor":"c"}`,
		},
		{
			name: "collections and objects left out", tool: "order",
			args: `{"gift":null}`,
			// extra_lines gets its default, then the default of qty inside it;
			// shipping gets {}, then its method; its address stays absent.
			want: `{"extra_lines":[{"sku":"gift","qty":1}],"tags":["new"],"shipping":{"method":"post"},
				"gift":null,"notes":[],"meta":{"source":"mcp"}}`,
		},
		{
			name: "nested values sent", tool: "order",
			args: `{"gift":{"sku":"g"},"lines":[{"sku":"a"},{"sku":"b","qty":5}],"extra_lines":[],"tags":[],
				"by_shelf":{"s1":{"sku":"c"}},"groups":[[{"sku":"d"}],[]],"shipping":{"address":{"city":"Lyon"}},
				"notes":null,"meta":null}`,
			want: `{"lines":[{"sku":"a","qty":1},{"sku":"b","qty":5}],"by_shelf":{"s1":{"sku":"c","qty":1}},
				"groups":[[{"sku":"d","qty":1}],[]],"shipping":{"method":"post","address":{"country":"FR","city":"Lyon"}},
				"gift":{"sku":"g","qty":1},"notes":null,"meta":null}`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := tools[c.tool](context.Background(), &runtime.CallToolRequest{Name: c.tool, Arguments: json.RawMessage(c.args)})
			if err != nil || res.IsError {
				t.Fatalf("call failed: %v %+v", err, res)
			}
			structured, err := json.Marshal(res.StructuredContent)
			if err != nil {
				t.Fatal(err)
			}
			var out struct{ Echo json.RawMessage }
			if err := json.Unmarshal(structured, &out); err != nil {
				t.Fatal(err)
			}
			assertSameJSON(t, string(out.Echo), c.want)
		})
	}
}

// TestTemplateVariableDefault proves that a query variable left out of the
// URI reaches the handler with its default, and one in the URI is kept.
func TestTemplateVariableDefault(t *testing.T) {
	srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"})
	defaults.Register(srv, echoDefaults{})
	read := srv.ResourceTemplates()[0].Handler
	for uri, want := range map[string]string{
		"pages://home":        `{"name":"home","size":20}`,
		"pages://home?size=3": `{"name":"home","size":3}`,
	} {
		res, err := read(context.Background(), &runtime.ReadResourceRequest{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		assertSameJSON(t, res.Contents[0].Text, want)
	}
}

func assertSameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("got %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("the handler received (-want +got):\n%s\ngot: %s", diff, got)
	}
}

// BenchmarkDefaults measures a validated, decoded tools/call of
// golden/defaults whose defaulted arguments are left out (ApplyDefaults fills
// them, decoding the JSON defaults of arrays and objects) or all sent.
func BenchmarkDefaults(b *testing.B) {
	srv := runtime.NewServer(runtime.Implementation{Name: "b", Version: "1"})
	defaults.Register(srv, echoDefaults{})
	tools := map[string]runtime.ToolHandler{}
	for _, tool := range srv.Tools() {
		tools[tool.Name] = tool.Handler
	}
	for _, bc := range []struct{ name, tool, args string }{
		{"search/left_out", "search", `{"query":"q","offset":3}`},
		{"search/sent", "search", `{"query":"q","offset":0,"limit":3,"exact":true,"boost":0,"tone":"casual","ratio":1,"ratio_default":0,"sort":"relevance","label":null,"cursor":"c"}`},
		{"order/left_out", "order", `{"gift":null}`},
		{"order/sent", "order", `{"gift":null,"extra_lines":[{"sku":"x","qty":2}],"tags":["a"],"shipping":{"method":"courier"},"notes":null,"meta":null}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := &runtime.CallToolRequest{Name: bc.tool, Arguments: json.RawMessage(bc.args)}
			b.ReportAllocs()
			for b.Loop() {
				if res, err := tools[bc.tool](context.Background(), req); err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
}

// BenchmarkApplyDefaults measures ApplyDefaults alone on inputs whose
// defaulted properties were all left out: scalars only (search), and
// arrays, maps and objects decoded from their JSON defaults (order).
func BenchmarkApplyDefaults(b *testing.B) {
	b.Run("search", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			in := defaults.SearchInput{Query: "q"}
			in.ApplyDefaults()
		}
	})
	b.Run("order", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			in := defaults.OrderInput{}
			in.ApplyDefaults()
		}
	})
}
