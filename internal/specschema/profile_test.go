package specschema

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

var update = flag.Bool("update", false, "rewrite the golden files of the schema profiles")

// loadSpec loads a spec the loader accepts.
func loadSpec(t *testing.T, path string) *spec.Spec {
	t.Helper()
	s, diags, err := spec.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) > 0 {
		t.Fatalf("%s: %v", path, diags)
	}
	return s
}

// inputSchemas are the wire input schemas of a spec's tools (those that
// reach no Go type), by tool name.
func inputSchemas(s *spec.Spec) map[string][]byte {
	out := map[string][]byte{}
	for _, tool := range s.Tools {
		if tool.Input == nil {
			continue
		}
		if b, goType := Wire(s, tool.Input); !goType {
			out[tool.Name] = b
		}
	}
	return out
}

// The test spec uses what each API refuses: Check says so, rule by rule.
func TestProfileCheckFindsWhatEachAPIRefuses(t *testing.T) {
	schemas := inputSchemas(loadSpec(t, "testdata/profiles.yaml"))
	want := map[string][]string{
		"gemini": {"$defs", "$ref", "additionalProperties", "const", "enum", "examples", "exclusiveMinimum", "format",
			"multipleOf", "oneOf", "recursion", "type-list", "uniqueItems"},
		"openai-strict": {"default", "examples", "format", "maxLength", "minLength", "oneOf", "open-object",
			"optional-property", "uniqueItems"},
		"anthropic": {"default", "examples", "exclusiveMinimum", "maxLength", "maximum", "min-items",
			"minLength", "minimum", "multipleOf", "oneOf", "open-object", "recursion", "uniqueItems"},
	}
	for _, p := range Profiles {
		got := map[string]bool{}
		for _, name := range []string{"transfer", "categorize"} {
			fs, err := p.Check(schemas[name])
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				what := f.Rule
				if what == "keyword" {
					what = f.Path[strings.LastIndex(f.Path, "/")+1:]
				}
				got[what] = true
			}
		}
		var names []string
		for k := range got {
			names = append(names, k)
		}
		slices.Sort(names)
		if !slices.Equal(names, want[p.Name]) {
			t.Errorf("%s: found %q\nwant %q", p.Name, names, want[p.Name])
		}
	}
}

// What Apply advertises conforms to its profile: Check on it finds only
// what cannot be rewritten without accepting other values (Fixable false),
// and it finds every such thing it found before. Over the test spec and
// every example.
func TestProfileApplyConforms(t *testing.T) {
	specs, _ := filepath.Glob("../../examples/*/mcpgen.yaml")
	specs = append(specs, "testdata/profiles.yaml")
	for _, path := range specs {
		for name, schema := range inputSchemas(loadSpec(t, path)) {
			for _, p := range Profiles {
				before, err := p.Check(schema)
				if err != nil {
					t.Fatal(err)
				}
				out, err := p.Apply(schema)
				if err != nil {
					t.Fatalf("%s %s %s: %v", path, name, p.Name, err)
				}
				after, err := p.Check(out)
				if err != nil {
					t.Fatalf("%s %s %s: the result is no JSON: %v\n%s", path, name, p.Name, err, out)
				}
				var unfixed []ProfileFinding
				for _, f := range before {
					if !f.Fixable {
						unfixed = append(unfixed, f)
					}
				}
				for _, f := range after {
					if f.Fixable {
						t.Errorf("%s, tool %s, %s: still %s\n%s", path, name, p.Name, f, out)
					}
				}
				if !slices.Equal(uniq(ProfileRules(after)), uniq(ProfileRules(unfixed))) {
					t.Errorf("%s, tool %s, %s: the rules left are %q, before %q", path, name, p.Name, ProfileRules(after), ProfileRules(unfixed))
				}
				var v any
				if err := json.Unmarshal(out, &v); err != nil {
					t.Errorf("%s %s %s: %v", path, name, p.Name, err)
				}
			}
		}
	}
}

func uniq(s []string) []string { return slices.Compact(s) }

// The rewritten schemas of the test spec, per profile, are golden files:
// a change to a profile shows in review. go test ./internal/specschema -update
// rewrites them.
func TestProfileGolden(t *testing.T) {
	s := loadSpec(t, "testdata/profiles.yaml")
	schemas := inputSchemas(s)
	for _, p := range Profiles {
		var buf bytes.Buffer
		for _, tool := range s.Tools {
			out, err := p.Apply(schemas[tool.Name])
			if err != nil {
				t.Fatal(err)
			}
			var pretty bytes.Buffer
			json.Indent(&pretty, out, "", "  ")
			buf.WriteString("// " + tool.Name + "\n" + pretty.String() + "\n")
		}
		golden := filepath.Join("testdata", "profile."+p.Name+".golden")
		if *update {
			if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./internal/specschema -update)", err)
		}
		if !bytes.Equal(want, buf.Bytes()) {
			t.Errorf("%s: the rewritten schemas differ from %s (-update rewrites it):\n%s", p.Name, golden, buf.String())
		}
	}
}

// Profiles and spec.SchemaProfiles name the same profiles: the spec
// validates server.schemaProfile with the one, the generator applies the
// other.
func TestProfilesAreTheSpecs(t *testing.T) {
	var names []string
	for _, p := range Profiles {
		names = append(names, p.Name)
	}
	if !slices.Equal(names, spec.SchemaProfiles) {
		t.Errorf("Profiles %q, spec.SchemaProfiles %q", names, spec.SchemaProfiles)
	}
}
