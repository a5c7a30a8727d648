package breaking

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

// goSurface is the comparable part of a Go API: each declared type's
// definition (a struct's fields, one per line), its constants, and each
// handler method's signature.
type goSurface struct {
	Types   map[string]string
	Consts  map[string][]string
	Methods map[string]string
}

func (a *goAPI) surface() goSurface {
	s := goSurface{Types: map[string]string{}, Consts: map[string][]string{}, Methods: map[string]string{}}
	for _, name := range a.typeOrder {
		t := a.types[name]
		def := t.Definition
		if t.Kind == "struct" || t.Kind == "union" {
			var fields []string
			for _, f := range t.Fields {
				fields = append(fields, f.Name+" "+f.Type)
			}
			def = "struct{" + strings.Join(fields, "; ") + "}"
		}
		s.Types[name] = def
		for _, c := range t.Consts {
			s.Consts[name] = append(s.Consts[name], c.Name)
		}
	}
	for name, m := range a.methods {
		s.Methods[name] = m.Signature
	}
	return s
}

// TestGoAPIDescribesGeneratedCode: for every golden case and example that
// generates, the Go API the GO rules compare (gen.PlanAPI) is the one the
// generated files declare, read back with go/parser: same types, fields,
// field types, constants and handler methods. PlanAPI reads the plan that
// Generate renders, but lists and prints the API on its own; this catches
// a declaration rendered without being listed, or listed differently.
func TestGoAPIDescribesGeneratedCode(t *testing.T) {
	var specs []string
	for _, pattern := range []string{"../../golden/*/mcpgen.yaml", "../../examples/*/mcpgen.yaml", "testdata/diff/*/*.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, m...)
	}
	checked := 0
	for _, path := range specs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, diags := spec.Load("mcpgen.yaml", data)
		if len(diags) > 0 {
			continue
		}
		files, err := gen.Generate(s, gen.Options{})
		if err != nil {
			continue
		}
		checked++
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			want := parseGenerated(t, files)
			got := buildGoAPI(s).surface()
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Go API from the spec differs from the generated code (-gen +spec):\n%s", diff)
			}
		})
	}
	if checked < 15 {
		t.Fatalf("only %d specs checked", checked)
	}
}

func parseGenerated(t *testing.T, files []gen.File) goSurface {
	s := goSurface{Types: map[string]string{}, Consts: map[string][]string{}, Methods: map[string]string{}}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f.Path, f.Bytes, 0)
		if err != nil {
			t.Fatal(err)
		}
		imports := map[string]string{}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			name := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imports[name] = p
		}
		pr := &exprPrinter{imports: imports}
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, sp := range gd.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					if f.Path == "types_mcpgen.go" {
						def := pr.print(sp.Type)
						if st, ok := sp.Type.(*ast.StructType); ok {
							var fields []string
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									fields = append(fields, n.Name+" "+pr.print(fl.Type))
								}
							}
							def = "struct{" + strings.Join(fields, "; ") + "}"
						} else if sp.Assign != 0 {
							def = "= " + def
						}
						s.Types[sp.Name.Name] = def
					}
					if it, ok := sp.Type.(*ast.InterfaceType); ok && strings.HasSuffix(sp.Name.Name, "sHandler") {
						for _, m := range it.Methods.List {
							ft, ok := m.Type.(*ast.FuncType)
							if !ok || len(m.Names) == 0 {
								continue
							}
							var params, results []string
							for _, p := range ft.Params.List {
								for range max(len(p.Names), 1) {
									params = append(params, pr.print(p.Type))
								}
							}
							for _, r := range ft.Results.List {
								results = append(results, pr.print(r.Type))
							}
							s.Methods[m.Names[0].Name] = "(" + strings.Join(params, ", ") + ") (" + strings.Join(results, ", ") + ")"
						}
					}
				case *ast.ValueSpec:
					if gd.Tok != token.CONST || sp.Type == nil || f.Path != "types_mcpgen.go" {
						continue
					}
					typ := pr.print(sp.Type)
					for _, n := range sp.Names {
						s.Consts[typ] = append(s.Consts[typ], n.Name)
					}
				}
			}
		}
	}
	return s
}

type exprPrinter struct{ imports map[string]string }

func (p *exprPrinter) print(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + p.print(e.X)
	case *ast.ArrayType:
		return "[]" + p.print(e.Elt)
	case *ast.MapType:
		return "map[" + p.print(e.Key) + "]" + p.print(e.Value)
	case *ast.IndexExpr:
		return p.print(e.X) + "[" + p.print(e.Index) + "]"
	case *ast.StructType:
		return "struct{}"
	case *ast.SelectorExpr:
		pkg := e.X.(*ast.Ident).Name
		switch path := p.imports[pkg]; path {
		case "github.com/mcpgen/mcpgen/runtime", "encoding/json", "context":
			return pkg + "." + e.Sel.Name
		default:
			return path + "." + e.Sel.Name
		}
	}
	return "?"
}
