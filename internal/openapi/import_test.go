package openapi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

// importChecked imports a description and requires what the issue asks of
// every import: the spec loads without a finding, generates, and every tool
// name is unique and at most 64 characters.
func importChecked(t *testing.T, path string, opts Options) (*Result, *spec.Spec) {
	t.Helper()
	return importCheckedGen(t, path, opts, true)
}

// importCheckedGen is importChecked, generating only when generate is set.
func importCheckedGen(t *testing.T, path string, opts Options, generate bool) (*Result, *spec.Spec) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Import(data, opts)
	if err != nil {
		t.Fatalf("import %s: %v", path, err)
	}
	s := checkSpecGen(t, filepath.Base(path), res.YAML, generate)
	seen := map[string]bool{}
	for _, tool := range s.Tools {
		if len(tool.Name) > maxToolName {
			t.Errorf("tool name %q has %d characters", tool.Name, len(tool.Name))
		}
		if seen[tool.Name] {
			t.Errorf("tool name %q twice", tool.Name)
		}
		seen[tool.Name] = true
	}
	return res, s
}

// checkSpec loads and generates an imported spec, as mcpgen check would.
func checkSpec(t *testing.T, name string, data []byte) *spec.Spec {
	t.Helper()
	return checkSpecGen(t, name, data, true)
}

func checkSpecGen(t *testing.T, name string, data []byte, generate bool) *spec.Spec {
	t.Helper()
	s, diags := spec.Load(name+".mcpgen.yaml", data)
	if len(diags) > 0 {
		lines := strings.Split(string(data), "\n")
		for i, d := range diags {
			if i == 20 {
				t.Errorf("… and %d more", len(diags)-20)
				break
			}
			line := ""
			if d.Pos.Line > 0 && d.Pos.Line <= len(lines) {
				line = lines[d.Pos.Line-1]
			}
			t.Errorf("%s\n    %s", d, line)
		}
		t.FailNow()
	}
	if !generate {
		return s
	}
	if _, err := gen.Generate(s, gen.Options{}); err != nil {
		t.Fatalf("generate: %v", err)
	}
	return s
}

func TestPetstore(t *testing.T) {
	for _, file := range []string{"petstore-3.0.json", "petstore-3.1.json"} {
		t.Run(file, func(t *testing.T) {
			res, s := importChecked(t, filepath.Join("testdata", file), Options{})
			if len(s.Tools) != res.Operations {
				t.Errorf("%d tools from %d operations", len(s.Tools), res.Operations)
			}
			os.WriteFile("/tmp/"+file+".yaml", res.YAML, 0o644)
			for _, n := range res.Notes {
				t.Log(n)
			}
		})
	}
}

// TestCircular: references that loop (a tree, two types holding each
// other, a filter of filters) import as recursive types; the loops held by
// value get one nullable reference each, and the spec builds.
func TestCircular(t *testing.T) {
	for _, file := range []string{"circular-3.1.yaml", "circular-3.0.json"} {
		t.Run(file, func(t *testing.T) {
			res, _ := importChecked(t, filepath.Join("testdata", file), Options{})
			for _, n := range res.Notes {
				t.Log(n)
			}
		})
	}
}
