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

// TestGeneratedLinesAreShort checks every generated Go file of the goldens,
// the examples and the bench module.
func TestGeneratedLinesAreShort(t *testing.T) {
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
	for _, path := range files {
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
