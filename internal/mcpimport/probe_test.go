package mcpimport

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/golden/requires"
	"github.com/mcpgen/mcpgen/spec"
)

// TestProbeRequires imports the golden server whose items need client
// capabilities and an extension, and checks that the imported spec
// requires what the original does, item by item.
func TestProbeRequires(t *testing.T) {
	ts := httptest.NewServer(gated.NewServer(gated.UnimplementedHandler{}).HTTPHandler())
	defer ts.Close()
	res, err := Import(context.Background(), Options{URL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	got, diags := spec.Load("imported.yaml", res.YAML)
	if len(diags) > 0 {
		t.Fatalf("%v\n%s", diags, res.YAML)
	}
	want, diags, err := spec.LoadFile("../../golden/requires/mcpgen.yaml")
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	if diff := cmp.Diff(requirements(want), requirements(got)); diff != "" {
		t.Errorf("requires: (-original +imported)\n%s\n%s", diff, res.YAML)
	}
}

// requirements is each item's requires:, by kind and name.
func requirements(s *spec.Spec) map[string]Requirement {
	out := map[string]Requirement{}
	add := func(kind, name string, r *spec.Requires) {
		if r != nil {
			out[kind+"/"+name] = Requirement{r.Capabilities, r.Extensions}
		}
	}
	for _, x := range s.Tools {
		add("tools", x.Name, x.Requires)
	}
	for _, x := range s.Resources {
		add("resources", x.Name, x.Requires)
	}
	for _, x := range s.ResourceTemplates {
		add("resourceTemplates", x.Name, x.Requires)
	}
	for _, x := range s.Prompts {
		add("prompts", x.Name, x.Requires)
	}
	return out
}
