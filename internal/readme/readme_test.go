package readme

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// block is one fenced code block of the README.
type block struct {
	line  int               // of its opening fence
	lang  string            // the first word of the info string
	attrs map[string]string // key=value words after it
	text  string
}

// readBlocks returns the fenced code blocks of a Markdown file.
func readBlocks(t *testing.T, path string) []block {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []block
	var cur *block
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			words := strings.Fields(strings.TrimPrefix(line, "```"))
			b := block{line: n, attrs: map[string]string{}}
			for i, w := range words {
				if i == 0 {
					b.lang = w
				} else if k, v, ok := strings.Cut(w, "="); ok {
					b.attrs[k] = v
				}
			}
			cur = &b
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: a code block is never closed", path, cur.line)
	}
	return blocks
}

// script turns the blocks of one scenario into a shell script: commands as
// written, files written with a quoted here-document under $ROOT. A clone
// of mcpgen is already at $ROOT/mcpgen, so `git clone` of it is left out.
func script(blocks []block) string {
	var b strings.Builder
	b.WriteString("set -ex\n")
	for _, bl := range blocks {
		if path, ok := bl.attrs["file"]; ok {
			fmt.Fprintf(&b, "# README.md:%d\nmkdir -p \"$ROOT/%s\"\ncat > \"$ROOT/%s\" <<'MCPGEN_README_EOF'\n%sMCPGEN_README_EOF\n",
				bl.line, filepath.Dir(path), path, bl.text)
			continue
		}
		fmt.Fprintf(&b, "# README.md:%d\n", bl.line)
		for _, line := range strings.SplitAfter(bl.text, "\n") {
			if strings.HasPrefix(line, "git clone https://github.com/mcpgen/mcpgen") {
				line = ": a copy of the checkout is already in ./mcpgen\n"
			}
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestQuickStartsBuilds runs each scenario of README.md in a fresh directory that
// holds a copy of this checkout as ./mcpgen, as a user who cloned it
// would. Servers started with `go run .` read stdin, which is empty, so
// they exit at once; the script fails on the first command that fails.
func TestQuickStartsBuilds(t *testing.T) {
	testenv.BuildsModules(t)
	checkout, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	blocks := readBlocks(t, filepath.Join(checkout, "README.md"))

	scenarios := map[string][]block{}
	var order []string
	files := map[string]string{}
	for _, b := range blocks {
		if name, ok := b.attrs["test"]; ok {
			if _, seen := scenarios[name]; !seen {
				order = append(order, name)
			}
			scenarios[name] = append(scenarios[name], b)
		}
		if path, ok := b.attrs["file"]; ok {
			files[path] = b.text
		}
	}
	// The scenarios the README's quick starts promise.
	for _, want := range []string{"clone", "module"} {
		if len(scenarios[want]) == 0 {
			t.Errorf("README.md has no blocks of the %q quick start (test=%s)", want, want)
		}
	}
	// A fragment shown on its own must be the code the scenario runs.
	for _, b := range blocks {
		if path, ok := b.attrs["fragment-of"]; ok && !strings.Contains(files[path], b.text) {
			t.Errorf("README.md:%d: this fragment is not part of the block for %s, so it is not tested", b.line, path)
		}
	}

	for _, name := range order {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			copyCheckout(t, checkout, filepath.Join(root, "mcpgen"))
			sh := script(scenarios[name])
			cmd := exec.Command("sh", "-c", sh)
			cmd.Dir = root
			// -trimpath keeps the copy's directory out of the build
			// cache's keys, so its packages compile once, not per copy.
			cmd.Env = append(os.Environ(), "ROOT="+root, "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -trimpath"))
			cmd.Stdin = nil // empty: servers exit at once
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the %q quick start fails: %v\nscript:\n%s\noutput:\n%s", name, err, sh, out)
			}
		})
	}
}

// copyCheckout copies the main module's files (its working tree, edits
// included; no .git, no other modules' dependencies) to dst.
func copyCheckout(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
