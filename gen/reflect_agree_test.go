package gen_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpgen/mcpgen/internal/specschema"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/genimpl"
	"github.com/mcpgen/mcpgen/spec"
)

// TestGeneratedSchemasMatchReflection proves, for every golden case and
// example, that the schema constants the generator writes into the
// registration code (which the runtime advertises and validates with) say
// exactly what github.com/invopop/jsonschema reflects from the generated Go
// types: the generated structs and the generated schemas cannot drift apart.
// The same holds for templates' params schemas and prompts' argument lists.
// (TestSchemasAgreeWithSpec proves that they say what the spec says.)
func TestGeneratedSchemasMatchReflection(t *testing.T) {
	for path, register := range compiledCases {
		t.Run(path, func(t *testing.T) {
			s, diags, err := spec.LoadFile(path)
			if err != nil || len(diags) > 0 {
				t.Fatalf("load: %v %v", err, diags)
			}
			srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"})
			register(srv)
			for i, tool := range srv.Tools() {
				src, ok := genimpl.Schemas(tool)
				if !ok {
					t.Errorf("tool %q is not registered with genimpl.GeneratedTool", tool.Name)
					continue
				}
				st := s.Tools[i]
				if st.InputSchema == nil { // a raw inputSchema is decoded into json.RawMessage
					sameSchema(t, tool.Name+" input", src.Input, src.ReflectedInput)
				}
				if st.OutputSchema == nil {
					sameSchema(t, tool.Name+" output", src.Output, src.ReflectedOutput)
				}
			}
			fixed := map[string]bool{} // a resource's URI, listed as a template by asTemplate: no variables
			for _, r := range srv.Resources() {
				fixed[r.URI] = true
			}
			for _, tmpl := range srv.ResourceTemplates() {
				if fixed[tmpl.URITemplate] {
					continue
				}
				generated, reflected, ok := genimpl.TemplateSchemas(tmpl)
				if !ok {
					t.Errorf("template %q is not registered with genimpl.GeneratedTemplate", tmpl.Name)
					continue
				}
				sameSchema(t, "template "+tmpl.Name+" params", generated, reflected)
			}
			for _, p := range srv.Prompts() {
				declared, reflected, ok := genimpl.PromptArguments(p)
				if !ok {
					continue // a declarative prompt: its arguments are not a Go type
				}
				// Whether an optional argument says "required": false is a
				// choice of the list, not of the Go type.
				if diff := cmp.Diff(reflected, declared, cmpopts.IgnoreFields(runtime.PromptArgument{}, "ExplicitOptional")); diff != "" {
					t.Errorf("prompt %q: the arguments written out differ from the reflection of the generated type (-reflected +written):\n%s", p.Name, diff)
				}
			}
		})
	}
}

func sameSchema(t *testing.T, what string, generated, reflected json.RawMessage) {
	t.Helper()
	if (generated == nil) != (reflected == nil) {
		t.Errorf("%s: generated %s, reflected %s", what, generated, reflected)
		return
	}
	if generated == nil {
		return
	}
	gen, err := specschema.Decode(generated)
	if err != nil {
		t.Fatalf("%s: generated schema: %v", what, err)
	}
	refl, err := specschema.Decode(reflected)
	if err != nil {
		t.Fatalf("%s: reflected schema: %v", what, err)
	}
	// Normalize drops $schema; the root's must agree too.
	if g, r := rootDialect(gen), rootDialect(refl); g != r {
		t.Errorf("%s: $schema generated %v, reflected %v", what, g, r)
	}
	same := func(n string) string { return n }
	if diff := cmp.Diff(specschema.Normalize(refl, same), specschema.Normalize(gen, same)); diff != "" {
		t.Errorf("%s: the generated schema differs from the reflection of the generated types (-reflected +generated):\n%s\ngenerated: %s\nreflected: %s",
			what, diff, generated, reflected)
	}
}

func rootDialect(schema any) any {
	m, _ := schema.(map[string]any)
	return m["$schema"]
}
