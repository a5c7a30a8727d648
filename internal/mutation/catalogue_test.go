package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the module root, seen from this package's directory.
const root = "../.."

// TestCatalogue keeps the catalogue current as code moves: each mutant's
// snippet occurs exactly once in its file, the mutated file still parses,
// and its test packages exist. It runs in CI (it plants nothing).
func TestCatalogue(t *testing.T) {
	if len(Catalogue) < 60 {
		t.Errorf("%d mutants, want at least 60", len(Catalogue))
	}
	ids := map[string]bool{}
	tests := testFuncs{}
	for _, m := range Catalogue {
		if ids[m.ID] {
			t.Errorf("two mutants are named %s", m.ID)
		}
		ids[m.ID] = true
		if m.Original == m.Mutated || m.Why == "" || len(m.Packages) == 0 {
			t.Errorf("%s: needs an Original unlike its Mutated, a Why and test Packages", m.ID)
		}
		src, err := os.ReadFile(filepath.Join(root, m.File))
		if err != nil {
			t.Errorf("%s: %v", m.ID, err)
			continue
		}
		mutated, err := apply(src, m)
		if err != nil {
			t.Errorf("%s: %v", m.ID, err)
			continue
		}
		if _, err := parser.ParseFile(token.NewFileSet(), m.File, mutated, parser.SkipObjectResolution); err != nil {
			t.Errorf("%s: the mutated file does not parse: %v", m.ID, err)
		}
		for _, p := range m.Packages {
			if _, err := os.Stat(filepath.Join(root, p)); err != nil || !strings.HasPrefix(p, "./") {
				t.Errorf("%s: test package %q: want ./dir of this module (%v)", m.ID, p, err)
			}
		}
		// A named test that is gone would send every run to the slow path
		// without a word: each must be a top-level test of Packages.
		for _, name := range m.KilledBy {
			found := false
			for _, p := range m.Packages {
				found = found || tests.in(t, p)[name]
			}
			if !found {
				t.Errorf("%s: KilledBy %q: no func %s( in the _test.go files of %v", m.ID, name, name, m.Packages)
			}
		}
	}
}

// testFuncs caches the top-level Test and Fuzz functions (go test -run
// runs a fuzz target on its seed corpus) of each package dir.
type testFuncs map[string]map[string]bool

var testFunc = regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)\w+)\(`)

// in returns the names of the Test and Fuzz functions declared in dir's _test.go files.
func (c testFuncs) in(t *testing.T, dir string) map[string]bool {
	if names, ok := c[dir]; ok {
		return names
	}
	names := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(root, dir, "*_test.go"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range testFunc.FindAllSubmatch(src, -1) {
			names[string(m[1])] = true
		}
	}
	c[dir] = names
	return names
}

// TestCatalogueCoversPackages: every package with production code has
// mutants, so that none is left out as packages are added.
func TestCatalogueCoversPackages(t *testing.T) {
	covered := map[string]int{}
	for _, m := range Catalogue {
		covered[filepath.Dir(m.File)]++
	}
	for _, dir := range []string{
		"spec", "gen", "runtime", "runtime/jwtauth", "runtime/genimpl",
		"runtime/internal/jsonwire", "runtime/internal/uritemplate", "runtime/internal/safetext",
		"runtime/internal/validate", "runtime/internal/oauth",
		"internal/cli", "internal/lint", "internal/breaking", "internal/docs",
		"internal/clientconfig", "internal/specschema",
	} {
		if covered[dir] == 0 {
			t.Errorf("no mutant in %s", dir)
		}
	}
}

func TestSelectMutants(t *testing.T) {
	got, err := selectMutants(Catalogue, "^cli/")
	if err != nil || len(got) == 0 {
		t.Fatalf("-run ^cli/: %d mutants, %v", len(got), err)
	}
	for _, m := range got {
		if !strings.HasPrefix(m.ID, "cli/") {
			t.Errorf("-run ^cli/ selected %s", m.ID)
		}
	}
	if _, err := selectMutants(Catalogue, "^nothing$"); err == nil {
		t.Error("a pattern that matches nothing is not an error")
	}
}

// TestFirstFailure: a panic without a --- FAIL line (a watchdog's) is what
// a killed mutant reports, not the log line before it.
func TestFirstFailure(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{"=== RUN TestA\n    --- FAIL: TestA (0.00s)\nFAIL\n", "--- FAIL: TestA (0.00s)"},
		{"time=… level=ERROR msg=x\npanic: watchdog: no answer after 30s\n\ngoroutine 1 [running]:\n", "panic: watchdog: no answer after 30s"},
		{"ok  \tpkg\nFAIL\tother [build failed]\n", "FAIL\tother [build failed]"},
		{"\nsomething else\nmore\n", "something else"},
	} {
		if got := firstFailure(c.out); got != c.want {
			t.Errorf("firstFailure(%q) = %q, want %q", c.out, got, c.want)
		}
	}
}

// TestNamedTests: the pattern of KilledBy selects those top-level tests
// and no other whose name they begin.
func TestNamedTests(t *testing.T) {
	re := regexp.MustCompile(namedTests([]string{"TestA", "TestB"}))
	for name, want := range map[string]bool{"TestA": true, "TestB": true, "TestAB": false, "XTestA": false} {
		if re.MatchString(name) != want {
			t.Errorf("%s: matched %v, want %v", name, !want, want)
		}
	}
}
