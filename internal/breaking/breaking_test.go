package breaking

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/internal/findings"
	"github.com/mcpgen/mcpgen/spec"
)

var update = flag.Bool("update", false, "rewrite testdata/diff/*/want.txt")

func loadCase(t *testing.T, dir, name string) *spec.Spec {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	s, diags := spec.Load(name, data)
	if len(diags) > 0 {
		t.Fatalf("%s/%s does not load:\n%s", dir, name, diags.Error())
	}
	return s
}

// TestDiffGolden walks testdata/diff/<case>/{old.yaml,new.yaml,want.txt}:
// want.txt is the text report at the GO level (which includes WIRE). A
// case named after a rule must report that rule; _compatible must report
// nothing. `go test ./internal/breaking -update` rewrites want.txt.
func TestDiffGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/diff/*")
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			fs := Compare(loadCase(t, dir, "old.yaml"), loadCase(t, dir, "new.yaml"), Go)
			var buf bytes.Buffer
			findings.WriteText(&buf, fs)
			got := buf.String()
			wantPath := filepath.Join(dir, "want.txt")
			if *update {
				if err := os.WriteFile(wantPath, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/breaking -update)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
			for _, f := range fs {
				covered[f.Rule] = true
			}
			switch {
			case name == "_compatible" && len(fs) > 0:
				t.Errorf("a compatible change is reported:\n%s", got)
			case name != "_compatible" && !strings.Contains(got, ": "+name+": "):
				t.Errorf("the case of rule %s does not report it:\n%s", name, got)
			}
		})
	}
	for _, r := range Rules {
		if _, err := os.Stat(filepath.Join("testdata/diff", r.ID)); err != nil {
			t.Errorf("rule %s has no case testdata/diff/%s", r.ID, r.ID)
		}
	}
}

// TestWireLevelLeavesGoOut: at the WIRE level, a change only handler code
// sees is not reported.
func TestWireLevelLeavesGoOut(t *testing.T) {
	dir := "testdata/diff/GO_FIELD_SAME_TYPE"
	old, new := loadCase(t, dir, "old.yaml"), loadCase(t, dir, "new.yaml")
	if fs := Compare(old, new, Wire); len(fs) != 0 {
		t.Errorf("wire level reports %v", fs)
	}
	if fs := Compare(old, new, Go); len(fs) == 0 {
		t.Errorf("go level reports nothing")
	}
}

// TestGoGivesWayToWire: a deleted input property is reported once, by
// its WIRE rule, not again as a deleted Go field.
func TestGoGivesWayToWire(t *testing.T) {
	dir := "testdata/diff/TOOL_INPUT_PROPERTY_NO_DELETE"
	for _, f := range Compare(loadCase(t, dir, "old.yaml"), loadCase(t, dir, "new.yaml"), Go) {
		if f.Rule == "GO_FIELD_NO_DELETE" {
			t.Errorf("repeated at the GO level: %s", f)
		}
	}
}

func TestSameSpecReportsNothing(t *testing.T) {
	paths, _ := filepath.Glob("../../examples/*/mcpgen.yaml")
	for _, p := range paths {
		s := loadCase(t, filepath.Dir(p), "mcpgen.yaml")
		if fs := Compare(s, s, Go); len(fs) != 0 {
			t.Errorf("%s against itself: %v", p, fs)
		}
	}
}

func TestParseLevel(t *testing.T) {
	for in, want := range map[string]Level{"wire": Wire, "go": Go, "": Go} {
		if got, err := ParseLevel(in); err != nil || got != want {
			t.Errorf("ParseLevel(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseLevel("file"); err == nil {
		t.Error("ParseLevel(file) accepted")
	}
}

// TestReadmeDocumentsRules: each rule has a row in the table of
// docs/cli.md.
func TestReadmeDocumentsRules(t *testing.T) {
	data, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules {
		if !bytes.Contains(data, []byte("| `"+r.ID+"` | "+r.Level.String()+" |")) {
			t.Errorf("docs/cli.md has no row for rule %s (%s)", r.ID, r.Level)
		}
	}
}

// TestRecursiveTypes: a change inside a recursive type is reported once,
// and the walk ends.
func TestRecursiveTypes(t *testing.T) {
	const head = "mcpgen: 1\nserver: {name: s, version: 1.0.0}\ngo: {package: smcp}\n"
	load := func(src string) *spec.Spec {
		s, diags := spec.Load("x.yaml", []byte(head+src))
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		return s
	}
	old := load(`types:
  Node:
    properties:
      name: {type: string}
      children: {type: array, items: {$ref: Node}}
      parent: {$ref: Node, nullable: true}
    required: [name]
tools:
  walk:
    description: Walk a tree.
    input: {properties: {root: {$ref: Node}}, required: [root]}
`)
	new := load(`types:
  Node:
    properties:
      name: {type: string, maxLength: 10}
      children: {type: array, items: {$ref: Node}}
    required: [name]
tools:
  walk:
    description: Walk a tree.
    input: {properties: {root: {$ref: Node}}, required: [root]}
`)
	var got []string
	for _, f := range Compare(old, new, Go) {
		got = append(got, f.Rule+" "+f.Message)
	}
	want := []string{
		`TOOL_INPUT_PROPERTY_NO_DELETE input property "root.parent" of tool "walk" was deleted; clients that send it are refused (removed; was at x.yaml:9:7)`,
		`BOUND_NO_TIGHTEN input property "root.name" of tool "walk": maxLength 10 added`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestAllPairs compares every pair of golden cases and examples: unrelated
// specs must give findings without a panic.
func TestAllPairs(t *testing.T) {
	var specs []*spec.Spec
	for _, pattern := range []string{"../../golden/*/mcpgen.yaml", "../../examples/*/mcpgen.yaml"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			data, _ := os.ReadFile(p)
			if s, diags := spec.Load(p, data); len(diags) == 0 {
				specs = append(specs, s)
			}
		}
	}
	for _, a := range specs {
		for _, b := range specs {
			Compare(a, b, Go)
		}
	}
}
