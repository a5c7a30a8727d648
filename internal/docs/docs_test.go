package docs_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/internal/docs"
	"github.com/mcpgen/mcpgen/spec"
)

var update = flag.Bool("update", false, "rewrite docs.md beside each golden case and example")

// TestGolden renders every spec the loader accepts (golden cases without
// diagnostics.txt, and the examples) and compares it with the docs.md beside
// it. `go test ./internal/docs -update` rewrites them.
func TestGolden(t *testing.T) {
	var specs []string
	for _, pattern := range []string{"../../golden/*/mcpgen.yaml", "../../examples/*/mcpgen.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, m...)
	}
	checked := 0
	for _, path := range specs {
		dir := filepath.Dir(path)
		if _, err := os.Stat(filepath.Join(dir, "diagnostics.txt")); err == nil {
			continue
		}
		checked++
		t.Run(strings.TrimPrefix(filepath.ToSlash(dir), "../../"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, diags := spec.Load("mcpgen.yaml", data)
			if len(diags) > 0 {
				t.Fatalf("the spec has findings:\n%v", diags)
			}
			got := docs.Markdown(s)
			if again := docs.Markdown(s); string(again) != string(got) {
				t.Error("a second rendering differs")
			}
			want := filepath.Join(dir, "docs.md")
			if *update {
				if err := os.WriteFile(want, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			wantData, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/docs -update)", err)
			}
			if diff := cmp.Diff(string(wantData), string(got)); diff != "" {
				t.Errorf("%s differs (-want +got); run go test ./internal/docs -update:\n%s", want, diff)
			}
		})
	}
	if checked < 10 {
		t.Fatalf("only %d specs checked", checked)
	}
}
