package templates_test

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/specformat"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/templates"
)

func scaffold(t *testing.T) map[string]string {
	t.Helper()
	files, err := templates.Init(templates.Scaffold{
		Name: "hello", Package: "hellomcp", Import: "example.com/hello/hellomcp",
		SchemaURL: specformat.SchemaID, Version: "latest",
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var paths []string
	for _, f := range files {
		out[f.Path] = string(f.Bytes)
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, " ") != strings.Join(templates.Paths(), " ") {
		t.Errorf("Init wrote %q, Paths says %q", paths, templates.Paths())
	}
	return out
}

// TestScaffoldedSpec: the spec init writes loads without a finding and
// generates.
func TestScaffoldedSpec(t *testing.T) {
	files := scaffold(t)
	s, diags := spec.Load("mcpgen.yaml", []byte(files["mcpgen.yaml"]))
	if len(diags) > 0 {
		t.Fatalf("the scaffolded spec has findings:\n%v", diags)
	}
	if len(s.Tools) != 1 || len(s.Resources) != 1 || len(s.ResourceTemplates) != 1 || len(s.Prompts) != 1 || len(s.Types) == 0 {
		t.Errorf("want one tool, resource, template and prompt, and a type; got %d, %d, %d, %d, %d",
			len(s.Tools), len(s.Resources), len(s.ResourceTemplates), len(s.Prompts), len(s.Types))
	}
	if _, err := gen.Generate(s, gen.Options{}); err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(files["mcpgen.yaml"], "\n", 2)[0]; first != "# yaml-language-server: $schema="+specformat.SchemaID {
		t.Errorf("first line: %q", first)
	}
	if strings.Contains(files["handlers.go"], "DO NOT EDIT") {
		t.Error("handlers.go must not say DO NOT EDIT: it is the user's file")
	}
}

// TestScaffoldShowsEveryKey: every key of the spec format appears in the
// scaffolded spec, set or commented out, so that it documents itself.
// Adding a key to the format (a key table in package spec) fails this test
// until the template shows it.
func TestScaffoldShowsEveryKey(t *testing.T) {
	yaml := scaffold(t)["mcpgen.yaml"]
	data, err := specformat.JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for k := range props {
					keys[k] = true
				}
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(doc)
	var missing []string
	for k := range keys {
		if !regexp.MustCompile(`(^|[^A-Za-z_$])` + regexp.QuoteMeta(k) + `($|[^A-Za-z_])`).MatchString(yaml) {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("the scaffolded mcpgen.yaml never mentions %q", missing)
	}
}
