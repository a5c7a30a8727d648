package spec

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// badGolden are the negative golden cases that belong to the loader: each
// golden/<case>/mcpgen.yaml must give exactly golden/<case>/diagnostics.txt.
// (package gen runs every golden case too; these are checked here so that a
// change in spec/ fails in spec/'s own tests.)
var badGolden = []string{
	"bad_unknown_keys", "bad_duplicates", "bad_refs", "bad_constraints",
	"bad_defaults", "bad_recursion", "bad_syntax", "bad_indent_deeper", "bad_indent_shallower", "bad_kinds",
	"bad_resources", "bad_templates", "bad_prompts", "bad_rate_limit",
}

func TestBadGolden(t *testing.T) {
	for _, name := range badGolden {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "golden", name)
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
}
