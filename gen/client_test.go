package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

// TestClientForEveryGolden: for every golden spec the loader accepts, the
// typed client file parses as Go and has one method per tool, resource
// template and prompt (it compiles and runs against every example in the
// interop module, which requires the Go SDK; the main module does not).
func TestClientForEveryGolden(t *testing.T) {
	specs, _ := filepath.Glob("../golden/*/mcpgen.yaml")
	more, _ := filepath.Glob("../examples/*/mcpgen.yaml")
	checked := 0
	for _, path := range append(specs, more...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, diags := spec.Load("mcpgen.yaml", data)
		if len(diags) > 0 {
			continue // a negative case
		}
		if s.Go.Client == "" {
			s.Go.Client = s.Go.Package + "client"
		}
		files, err := Client(s, ClientOptions{ServerImport: "example.com/m/" + s.Go.Package})
		if err != nil {
			if _, ok := err.(spec.Diagnostics); ok {
				continue // Generate refuses it too
			}
			t.Fatalf("%s: %v", path, err)
		}
		if len(files) != 1 || files[0].Path != ClientFile {
			t.Fatalf("%s: files %v", path, files)
		}
		f, err := parser.ParseFile(token.NewFileSet(), ClientFile, files[0].Bytes, 0)
		if err != nil {
			t.Fatalf("%s: the client does not parse: %v\n%s", path, err, files[0].Bytes)
		}
		methods := 0
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.Name != "Close" && fn.Name.Name != "Error" {
				methods++
			}
		}
		if want := len(s.Tools) + len(s.ResourceTemplates) + len(s.Prompts); methods != want {
			t.Errorf("%s: %d client methods, want %d (tools, templates, prompts)", path, methods, want)
		}
		if !strings.Contains(string(files[0].Bytes), `"github.com/modelcontextprotocol/go-sdk/mcp"`) {
			t.Errorf("%s: the client does not use the official Go SDK", path)
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("checked only %d specs", checked)
	}
}
