package interop

// The server a new user has first: what `mcpgen init` scaffolds (a module
// with mcpgen.yaml, handlers.go and main.go, one tool: greet), generated
// into a temporary directory with a replace pointing to this checkout and
// built once per test binary. The client tests serve it as the case
// "init" (scaffoldCase), as they serve an example's binary.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// scaffoldCase is the name the init scaffold goes by among the client
// cases (and as the MCP server's name in the clients' configs).
const scaffoldCase = "init"

var scaffold struct {
	once sync.Once
	tmp  string // removed by removeScaffold
	dir  string // the scaffold's module
	bin  string
	err  error
}

// scaffoldBin returns the path of the init scaffold's built server,
// running mcpgen init and go build on first use.
func scaffoldBin(t *testing.T) string {
	t.Helper()
	scaffold.once.Do(func() { scaffold.err = buildScaffold() })
	if scaffold.err != nil {
		t.Fatal(scaffold.err)
	}
	return scaffold.bin
}

// scaffoldSpec is the path of the scaffold's mcpgen.yaml (for mcpgen config).
func scaffoldSpec(t *testing.T) string {
	scaffoldBin(t)
	return filepath.Join(scaffold.dir, "mcpgen.yaml")
}

func buildScaffold() error {
	tmp, err := os.MkdirTemp("", "mcpgen-interop-init-")
	if err != nil {
		return err
	}
	scaffold.tmp = tmp
	root := repoRoot()
	dir := filepath.Join(tmp, "hello")
	initCmd := exec.Command("go", "run", "./cmd/mcpgen", "init", dir, "-module", "example.com/hello", "-name", "hello", "-replace", root)
	initCmd.Dir = root
	if out, err := initCmd.CombinedOutput(); err != nil {
		return fmt.Errorf("mcpgen init: %v\n%s", err, out)
	}
	bin := filepath.Join(tmp, "hello-server")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build in the init scaffold: %v\n%s", err, out)
	}
	scaffold.dir, scaffold.bin = dir, bin
	return nil
}

func removeScaffold() {
	if scaffold.tmp != "" {
		os.RemoveAll(scaffold.tmp)
	}
}
