package gen_test

import (
	"fmt"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

// mcpgen as a library: load a spec (every error at once, with positions),
// then generate the Go files in memory, as `mcpgen generate` does before
// writing them.
func ExampleGenerate() {
	src := []byte(`mcpgen: 1
server: {name: orders, version: 1.0.0}
go: {package: ordersmcp}
tools:
  lookup_order:
    description: Look up an order by its id.
    input:
      properties: {order_id: {type: string, pattern: '^[A-Z]-\d{4}$'}}
      required: [order_id]
`)
	s, diags := spec.Load("mcpgen.yaml", src)
	if len(diags) > 0 {
		fmt.Println(diags)
		return
	}
	files, err := gen.Generate(s, gen.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range files {
		fmt.Println(f.Path)
	}
	// Output:
	// handler_mcpgen.go
	// register_mcpgen.go
	// types_mcpgen.go
}

// A spec with mistakes: Load reports each one as file:line:col, sorted.
func ExampleGenerate_diagnostics() {
	_, diags := spec.Load("mcpgen.yaml", []byte(`mcpgen: 1
server: {name: orders, version: 1.0.0}
go: {package: ordersmcp}
tools:
  lookup_order:
    descripton: Look up an order.
`))
	for _, d := range diags {
		fmt.Printf("%s:%d:%d: %s\n", d.File, d.Pos.Line, d.Pos.Column, d.Message)
	}
	// Output:
	// mcpgen.yaml:5:3: missing required key "description" in tool "lookup_order"
	// mcpgen.yaml:6:5: unknown key "descripton" in tool "lookup_order"; did you mean "description"?
}
