package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/registry"
)

// TestRegistry: mcpgen registry writes a server.json that validates against
// the pinned registry schema, and a Dockerfile that builds the main
// package beside the spec with the registry's label.
func TestRegistry(t *testing.T) {
	root := t.TempDir()
	// A replace by a directory is outside docker build's context: said.
	gomod := "module example.com/shop\n\ngo 1.26.8\n\nreplace example.com/lib => ../lib\n"
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "cmd", "orders")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mcpgen.yaml"), []byte(goodSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, dir, "registry", "-name", "io.github.shop/orders",
		"-image", "ghcr.io/shop/orders:1.0.0", "-remote", "https://orders.example.com/mcp",
		"-description", "Look up orders.", "-dockerfile", filepath.Join(root, "Dockerfile"))
	if code != ExitOK {
		t.Fatalf("registry: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "go.mod replaces example.com/lib with the directory ../lib, which docker build cannot see") {
		t.Errorf("no warning about the directory replace; stderr:\n%s", stderr)
	}
	doc, err := os.ReadFile(filepath.Join(dir, "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := registry.Validate(doc); err != nil {
		t.Fatal(err)
	}
	var sj map[string]any
	if err := json.Unmarshal(doc, &sj); err != nil {
		t.Fatal(err)
	}
	if sj["name"] != "io.github.shop/orders" || sj["version"] != "1.0.0" || sj["description"] != "Look up orders." {
		t.Errorf("server.json:\n%s", doc)
	}
	df, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"FROM golang:1.26 AS build",
		"-o /server ./cmd/orders\n",
		"FROM gcr.io/distroless/static-debian12:nonroot",
		`LABEL io.modelcontextprotocol.server.name="io.github.shop/orders"`,
		"docker build -f Dockerfile -t ghcr.io/shop/orders:1.0.0 .",
		`ENTRYPOINT ["/server"]`,
	} {
		if !strings.Contains(string(df), want) {
			t.Errorf("Dockerfile lacks %q:\n%s", want, df)
		}
	}
}

// TestRegistryRefuses: a bad name is refused with a message that says what
// a registry name looks like, and nothing is written.
func TestRegistryRefuses(t *testing.T) {
	dir := writeSpec(t, goodSpec)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-image", "ghcr.io/shop/demo:1.0.0"}, "-name (or registry.name) is required"},
		{[]string{"-name", "demo"}, `name "demo" is not a registry name: want NAMESPACE/NAME in reverse DNS, such as io.github.OWNER/demo`},
		{[]string{"-name", "io.github.shop/demo", "-image", "ghcr.io/shop/demo"}, "has no tag or digest"},
		{[]string{"-name", "io.github.shop/demo", "extra"}, "takes no arguments"},
	} {
		code, _, stderr := run(t, dir, append([]string{"registry"}, tc.args...)...)
		if code != ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("registry %q: exit %d, stderr:\n%s\nwant exit %d and %q", tc.args, code, stderr, ExitUsage, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "server.json")); err == nil {
		t.Error("a refused registry command wrote server.json")
	}
}
