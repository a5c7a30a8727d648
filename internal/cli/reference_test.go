package cli

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite docs/reference/cli.md")

const referencePath = "../../docs/reference/cli.md"

// TestReference: the committed CLI reference is what Reference renders.
// `go test ./internal/cli -run TestReference -update` rewrites it.
func TestReference(t *testing.T) {
	got := Reference()
	if *update {
		if err := os.WriteFile(referencePath, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/reference/cli.md is stale (go test ./internal/cli -run TestReference -update); -committed +now:\n%s", cmp.Diff(string(want), string(got)))
	}
}

// TestHelpNamesEveryFlag: each command's help text mentions every flag its
// flag set parses, so the hand-written help cannot leave one out.
func TestHelpNamesEveryFlag(t *testing.T) {
	for _, cmd := range referenceCommands {
		help, fs := commandHelp(cmd)
		if !strings.HasPrefix(help, "usage: mcpgen ") {
			t.Errorf("mcpgen %s -h prints no usage line:\n%s", strings.Join(cmd, " "), help)
		}
		if fs == nil {
			continue
		}
		fs.VisitAll(func(f *flag.Flag) {
			if !strings.Contains(help, "-"+f.Name) {
				t.Errorf("mcpgen %s -h does not mention its flag -%s", strings.Join(cmd, " "), f.Name)
			}
		})
	}
}
