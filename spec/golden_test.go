package spec

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBadGolden loads every negative golden case, golden/bad_*/mcpgen.yaml,
// and compares its diagnostics with golden/<case>/diagnostics.txt. Package
// gen runs every golden case too; these run here so that a change in spec/
// fails in spec/'s own tests. The cases are found by name, so a new bad_*
// case is covered without editing a list; only the cases whose findings
// come from gen are left out, named in genFindings.
func TestBadGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "golden", "bad_*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden/bad_* cases found (%v)", err)
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		if genFindings[name] != "" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "mcpgen.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "diagnostics.txt"))
			if err != nil {
				t.Fatal(err)
			}
			_, diags := Load("mcpgen.yaml", data)
			var got string
			for _, d := range diags {
				got += d.String() + "\n"
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
	for name := range genFindings {
		if _, err := os.Stat(filepath.Join("..", "golden", name)); err != nil {
			t.Errorf("genFindings names %s, which is no golden case: %v", name, err)
		}
	}
}

// genFindings are the negative golden cases whose findings package gen
// reports, not the loader, and why.
var genFindings = map[string]string{
	"bad_go_names":       "Go names are planned by gen",
	"bad_apps_html":      "a view's HTML file is read when generating",
	"bad_upstream_names": "the names of the upstream file are planned by gen",
}
