package gen_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/examples/books/booksmcp"
	"github.com/mcpgen/mcpgen/examples/conformance/conformancemcp"
	"github.com/mcpgen/mcpgen/examples/expenses/expensesmcp"
	"github.com/mcpgen/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen/mcpgen/examples/readme/readmemcp"
	"github.com/mcpgen/mcpgen/examples/support/supportmcp"
	"github.com/mcpgen/mcpgen/examples/wpsearch/wpsearchmcp"
	"github.com/mcpgen/mcpgen/golden/apps"
	"github.com/mcpgen/mcpgen/golden/collections"
	"github.com/mcpgen/mcpgen/golden/consts"
	"github.com/mcpgen/mcpgen/golden/defaults"
	gonames "github.com/mcpgen/mcpgen/golden/go_names"
	"github.com/mcpgen/mcpgen/golden/idempotency"
	"github.com/mcpgen/mcpgen/golden/minimal"
	"github.com/mcpgen/mcpgen/golden/modern_era"
	"github.com/mcpgen/mcpgen/golden/naming"
	"github.com/mcpgen/mcpgen/golden/nullable"
	"github.com/mcpgen/mcpgen/golden/numbers"
	"github.com/mcpgen/mcpgen/golden/objects"
	openobjects "github.com/mcpgen/mcpgen/golden/open_objects"
	"github.com/mcpgen/mcpgen/golden/prompts"
	raw "github.com/mcpgen/mcpgen/golden/raw_schemas"
	"github.com/mcpgen/mcpgen/golden/refs"
	gated "github.com/mcpgen/mcpgen/golden/requires"
	"github.com/mcpgen/mcpgen/golden/resources"
	schemaprofile "github.com/mcpgen/mcpgen/golden/schema_profile"
	scoped "github.com/mcpgen/mcpgen/golden/scopes"
	library "github.com/mcpgen/mcpgen/golden/search_exposure"
	"github.com/mcpgen/mcpgen/golden/strings"
	"github.com/mcpgen/mcpgen/golden/templates"
	features "github.com/mcpgen/mcpgen/golden/tool_features"
	tracker "github.com/mcpgen/mcpgen/golden/toolsets"
	"github.com/mcpgen/mcpgen/golden/unions"
	petstore "github.com/mcpgen/mcpgen/golden/upstream"
	wirenames "github.com/mcpgen/mcpgen/golden/wire_names"
	"github.com/mcpgen/mcpgen/internal/specschema"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/spec"
)

// compiledCases are the generated packages this test builds servers from:
// every positive golden case, and the examples.
var compiledCases = map[string]func(*runtime.Server){
	"../golden/minimal/mcpgen.yaml":       func(s *runtime.Server) { minimal.Register(s, minimal.UnimplementedHandler{}) },
	"../golden/strings/mcpgen.yaml":       func(s *runtime.Server) { strings.Register(s, strings.UnimplementedHandler{}) },
	"../golden/numbers/mcpgen.yaml":       func(s *runtime.Server) { numbers.Register(s, numbers.UnimplementedHandler{}) },
	"../golden/collections/mcpgen.yaml":   func(s *runtime.Server) { collections.Register(s, collections.UnimplementedHandler{}) },
	"../golden/objects/mcpgen.yaml":       func(s *runtime.Server) { objects.Register(s, objects.UnimplementedHandler{}) },
	"../golden/consts/mcpgen.yaml":        func(s *runtime.Server) { consts.Register(s, consts.UnimplementedHandler{}) },
	"../golden/unions/mcpgen.yaml":        func(s *runtime.Server) { unions.Register(s, unions.UnimplementedHandler{}) },
	"../golden/nullable/mcpgen.yaml":      func(s *runtime.Server) { nullable.Register(s, nullable.UnimplementedHandler{}) },
	"../golden/open_objects/mcpgen.yaml":  func(s *runtime.Server) { openobjects.Register(s, openobjects.UnimplementedHandler{}) },
	"../golden/go_names/mcpgen.yaml":      func(s *runtime.Server) { gonames.Register(s, gonames.UnimplementedHandler{}) },
	"../golden/wire_names/mcpgen.yaml":    func(s *runtime.Server) { wirenames.Register(s, wirenames.UnimplementedHandler{}) },
	"../golden/refs/mcpgen.yaml":          func(s *runtime.Server) { refs.Register(s, refs.UnimplementedHandler{}) },
	"../golden/defaults/mcpgen.yaml":      func(s *runtime.Server) { defaults.Register(s, defaults.UnimplementedHandler{}) },
	"../golden/tool_features/mcpgen.yaml": func(s *runtime.Server) { features.Register(s, features.UnimplementedHandler{}) },
	"../golden/naming/mcpgen.yaml":        func(s *runtime.Server) { naming.Register(s, naming.UnimplementedHandler{}) },
	"../golden/resources/mcpgen.yaml":     func(s *runtime.Server) { resources.Register(s, resources.UnimplementedHandler{}) },
	"../golden/templates/mcpgen.yaml":     func(s *runtime.Server) { templates.Register(s, templates.UnimplementedHandler{}) },
	"../golden/prompts/mcpgen.yaml":       func(s *runtime.Server) { prompts.Register(s, prompts.UnimplementedHandler{}) },
	"../golden/raw_schemas/mcpgen.yaml":   func(s *runtime.Server) { raw.Register(s, raw.UnimplementedHandler{}) },
	"../golden/idempotency/mcpgen.yaml":   func(s *runtime.Server) { idempotency.Register(s, idempotency.UnimplementedHandler{}) },
	"../golden/scopes/mcpgen.yaml":        func(s *runtime.Server) { scoped.Register(s, scoped.UnimplementedHandler{}) },
	"../golden/apps/mcpgen.yaml":          func(s *runtime.Server) { apps.Register(s, apps.UnimplementedHandler{}) },
	"../golden/requires/mcpgen.yaml":      func(s *runtime.Server) { gated.Register(s, gated.UnimplementedHandler{}) },
	"../golden/modern_era/mcpgen.yaml":    func(s *runtime.Server) { modernera.Register(s, modernera.UnimplementedHandler{}) },
	"../golden/upstream/mcpgen.yaml":      func(s *runtime.Server) { petstore.Register(s, &petstore.UpstreamHandler{}) },
	"../golden/toolsets/mcpgen.yaml":      func(s *runtime.Server) { tracker.Register(s, tracker.UnimplementedHandler{}) },
	"../golden/schema_profile/mcpgen.yaml": func(s *runtime.Server) {
		schemaprofile.Register(s, schemaprofile.UnimplementedHandler{})
	},
	"../golden/search_exposure/mcpgen.yaml": func(s *runtime.Server) {
		library.Register(s, library.UnimplementedHandler{})
	},
	"../examples/orders/mcpgen.yaml":   func(s *runtime.Server) { ordersmcp.Register(s, ordersmcp.UnimplementedHandler{}) },
	"../examples/wpsearch/mcpgen.yaml": func(s *runtime.Server) { wpsearchmcp.Register(s, wpsearchmcp.UnimplementedHandler{}) },
	"../examples/readme/mcpgen.yaml":   func(s *runtime.Server) { readmemcp.Register(s, readmemcp.UnimplementedHandler{}) },
	"../examples/support/mcpgen.yaml":  func(s *runtime.Server) { supportmcp.Register(s, supportmcp.UnimplementedHandler{}) },
	"../examples/expenses/mcpgen.yaml": func(s *runtime.Server) { expensesmcp.Register(s, expensesmcp.UnimplementedHandler{}) },
	"../examples/books/mcpgen.yaml":    func(s *runtime.Server) { booksmcp.Register(s, booksmcp.UnimplementedHandler{}) },
	"../examples/conformance/mcpgen.yaml": func(s *runtime.Server) {
		conformancemcp.Register(s, conformancemcp.UnimplementedHandler{})
	},
}

// TestCompiledCasesListed keeps compiledCases complete: a new positive
// golden case must be added there, or its schemas go unchecked.
func TestCompiledCasesListed(t *testing.T) {
	specs, _ := filepath.Glob("../golden/*/mcpgen.yaml")
	for _, p := range specs {
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "diagnostics.txt")); err == nil {
			continue // a negative case
		}
		if compiledCases[p] == nil {
			t.Errorf("%s is a positive golden case missing from compiledCases", p)
		}
	}
}

// TestAdvertisedSchemas proves, for every golden case and example, that the
// runtime advertises each tool's schemas as the spec and the generator say:
// tools in spec order; a raw inputSchema or outputSchema byte for byte; a typed
// one byte for byte as specschema.Wire computes it (the generator writes it
// indented, the runtime compacts it back); a missing input as the empty
// closed object; an output that is not an object not at all (2025-11-25
// wants an object). What Wire says is checked elsewhere against sources
// independent of it: the reflection of the generated Go types
// (reflect_agree_test.go) and the verdicts of golden/*/calls.yaml
// (validation_agree_test.go).
func TestAdvertisedSchemas(t *testing.T) {
	for path, register := range compiledCases {
		t.Run(path, func(t *testing.T) {
			s, diags, err := spec.LoadFile(path)
			if err != nil || len(diags) > 0 {
				t.Fatalf("load: %v %v", err, diags)
			}
			srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"})
			register(srv)
			tools := srv.Tools()
			if len(tools) != len(s.Tools) {
				t.Fatalf("%d tools registered, the spec has %d", len(tools), len(s.Tools))
			}
			for i, st := range s.Tools {
				rt := tools[i]
				if rt.Name != st.Name {
					t.Errorf("tool %d is %q, the spec says %q (order on the wire must follow the spec)", i, rt.Name, st.Name)
					continue
				}
				switch {
				case st.InputSchema != nil:
					sameBytes(t, st.Name+" input", st.InputSchema.JSON, rt.InputSchema)
				case st.Input == nil:
					compareSchema(t, st.Name+" input", map[string]any{"type": "object", "additionalProperties": false}, rt.InputSchema)
				default:
					sameAsWire(t, st.Name+" input", s, st.Input, rt.InputSchema)
					advertisedAsProfiled(t, st.Name, s, st.Input, rt.AdvertisedInputSchema)
				}
				switch {
				case st.OutputSchema != nil:
					sameBytes(t, st.Name+" output", st.OutputSchema.JSON, rt.OutputSchema)
				case st.Output == nil || resolved(s, st.Output).Kind != spec.KindObject:
					compareSchema(t, st.Name+" output", nil, rt.OutputSchema)
				default:
					sameAsWire(t, st.Name+" output", s, st.Output, rt.OutputSchema)
				}
			}
		})
	}
}

// advertisedAsProfiled checks what tools/list shows of a typed input under
// the spec's server.schemaProfile: the profile's rewrite of Wire's schema,
// or nothing (the validated schema itself) without a profile.
func advertisedAsProfiled(t *testing.T, tool string, s *spec.Spec, sch *spec.Schema, got json.RawMessage) {
	t.Helper()
	p := specschema.ProfileNamed(s.Server.SchemaProfile)
	if p == nil {
		if got != nil {
			t.Errorf("%s: AdvertisedInputSchema without a schemaProfile:\n%s", tool, got)
		}
		return
	}
	wire, goType := specschema.Wire(s, sch)
	if goType {
		return
	}
	want, err := p.Apply(wire)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s: advertised\n%s\nwant the %s profile of Wire's schema\n%s", tool, got, p.Name, want)
	}
}

// resolved follows a schema's $refs through the spec's named types.
func resolved(s *spec.Spec, sch *spec.Schema) *spec.Schema {
	for i := 0; sch.Kind == spec.KindRef && i <= len(s.Types); i++ {
		for _, nt := range s.Types {
			if nt.Name == sch.Ref {
				sch = nt.Schema
				break
			}
		}
	}
	return sch
}

// sameAsWire checks an advertised typed schema against specschema.Wire:
// the same bytes, or, where the schema reaches a Go type (which the runtime
// reflects), the same schema around whatever the Go type reflects to.
func sameAsWire(t *testing.T, what string, s *spec.Spec, sch *spec.Schema, got json.RawMessage) {
	t.Helper()
	want, reachesGoType := specschema.Wire(s, sch)
	if !reachesGoType {
		if string(got) != string(want) {
			t.Errorf("%s: advertised\n%s\nwant specschema.Wire's\n%s", what, got, want)
		}
		return
	}
	doc, err := specschema.Decode(want)
	if err != nil {
		t.Fatal(err)
	}
	compareSchema(t, what, specschema.Normalize(doc, func(n string) string { return n }), got)
}

// sameBytes checks a schema the spec writes out in full: advertised byte for
// byte as the spec's loader encoded it.
func sameBytes(t *testing.T, what string, want, got json.RawMessage) {
	t.Helper()
	if string(got) != string(want) {
		t.Errorf("%s: advertised\n%s\nwant the spec's\n%s", what, got, want)
	}
}

func compareSchema(t *testing.T, what string, want any, got json.RawMessage) {
	t.Helper()
	if want == nil {
		if got != nil {
			t.Errorf("%s: advertised %s, want none", what, got)
		}
		return
	}
	if got == nil {
		t.Errorf("%s: nothing advertised", what)
		return
	}
	doc, err := specschema.Decode(got)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	norm := specschema.MatchGoTypes(want, specschema.Normalize(doc, func(n string) string { return n }))
	if diff := cmp.Diff(want, norm); diff != "" {
		t.Errorf("%s: advertised schema disagrees with the spec (-spec +advertised):\n%s\nadvertised: %s", what, diff, got)
	}
}
