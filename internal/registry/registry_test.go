package registry

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

func loadExample(t *testing.T, path string) *spec.Spec {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, diags := spec.Load(path, data)
	if len(diags) > 0 {
		t.Fatalf("%s: %v", path, diags)
	}
	return s
}

// Every example's server.json, with an image and a remote, validates
// against the pinned registry schema.
func TestExamplesValidate(t *testing.T) {
	specs, _ := filepath.Glob("../../examples/*/mcpgen.yaml")
	if len(specs) == 0 {
		t.Fatal("no examples found")
	}
	for _, path := range specs {
		name := filepath.Base(filepath.Dir(path))
		t.Run(name, func(t *testing.T) {
			s := loadExample(t, path)
			o := Options{
				Name:        "io.github.mcpgen/" + name,
				Description: "",
				Image:       "ghcr.io/mcpgen/" + name + ":" + s.Server.Version,
				Remote:      "https://" + name + ".example.com/mcp",
				Repository:  "https://github.com/mcpgen/mcpgen",
			}
			if s.Server.Description == "" && s.Server.Title == "" {
				o.Description = "The " + name + " example of mcpgen."
			}
			sj, err := Build(s, o)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Marshal(sj)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(doc, &got); err != nil {
				t.Fatal(err)
			}
			if got["$schema"] != SchemaURL || got["version"] != s.Server.Version || got["name"] != o.Name {
				t.Errorf("server.json = %s", doc)
			}
			pkgs := got["packages"].([]any)
			if p := pkgs[0].(map[string]any); p["registryType"] != "oci" || p["identifier"] != o.Image {
				t.Errorf("package = %v", p)
			}
			if r := got["remotes"].([]any)[0].(map[string]any); r["type"] != "streamable-http" || r["url"] != o.Remote {
				t.Errorf("remote = %v", r)
			}
		})
	}
}

// Build refuses what the registry would, naming the flag to fix.
func TestBuildRefuses(t *testing.T) {
	s := loadExample(t, "../../examples/orders/mcpgen.yaml")
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{}, "-name (or registry.name) is required"},
		{Options{Name: "orders"}, `name "orders" is not a registry name`},
		{Options{Name: "io.github.me/orders/v2"}, "is not a registry name"},
		{Options{Name: "io.github.me/-orders"}, "is not a registry name"},
		{Options{Name: "io.github.me/orders", Image: "ghcr.io/me/orders"}, "has no tag or digest"},
		{Options{Name: "io.github.me/orders", Remote: "orders.example.com/mcp"}, `remote "orders.example.com/mcp" is not an http(s) URL`},
		{Options{Name: "io.github.me/orders", Description: strings.Repeat("x", 101)}, "101 characters"},
	} {
		_, err := Build(s, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Build(%+v) = %v, want an error containing %q", tc.o, err, tc.want)
		}
	}
}

// The pinned schema itself refuses a bad document, saying where: this is
// what catches a field Build gets wrong.
func TestValidateRefuses(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"$schema": "` + SchemaURL + `", "name": "no-slash", "description": "d", "version": "1.0.0"}`, "/name"},
		{`{"$schema": "` + SchemaURL + `", "name": "io.github.me/x", "version": "1.0.0"}`, "description"},
		{`{"$schema": "` + SchemaURL + `", "name": "io.github.me/x", "description": "d", "version": "1.0.0",
		   "remotes": [{"type": "streamable-http", "url": "ftp://x"}]}`, "/remotes/0"},
		{`{"name": `, "not JSON"},
	} {
		err := Validate([]byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%s) = %v, want an error containing %q", tc.doc, err, tc.want)
		}
	}
}

// The spec's registry: section fills what the flags leave out; a flag wins.
func TestSpecSection(t *testing.T) {
	src := `mcpgen: 1
server: {name: shop, version: 2.1.0, description: Sells things.}
go: {package: shopmcp}
registry:
  name: com.example/shop
  image: ghcr.io/example/shop:2.1.0
  remote: https://shop.example.com/mcp
`
	s, diags := spec.Load("mcpgen.yaml", []byte(src))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	sj, err := Build(s, Options{Remote: "https://eu.shop.example.com/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	if sj.Name != "com.example/shop" || sj.Packages[0].Identifier != "ghcr.io/example/shop:2.1.0" ||
		sj.Remotes[0].URL != "https://eu.shop.example.com/mcp" || sj.Description != "Sells things." {
		t.Errorf("got %+v", sj)
	}
	if _, err := Marshal(sj); err != nil {
		t.Fatal(err)
	}

	// A typo in the section is a spec finding with a suggestion.
	_, diags = spec.Load("mcpgen.yaml", []byte(strings.Replace(src, "image:", "imag:", 1)))
	if len(diags) != 1 || !strings.Contains(diags[0].String(), `unknown key "imag" in registry`) {
		t.Errorf("diagnostics = %v", diags)
	}
}

// TestNameFromServerName: a server.name that is already a reverse-DNS
// registry name is the registry name without -name; one that has a slash
// but no reverse DNS is suggested from its last part, not doubled.
func TestNameFromServerName(t *testing.T) {
	s := loadExample(t, "../../examples/orders/mcpgen.yaml")
	s.Server.Name = "io.github.example/demo"
	sj, err := Build(s, Options{})
	if err != nil || sj.Name != "io.github.example/demo" {
		t.Errorf("Build without -name for server.name io.github.example/demo = %+v, %v; want that name", sj, err)
	}
	s.Server.Name = "example/demo"
	_, err = Build(s, Options{})
	if err == nil || !strings.Contains(err.Error(), "such as io.github.OWNER/demo") || strings.Contains(err.Error(), "OWNER/example/") {
		t.Errorf("Build without -name for server.name example/demo: %v; want the suggestion io.github.OWNER/demo", err)
	}
}
