package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/internal/registry"
	"github.com/mcpgen/mcpgen/templates"
)

const registryHelp = `usage: mcpgen registry [-f spec] [-name NAMESPACE/NAME] [-image REF] [-remote URL] [-o file] [-dockerfile path]

Writes server.json, the entry of the official MCP registry
(registry.modelcontextprotocol.io), and checks it against the registry's
published schema (2025-12-11, pinned in mcpgen) before writing; publish it
with the registry's mcp-publisher. From the spec: version (server.version),
title, description (server.description, else server.title), websiteUrl and
icons. From the spec's registry: section or these flags (a flag wins):

  -name         the registry name, reverse DNS: io.github.OWNER/NAME for a
                GitHub login, com.example/NAME for a domain you own (here or
                as registry.name; default: server.name when it is already
                reverse DNS, such as io.github.example/demo)
  -image        an OCI image with a tag or digest, such as
                ghcr.io/OWNER/orders:1.0.0: a package the client runs with
                docker, speaking stdio
  -remote       the Streamable HTTP URL of a hosted instance, such as
                https://orders.example.com/mcp
  -repository   the source repository URL
  -description  a description other than the spec's (at most 100 characters)
  -o            where to write server.json (default: beside the spec; - for stdout)
  -dockerfile   also write a Dockerfile at this path: a multi-stage build of
                the main package beside the spec into a distroless image,
                labelled io.modelcontextprotocol.server.name=NAME as the
                registry requires of an image

The registry has no package type for Go modules: a Go server is published as
an image, a remote, or both. See docs/deployment.md, "Publishing to the MCP registry".
` + discoveryHelp + `
Examples:
  mcpgen registry -name io.github.you/orders -image ghcr.io/you/orders:1.0.0 -dockerfile Dockerfile
  mcpgen registry -name com.example/orders -remote https://orders.example.com/mcp -o -
`

// runRegistry is `mcpgen registry`.
func runRegistry(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("registry")
	specPath := fs.String("f", "", "the spec file")
	var o registry.Options
	fs.StringVar(&o.Name, "name", "", "the registry name, such as io.github.OWNER/NAME")
	fs.StringVar(&o.Image, "image", "", "an OCI image reference with a tag or digest")
	fs.StringVar(&o.Remote, "remote", "", "the Streamable HTTP URL of a hosted instance")
	fs.StringVar(&o.Repository, "repository", "", "the source repository URL")
	fs.StringVar(&o.Description, "description", "", "the registry description (default: the spec's)")
	out := fs.String("o", "", "where to write server.json (- for stdout)")
	dockerfile := fs.String("dockerfile", "", "also write a Dockerfile at this path")
	if err := parseFlags(fs, args, registryHelp, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("registry takes no arguments, got %q", fs.Args())}
	}
	path, err := findSpec(*specPath)
	if err != nil {
		return err
	}
	s, err := loadSpec(path, stderr)
	if err != nil {
		return err
	}
	sj, err := registry.Build(s, o)
	if err != nil {
		return usageError{err.Error()}
	}
	doc, err := registry.Marshal(sj)
	if err != nil {
		return err
	}
	if o.Image == "" && o.Remote == "" {
		fmt.Fprintln(stderr, "mcpgen: server.json lists no way to run the server; add -image, -remote or both")
	}
	if *dockerfile != "" {
		if err := writeDockerfile(*dockerfile, filepath.Dir(path), s.Server.Name, o, stderr); err != nil {
			return err
		}
	}
	switch *out {
	case "-":
		_, err = stdout.Write(doc)
		return err
	case "":
		*out = filepath.Join(filepath.Dir(path), "server.json")
	}
	if err := os.WriteFile(*out, doc, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s (%s)\n", relative(*out), registry.SchemaURL)
	return nil
}

// writeDockerfile writes the Dockerfile that builds the main package in
// specDir, with the module root as the build context.
func writeDockerfile(path, specDir, serverName string, o registry.Options, stderr io.Writer) error {
	absSpec, err := filepath.Abs(specDir)
	if err != nil {
		return err
	}
	root, ok := moduleRoot(absSpec)
	if !ok {
		return usageError{fmt.Sprintf("-dockerfile: no go.mod in %s or above; the image is built from the module", relative(specDir))}
	}
	mod, err := readGoMod(root)
	if err != nil {
		return err
	}
	main, err := filepath.Rel(root, absSpec)
	if err != nil {
		return err
	}
	absPath, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	inRoot, err := filepath.Rel(root, absPath)
	if err != nil || strings.HasPrefix(inRoot, "..") {
		return usageError{fmt.Sprintf("-dockerfile %s is outside the module (%s), which is the build context", path, relative(root))}
	}
	image := o.Image
	if image == "" {
		image = "IMAGE"
	}
	src, err := templates.Dockerfile(templates.Docker{
		ServerName:   serverName,
		RegistryName: o.Name,
		Image:        image,
		GoVersion:    goMinor(mod.Go),
		MainPackage:  mainPackage(main),
		Path:         filepath.ToSlash(inRoot),
	})
	if err != nil {
		return err
	}
	for _, r := range mod.Replace {
		if r.New.Version == "" { // a directory: not in the build context
			fmt.Fprintf(stderr, "mcpgen: go.mod replaces %s with the directory %s, which docker build cannot see; "+
				"vendor it (go mod vendor) or build once the module is published\n", r.Old.Path, r.New.Path)
		}
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s (build it from %s: docker build -f %s -t %s .)\n",
		relative(path), relative(root), filepath.ToSlash(inRoot), image)
	return nil
}

// goMinor turns go.mod's go version (1.26.8) into the golang image tag of
// its release (1.26), which always has the latest patch.
func goMinor(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return "1"
	}
	return parts[0] + "." + parts[1]
}

// mainPackage is the go build argument for a directory relative to the
// module root.
func mainPackage(rel string) string {
	if rel == "." {
		return "."
	}
	return "./" + filepath.ToSlash(rel)
}
