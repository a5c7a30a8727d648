package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppViewHTMLCopy: the HTML of an MCP App view, next to the spec, is
// copied into the generated package (for //go:embed), checked like the Go
// files, and removed when the spec stops naming it.
func TestAppViewHTMLCopy(t *testing.T) {
	dir := t.TempDir()
	withView := goodSpec + "resources:\n  view:\n    uri: ui://demo/view\n    description: The demo view.\n    ui: {html: view.html}\n"
	os.WriteFile(filepath.Join(dir, "mcpgen.yaml"), []byte(withView), 0o644)
	os.WriteFile(filepath.Join(dir, "view.html"), []byte("<!doctype html><title>v1</title>\n"), 0o644)
	if code, _, stderr := run(t, dir, "generate"); code != ExitOK {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	copyPath := filepath.Join(dir, "demomcp", "ui_view_mcpgen.html")
	if b, err := os.ReadFile(copyPath); err != nil || string(b) != "<!doctype html><title>v1</title>\n" {
		t.Fatalf("copy: %q %v", b, err)
	}
	if code, _, stderr := run(t, dir, "check"); code != ExitOK {
		t.Errorf("check right after generate: exit %d: %s", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "view.html"), []byte("<!doctype html><title>v2</title>\n"), 0o644)
	if code, stdout, _ := run(t, dir, "check"); code == ExitOK || !strings.Contains(stdout, "v2") {
		t.Errorf("check after the HTML changed: exit %d\n%s", code, stdout)
	}
	os.WriteFile(filepath.Join(dir, "mcpgen.yaml"), []byte(goodSpec), 0o644)
	if code, _, stderr := run(t, dir, "generate"); code != ExitOK || !strings.Contains(stderr, "removed") {
		t.Errorf("generate without the view: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(copyPath); !os.IsNotExist(err) {
		t.Errorf("the copy of a view the spec dropped is still there: %v", err)
	}
}
