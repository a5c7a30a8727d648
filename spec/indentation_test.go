package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndentationNoFalseAlarms: every spec in the repository that YAML
// parses (all goldens and examples but the misindented ones) has no line
// that findIndentation calls misindented, so the "indentation" message
// never replaces yaml.v3's for another cause.
func TestIndentationNoFalseAlarms(t *testing.T) {
	specs, _ := filepath.Glob("../golden/*/mcpgen.yaml")
	more, _ := filepath.Glob("../examples/*/mcpgen.yaml")
	specs = append(append(specs, more...), "../bench/mcpgen.yaml")
	if len(specs) < 30 {
		t.Fatalf("found only %d specs", len(specs))
	}
	for _, path := range specs {
		if strings.Contains(path, "bad_indent_") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if p, found := findIndentation(data, 1); found {
			t.Errorf("%s:%d:%d: not misindented, yet: %s", path, p.pos.Line, p.pos.Column, p.msg)
		}
	}
}

func TestIndentationFindsTheLine(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line, col int
		says      string
	}{
		{"deeper under a value", "a:\n  b: 1\n    c: 2\n", 3, 5, `under "b" (2 spaces)`},
		{"between two levels", "a:\n  b:\n    c: 1\n   d: 2\n", 4, 4, `use 4 to put it beside "c", or 2 to put it beside "b"`},
		{"sequence item keys", "a:\n  - name: x\n    kind: y\n   bad: z\n", 4, 4, "indented 3 spaces"},
		{"plain scalar continued", "a:\n  b: one\n    two\n  c:\n     d: 1\n    e: 2\n", 6, 5, `beside "d"`},
		{"flow mapping over lines", "a: {b: 1,\n  c: 2}\nd:\n  e: 1\n    f: 2\n", 5, 5, `under "e"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, ok := findIndentation([]byte(c.src), 1)
			if !ok {
				t.Fatalf("no problem found in\n%s", c.src)
			}
			if p.pos.Line != c.line || p.pos.Column != c.col || !strings.Contains(p.msg, c.says) {
				t.Errorf("got %d:%d: %s\nwant %d:%d, saying %q", p.pos.Line, p.pos.Column, p.msg, c.line, c.col, c.says)
			}
		})
	}
}
