// Package templates holds what `mcpgen init` scaffolds: a fully commented
// mcpgen.yaml with one tool, resource, resource template and prompt; the
// main.go that serves it; the handlers.go that implements it (the user's
// file from then on); and generate.go (mcpgen init writes Claude Code's files with
// internal/clientconfig). It also
// holds the Dockerfile that `mcpgen registry -dockerfile` writes.
//
// The files are text/template sources embedded from init/, with <% %> as
// delimiters so that the {{.arg}} placeholders of prompt messages and Go's
// composite literals need no escaping. Only scaffolding lives here: the code
// that `mcpgen generate` writes is built with jennifer in package gen.
package templates

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"go/format"
	"strings"
	"text/template"
)

//go:embed init/*.tmpl registry/*.tmpl
var templateFS embed.FS

// Scaffold is what the init templates are filled with.
type Scaffold struct {
	// Name is the server's MCP name (serverInfo.name), such as "hello".
	Name string
	// Package is the generated package's name, such as "hellomcp"; it is
	// also its directory (go.output), beside the spec.
	Package string
	// Import is the generated package's import path.
	Import string
	// SchemaURL is where editors find mcpgen.schema.json (a URL or a path
	// relative to the spec).
	SchemaURL string
	// Version is the mcpgen version for the `go run …@version` alternative
	// in generate.go ("latest" when unknown).
	Version string
	// BaseURLEnv is the environment variable that replaces the upstream
	// API's base URL (InitOpenAPI only).
	BaseURLEnv string
}

// File is one scaffolded file, its path relative to the server's directory.
type File struct {
	Path  string
	Bytes []byte
}

// initFiles maps each template to the file it makes, in the order init
// writes and lists them.
var initFiles = []struct{ tmpl, path string }{
	{"mcpgen.yaml.tmpl", "mcpgen.yaml"},
	{"generate.go.tmpl", "generate.go"},
	{"main.go.tmpl", "main.go"},
	{"handlers.go.tmpl", "handlers.go"},
}

// Paths are the files Init returns, in order.
func Paths() []string {
	var out []string
	for _, f := range initFiles {
		out = append(out, f.path)
	}
	return out
}

// Init fills the init templates. Go files are gofmt'd.
func Init(s Scaffold) ([]File, error) {
	return renderFiles(s, initFiles)
}

// InitOpenAPI is Init for a server whose spec was imported from an OpenAPI
// description (spec): that spec, and a main.go that serves the generated
// UpstreamHandler, so there is no handlers.go. The files are mcpgen.yaml,
// generate.go and main.go, in that order.
func InitOpenAPI(s Scaffold, spec []byte) ([]File, error) {
	files, err := renderFiles(s, []struct{ tmpl, path string }{
		{"generate.go.tmpl", "generate.go"},
		{"main_openapi.go.tmpl", "main.go"},
	})
	if err != nil {
		return nil, err
	}
	return append([]File{{Path: "mcpgen.yaml", Bytes: spec}}, files...), nil
}

// renderFiles fills each template of list into its file, gofmt'ing Go
// files.
func renderFiles(s Scaffold, list []struct{ tmpl, path string }) ([]File, error) {
	data := struct {
		Scaffold
		Output string
	}{s, s.Package}
	var files []File
	for _, f := range list {
		out, err := render("init/"+f.tmpl, data)
		if err != nil {
			return nil, err
		}
		if strings.HasSuffix(f.path, ".go") {
			if out, err = format.Source(out); err != nil {
				return nil, fmt.Errorf("templates: %s does not format: %w", f.path, err)
			}
		}
		files = append(files, File{Path: f.path, Bytes: out})
	}
	return files, nil
}

// render fills the embedded template at path with data.
func render(path string, data any) ([]byte, error) {
	src, err := templateFS.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := template.New(path).Delims("<%", "%>").Option("missingkey=error").Funcs(template.FuncMap{
		"json": func(v any) (string, error) {
			b, err := json.Marshal(v)
			return string(b), err
		},
	}).Parse(string(src))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Docker is what the Dockerfile template is filled with.
type Docker struct {
	// ServerName is the server's MCP name (server.name), such as "orders".
	ServerName string
	// RegistryName is its name in the MCP registry, such as
	// io.github.you/orders: the value of the image's
	// io.modelcontextprotocol.server.name label.
	RegistryName string
	// Image is the image reference shown in the build command.
	Image string
	// GoVersion is the golang image tag of the build stage, such as "1.26".
	GoVersion string
	// MainPackage is the main package to build, relative to the module
	// root, such as "." or "./cmd/orders".
	MainPackage string
	// Path is where the Dockerfile is written, relative to the module root.
	Path string
}

// Dockerfile fills the Dockerfile template: a multi-stage build of the
// server into a distroless static image carrying the registry's label.
func Dockerfile(d Docker) ([]byte, error) {
	return render("registry/Dockerfile.tmpl", d)
}
