package readme

import (
	"bufio"
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/spec"
)

// checkout is the repository root, seen from this package's directory.
const checkout = "../.."

// block is one fenced code block of a Markdown file.
type block struct {
	file  string            // relative to the checkout
	line  int               // of its opening fence
	lang  string            // the first word of the info string
	attrs map[string]string // key=value words after it
	text  string
}

func (b block) where() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// docFiles lists the Markdown files whose blocks are checked: README.md
// first, then CONTRIBUTING.md, then docs/ in name order.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md"}
	err := filepath.WalkDir(filepath.Join(checkout, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(checkout, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files[2:])
	if len(files) < 12 {
		t.Fatalf("found only %v: is docs/ there?", files)
	}
	return files
}

// readBlocks returns the fenced code blocks of a Markdown file.
func readBlocks(t *testing.T, file string) []block {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(checkout, file))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []block
	var cur *block
	indent := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			indent = line[:len(line)-len(trimmed)]
			words := strings.Fields(strings.TrimPrefix(trimmed, "```"))
			b := block{file: file, line: n, attrs: map[string]string{}}
			for i, w := range words {
				if i == 0 {
					b.lang = w
				} else {
					k, v, _ := strings.Cut(w, "=")
					b.attrs[k] = v // a bare word (excerpt) is a key with no value
				}
			}
			cur = &b
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += strings.TrimPrefix(line, indent) + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s: a code block is never closed", cur.where())
	}
	return blocks
}

// allBlocks reads the blocks of every documentation file, once per test.
func allBlocks(t *testing.T) []block {
	var blocks []block
	for _, f := range docFiles(t) {
		blocks = append(blocks, readBlocks(t, f)...)
	}
	return blocks
}

// TestEveryBlockIsChecked checks every block that no scenario runs, by its
// language, and every fragment against the file it belongs to.
func TestEveryBlockIsChecked(t *testing.T) {
	t.Parallel()
	blocks := allBlocks(t)
	files := map[string]string{} // scenario files
	scenarios := map[string]int{}
	for _, b := range blocks {
		if path, ok := b.attrs["file"]; ok {
			files[path] = b.text
		}
		if name, ok := b.attrs["test"]; ok {
			scenarios[name]++
		}
	}
	// The scenarios the README's quick starts promise.
	for _, want := range []string{"clone", "module"} {
		if scenarios[want] == 0 {
			t.Errorf("README.md has no blocks of the %q quick start (test=%s)", want, want)
		}
	}
	checked := 0
	for _, b := range blocks {
		if path, ok := b.attrs["fragment-of"]; ok {
			text, inScenario := files[path]
			if !inScenario {
				data, err := os.ReadFile(filepath.Join(checkout, path))
				if err != nil {
					t.Errorf("%s: fragment-of=%s: neither a scenario's file nor one of the repository: %v", b.where(), path, err)
					continue
				}
				text = string(data)
			}
			if piece, ok := fragmentOf(b.text, text); !ok {
				t.Errorf("%s: this fragment is not part of %s, so it is not tested; from\n%s", b.where(), path, piece)
			}
			checked++
			continue
		}
		if _, ok := b.attrs["test"]; ok {
			continue // TestScenariosBuilds runs it
		}
		if err := checkBlock(b); err != nil {
			t.Errorf("%s: a %q block that does not check: %v\n%s", b.where(), b.lang, err, b.text)
		}
		checked++
	}
	t.Logf("%d blocks checked here, the rest run in scenarios", checked)
}

// fragmentOf reports whether fragment is part of text: verbatim, but
// for lines that are only "…" or "...", which stand for lines left out.
// The pieces between them must appear in text in their order. It returns
// the first piece that does not.
func fragmentOf(fragment, text string) (missing string, ok bool) {
	var pieces []string
	var cur strings.Builder
	for _, line := range strings.SplitAfter(fragment, "\n") {
		if t := strings.TrimSpace(line); t == "…" || t == "..." {
			pieces = append(pieces, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteString(line)
	}
	pieces = append(pieces, cur.String())
	for _, piece := range pieces {
		i := strings.Index(text, piece)
		if i < 0 {
			return piece, false
		}
		text = text[i+len(piece):]
	}
	return "", true
}

// placeholder is how a block elides code it does not show: "…", or "..."
// where Go's "..." cannot be: not after an operand (as in f(xs...)) and
// not before a type (as in args ...any), so at the end of a line or
// before ",", ")" or "}". elide replaces it with a comment.
var placeholder = regexp.MustCompile(`(?m)…|(^|[^\w)\]}])\.\.\.(\s*$|\s*[,)}])`)

func elide(text string) string { return placeholder.ReplaceAllString(text, "$1/* … */$2") }

// checkBlock checks one block by its language.
func checkBlock(b block) error {
	switch b.lang {
	case "":
		return nil // shown output: what a command prints
	case "yaml":
		return checkYAML(b)
	case "go":
		return parseGo(b.text)
	case "sh":
		cmd := exec.Command("sh", "-n")
		cmd.Stdin = strings.NewReader(b.text)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("sh -n: %v: %s", err, out)
		}
		return nil
	case "nginx":
		if depth := strings.Count(b.text, "{") - strings.Count(b.text, "}"); depth != 0 {
			return fmt.Errorf("unbalanced braces (%+d)", depth)
		}
		return nil
	}
	return fmt.Errorf("no check for the language %q: add one here, or make it a scenario's block (test=NAME)", b.lang)
}

// specKeys are the top-level keys of a spec: a YAML block whose keys are
// all among them is part of a spec.
var specKeys = []string{"mcpgen", "server", "go", "types", "tools", "resources", "resourceTemplates",
	"prompts", "toolsets", "upstream", "lint", "registry"}

// checkYAML parses a YAML block and loads a spec or part of one: a whole
// spec (mcpgen: 1) as it is, a part of one in a minimal spec (its server
// keys added to the minimal server's). An excerpt (`yaml excerpt`: a part
// that names what the rest of its spec declares, or elides with …) is only
// parsed, and must not load on its own, so that the word marks only the
// blocks that need it.
func checkYAML(b block) error {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(b.text), &doc); err != nil {
		var v any
		if err2 := yaml.Unmarshal([]byte(b.text), &v); err2 != nil {
			return err2
		}
		return nil // YAML, not a mapping: not a spec
	}
	for k := range doc {
		if !slices.Contains(specKeys, k) {
			return nil // YAML of something else
		}
	}
	data, name := []byte(b.text), b.file
	if _, whole := doc["mcpgen"]; !whole {
		name = "the-spec-below.yaml" // its lines are those of data, not of the block
		full := map[string]any{"mcpgen": 1, "server": map[string]any{"name": "example", "version": "1.0.0"},
			"go": map[string]any{"package": "examplemcp"}}
		for k, v := range doc {
			if m, ok := v.(map[string]any); ok && k == "server" {
				maps.Copy(full["server"].(map[string]any), m)
				continue
			}
			full[k] = v
		}
		var err error
		if data, err = yaml.Marshal(full); err != nil {
			return err
		}
	}
	_, diags := spec.Load(name, data)
	_, excerpt := b.attrs["excerpt"]
	switch {
	case excerpt && len(diags) == 0:
		return fmt.Errorf("this excerpt loads as a spec: drop the word excerpt, so that it is checked")
	case !excerpt && len(diags) > 0:
		return fmt.Errorf("the spec does not load (mark a part of a larger spec `yaml excerpt`): %v\nas:\n%s", diags, data)
	}
	return nil
}

// parseGo accepts Go that parses as a file, as top-level declarations or
// as the statements of a function body, once "…" placeholders are
// comments.
func parseGo(text string) error {
	text = elide(text)
	var firstErr error
	for _, wrap := range []struct{ before, after string }{
		{"", ""},
		{"package p\n", ""},
		{"package p\nfunc _() {\n", "\n}\n"},
	} {
		_, err := parser.ParseFile(token.NewFileSet(), "block.go", wrap.before+text+wrap.after, parser.SkipObjectResolution)
		if err == nil {
			return nil
		}
		if firstErr == nil || wrap.before != "" {
			firstErr = err
		}
	}
	return firstErr
}

// script turns the blocks of one scenario into a shell script: commands as
// written, files written with a quoted here-document under $ROOT. A clone
// of mcpgen is already at $ROOT/mcpgen, so `git clone` of it is left out.
func script(blocks []block) string {
	var b strings.Builder
	b.WriteString("set -ex\n")
	for _, bl := range blocks {
		if path, ok := bl.attrs["file"]; ok {
			fmt.Fprintf(&b, "# %s\nmkdir -p \"$ROOT/%s\"\ncat > \"$ROOT/%s\" <<'MCPGEN_README_EOF'\n%sMCPGEN_README_EOF\n",
				bl.where(), filepath.Dir(path), path, bl.text)
			continue
		}
		fmt.Fprintf(&b, "# %s\n", bl.where())
		for _, line := range strings.SplitAfter(bl.text, "\n") {
			if strings.HasPrefix(line, "git clone https://github.com/mcpgen/mcpgen") {
				line = ": a copy of the checkout is already in ./mcpgen\n"
			}
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestScenariosBuilds runs each scenario of the documentation in one
// fresh directory that holds a copy of this checkout as ./mcpgen, as a user
// who cloned it would; the scenarios run in order in that directory, each
// in its own subdirectory of it as the docs say (orders, hello), so the
// copy's packages compile once for all of them. Servers started with
// `go run .` read stdin, which is empty, so they exit at once; a script
// fails on the first command that fails. `go install` installs into the
// directory's own bin, which is first on the scripts' PATH.
func TestScenariosBuilds(t *testing.T) {
	t.Parallel() // the scenarios take the longest; the other tests run beside them
	testenv.BuildsModules(t)
	root, err := filepath.Abs(checkout)
	if err != nil {
		t.Fatal(err)
	}
	scenarios := map[string][]block{}
	var order []string
	for _, b := range allBlocks(t) {
		if name, ok := b.attrs["test"]; ok {
			if _, seen := scenarios[name]; !seen {
				order = append(order, name)
			}
			scenarios[name] = append(scenarios[name], b)
		}
	}
	dir := scenarioDir(t)
	copyCheckout(t, root, filepath.Join(dir, "mcpgen"))
	bin := filepath.Join(dir, "bin")
	goflags := uncachedTests(t)
	for _, name := range order {
		t.Run(name, func(t *testing.T) {
			sh := script(scenarios[name])
			cmd := exec.Command("sh", "-c", sh)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "ROOT="+dir, "GOBIN="+bin, "GOFLAGS="+goflags,
				"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			cmd.Stdin = nil // empty: servers exit at once
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the %q scenario fails: %v\nscript:\n%s\noutput:\n%s", name, err, sh, out)
			}
		})
	}
}

// scenarioDir is the directory the scenarios run in: one of a few fixed
// directories, the first no other run holds (a lock), emptied first and
// afterwards. A package's directory is part of its build-cache key, so in
// a new directory each run (as t.TempDir is) the orders module compiled
// mcpgen's packages again every time (20 s of CPU, most of this test's
// cost); in a directory an earlier run used, from this checkout or another
// one (a fresh clone), only what changed since compiles. When all are
// held, a temporary directory does.
func scenarioDir(t *testing.T) string {
	t.Helper()
	for slot := range 4 {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("mcpgen-readme-scenarios-%d", slot))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			continue
		}
		unlock, ok := lockDir(dir + ".lock")
		if !ok {
			continue
		}
		empty := func() {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
					t.Errorf("emptying %s: %v", dir, err)
				}
			}
		}
		empty()
		t.Cleanup(func() {
			empty()
			unlock()
		})
		return dir
	}
	t.Log("every shared scenario directory is in use: running in a temporary one, compiled afresh")
	return t.TempDir()
}

// uncachedTests is the user's GOFLAGS (from the environment or go env)
// with -count=1: in the same directory as the last run, a scenario's
// `go test` would otherwise report the last run's result, cached, for an
// unchanged module; its tests run every time, as a user's would the first
// time. (The go command applies -count to go test only.)
func uncachedTests(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOFLAGS").Output()
	if err != nil {
		t.Fatalf("go env GOFLAGS: %v", err)
	}
	return strings.TrimSpace(strings.TrimSpace(string(out)) + " -count=1")
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
