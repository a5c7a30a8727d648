package runtime

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// compactLikeJSON checks that compactSchema gives, for src, exactly the
// bytes json.Compact writes (or src unchanged when json.Compact refuses it).
func compactLikeJSON(t *testing.T, src []byte) {
	t.Helper()
	want := append([]byte(nil), src...)
	var b bytes.Buffer
	if err := json.Compact(&b, src); err == nil {
		want = b.Bytes()
	}
	got := compactSchema(append([]byte(nil), src...))
	if !bytes.Equal(got, want) {
		t.Errorf("compactSchema(%q) = %q, want %q", src, got, want)
	}
}

func TestCompactSchemaTable(t *testing.T) {
	for _, src := range []string{
		``,
		`{}`,
		`{"a":1}`,
		`{"a": 1}`,
		"{\n\t\"a\": 1\n}",
		"  \r\n{ \"a\" : [ 1 , 2 , { } , [ ] ] }\t\n ",
		`{"a b": "c d", "e\tf": " "}`,
		`{"q": "say \"hi there\" ", "x": 1}`,
		`{"bs": "\\", "y": [ true, false, null ]}`,
		`{"bs": "\\\\\" }{ ", "y": 2}`,
		`{"u": "\u0022 \u005c ", "z": "é ü 日本 "}`,
		`{"line": "a\nb\r\nc\t d"}`,
		"\"  a string \\\" with spaces  \"",
		" \"x\" ",
		" 12 ",
		`[ 1.5e3 , -0 , "]" , "[" ]`,
		// invalid JSON is returned as is
		`{"a": }`,
		`{"a": "unterminated }`,
		"{\n\t\"a\": 1\n",
		`{"a": 1} {"b": 2}`,
		`{"a": "` + "\x01" + `" }`,
		"{\"a\": \"\xff\xfe \" }",
	} {
		compactLikeJSON(t, []byte(src))
	}
}

// TestCompactSchemaGeneratedConstants compacts every schema constant of
// the golden and example generated code (every json.RawMessage of a string
// constant) and compares it with json.Compact.
func TestCompactSchemaGeneratedConstants(t *testing.T) {
	n := 0
	for _, root := range []string{"../golden", "../examples"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(node ast.Node) bool {
				call, ok := node.(*ast.CallExpr)
				if !ok || len(call.Args) != 1 {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "RawMessage" {
					return true
				}
				if s, ok := stringConstant(call.Args[0]); ok {
					n++
					compactLikeJSON(t, []byte(s))
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 50 {
		t.Fatalf("only %d schema constants found in the golden and example code", n)
	}
	t.Logf("%d constants", n)
}

// stringConstant evaluates a string literal or a concatenation of them.
func stringConstant(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.ParenExpr:
		return stringConstant(e.X)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		x, ok := stringConstant(e.X)
		y, ok2 := stringConstant(e.Y)
		return x + y, ok && ok2
	}
	return "", false
}

func FuzzCompactSchema(f *testing.F) {
	for _, s := range []string{
		"{\n\t\"a\": \"b \\\" c\",\n\t\"d\": [\n\t\t1,\n\t\t\"\\\\\"\n\t]\n}",
		`{"x": " \\ \" "}`,
		" [ ] ",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		compactLikeJSON(t, src)
		// Indented, as the generator writes it, it compacts back.
		var b bytes.Buffer
		if json.Indent(&b, src, "", "\t") == nil {
			compactLikeJSON(t, b.Bytes())
		}
	})
}

// TestCompactSchemaAllocates nothing.
func TestCompactSchemaAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not exact under -race (json.Valid's scanner pool)")
	}
	const indented = "{\n\t\"type\": \"object\",\n\t\"properties\": {\n\t\t\"q\": {\n\t\t\t\"type\": \"string\",\n\t\t\t\"description\": \"a \\\"b\\\" c\"\n\t\t}\n\t}\n}"
	buf := make([]byte, len(indented))
	if n := testing.AllocsPerRun(100, func() {
		copy(buf, indented)
		compactSchema(buf)
	}); n != 0 {
		t.Errorf("compactSchema allocates %v times", n)
	}
}
