package spec

import (
	"fmt"
	"path"
	"slices"

	"gopkg.in/yaml.v3"
)

// topFields are the keys of the document. The names under types: are also
// read ahead of the rest (see spec), before any schema.
var topFields = fields[*Spec]{
	{key: "mcpgen", required: true, doc: "The spec format version; 1 is the only one.",
		schema: `{"type":"integer","enum":[1]}`, decode: func(d *decoder, s *Spec, e entry) { d.version(s, e.value) }},
	{key: "server", required: true, doc: "The server's MCP serverInfo, and the instructions sent in the initialize result.",
		schema: defRef("Server"), decode: func(d *decoder, s *Spec, e entry) { d.server(&s.Server, e.value) }},
	{key: "go", required: true, doc: "Options of the generated Go code.",
		schema: defRef("Go"), decode: func(d *decoder, s *Spec, e entry) { d.goOptions(&s.Go, e.value) }},
	{key: "types", doc: "Named types: each a schema, and a Go type of that name in Go spelling. Refer to them with {$ref: Name}.",
		schema: namedMapOf(defRef("Schema"), `^[A-Za-z][A-Za-z0-9_]*$`), decode: func(d *decoder, s *Spec, e entry) { s.Types = d.types(e.value) }},
	{key: "tools", doc: "The tools, in tools/list order. A name matches ^[A-Za-z0-9_.-]{1,64}$.",
		schema: namedMapOf(defRef("Tool"), `^[A-Za-z0-9_.-]{1,64}$`), decode: func(d *decoder, s *Spec, e entry) { s.Tools = d.tools(e.value) }},
	{key: "resources", doc: "Static resources, each with a fixed URI, in resources/list order.",
		schema: mapOf(defRef("Resource")), decode: func(d *decoder, s *Spec, e entry) { s.Resources = d.resources(e.value) }},
	{key: "resourceTemplates", doc: "Resource templates (RFC 6570 URI templates with typed variables), in resources/templates/list order.",
		schema: mapOf(defRef("ResourceTemplate")), decode: func(d *decoder, s *Spec, e entry) { s.ResourceTemplates = d.resourceTemplates(e.value) }},
	{key: "prompts", doc: "Prompts, in prompts/list order.",
		schema: mapOf(defRef("Prompt")), decode: func(d *decoder, s *Spec, e entry) { s.Prompts = d.prompts(e.value) }},
	{key: "toolsets", doc: "Named groups of tools, prompts, resources and resource templates; a server serves a chosen set of them (server.toolsets, -toolsets, the Mcp-Toolsets header). What is in no toolset is always served. A name matches ^[A-Za-z0-9_-]{1,64}$.",
		schema: namedMapOf(defRef("Toolset"), `^[A-Za-z0-9_-]{1,64}$`), decode: func(d *decoder, s *Spec, e entry) { s.Toolsets = d.toolsets(e.value) }},
	{key: "lint", doc: "Settings of mcpgen lint.",
		schema: defRef("Lint"), decode: func(d *decoder, s *Spec, e entry) { s.Lint = d.lint(e.value) }},
	{key: "registry", doc: "What mcpgen registry writes in the MCP registry's server.json beyond the server section (its flags override these).",
		schema: defRef("Registry"), decode: func(d *decoder, s *Spec, e entry) { s.Registry = d.registry(e.value) }},
	{key: "upstream", doc: "The HTTP API that tools with an http binding call: its base URL, timeout, size bound and authentication.",
		schema: defRef("Upstream"), decode: func(d *decoder, s *Spec, e entry) { s.Upstream = d.upstream(e.value) }},
}

// spec decodes the document's root mapping into s.
func (d *decoder) spec(s *Spec, root *yaml.Node) {
	m := deref(root)
	if m.Kind != yaml.MappingNode {
		d.errorf(posOf(root), "the spec must be a mapping with the keys %s", joinList(topFields.keys(), "and"))
		d.skip[s] = true
		return
	}
	es := d.entries(m, "key")
	// Type names are known before any schema is read, so that `type: Order`
	// can be answered with "write $ref: Order".
	for _, e := range es {
		if e.key == "types" {
			if t := deref(e.value); t.Kind == yaml.MappingNode {
				for i := 0; i < len(t.Content); i += 2 {
					d.typeNames[deref(t.Content[i]).Value] = true
				}
			}
		}
	}
	for _, e := range es {
		if f := topFields.find(e.key); f != nil {
			f.decode(d, s, e)
		} else {
			d.unknownKey(e, "at the top level", topFields.keys())
		}
	}
}

// version reads `mcpgen:`. Anything but the integer 1 is left for the
// validator to refuse, with one message whatever was written.
func (d *decoder) version(s *Spec, n *yaml.Node) {
	s.VersionPos = posOf(n)
	if v := deref(n); v.Kind == yaml.ScalarNode && v.ShortTag() == "!!int" {
		var i int
		if decodeScalar(v, &i) == nil {
			s.Version = i
		}
	}
	if s.Version == 0 {
		s.Version = -1 // present, but not a version
	}
}

// requiredStr reads a required string. A value that is not a string is kept
// as "" with its position, so that the validator reports it once, as
// "must be a non-empty string".
func requiredStr(n *yaml.Node) (string, Pos) {
	if isString(n) {
		return deref(n).Value, posOf(n)
	}
	return "", posOf(n)
}

var serverFields = fields[*Server]{
	{key: "name", required: true, doc: "The server's name in serverInfo (required).", schema: nonEmptyString,
		decode: func(d *decoder, srv *Server, e entry) { srv.Name, srv.NamePos = requiredStr(e.value) }},
	{key: "title", doc: "A human-readable name for the server.", schema: stringSchema,
		decode: func(d *decoder, srv *Server, e entry) { srv.Title, _ = d.str(e.value, "title") }},
	{key: "version", required: true, doc: "The server's version in serverInfo (required), kept as written: 1.10 stays 1.10.", schema: defRef("Version"),
		decode: func(d *decoder, srv *Server, e entry) {
			// Any scalar, as written: 1.10 stays "1.10", not 1.1.
			if v := deref(e.value); v.Kind == yaml.ScalarNode && !isNull(v) {
				srv.Version = v.Value
			}
			srv.VersionPos = posOf(e.value)
		}},
	{key: "description", doc: "What the server does, in serverInfo.", schema: stringSchema,
		decode: func(d *decoder, srv *Server, e entry) { srv.Description, _ = d.str(e.value, "description") }},
	{key: "instructions", doc: "Sent in the initialize result: how to use the server, as a hint for the model.", schema: stringSchema,
		decode: func(d *decoder, srv *Server, e entry) { srv.Instructions, _ = d.str(e.value, "instructions") }},
	{key: "websiteUrl", doc: "The server's home page: an absolute http(s) URL.", schema: `{"type":"string","format":"uri","pattern":"^[Hh][Tt][Tt][Pp][Ss]?://"}`,
		decode: func(d *decoder, srv *Server, e entry) {
			srv.WebsiteURL, _ = d.str(e.value, "websiteUrl")
			srv.WebsiteURLPos = posOf(e.value)
		}},
	{key: "icons", doc: "Icons for the server.", schema: iconsSchema,
		decode: func(d *decoder, srv *Server, e entry) { srv.Icons = d.icons(e.value) }},
	{key: "scopes", doc: "The OAuth scopes a tool needs when it names none itself (resource-server mode over HTTP; see runtime.WithAuthorization).", schema: defRef("Scopes"),
		decode: func(d *decoder, srv *Server, e entry) { srv.Scopes = d.scopes(e.value) }},
	{key: "caching", doc: "Caching hints of the 2026-07-28 era (ttlMs, cacheScope): the default, and each list's.", schema: defRef("Caching"),
		decode: func(d *decoder, srv *Server, e entry) { srv.Caching = d.caching(e.value) }},
	{key: "rateLimit", doc: "A per-caller limit on the requests that run server code (tools/call, resources/read, prompts/get, completion/complete): a token bucket keyed on the verified subject.", schema: defRef("RateLimit"),
		decode: func(d *decoder, srv *Server, e entry) { srv.RateLimit = d.rateLimit(e.value, "the server") }},
	{key: "toolsets", doc: "Which toolsets are served by default, and dynamic mode (tools to list and enable toolsets).", schema: defRef("ServerToolsets"),
		decode: func(d *decoder, srv *Server, e entry) { srv.Toolsets = d.serverToolsets(e.value) }},
	{key: "listByScope", doc: "With authorization over HTTP: each caller's tools/list shows only the tools its token's scopes allow (their cacheScope becomes private).", schema: flagSchema,
		decode: func(d *decoder, srv *Server, e entry) { srv.ListByScope, _ = d.boolean(e.value, "listByScope") }},
	{key: "schemaProfile", doc: "The model API whose JSON Schema subset the advertised tool input schemas keep to: gemini, openai-strict or anthropic. What the API does not take is rewritten (references inlined, other keywords said in the description); arguments are still validated against the spec's schema. See mcpgen lint --profile.", schema: stringEnum(SchemaProfiles),
		decode: func(d *decoder, srv *Server, e entry) {
			srv.SchemaProfile, _ = d.str(e.value, "schemaProfile")
			srv.SchemaProfilePos = posOf(e.value)
		}},
	{key: "capabilities", doc: "Capabilities advertised at initialize even when nothing of theirs is in the spec: tools, resources, prompts, completions (for a server whose lists start empty; the lists answer empty). Without it a capability is advertised when the spec has something for it.", schema: listOf(stringEnum(AdvertisableCapabilities)),
		decode: func(d *decoder, srv *Server, e entry) {
			items, _ := d.list(e.value, "capabilities")
			for _, item := range items {
				c, ok := d.str(item, "each capability")
				switch {
				case !ok:
				case !slices.Contains(AdvertisableCapabilities, c):
					d.errorf(posOf(item), "unknown capability %q%s", c, orHint(didYouMean(c, AdvertisableCapabilities), "; use "+joinList(AdvertisableCapabilities, "or")))
				case slices.Contains(srv.Capabilities, c):
					d.errorf(posOf(item), "capability %s is listed twice", c)
				default:
					srv.Capabilities = append(srv.Capabilities, c)
				}
			}
		}},
	{key: "injectedArguments", doc: "What to do with a top-level argument that a known client adds to every tool call (Gemini CLI's wait_for_previous) when the tool does not declare it: drop (the default) removes it before validation and logs it at debug level; reject leaves it, so the tool refuses the call as an unknown argument. Any other unknown argument is refused either way.", schema: stringEnum(InjectedArgumentPolicies),
		decode: func(d *decoder, srv *Server, e entry) {
			srv.InjectedArguments, _ = d.str(e.value, "injectedArguments")
			srv.InjectedArgumentsPos = posOf(e.value)
		}},
	{key: "exposure", doc: "How tools/list shows the tools: all (the default) lists every tool; search lists only search_tools, describe_tools and call_tool, and the model finds the others by searching (for servers with many tools).", schema: stringEnum(Exposures),
		decode: func(d *decoder, srv *Server, e entry) { srv.Exposure, srv.ExposurePos = d.exposure(e) }},
}

// exposure decodes the value of an exposure key (server.exposure, a
// toolset's exposure), one of Exposures.
func (d *decoder) exposure(e entry) (string, Pos) {
	at := posOf(e.value)
	x, _ := d.str(e.value, "exposure")
	if x != "" && !slices.Contains(Exposures, x) {
		d.errorf(at, "unknown exposure %q%s", x, orHint(didYouMean(x, Exposures), "; use "+joinList(Exposures, "or")))
	}
	return x, at
}

func (d *decoder) server(srv *Server, n *yaml.Node) {
	m, ok := d.mapping(n, "server")
	if !ok {
		d.skip[srv] = true
		return
	}
	srv.Pos = posOf(n)
	decodeMapping(d, m, srv, serverFields, func(e entry) { d.unknownKey(e, "in server", serverFields.keys()) })
}

var goFields = fields[*GoOptions]{
	{key: "package", required: true, doc: "The generated package's name (required), such as ordersmcp.", schema: `{"type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_]*$"}`,
		decode: func(d *decoder, g *GoOptions, e entry) { g.Package, g.PackagePos = requiredStr(e.value) }},
	{key: "output", doc: "Directory of the generated files, relative to the spec, with forward slashes (default: the spec's directory).", schema: stringSchema,
		decode: func(d *decoder, g *GoOptions, e entry) {
			g.Output, _ = d.str(e.value, "output")
			g.OutputPos = posOf(e.value)
		}},
	{key: "client", doc: "Generate a typed Go client over the official Go SDK's client session: true for a package beside the generated one (its output + \"client\"), or the client package's directory, relative to the spec; its last element is the package name.",
		schema: `{"oneOf":[{"type":"boolean"},{"type":"string"}]}`,
		decode: func(d *decoder, g *GoOptions, e entry) {
			g.ClientPos = posOf(e.value)
			if isString(e.value) {
				g.Client, _ = d.str(e.value, "client")
				return
			}
			d.clientDefault, _ = d.boolean(e.value, "client (true, or a directory)")
		}},
}

func (d *decoder) goOptions(g *GoOptions, n *yaml.Node) {
	m, ok := d.mapping(n, "go")
	if !ok {
		d.skip[g] = true
		return
	}
	g.Pos = posOf(n)
	decodeMapping(d, m, g, goFields, func(e entry) { d.unknownKey(e, "in go", goFields.keys()) })
	if d.clientDefault {
		// Beside the server package: ordersmcp → ordersmcpclient.
		out := g.Output
		if out == "" || out == "." {
			out = g.Package
		}
		g.Client = path.Join(path.Dir(out), path.Base(out)+"client")
	}
}

var iconFields = fields[*Icon]{
	{key: "src", required: true, doc: "An http(s) URL or a data: URI (required).", schema: stringSchema,
		decode: func(d *decoder, icon *Icon, e entry) { icon.Src, icon.SrcPos = requiredStr(e.value) }},
	{key: "mimeType", doc: "The icon's MIME type, such as image/png.", schema: stringSchema,
		decode: func(d *decoder, icon *Icon, e entry) { icon.MimeType, _ = d.str(e.value, "mimeType") }},
	{key: "sizes", doc: "Sizes such as 48x48, or any for a scalable icon.", schema: listOf(stringSchema),
		decode: func(d *decoder, icon *Icon, e entry) {
			sizes, _ := d.list(e.value, "sizes")
			for _, s := range sizes {
				if size, ok := d.str(s, "each size"); ok {
					icon.Sizes = append(icon.Sizes, size)
				}
			}
		}},
	{key: "theme", doc: "The theme the icon is made for.", schema: stringEnum([]string{"light", "dark"}),
		decode: func(d *decoder, icon *Icon, e entry) {
			icon.Theme, _ = d.str(e.value, "theme")
			icon.ThemePos = posOf(e.value)
		}},
}

func (d *decoder) icons(n *yaml.Node) []*Icon {
	items, ok := d.list(n, "icons")
	if !ok {
		return nil
	}
	var icons []*Icon
	for _, item := range items {
		icon := &Icon{Pos: posOf(item)}
		icons = append(icons, icon)
		m, ok := d.mapping(item, "an icon")
		if !ok {
			d.skip[icon] = true
			continue
		}
		decodeMapping(d, m, icon, iconFields, func(e entry) { d.unknownKey(e, "in icon", iconFields.keys()) })
	}
	return icons
}

// types decodes the `types:` section.
func (d *decoder) types(n *yaml.Node) []*NamedType {
	return section(d, n, "types", "type", func(e entry) *NamedType {
		return &NamedType{Pos: posOf(e.keyNode), Name: e.key, Schema: d.schema(e.value, fmt.Sprintf("type %q", e.key))}
	})
}

// tools decodes the `tools:` section.
func (d *decoder) tools(n *yaml.Node) []*Tool {
	return section(d, n, "tools", "tool", d.tool)
}

// section decodes a top-level section of named entries (types, tools,
// resources, …) in file order. An empty section means none.
func section[T any](d *decoder, n *yaml.Node, key, kind string, decode func(entry) T) []T {
	if isNull(n) {
		return nil
	}
	m, ok := d.mapping(n, key)
	if !ok {
		return nil
	}
	var out []T
	for _, e := range d.entries(m, kind) {
		out = append(out, decode(e))
	}
	return out
}

// The keys every tool, resource, template and prompt may have, each
// described for its section by doc.

func titleField[T interface{ item() *Item }](doc string) field[T] {
	return field[T]{key: "title", doc: doc, schema: stringSchema,
		decode: func(d *decoder, into T, e entry) { into.item().Title, _ = d.str(e.value, "title") }}
}

// descriptionField is the description; tools and prompts require one (the
// validator says so), so a value that is not a string is kept empty for it.
func descriptionField[T interface{ item() *Item }](doc string, required bool) field[T] {
	f := field[T]{key: "description", doc: doc, schema: stringSchema, required: required,
		decode: func(d *decoder, into T, e entry) {
			it := into.item()
			it.Description, _ = d.str(e.value, "description")
			it.DescriptionPos = posOf(e.value)
		}}
	if required {
		f.schema = nonEmptyString
		f.decode = func(d *decoder, into T, e entry) {
			it := into.item()
			it.Description, it.DescriptionPos = requiredStr(e.value)
		}
	}
	return f
}

func iconsField[T interface{ item() *Item }](doc string) field[T] {
	return field[T]{key: "icons", doc: doc, schema: iconsSchema,
		decode: func(d *decoder, into T, e entry) { into.item().Icons = d.icons(e.value) }}
}

func metaField[T interface{ item() *Item }](doc string) field[T] {
	return field[T]{key: "_meta", doc: doc, schema: metaSchema,
		decode: func(d *decoder, into T, e entry) { into.item().Meta = d.meta(e.value) }}
}

// goNameField is `goName:`, the Go spelling of the item's name (its
// handler method, name constant and types) where the derived one collides
// or reads badly; the name on the wire stays.
func goNameField[T interface{ item() *Item }]() field[T] {
	return field[T]{key: "goName", doc: "The Go spelling of the name (handler method, name constant, types) instead of the derived one; the wire name stays.",
		schema: `{"type":"string","pattern":"^[A-Z][A-Za-z0-9_]*$"}`,
		decode: func(d *decoder, into T, e entry) {
			it := into.item()
			if it.GoName, _ = d.str(e.value, "goName"); it.GoName != "" && !isExported(it.GoName) {
				d.errorf(posOf(e.value), "goName %q must be an exported Go identifier, such as %s", it.GoName, orHint(exportedHint(it.GoName), "LookUpOrder"))
			}
		}}
}

// lintDisableField is `x-lint-disable:`, the lint rules skipped for one item.
func lintDisableField[T any](doc string, into func(T) (*[]string, *[]Pos)) field[T] {
	return field[T]{key: "x-lint-disable", doc: doc, schema: lintRulesSchema,
		decode: func(d *decoder, t T, e entry) {
			ids, pos := into(t)
			*ids, *pos = d.ruleList(e.value, "x-lint-disable")
		}}
}

var toolFields = append(fields[*Tool]{
	titleField[*Tool]("A human-readable name for the tool."),
	descriptionField[*Tool]("What the tool does, for the model (required: clients reject tools without one).", true),
	{key: "input", doc: "The arguments: an object schema, or {$ref: Name} of a named object type. Absent: no arguments.", schema: defRef("Schema"),
		decode: func(d *decoder, t *Tool, e entry) { t.Input = d.schemaOr(e.value, "input", KindObject) }},
	{key: "output", doc: "The structured result: any schema. Absent: the handler returns a *runtime.CallToolResult it builds itself.", schema: defRef("Schema"),
		decode: func(d *decoder, t *Tool, e entry) { t.Output = d.schema(e.value, "output") }},
	{key: "inputSchema", doc: "Instead of input: a raw JSON Schema 2020-12, advertised as written and validated; the handler gets json.RawMessage.", schema: defRef("RawSchema"),
		decode: func(d *decoder, t *Tool, e entry) { t.InputSchema = d.rawSchema(e.value, "inputSchema") }},
	{key: "outputSchema", doc: "Instead of output: a raw JSON Schema 2020-12, advertised as written and validated; the handler returns json.RawMessage.", schema: defRef("RawSchema"),
		decode: func(d *decoder, t *Tool, e entry) { t.OutputSchema = d.rawSchema(e.value, "outputSchema") }},
	{key: "annotations", doc: "Hints for hosts about the tool's behaviour.", schema: defRef("ToolAnnotations"),
		decode: func(d *decoder, t *Tool, e entry) { t.Annotations = d.toolAnnotations(e.value) }},
	{key: "execution", doc: "How the tool runs: taskSupport says whether a client may (optional), must (required) or may not (forbidden) call it as a task, and is advertised as written; inputFirst is mcpgen's.", schema: defRef("ToolExecution"),
		decode: func(d *decoder, t *Tool, e entry) { t.Execution = d.toolExecution(e.value) }},
	iconsField[*Tool]("Icons for the tool."),
	metaField[*Tool]("The tool's _meta object, sent as written."),
	goNameField[*Tool](),
	requiresField[*Tool](),
	{key: "ui", doc: "MCP Apps: the view (a ui:// resource) the host shows this tool's results in, and who may call the tool.", schema: defRef("ToolUI"),
		decode: func(d *decoder, t *Tool, e entry) { t.UI = d.toolUI(e.value) }},
	{key: "permission", doc: "What mcpgen config grants the tool in client settings (default: from the annotations: read-only → allow, destructive → deny, else ask).", schema: stringEnum(Permissions),
		decode: func(d *decoder, t *Tool, e entry) {
			t.Permission, _ = d.str(e.value, "permission")
			t.PermissionPos = posOf(e.value)
		}},
	lintDisableField("Lint rules skipped for this tool and its schemas.", func(t *Tool) (*[]string, *[]Pos) { return &t.LintDisable, &t.LintDisablePos }),
	{key: "scopes", doc: "The OAuth scopes a call of the tool needs over HTTP with authorization: a token without them gets 403 insufficient_scope (step-up). Absent: the server's scopes; []: none.", schema: defRef("Scopes"),
		decode: func(d *decoder, t *Tool, e entry) { t.Scopes = d.scopes(e.value) }},
	{key: "idempotency", doc: "Deduplicate retries: the runtime runs the handler once per value of the key argument and answers retries with the first result.", schema: defRef("Idempotency"),
		decode: func(d *decoder, t *Tool, e entry) { t.Idempotency = d.idempotency(e.value, t.Name) }},
	{key: "keywords", doc: "Words a user may say for this tool that its name, title and description do not use (a bug report for create_issue): server.exposure: search finds the tool by them too. Not advertised.", schema: listOf(stringSchema),
		decode: func(d *decoder, t *Tool, e entry) {
			items, _ := d.list(e.value, "keywords")
			for _, item := range items {
				if w, ok := d.str(item, "each keyword"); ok {
					t.Keywords = append(t.Keywords, w)
				}
			}
		}},
	{key: "rateLimit", doc: "A per-caller limit on the calls of this tool (beside the server's): a token bucket keyed on the verified subject; a call over it is refused with a JSON-RPC error, 429 over HTTP.", schema: defRef("RateLimit"),
		decode: func(d *decoder, t *Tool, e entry) { t.RateLimit = d.rateLimit(e.value, fmt.Sprintf("tool %q", t.Name)) }},
	{key: "http", doc: "The upstream HTTP request a call becomes (needs the upstream section): gen writes the call, so the tool needs no handler code; a handler method of the same name overrides it.", schema: defRef("HTTPBinding"),
		decode: func(d *decoder, t *Tool, e entry) { t.HTTP = d.httpBinding(e.value, t.Name) }},
}, resultBudgetFields...)

func (d *decoder) tool(te entry) *Tool {
	t := &Tool{Item: Item{Pos: posOf(te.keyNode), Name: te.key}}
	m, ok := d.mapping(te.value, fmt.Sprintf("tool %q", te.key))
	if !ok {
		d.skip[t] = true
		return t
	}
	decodeMapping(d, m, t, toolFields, func(e entry) {
		d.unknownKey(e, fmt.Sprintf("in tool %q", te.key), toolFields.keys())
	})
	return t
}

// hintField is one of MCP's boolean tool hints.
func hintField(key, doc string, into func(*ToolAnnotations) **bool) field[*ToolAnnotations] {
	return field[*ToolAnnotations]{key: key, doc: doc, schema: booleanSchema,
		decode: func(d *decoder, a *ToolAnnotations, e entry) {
			if b, ok := d.boolean(e.value, key); ok {
				*into(a) = &b
			}
		}}
}

var toolAnnotationFields = fields[*ToolAnnotations]{
	{key: "title", doc: "A human-readable name for the tool.", schema: stringSchema,
		decode: func(d *decoder, a *ToolAnnotations, e entry) { a.Title, _ = d.str(e.value, "title") }},
	hintField("readOnlyHint", "The tool does not change its environment (MCP's default: false).",
		func(a *ToolAnnotations) **bool { return &a.ReadOnlyHint }),
	hintField("destructiveHint", "The tool may destroy or overwrite (MCP's default: true); meaningful when not read-only.",
		func(a *ToolAnnotations) **bool { return &a.DestructiveHint }),
	hintField("idempotentHint", "Calling it again with the same arguments has no further effect (MCP's default: false).",
		func(a *ToolAnnotations) **bool { return &a.IdempotentHint }),
	hintField("openWorldHint", "The tool reaches outside entities, such as the web (MCP's default: true).",
		func(a *ToolAnnotations) **bool { return &a.OpenWorldHint }),
}

func (d *decoder) toolAnnotations(n *yaml.Node) *ToolAnnotations {
	m, ok := d.mapping(n, "annotations")
	if !ok {
		return nil
	}
	a := &ToolAnnotations{Pos: posOf(n)}
	decodeMapping(d, m, a, toolAnnotationFields, func(e entry) {
		if didYouMean(e.key, toolAnnotationFields.keys()) != "" {
			d.unknownKey(e, "in annotations", toolAnnotationFields.keys()) // a typo of a hint
			return
		}
		if v, ok := d.value(e.value); ok {
			a.Extra = append(a.Extra, &AnnotationExtra{Pos: posOf(e.keyNode), Key: e.key, Value: v})
		}
	})
	return a
}

var toolExecutionFields = fields[*ToolExecution]{
	{key: "taskSupport", doc: "Whether the tool can be called as a task: forbidden, optional or required (MCP's default: forbidden).", schema: stringEnum(TaskSupports),
		decode: func(d *decoder, x *ToolExecution, e entry) {
			x.TaskSupportPos = posOf(e.value)
			if x.TaskSupport, _ = d.str(e.value, "taskSupport"); x.TaskSupport != "" && !slices.Contains(TaskSupports, x.TaskSupport) {
				d.errorf(x.TaskSupportPos, "unknown taskSupport %q%s", x.TaskSupport, orHint(didYouMean(x.TaskSupport, TaskSupports), "; use "+joinList(TaskSupports, "or")))
			}
		}},
	{key: "inputFirst", doc: "mcpgen's, not advertised: in 2026-07-28 a call without answers runs as a plain call, so that the input the handler asks for first is gathered with input_required rounds; the retry carrying the answers becomes the task. Needs taskSupport optional or required.", schema: flagSchema,
		decode: func(d *decoder, x *ToolExecution, e entry) {
			x.InputFirstPos = posOf(e.value)
			x.InputFirst, _ = d.boolean(e.value, "inputFirst")
		}},
}

func (d *decoder) toolExecution(n *yaml.Node) *ToolExecution {
	m, ok := d.mapping(n, "execution")
	if !ok {
		return nil
	}
	x := &ToolExecution{Pos: posOf(n)}
	decodeMapping(d, m, x, toolExecutionFields, func(e entry) {
		d.unknownKey(e, "in execution", toolExecutionFields.keys())
	})
	if x.InputFirst && x.TaskSupport != "optional" && x.TaskSupport != "required" {
		d.errorf(x.InputFirstPos, "inputFirst needs taskSupport optional or required: it says how a call becomes a task")
	}
	return x
}

// orHint is hint, or else when hint is "".
func orHint(hint, otherwise string) string {
	if hint == "" {
		return otherwise
	}
	return hint
}

// rawSchema decodes a JSON Schema written out in full (inputSchema,
// outputSchema): a mapping kept as JSON, checked by validation.
func (d *decoder) rawSchema(n *yaml.Node, key string) *Value {
	if _, ok := d.mapping(n, key); !ok {
		return nil
	}
	v, _ := d.value(n)
	return v
}
