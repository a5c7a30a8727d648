package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/specformat"
)

// TestHelp: -h, -help and --help on every command print a usage with an
// example to stdout and exit 0; so does `help <command>`.
func TestHelp(t *testing.T) {
	dir := t.TempDir()
	for _, cmd := range []string{"generate", "check", "init", "docs", "schema", "lint", "diff", "config", "registry", "version"} {
		for _, flag := range []string{"-h", "-help", "--help"} {
			code, stdout, stderr := run(t, dir, cmd, flag)
			if code != ExitOK || !strings.HasPrefix(stdout, "usage: mcpgen "+cmd) || !strings.Contains(stdout, "Example") || stderr != "" {
				t.Errorf("mcpgen %s %s: exit %d\nstdout:\n%s\nstderr:\n%s", cmd, flag, code, stdout, stderr)
			}
		}
		if code, stdout, _ := run(t, dir, "help", cmd); code != ExitOK || !strings.HasPrefix(stdout, "usage: mcpgen "+cmd) {
			t.Errorf("mcpgen help %s: exit %d\n%s", cmd, code, stdout)
		}
	}
	if code, stdout, _ := run(t, dir, "help"); code != ExitOK || !strings.Contains(stdout, "mcpgen init") || !strings.Contains(stdout, "mcpgen docs") {
		t.Errorf("mcpgen help: exit %d\n%s", code, stdout)
	}
	if code, _, _ := run(t, dir, "help", "frobnicate"); code == ExitOK {
		t.Error("help for an unknown command succeeded")
	}
	// A bad flag is a usage error that points at the command's help.
	if code, _, stderr := run(t, dir, "docs", "-x"); code != ExitUsage || !strings.Contains(stderr, "mcpgen docs -h") {
		t.Errorf("docs -x: exit %d: %s", code, stderr)
	}
}

// TestDiscoveryUpward: without -f the spec is found in the current
// directory or a parent up to the module root, and the generated files go
// beside it.
func TestDiscoveryUpward(t *testing.T) {
	mod := t.TempDir()
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/m\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "mcpgen.yaml"), []byte(goodSpec), 0o644)
	deep := filepath.Join(mod, "a", "b")
	os.MkdirAll(deep, 0o755)
	if code, _, stderr := run(t, deep, "generate"); code != ExitOK {
		t.Fatalf("generate from a subdirectory: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(mod, "demomcp", "types_mcpgen.go")); err != nil {
		t.Errorf("not generated beside the spec: %v", err)
	}
	if code, _, stderr := run(t, deep, "check"); code != ExitOK {
		t.Errorf("check from a subdirectory: exit %d: %s", code, stderr)
	}
	// The nearest spec wins.
	os.WriteFile(filepath.Join(mod, "a", "mcpgen.yml"), []byte(strings.Replace(goodSpec, "demomcp", "nearmcp", 2)), 0o644)
	if code, _, stderr := run(t, deep, "generate"); code != ExitOK {
		t.Fatalf("generate: %s", stderr)
	}
	if _, err := os.Stat(filepath.Join(mod, "a", "nearmcp", "types_mcpgen.go")); err != nil {
		t.Errorf("the nearest spec was not used: %v", err)
	}
	// Two candidates in one directory.
	os.WriteFile(filepath.Join(mod, "a", "mcpgen.yaml"), []byte(goodSpec), 0o644)
	if code, _, stderr := run(t, deep, "generate"); code != ExitUsage || !strings.Contains(stderr, "both mcpgen.yaml and mcpgen.yml") {
		t.Errorf("two candidates: exit %d: %s", code, stderr)
	}
	// The search stops at the module root: a spec above it is not found.
	outer := t.TempDir()
	os.WriteFile(filepath.Join(outer, "mcpgen.yaml"), []byte(goodSpec), 0o644)
	inner := filepath.Join(outer, "inner")
	os.MkdirAll(inner, 0o755)
	os.WriteFile(filepath.Join(inner, "go.mod"), []byte("module example.com/inner\n"), 0o644)
	if code, _, stderr := run(t, inner, "generate"); code != ExitUsage || !strings.Contains(stderr, "no mcpgen.yaml") {
		t.Errorf("a spec above the module root was used: exit %d: %s", code, stderr)
	}
	// Without a go.mod above, only the current directory is searched.
	loose := filepath.Join(outer, "loose")
	os.MkdirAll(loose, 0o755)
	if code, _, _ := run(t, loose, "generate"); code != ExitUsage {
		t.Errorf("a spec in a parent was used outside any module: exit %d", code)
	}
}

func TestSchemaCommand(t *testing.T) {
	code, stdout, stderr := run(t, t.TempDir(), "schema")
	want, _ := specformat.JSONSchema()
	if code != ExitOK || stdout != string(want) {
		t.Errorf("schema: exit %d, %d bytes (want %d)\n%s", code, len(stdout), len(want), stderr)
	}
	if code, _, _ := run(t, t.TempDir(), "schema", "extra"); code != ExitUsage {
		t.Errorf("schema extra: exit %d", code)
	}
}

func TestDocsCommand(t *testing.T) {
	dir := writeSpec(t, goodSpec)
	code, stdout, stderr := run(t, dir, "docs")
	if code != ExitOK || !strings.Contains(stdout, "### `hello`") || !strings.Contains(stdout, "| `name` | `string` | yes |") {
		t.Fatalf("docs: exit %d\n%s%s", code, stdout, stderr)
	}
	out := filepath.Join(dir, "docs.md")
	if code, printed, stderr := run(t, dir, "docs", "-o", out); code != ExitOK || printed != "" {
		t.Fatalf("docs -o: exit %d\n%s%s", code, printed, stderr)
	}
	if data, _ := os.ReadFile(out); string(data) != stdout {
		t.Errorf("docs -o wrote something else than docs prints")
	}
	bad := writeSpec(t, strings.Replace(goodSpec, "description: Says hello.", "descripton: Says hello.", 1))
	if code, _, stderr := run(t, bad, "docs"); code != ExitFindings || !strings.Contains(stderr, "mcpgen.yaml:6:5") {
		t.Errorf("docs of a bad spec: exit %d: %s", code, stderr)
	}
}
