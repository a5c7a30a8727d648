package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateClient: go: {client: true} writes the typed client package
// beside the server package, importing it by the module's path; check
// notices when it is stale.
func TestGenerateClient(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.24\n"), 0o644)
	spec := strings.Replace(goodSpec, "go: {package: demomcp, output: demomcp}", "go: {package: demomcp, output: demomcp, client: true}", 1)
	os.WriteFile(filepath.Join(dir, "mcpgen.yaml"), []byte(spec), 0o644)
	if code, _, stderr := run(t, dir, "generate"); code != ExitOK {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	path := filepath.Join(dir, "demomcpclient", "client_mcpgen.go")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"package demomcpclient", `"example.com/m/demomcp"`, "func (c *Client) Hello(ctx context.Context, in *demomcp.HelloInput)"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the client lacks %q:\n%s", want, data)
		}
	}
	if code, _, stderr := run(t, dir, "check"); code != ExitOK {
		t.Errorf("check after generate: exit %d: %s", code, stderr)
	}
	os.WriteFile(path, append(data, []byte("// edited\n")...), 0o644)
	if code, _, stderr := run(t, dir, "check"); code != ExitFindings || !strings.Contains(stderr, "out of date") {
		t.Errorf("check with an edited client: exit %d, want %d: %s", code, ExitFindings, stderr)
	}

	// Without a go.mod, the server package has no import path to give.
	bare := writeSpec(t, spec)
	if code, _, stderr := run(t, bare, "generate"); code == ExitOK || !strings.Contains(stderr, "no go.mod") {
		t.Errorf("generate a client outside a module: exit %d: %s", code, stderr)
	}
}
