package gen_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
)

// maxGeneratedLine is the longest line a generated file may have, so that a
// spec edit reads in review as a few changed lines.
const maxGeneratedLine = 200

// structTag matches a struct field line ending in a tag: tags carry a
// property's constraints in one piece and are left as long as they are.
var structTag = regexp.MustCompile("^\\s*\\w+\\s+\\S.*`[^`]*`$")

// generatedFiles are the generated Go files of the goldens, the examples and
// the bench module.
func generatedFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"../golden/*/*" + gen.Suffix, "../examples/*/*/*" + gen.Suffix, "../bench/*/*" + gen.Suffix} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d generated files; the patterns are wrong", len(files))
	}
	return files
}

// TestGeneratedLinesAreShort checks the length of every line of every
// generated file.
func TestGeneratedLinesAreShort(t *testing.T) {
	for _, path := range generatedFiles(t) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := strings.ReplaceAll(sc.Text(), "\t", "    ")
			if len(line) > maxGeneratedLine && !structTag.MatchString(sc.Text()) {
				t.Errorf("%s:%d is %d characters long (at most %d): %.80s…", path, n, len(line), maxGeneratedLine, strings.TrimSpace(line))
			}
		}
		f.Close()
	}
}

// TestGeneratedInterfacesHaveMethods: an empty interface in generated code
// (a ToolsHandler for a spec without tools) says nothing and accepts anything.
func TestGeneratedInterfacesHaveMethods(t *testing.T) {
	for _, path := range generatedFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "interface{}") {
				t.Errorf("%s:%d declares an empty interface: %s", path, n+1, strings.TrimSpace(line))
			}
		}
	}
}
