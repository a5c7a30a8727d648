// Package registry builds the server.json that publishes a server to the
// official MCP registry (registry.modelcontextprotocol.io), and checks it
// against the registry's published schema, pinned in schema/.
//
// The spec gives the server's version, title, description, website and
// icons; what it cannot know — the registry name (reverse DNS, such as
// io.github.you/orders), the OCI image and the remote URL — comes from
// Options. The registry has no package type for Go modules, so a Go server
// is published as an OCI image (see Dockerfile) and/or a remote endpoint.
package registry

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	jsonschema "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/spec"
)

// SchemaURL is the $id of the pinned schema, written as server.json's
// $schema: the registry picks the schema version it validates with from it.
const SchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

//go:embed schema/server.schema.json
var schemaJSON []byte

// Limits of the schema that a spec can exceed; checked before the schema
// so that the message names the flag that fixes it.
const (
	maxDescription = 100
	maxTitle       = 100
)

// Options is what server.json needs beyond the server section: the flags
// of mcpgen registry, each defaulting to the spec's registry: section.
type Options struct {
	// Name is the registry name, reverse DNS: io.github.OWNER/NAME for a
	// GitHub login, com.example/NAME for a domain you own.
	Name string
	// Description overrides server.description (at most 100 characters).
	Description string
	// Image is the OCI image reference with a tag or digest, such as
	// ghcr.io/you/orders:1.0.0; it becomes a stdio package.
	Image string
	// Remote is the Streamable HTTP URL of a hosted instance, such as
	// https://orders.example.com/mcp.
	Remote string
	// Repository is the URL of the source repository.
	Repository string
}

// ServerJSON is the part of the registry's server.json that mcpgen writes.
type ServerJSON struct {
	Schema      string      `json:"$schema"`
	Name        string      `json:"name"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description"`
	Version     string      `json:"version"`
	WebsiteURL  string      `json:"websiteUrl,omitempty"`
	Repository  *Repository `json:"repository,omitempty"`
	Icons       []Icon      `json:"icons,omitempty"`
	Packages    []Package   `json:"packages,omitempty"`
	Remotes     []Transport `json:"remotes,omitempty"`
}

// Repository is where the source lives.
type Repository struct {
	URL    string `json:"url"`
	Source string `json:"source"`
}

// Icon is a server icon, as in MCP's Implementation.icons.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// Package is one way to install and run the server locally.
type Package struct {
	RegistryType string    `json:"registryType"`
	Identifier   string    `json:"identifier"`
	Transport    Transport `json:"transport"`
}

// Transport is how a client talks to a package or a remote.
type Transport struct {
	Type string `json:"type"`
	URL  string `json:"url,omitempty"`
}

// namePattern is the registry's own rule for a server name (the schema's
// pattern is looser): a namespace and a name, each starting and ending with
// a letter or digit.
var namePattern = regexp.MustCompile(`^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?/[a-zA-Z0-9]([a-zA-Z0-9._-]*[a-zA-Z0-9])?$`)

// isReverseDNS reports whether name is a registry name whose namespace is
// reverse DNS (io.github.example/demo), as a server.name may already be.
func isReverseDNS(name string) bool {
	ns, _, _ := strings.Cut(name, "/")
	return namePattern.MatchString(name) && strings.Contains(ns, ".")
}

// Build makes the server.json of s. Every problem is reported, each
// naming the field or flag to change.
func Build(s *spec.Spec, o Options) (*ServerJSON, error) {
	o = o.orSpec(s.Registry)
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }

	if o.Name == "" && isReverseDNS(s.Server.Name) {
		o.Name = s.Server.Name // server.name is already the registry name
	}
	short := s.Server.Name[strings.LastIndex(s.Server.Name, "/")+1:]
	switch {
	case o.Name == "":
		bad("-name (or registry.name) is required: the registry name in reverse DNS, such as io.github.OWNER/%s", short)
	case !namePattern.MatchString(o.Name):
		bad("name %q is not a registry name: want NAMESPACE/NAME in reverse DNS, such as io.github.OWNER/%s "+
			"(one slash; letters, digits, '.' and '-' in the namespace, also '_' in the name)", o.Name, short)
	}
	desc := cmp.Or(o.Description, s.Server.Description, s.Server.Title)
	switch {
	case strings.TrimSpace(desc) == "":
		bad("server.description (or registry.description, or -description) is required: one line of at most %d characters", maxDescription)
	case len([]rune(desc)) > maxDescription:
		bad("the description is %d characters; the registry allows %d: shorten it, or give registry.description or -description",
			len([]rune(desc)), maxDescription)
	}
	if n := len([]rune(s.Server.Title)); n > maxTitle {
		bad("server.title is %d characters; the registry allows %d", n, maxTitle)
	}
	if o.Image != "" && !hasTagOrDigest(o.Image) {
		bad("image %q has no tag or digest; the registry needs one, such as %s:%s", o.Image, o.Image, s.Server.Version)
	}
	if o.Remote != "" {
		if u, err := url.Parse(o.Remote); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad("remote %q is not an http(s) URL, such as https://%s.example.com/mcp", o.Remote, s.Server.Name)
		}
	}
	var repo *Repository
	if o.Repository != "" {
		u, err := url.Parse(o.Repository)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			bad("repository %q is not an https URL, such as https://github.com/OWNER/%s", o.Repository, s.Server.Name)
		} else {
			repo = &Repository{URL: o.Repository, Source: strings.TrimSuffix(strings.TrimPrefix(u.Host, "www."), ".com")}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}

	out := &ServerJSON{
		Schema:      SchemaURL,
		Name:        o.Name,
		Title:       s.Server.Title,
		Description: desc,
		Version:     s.Server.Version,
		WebsiteURL:  s.Server.WebsiteURL,
		Repository:  repo,
	}
	for _, ic := range s.Server.Icons {
		out.Icons = append(out.Icons, Icon{Src: ic.Src, MimeType: ic.MimeType, Sizes: ic.Sizes, Theme: ic.Theme})
	}
	if o.Image != "" {
		// The image's entrypoint is the generated server, which serves
		// stdio unless given -http.
		out.Packages = append(out.Packages, Package{RegistryType: "oci", Identifier: o.Image, Transport: Transport{Type: "stdio"}})
	}
	if o.Remote != "" {
		out.Remotes = append(out.Remotes, Transport{Type: "streamable-http", URL: o.Remote})
	}
	return out, nil
}

// orSpec fills the options not given with the spec's registry: section.
func (o Options) orSpec(r *spec.RegistryConfig) Options {
	if r == nil {
		return o
	}
	for _, f := range []struct {
		opt  *string
		spec string
	}{
		{&o.Name, r.Name}, {&o.Description, r.Description}, {&o.Image, r.Image},
		{&o.Remote, r.Remote}, {&o.Repository, r.Repository},
	} {
		if *f.opt == "" {
			*f.opt = f.spec
		}
	}
	return o
}

// hasTagOrDigest reports whether an image reference names a tag (a colon
// after the last slash) or a digest.
func hasTagOrDigest(image string) bool {
	last := image[strings.LastIndex(image, "/")+1:]
	return strings.Contains(last, ":") || strings.Contains(image, "@")
}

// Marshal encodes sj as server.json, indented, and validates the result
// against the pinned registry schema.
func Marshal(sj *ServerJSON) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sj); err != nil {
		return nil, err
	}
	if err := Validate(buf.Bytes()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Validate checks a server.json document against the pinned registry
// schema (offline).
func Validate(doc []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("server.json is not JSON: %w", err)
	}
	if err := compiled().Validate(v); err != nil {
		return fmt.Errorf("server.json does not match the registry schema (%s):\n%w", SchemaURL, err)
	}
	return nil
}

// compiled compiles the pinned schema; it is embedded, so a failure is a
// broken build, not bad input.
func compiled() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		panic("registry: pinned schema: " + err.Error())
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(SchemaURL, doc); err != nil {
		panic("registry: pinned schema: " + err.Error())
	}
	sch, err := c.Compile(SchemaURL)
	if err != nil {
		panic("registry: pinned schema: " + err.Error())
	}
	return sch
}
