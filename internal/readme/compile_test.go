package readme

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// What a Go block of the documentation may use without declaring it, as
// the code around a snippet would: the packages it names (imported for it
// when it names them) and a few values (declared for it when it uses them
// and does not declare them itself). A block that needs more says so here,
// so that a reader can tell what a snippet assumes.
var (
	blockImports = map[string]string{
		"context":    "context",
		"errors":     "errors",
		"fmt":        "fmt",
		"http":       "net/http",
		"slices":     "slices",
		"slog":       "log/slog",
		"strings":    "strings",
		"time":       "time",
		"runtime":    "github.com/mcpgen/mcpgen/runtime",
		"jwtauth":    "github.com/mcpgen/mcpgen/runtime/jwtauth",
		"otelmcp":    "github.com/mcpgen/mcpgen/runtime/otelmcp",
		"redisstore": "github.com/mcpgen/mcpgen/runtime/redisstore",
		"otelslog":   "go.opentelemetry.io/contrib/bridges/otelslog",
		"booksmcp":   "github.com/mcpgen/mcpgen/examples/books/booksmcp",
		"ordersmcp":  "github.com/mcpgen/mcpgen/examples/orders/ordersmcp",
	}
	blockValues = map[string]string{
		"ctx":  "var ctx context.Context",
		"addr": "var addr string // where to listen",
		"desk": "var desk ordersmcp.Handler // your implementation of the generated interface",
		"srv":  "var srv *runtime.Server",
		"id":   "var id string",
		"in":   "var in *booksmcp.FindBooksInput // the input of a generated tool",
	}
)

// TestGoBlocksCompileBuilds type-checks every Go block that is neither a
// scenario's file (the scenario builds it) nor a fragment (the file it is
// part of is built): as a file of its own when it has a package clause, as
// the top-level declarations of a file, or as a function body, with the
// imports and values above; with package=DIR, as one more file of the
// package in DIR whose declarations replace those of the same names.
// "declared and not used" and "imported and not used" are not errors here,
// since a snippet shows a part. It needs the go command for the export
// data of the packages, hence its name (one `go list -export` for all).
func TestGoBlocksCompileBuilds(t *testing.T) {
	t.Parallel()
	testenv.BuildsModules(t)
	var blocks []block
	for _, b := range allBlocks(t) {
		_, scenario := b.attrs["test"]
		_, fragment := b.attrs["fragment-of"]
		if b.lang == "go" && !scenario && !fragment {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) < 5 {
		t.Fatalf("only %d Go blocks to compile", len(blocks))
	}
	pkgs := slices.Sorted(maps.Values(blockImports))
	for _, b := range blocks {
		if dir, ok := b.attrs["package"]; ok {
			pkgs = append(pkgs, "./"+dir)
		}
	}
	exports := exportData(t, pkgs)
	for _, b := range blocks {
		if err := compileBlock(b, exports); err != nil {
			t.Errorf("%s: a Go block that does not compile:\n%v", b.where(), err)
		}
	}
}

// exportData returns the export data file of each package the patterns
// name and of their dependencies, built by one `go list -export`.
func exportData(t *testing.T, patterns []string) map[string]string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-json=ImportPath,Export,Dir"}, patterns...)...)
	cmd.Dir = checkout
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.Bytes())
	}
	exports := map[string]string{}
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var p struct{ ImportPath, Export, Dir string }
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		exports[p.ImportPath] = p.Export
	}
	return exports
}

// compileBlock type-checks one block.
func compileBlock(b block, exports map[string]string) error {
	text := elide(b.text)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f := exports[path]
		if f == "" {
			return nil, fmt.Errorf("no export data for %q: add it to blockImports", path)
		}
		return os.Open(f)
	})
	var errs []string
	conf := types.Config{Importer: imp, Error: func(err error) {
		if msg := err.Error(); !strings.Contains(msg, "declared and not used") && !strings.Contains(msg, "imported and not used") {
			errs = append(errs, msg)
		}
	}}
	if dir, ok := b.attrs["package"]; ok {
		return inPackage(fset, &conf, filepath.Join(checkout, dir), text, &errs)
	}
	src, err := snippetFile(text)
	if err != nil {
		return err
	}
	f, err := parser.ParseFile(fset, "block.go", src, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("%v\nas the file:\n%s", err, src)
	}
	_, _ = conf.Check("snippet", fset, []*ast.File{f}, nil)
	if len(errs) > 0 {
		return fmt.Errorf("%s\nas the file:\n%s", strings.Join(errs, "\n"), src)
	}
	return nil
}

// snippetFile makes a file of a block: as it is when it has a package
// clause; else its declarations, or its statements in a function, after
// the imports and values it uses and does not declare.
func snippetFile(text string) (string, error) {
	if f, err := parser.ParseFile(token.NewFileSet(), "block.go", text, parser.PackageClauseOnly); err == nil && f.Name != nil {
		return text, nil
	}
	body, asDecls := text, true
	f, err := parser.ParseFile(token.NewFileSet(), "block.go", "package p\n"+text, parser.SkipObjectResolution)
	if err != nil {
		asDecls = false
		body = "func _() {\n" + text + "\n}\n"
		if f, err = parser.ParseFile(token.NewFileSet(), "block.go", "package p\n"+body, parser.SkipObjectResolution); err != nil {
			return "", err
		}
	}
	declared := topLevelNames(f)
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	var values []string
	for _, name := range slices.Sorted(maps.Keys(blockValues)) {
		if used[name] && !declared[name] && (asDecls || !declaredIn(body, name)) {
			values = append(values, blockValues[name])
		}
	}
	var imports []string
	need := strings.Join(values, "\n") + "\n" + body
	for _, name := range slices.Sorted(maps.Keys(blockImports)) {
		if !declared[name] && regexp.MustCompile(`\b`+name+`\.`).MatchString(need) {
			imports = append(imports, fmt.Sprintf("\t%s %q", name, blockImports[name]))
		}
	}
	var src strings.Builder
	src.WriteString("package snippet\n\n")
	if len(imports) > 0 {
		fmt.Fprintf(&src, "import (\n%s\n)\n\n", strings.Join(imports, "\n"))
	}
	for _, v := range values {
		src.WriteString(v + "\n")
	}
	src.WriteString("\n" + body)
	return src.String(), nil
}

// declaredIn reports whether a function body declares name with := or
// var itself, so that the value above is not needed.
func declaredIn(body, name string) bool {
	return regexp.MustCompile(`(?m)(^|[\s,(])` + name + `(\s*,\s*\w+)*\s*:=|\bvar\s+` + name + `\b`).MatchString(body)
}

// topLevelNames are the names a file declares at its top level.
func topLevelNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				case *ast.TypeSpec:
					names[s.Name.Name] = true
				}
			}
		}
	}
	return names
}

// inPackage type-checks text as one more file of the package in dir (its
// non-test files), whose declarations of the names text declares are
// left out. The block uses the package's names, not imports of its own.
func inPackage(fset *token.FileSet, conf *types.Config, dir, text string, errs *[]string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var files []*ast.File
	var pkgName string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkgName = f.Name.Name
		files = append(files, f)
	}
	block, err := parser.ParseFile(fset, "block.go", "package "+pkgName+"\n"+text, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	replaced := topLevelNames(block)
	for _, f := range files {
		f.Decls = slices.DeleteFunc(f.Decls, func(d ast.Decl) bool {
			for name := range topLevelNames(&ast.File{Decls: []ast.Decl{d}}) {
				if replaced[name] {
					return true
				}
			}
			return false
		})
	}
	_, _ = conf.Check(pkgName, fset, append(files, block), nil)
	if len(*errs) > 0 {
		return fmt.Errorf("%s", strings.Join(*errs, "\n"))
	}
	return nil
}
