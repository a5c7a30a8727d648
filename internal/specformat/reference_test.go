package specformat

import (
	"flag"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/spec"
)

var update = flag.Bool("update", false, "rewrite docs/reference/spec.md")

const referencePath = "../../docs/reference/spec.md"

// TestReference: the committed spec reference is what Reference renders
// from the grammar. `go test ./internal/specformat -run TestReference
// -update` rewrites it.
func TestReference(t *testing.T) {
	testenv.CheckCurrent(t, referencePath, Reference(), *update, "go test ./internal/specformat -run TestReference -update")
}

// TestReferenceHasEveryKey: every key of every grammar table has its row,
// in its mapping's section.
func TestReferenceHasEveryKey(t *testing.T) {
	page := string(Reference())
	for _, m := range spec.FormatMappings() {
		title := m.Name
		if title == "" {
			title = "The document"
		}
		_, section, ok := strings.Cut(page, "\n## "+title+"\n")
		if !ok {
			t.Errorf("no section %q", title)
			continue
		}
		section, _, _ = strings.Cut(section, "\n## ")
		for _, k := range m.Keys {
			if !strings.Contains(section, "| `"+k.Name+"` |") {
				t.Errorf("section %q has no row for key %s", title, k.Name)
			}
		}
	}
}
