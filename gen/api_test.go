package gen_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

// TestPlanAPIWritesGoTypesWithImportPath: an existing Go type is described
// by its full import path, so that diff sees a change of package even when
// the package's name stays.
func TestPlanAPIWritesGoTypesWithImportPath(t *testing.T) {
	s, diags := spec.Load("mcpgen.yaml", []byte(`mcpgen: 1
server: {name: t, version: "1"}
go: {package: t}
tools:
  when:
    description: d
    input:
      properties:
        at: {goType: "github.com/acme/clock.Instant"}
      required: [at]
`))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	api, diags := gen.PlanAPI(s)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	in := api.Type("WhenInput")
	if in == nil || len(in.Fields) != 1 {
		t.Fatalf("WhenInput = %+v", in)
	}
	if got, want := in.Fields[0].Type, "github.com/acme/clock.Instant"; got != want {
		t.Errorf("field type %q, want %q", got, want)
	}
	if got, want := api.Methods[0].Signature, "(context.Context, *WhenInput) (*runtime.CallToolResult, error)"; got != want {
		t.Errorf("signature %q, want %q", got, want)
	}
}

// TestNameConstantCollision: the constant holding a tool's name is a
// package-level name like any type's, so a clash is a spec finding with both
// positions, not a compile error in generated code.
func TestNameConstantCollision(t *testing.T) {
	s, diags := spec.Load("mcpgen.yaml", []byte(`mcpgen: 1
server: {name: t, version: "1"}
go: {package: t}
types:
  tool_lookup: {type: string}
tools:
  lookup:
    description: d
`))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	_, err := gen.Generate(s, gen.Options{})
	if err == nil || !strings.Contains(err.Error(), `tool "lookup" gets the Go constant name ToolLookup for its name, already used by type "tool_lookup" at mcpgen.yaml:5:3`) {
		t.Errorf("Generate: %v, want the clash of ToolLookup reported", err)
	}
}

// TestPlanNamesIsPlanAPIsNames: PlanNames gives the names, collisions and
// findings PlanAPI gives (only the Go source is left out), over the golden
// specs, refused ones included.
func TestPlanNamesIsPlanAPIsNames(t *testing.T) {
	files, _ := filepath.Glob("../golden/*/mcpgen.yaml")
	if len(files) < 10 {
		t.Fatalf("golden specs: %v", files)
	}
	names := func(a *gen.API, d spec.Diagnostics) string {
		var b strings.Builder
		for _, t := range a.Types {
			fmt.Fprintf(&b, "type %s %s %v %s %s\n", t.Name, t.Kind, t.Pos, t.Item, t.What)
			for _, f := range t.Fields {
				fmt.Fprintf(&b, "  field %s\n", f.Name)
			}
			for _, c := range t.Consts {
				fmt.Fprintf(&b, "  const %s %s %v\n", c.Name, c.Suffix, c.Pos)
			}
		}
		for _, m := range a.Methods {
			fmt.Fprintf(&b, "method %s %v %s %s\n", m.Name, m.Pos, m.What, m.Key)
		}
		fmt.Fprintf(&b, "%+v\n%v\n", a.Collisions, d)
		return b.String()
	}
	for _, f := range files {
		s, diags, err := spec.LoadFile(f)
		if err != nil || len(diags) > 0 {
			continue
		}
		full, fd := gen.PlanAPI(s)
		lean, ld := gen.PlanNames(s)
		if got, want := names(lean, ld), names(full, fd); got != want {
			t.Errorf("%s: PlanNames:\n%s\nPlanAPI:\n%s", f, got, want)
		}
		for _, ty := range lean.Types {
			if ty.Definition != "" {
				t.Errorf("%s: PlanNames wrote a definition for %s: %q", f, ty.Name, ty.Definition)
			}
		}
	}
}
