package spec

import "gopkg.in/yaml.v3"

// RegistryConfig is the `registry:` section: what `mcpgen registry` puts in
// the MCP registry's server.json beyond the server section. Each value can
// also be given (and overridden) by the command's flag of the same name.
type RegistryConfig struct {
	Pos         Pos
	Name        string
	Description string
	Image       string
	Remote      string
	Repository  string
}

var registryFields = fields[*RegistryConfig]{
	{key: "name", doc: "The server's name in the MCP registry, reverse DNS: io.github.OWNER/NAME or com.example/NAME.",
		schema: `{"type":"string","pattern":"^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$"}`,
		decode: func(d *decoder, r *RegistryConfig, e entry) { r.Name, _ = d.str(e.value, "name") }},
	{key: "description", doc: "The registry description, at most 100 characters (default: server.description, else server.title).",
		schema: `{"type":"string","minLength":1,"maxLength":100}`,
		decode: func(d *decoder, r *RegistryConfig, e entry) { r.Description, _ = d.str(e.value, "description") }},
	{key: "image", doc: "An OCI image reference with a tag or digest, such as ghcr.io/OWNER/NAME:1.0.0: a stdio package run with docker.",
		schema: nonEmptyString,
		decode: func(d *decoder, r *RegistryConfig, e entry) { r.Image, _ = d.str(e.value, "image") }},
	{key: "remote", doc: "The Streamable HTTP URL of a hosted instance, such as https://NAME.example.com/mcp.",
		schema: `{"type":"string","pattern":"^[Hh][Tt][Tt][Pp][Ss]?://"}`,
		decode: func(d *decoder, r *RegistryConfig, e entry) { r.Remote, _ = d.str(e.value, "remote") }},
	{key: "repository", doc: "The source repository's https URL.",
		schema: `{"type":"string","pattern":"^[Hh][Tt][Tt][Pp][Ss]://"}`,
		decode: func(d *decoder, r *RegistryConfig, e entry) { r.Repository, _ = d.str(e.value, "repository") }},
}

// registry decodes the `registry:` section; empty means none.
func (d *decoder) registry(n *yaml.Node) *RegistryConfig {
	if isNull(n) {
		return nil
	}
	m, ok := d.mapping(n, "registry")
	if !ok {
		return nil
	}
	r := &RegistryConfig{Pos: posOf(n)}
	decodeMapping(d, m, r, registryFields, func(e entry) { d.unknownKey(e, "in registry", registryFields.keys()) })
	return r
}
