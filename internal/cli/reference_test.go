package cli

import (
	"flag"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite docs/reference/cli.md")

const referencePath = "../../docs/reference/cli.md"

// TestReference: the committed CLI reference is what Reference renders.
// `go test ./internal/cli -run TestReference -update` rewrites it.
func TestReference(t *testing.T) {
	testenv.CheckCurrent(t, referencePath, Reference(), *update, "go test ./internal/cli -run TestReference -update")
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
