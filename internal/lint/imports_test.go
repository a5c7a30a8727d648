package lint

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLintDoesNotImportRuntime: lint reads specs; what it needs to know of
// the server (the search tools it counts) comes from internal/contract, so
// that linting a spec never builds the server runtime.
func TestLintDoesNotImportRuntime(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/mcpgen/mcpgen/runtime" || strings.HasPrefix(dep, "github.com/mcpgen/mcpgen/runtime/") {
			t.Errorf("internal/lint depends on %s", dep)
		}
	}
}
