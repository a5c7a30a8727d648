// Package specformat describes the spec file format (mcpgen.yaml) as Go
// "document" structs that mirror the YAML grammar key for key, and derives
// from them the JSON Schema that editors use to validate and complete a spec
// (mcpgen.schema.json, printed by `mcpgen schema`).
//
// The model in package spec cannot serve here: it holds positions and
// derived fields, and is read from yaml.Node by hand. These structs are only
// a description; nothing is decoded into them. The spec loader stays the
// authority: it accepts exactly what this schema accepts, and says more
// (cross-references, kind-specific keys, Go naming clashes). When a key is
// added to the loader (spec/decode_*.go), add it here and run
// `go run ./cmd/mcpgen schema > mcpgen.schema.json`; a test fails until then.
package specformat

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/spec"
)

// SchemaID is the $id of the published schema, and the URL that scaffolded
// specs point yaml-language-server at.
const SchemaID = "https://raw.githubusercontent.com/mcpgen/mcpgen/main/mcpgen.schema.json"

// JSONSchema returns the JSON Schema (draft 2020-12) of the spec format,
// indented, with a final newline. It is deterministic.
func JSONSchema() ([]byte, error) {
	r := &jsonschema.Reflector{
		ExpandedStruct: true, // the root is the document itself, not a $ref
		Namer: func(t reflect.Type) string {
			if n, ok := defNames[t]; ok {
				return n
			}
			return t.Name()
		},
	}
	s := r.Reflect(&Document{})
	s.ID = SchemaID
	s.Title = "mcpgen spec"
	s.Description = "An mcpgen spec (mcpgen.yaml): an MCP server's tools, resources, resource templates and prompts, from which mcpgen generates a typed Go server. Keys use MCP's own wire names; the order of the file is the order on the wire."
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// defNames renames the $defs whose Go names would read badly in an editor.
var defNames = map[reflect.Type]string{
	reflect.TypeFor[GoOptions]():           "Go",
	reflect.TypeFor[ResourceAnnotations](): "Annotations",
	reflect.TypeFor[PromptArgument]():      "Argument",
	reflect.TypeFor[PromptMessage]():       "Message",
}

// Document is a whole spec file.
type Document struct {
	Mcpgen            int                         `json:"mcpgen" jsonschema:"enum=1" jsonschema_description:"The spec format version; 1 is the only one."`
	Server            Server                      `json:"server" jsonschema_description:"The server's MCP serverInfo, and the instructions sent in the initialize result."`
	Go                GoOptions                   `json:"go" jsonschema_description:"Options of the generated Go code."`
	Types             map[string]Schema           `json:"types,omitempty" jsonschema_description:"Named types: each a schema, and a Go type of that name in Go spelling. Refer to them with {$ref: Name}."`
	Tools             map[string]Tool             `json:"tools,omitempty" jsonschema_description:"The tools, in tools/list order. A name matches ^[A-Za-z0-9_.-]{1,64}$."`
	Resources         map[string]Resource         `json:"resources,omitempty" jsonschema_description:"Static resources, each with a fixed URI, in resources/list order."`
	ResourceTemplates map[string]ResourceTemplate `json:"resourceTemplates,omitempty" jsonschema_description:"Resource templates (RFC 6570 URI templates with typed variables), in resources/templates/list order."`
	Prompts           map[string]Prompt           `json:"prompts,omitempty" jsonschema_description:"Prompts, in prompts/list order."`
	Lint              *Lint                       `json:"lint,omitempty" jsonschema_description:"Settings of mcpgen lint."`
}

// JSONSchemaExtend constrains the names of types and tools, which become Go
// identifiers and MCP tool names.
func (Document) JSONSchemaExtend(s *jsonschema.Schema) {
	names := map[string]string{
		"types": "^[A-Za-z][A-Za-z0-9_]*$",
		"tools": "^[A-Za-z0-9_.-]{1,64}$",
	}
	for key, pattern := range names {
		if p, ok := s.Properties.Get(key); ok {
			p.PropertyNames = &jsonschema.Schema{Pattern: pattern}
		}
	}
}

// Lint is the `lint:` section.
type Lint struct {
	Disable      LintRules `json:"disable,omitempty" jsonschema_description:"Lint rules that never report, anywhere in the spec."`
	MaxTools     int       `json:"maxTools,omitempty" jsonschema:"minimum=1,default=20" jsonschema_description:"The most tools before TOO_MANY_TOOLS (default 20)."`
	MaxListItems int       `json:"maxListItems,omitempty" jsonschema:"minimum=1,default=50" jsonschema_description:"The most static resources before RESOURCE_LIST_LARGE (default 50)."`
}

// LintRules is a list of lint rule IDs.
type LintRules []string

// JSONSchema lists the rule IDs the spec loader knows.
func (LintRules) JSONSchema() *jsonschema.Schema {
	ids := make([]any, len(spec.LintRuleIDs))
	for i, id := range spec.LintRuleIDs {
		ids[i] = id
	}
	return &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string", Enum: ids}}
}

// Server is the `server:` section.
type Server struct {
	Name         string   `json:"name" jsonschema:"minLength=1" jsonschema_description:"The server's name in serverInfo (required)."`
	Title        string   `json:"title,omitempty" jsonschema_description:"A human-readable name for the server."`
	Version      Version  `json:"version" jsonschema_description:"The server's version in serverInfo (required), kept as written: 1.10 stays 1.10."`
	Description  string   `json:"description,omitempty" jsonschema_description:"What the server does, in serverInfo."`
	Instructions string   `json:"instructions,omitempty" jsonschema_description:"Sent in the initialize result: how to use the server, as a hint for the model."`
	WebsiteURL   string   `json:"websiteUrl,omitempty" jsonschema:"format=uri,pattern=^[Hh][Tt][Tt][Pp][Ss]?://" jsonschema_description:"The server's home page: an absolute http(s) URL."`
	Icons        []Icon   `json:"icons,omitempty" jsonschema_description:"Icons for the server."`
	Scopes       Scopes   `json:"scopes,omitempty" jsonschema_description:"The OAuth scopes a tool needs when it names none itself (resource-server mode over HTTP; see runtime.WithAuthorization)."`
	Caching      *Caching `json:"caching,omitempty" jsonschema_description:"Caching hints of the 2026-07-28 era (ttlMs, cacheScope): the default, and each list's."`
}

// Scopes is a list of OAuth scope names (RFC 6749 §3.3 scope-tokens).
type Scopes []string

// JSONSchema is a list of distinct scope-tokens.
func (Scopes) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", UniqueItems: true,
		Items: &jsonschema.Schema{Type: "string", Pattern: `^[\x21\x23-\x5B\x5D-\x7E]+$`}}
}

// CacheHint is a caching hint: how long and for whom a client may reuse a result.
type CacheHint struct {
	TTL   Duration `json:"ttl,omitempty" jsonschema_description:"How long a client may reuse the result: a Go duration such as 90s, 5m or 1h (sent as ttlMs; default 0)."`
	Scope string   `json:"scope,omitempty" jsonschema:"enum=public,enum=private" jsonschema_description:"Who may reuse it: public (shared caches too) or private (the client that asked; the default)."`
}

// Duration is a Go duration such as 90s, 5m or 1h, or 0.
type Duration struct{}

// JSONSchema accepts a string (the loader parses it) or the number 0.
func (Duration) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{OneOf: []*jsonschema.Schema{{Type: "string", MinLength: ptr(uint64(1))}, {Type: "integer", Enum: []any{0}}}}
}

// Caching is `server.caching`.
type Caching struct {
	TTL               Duration   `json:"ttl,omitempty" jsonschema_description:"The default ttl of every cacheable result (server/discover, the lists, resources/read): a Go duration such as 90s or 5m."`
	Scope             string     `json:"scope,omitempty" jsonschema:"enum=public,enum=private" jsonschema_description:"The default scope: public or private (the default)."`
	Tools             *CacheHint `json:"tools,omitempty" jsonschema_description:"The hint of tools/list."`
	Prompts           *CacheHint `json:"prompts,omitempty" jsonschema_description:"The hint of prompts/list."`
	Resources         *CacheHint `json:"resources,omitempty" jsonschema_description:"The hint of resources/list, and of the reads of resources without a cache of their own."`
	ResourceTemplates *CacheHint `json:"resourceTemplates,omitempty" jsonschema_description:"The hint of resources/templates/list."`
}

// Version is a scalar kept as written (1.0.0, or 2 or 1.5 read as YAML numbers).
type Version struct{}

// JSONSchema accepts any string or number.
func (Version) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string", MinLength: ptr(uint64(1))}, {Type: "number"}}}
}

// Icon is an MCP Icon.
type Icon struct {
	Src      string   `json:"src" jsonschema_description:"An http(s) URL or a data: URI (required)."`
	MimeType string   `json:"mimeType,omitempty" jsonschema_description:"The icon's MIME type, such as image/png."`
	Sizes    []string `json:"sizes,omitempty" jsonschema_description:"Sizes such as 48x48, or any for a scalable icon."`
	Theme    string   `json:"theme,omitempty" jsonschema:"enum=light,enum=dark" jsonschema_description:"The theme the icon is made for."`
}

// GoOptions is the `go:` section.
type GoOptions struct {
	Package string `json:"package" jsonschema:"pattern=^[A-Za-z_][A-Za-z0-9_]*$" jsonschema_description:"The generated package's name (required), such as ordersmcp."`
	Output  string `json:"output,omitempty" jsonschema_description:"Directory of the generated files, relative to the spec, with forward slashes (default: the spec's directory)."`
}

// Schema is a schema of the spec's type system. Which keys apply depends on
// the type; the loader refuses the others.
type Schema struct {
	Type     string `json:"type,omitempty" jsonschema:"enum=string,enum=integer,enum=number,enum=boolean,enum=array,enum=object,enum=map,enum=any" jsonschema_description:"The kind of value. May be left out when obvious: properties → object, items → array, values → map, enum → the type of its values. map is an object with free keys (see values); any is any JSON value."`
	Ref      string `json:"$ref,omitempty" jsonschema_description:"The name of a type under types: (not a JSON pointer). Recursion is allowed through an array, a map or nullable."`
	GoType   string `json:"goType,omitempty" jsonschema:"pattern=^\\S+\\.\\w+$" jsonschema_description:"An existing Go type, such as time.Time or github.com/acme/x/model.Order; its schema is reflected."`
	Title    string `json:"title,omitempty" jsonschema_description:"A short title, carried into the JSON Schema."`
	Desc     string `json:"description,omitempty" jsonschema_description:"What the value means; carried into the JSON Schema and the Go doc comment."`
	Nullable bool   `json:"nullable,omitempty" jsonschema:"default=false" jsonschema_description:"Also allow null (a *T in Go)."`
	Default  any    `json:"default,omitempty" jsonschema_description:"The default value: carried into the JSON Schema, and filled in when a client leaves the optional value out (on a template variable, only a query variable such as {?q})."`
	Examples []any  `json:"examples,omitempty" jsonschema_description:"Example values, carried into the JSON Schema."`
	Enum     []any  `json:"enum,omitempty" jsonschema:"minItems=1" jsonschema_description:"The allowed values: strings, integers or numbers. A named Go type with one constant per value."`

	Pattern   string `json:"pattern,omitempty" jsonschema_description:"Strings: a regular expression (RE2) the value matches."`
	Format    string `json:"format,omitempty" jsonschema_description:"Strings: a JSON Schema format, such as email, uri, uuid or date-time."`
	MinLength *int   `json:"minLength,omitempty" jsonschema:"minimum=0" jsonschema_description:"Strings: the least number of characters."`
	MaxLength *int   `json:"maxLength,omitempty" jsonschema:"minimum=0" jsonschema_description:"Strings: the most number of characters."`

	Minimum          *float64 `json:"minimum,omitempty" jsonschema_description:"Integers and numbers: the least value."`
	Maximum          *float64 `json:"maximum,omitempty" jsonschema_description:"Integers and numbers: the greatest value."`
	ExclusiveMinimum *float64 `json:"exclusiveMinimum,omitempty" jsonschema_description:"Integers and numbers: the value is greater than this."`
	ExclusiveMaximum *float64 `json:"exclusiveMaximum,omitempty" jsonschema_description:"Integers and numbers: the value is less than this."`
	MultipleOf       *float64 `json:"multipleOf,omitempty" jsonschema:"exclusiveMinimum=0" jsonschema_description:"Integers and numbers: the value is a multiple of this."`

	Items       *Schema `json:"items,omitempty" jsonschema_description:"Arrays: the schema of every item ([]T in Go)."`
	MinItems    *int    `json:"minItems,omitempty" jsonschema:"minimum=0" jsonschema_description:"Arrays: the least number of items."`
	MaxItems    *int    `json:"maxItems,omitempty" jsonschema:"minimum=0" jsonschema_description:"Arrays: the most number of items."`
	UniqueItems bool    `json:"uniqueItems,omitempty" jsonschema:"default=false" jsonschema_description:"Arrays: no two items are equal."`

	Properties           map[string]Schema    `json:"properties,omitempty" jsonschema_description:"Objects: the properties, in order (a Go struct). Those not in required are optional (runtime.Opt[T] in Go)."`
	Required             []string             `json:"required,omitempty" jsonschema:"uniqueItems=true" jsonschema_description:"Objects: the names of the required properties."`
	AdditionalProperties AdditionalProperties `json:"additionalProperties,omitempty" jsonschema_description:"Objects: true to accept keys that are not properties (closed by default). Maps (type: object without properties): the schema of every value."`
	Values               *Schema              `json:"values,omitempty" jsonschema_description:"Maps: the schema of every value (map[string]T in Go)."`

	MCPHeader string `json:"x-mcp-header,omitempty" jsonschema:"minLength=1,pattern=^[A-Za-z0-9!#$%&'*+.^_|~-]+$" jsonschema_description:"A string, integer or boolean property of a tool's input: the name of the HTTP header Mcp-Param-{name} that 2026-07-28 clients mirror the argument into, and the server checks."`
}

// AdditionalProperties is true or false beside properties, or the value
// schema of a map.
type AdditionalProperties struct{}

// JSONSchema accepts a boolean or a schema.
func (AdditionalProperties) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		OneOf:   []*jsonschema.Schema{{Type: "boolean"}, {Ref: "#/$defs/Schema"}},
		Default: false,
	}
}

// Tool is an entry of `tools:`.
type Tool struct {
	Title        string           `json:"title,omitempty" jsonschema_description:"A human-readable name for the tool."`
	Description  string           `json:"description" jsonschema:"minLength=1" jsonschema_description:"What the tool does, for the model (required: clients reject tools without one)."`
	Input        *Schema          `json:"input,omitempty" jsonschema_description:"The arguments: an object schema, or {$ref: Name} of a named object type. Absent: no arguments."`
	Output       *Schema          `json:"output,omitempty" jsonschema_description:"The structured result: any schema. Absent: the handler returns a *runtime.CallToolResult it builds itself."`
	InputSchema  *RawSchema       `json:"inputSchema,omitempty" jsonschema_description:"Instead of input: a raw JSON Schema 2020-12, advertised as written and validated; the handler gets json.RawMessage."`
	OutputSchema *RawSchema       `json:"outputSchema,omitempty" jsonschema_description:"Instead of output: a raw JSON Schema 2020-12, advertised as written and validated; the handler returns json.RawMessage."`
	Annotations  *ToolAnnotations `json:"annotations,omitempty" jsonschema_description:"Hints for hosts about the tool's behaviour."`
	Icons        []Icon           `json:"icons,omitempty" jsonschema_description:"Icons for the tool."`
	Meta         Meta             `json:"_meta,omitempty" jsonschema_description:"The tool's _meta object, sent as written."`
	UI           *ToolUI          `json:"ui,omitempty" jsonschema_description:"MCP Apps: the view (a ui:// resource) the host shows this tool's results in, and who may call the tool."`
	Permission   string           `json:"permission,omitempty" jsonschema:"enum=allow,enum=ask,enum=deny" jsonschema_description:"What mcpgen config grants the tool in client settings (default: from the annotations: read-only → allow, destructive → deny, else ask)."`
	LintDisable  LintRules        `json:"x-lint-disable,omitempty" jsonschema_description:"Lint rules skipped for this tool and its schemas."`
	Scopes       Scopes           `json:"scopes,omitempty" jsonschema_description:"The OAuth scopes a call of the tool needs over HTTP with authorization: a token without them gets 403 insufficient_scope (step-up). Absent: the server's scopes; []: none."`
	Idempotency  *Idempotency     `json:"idempotency,omitempty" jsonschema_description:"Deduplicate retries: the runtime runs the handler once per value of the key argument and answers retries with the first result."`
}

// Idempotency is a tool's `idempotency:`.
type Idempotency struct {
	Key string `json:"key" jsonschema:"minLength=1" jsonschema_description:"The name of a required top-level string property of the input, such as idempotency_key (required)."`
	TTL string `json:"ttl,omitempty" jsonschema:"pattern=^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$" jsonschema_description:"How long results are kept for retries: a Go duration such as 24h or 90m (default 24h)."`
}

// JSONSchemaExtend refuses input beside inputSchema, and output beside
// outputSchema.
func (Tool) JSONSchemaExtend(s *jsonschema.Schema) {
	s.AllOf = []*jsonschema.Schema{
		{Not: &jsonschema.Schema{Required: []string{"input", "inputSchema"}}},
		{Not: &jsonschema.Schema{Required: []string{"output", "outputSchema"}}},
	}
}

// RawSchema is a JSON Schema written out in full.
type RawSchema struct{}

// JSONSchema accepts any object; the loader checks it as a JSON Schema.
func (RawSchema) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Description: "A JSON Schema (draft 2020-12)."}
}

// Meta is a _meta object: any keys, any values.
type Meta struct{}

// JSONSchema accepts any object.
func (Meta) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object"}
}

// ToolAnnotations are MCP's tool hints.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty" jsonschema_description:"A human-readable name for the tool."`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty" jsonschema_description:"The tool does not change its environment (MCP's default: false)."`
	DestructiveHint *bool  `json:"destructiveHint,omitempty" jsonschema_description:"The tool may destroy or overwrite (MCP's default: true); meaningful when not read-only."`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty" jsonschema_description:"Calling it again with the same arguments has no further effect (MCP's default: false)."`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty" jsonschema_description:"The tool reaches outside entities, such as the web (MCP's default: true)."`
}

// Resource is an entry of `resources:`.
type Resource struct {
	URI         string               `json:"uri" jsonschema:"minLength=1" jsonschema_description:"The resource's absolute URI, such as config://app (required)."`
	Title       string               `json:"title,omitempty" jsonschema_description:"A human-readable name."`
	Description string               `json:"description,omitempty" jsonschema_description:"What the resource holds."`
	MimeType    string               `json:"mimeType,omitempty" jsonschema_description:"The MIME type of the content."`
	Size        *int                 `json:"size,omitempty" jsonschema:"minimum=0" jsonschema_description:"The size in bytes, if known."`
	Annotations *ResourceAnnotations `json:"annotations,omitempty" jsonschema_description:"Hints for clients: audience, priority, lastModified."`
	Icons       []Icon               `json:"icons,omitempty" jsonschema_description:"Icons for the resource."`
	Meta        Meta                 `json:"_meta,omitempty" jsonschema_description:"The resource's _meta object, sent as written."`
	Content     Content              `json:"content,omitempty" jsonschema_description:"What the handler returns: text (a string; the default), binary ([]byte, sent base64), contents ([]runtime.ResourceContents), or a schema (a typed value sent as its JSON)."`
	UI          *ResourceUI          `json:"ui,omitempty" jsonschema_description:"MCP Apps: makes the resource an HTML view (its uri must be ui://): where the HTML comes from, and its _meta.ui (CSP, permissions, domain, border)."`
	Cache       *CacheHint           `json:"cache,omitempty" jsonschema_description:"The caching hint of its reads in the 2026-07-28 era; what it leaves out comes from server.caching."`
	LintDisable LintRules            `json:"x-lint-disable,omitempty" jsonschema_description:"Lint rules skipped for this resource."`
}

// ResourceUI is the ui: key of an MCP App view.
type ResourceUI struct {
	HTML          string   `json:"html,omitempty" jsonschema:"minLength=1" jsonschema_description:"The view's HTML file, relative to the spec, embedded into the generated package. Absent: a handler method returns the HTML."`
	CSP           *AppCSP  `json:"csp,omitempty" jsonschema_description:"The origins the view may reach; absent: none (the host's restrictive default)."`
	Permissions   []string `json:"permissions,omitempty" jsonschema:"enum=camera,enum=microphone,enum=geolocation,enum=clipboardWrite,uniqueItems=true" jsonschema_description:"Browser permissions the view asks the host for; none by default, and lint warns on each."`
	Domain        string   `json:"domain,omitempty" jsonschema:"minLength=1" jsonschema_description:"A dedicated sandbox origin for the view, in the host's format."`
	PrefersBorder *bool    `json:"prefersBorder,omitempty" jsonschema_description:"Whether the host should draw a border around the view."`
}

// AppCSP is the ui.csp of a view: origins such as https://api.example.com.
type AppCSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty" jsonschema_description:"Origins for fetch, XHR and WebSocket (connect-src)."`
	ResourceDomains []string `json:"resourceDomains,omitempty" jsonschema_description:"Origins of images, scripts, styles, fonts and media."`
	FrameDomains    []string `json:"frameDomains,omitempty" jsonschema_description:"Origins of nested iframes (frame-src)."`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty" jsonschema_description:"Origins allowed in <base href> (base-uri)."`
}

// ToolUI is the ui: key of a tool.
type ToolUI struct {
	Resource   string   `json:"resource" jsonschema:"minLength=1" jsonschema_description:"The name (key under resources:) of the ui:// resource the tool is shown in (required)."`
	Visibility []string `json:"visibility,omitempty" jsonschema:"enum=model,enum=app,minItems=1,uniqueItems=true" jsonschema_description:"Who may call the tool: model, app or both (the default)."`
}

// ResourceAnnotations are MCP's annotations of a resource or template.
type ResourceAnnotations struct {
	Audience     []string `json:"audience,omitempty" jsonschema:"enum=user,enum=assistant" jsonschema_description:"Who the content is for: user, assistant or both."`
	Priority     *float64 `json:"priority,omitempty" jsonschema:"minimum=0,maximum=1" jsonschema_description:"How important the content is, from 0 (optional) to 1 (required)."`
	LastModified string   `json:"lastModified,omitempty" jsonschema_description:"When the content last changed, as an ISO 8601 date-time such as 2026-11-01T00:00:00Z."`
}

// Content is a word (text, binary, contents) or the schema of a typed value.
type Content struct{}

// JSONSchema accepts the three words or a schema.
func (Content) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		OneOf:   []*jsonschema.Schema{{Type: "string", Enum: []any{"text", "binary", "contents"}}, {Ref: "#/$defs/Schema"}},
		Default: "text",
	}
}

// ResourceTemplate is an entry of `resourceTemplates:`.
type ResourceTemplate struct {
	URITemplate string               `json:"uriTemplate" jsonschema:"minLength=1" jsonschema_description:"An RFC 6570 URI template, levels 1 to 3: {id}, {+path}, {/path*}, {.ext}, {?q,lang} (required)."`
	Title       string               `json:"title,omitempty" jsonschema_description:"A human-readable name."`
	Description string               `json:"description,omitempty" jsonschema_description:"What the resources hold."`
	MimeType    string               `json:"mimeType,omitempty" jsonschema_description:"The MIME type of the content."`
	Annotations *ResourceAnnotations `json:"annotations,omitempty" jsonschema_description:"Hints for clients: audience, priority, lastModified."`
	Icons       []Icon               `json:"icons,omitempty" jsonschema_description:"Icons for the template."`
	Meta        Meta                 `json:"_meta,omitempty" jsonschema_description:"The template's _meta object, sent as written."`
	Content     Content              `json:"content,omitempty" jsonschema_description:"What the handler returns: text (a string; the default), binary ([]byte, sent base64), contents ([]runtime.ResourceContents), or a schema (a typed value sent as its JSON)."`
	Variables   map[string]Variable  `json:"variables,omitempty" jsonschema_description:"The type of each template variable: a scalar schema (an array of scalars for an exploded {/path*}). Undeclared variables are strings."`
	Cache       *CacheHint           `json:"cache,omitempty" jsonschema_description:"The caching hint of the reads of its resources in the 2026-07-28 era; what it leaves out comes from server.caching."`
	LintDisable LintRules            `json:"x-lint-disable,omitempty" jsonschema_description:"Lint rules skipped for this template."`
}

// Variable is a template variable: a scalar schema, and `complete`.
type Variable struct {
	Schema
	Complete bool `json:"complete,omitempty" jsonschema:"default=false" jsonschema_description:"Generate a completion method for this variable (enum variables complete from their values without it)."`
}

// Prompt is an entry of `prompts:`.
type Prompt struct {
	Title       string                    `json:"title,omitempty" jsonschema_description:"A human-readable name."`
	Description string                    `json:"description" jsonschema:"minLength=1" jsonschema_description:"What the prompt is for (required)."`
	Icons       []Icon                    `json:"icons,omitempty" jsonschema_description:"Icons for the prompt."`
	Meta        Meta                      `json:"_meta,omitempty" jsonschema_description:"The prompt's _meta object, sent as written."`
	Arguments   map[string]PromptArgument `json:"arguments,omitempty" jsonschema_description:"The arguments, in order. MCP prompt arguments are strings."`
	Messages    []PromptMessage           `json:"messages,omitempty" jsonschema:"minItems=1" jsonschema_description:"Declarative messages, sent with their {{.arg}} placeholders filled: the prompt needs no code. Absent: the handler builds the messages."`
	LintDisable LintRules                 `json:"x-lint-disable,omitempty" jsonschema_description:"Lint rules skipped for this prompt and its arguments."`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Title       string   `json:"title,omitempty" jsonschema_description:"A human-readable name."`
	Description string   `json:"description,omitempty" jsonschema_description:"What the argument means."`
	Required    bool     `json:"required,omitempty" jsonschema:"default=false" jsonschema_description:"The client must give the argument."`
	Complete    bool     `json:"complete,omitempty" jsonschema:"default=false" jsonschema_description:"Generate a completion method for this argument (enum arguments complete from their values without it)."`
	Enum        []string `json:"enum,omitempty" jsonschema:"minItems=1" jsonschema_description:"The allowed values; others are refused before any code runs."`
}

// PromptMessage is one declarative message: a role and exactly one of text,
// resource, image or audio.
type PromptMessage struct {
	Role     string `json:"role" jsonschema:"enum=user,enum=assistant" jsonschema_description:"Who says it (required)."`
	Text     string `json:"text,omitempty" jsonschema_description:"Text with {{.arg}} placeholders."`
	Resource string `json:"resource,omitempty" jsonschema_description:"A URI (with {{.arg}} placeholders) read through the server and embedded."`
	Image    *Media `json:"image,omitempty" jsonschema_description:"An inline image."`
	Audio    *Media `json:"audio,omitempty" jsonschema_description:"An inline audio clip."`
}

// JSONSchemaExtend requires exactly one kind of content.
func (PromptMessage) JSONSchemaExtend(s *jsonschema.Schema) {
	for _, k := range []string{"text", "resource", "image", "audio"} {
		s.OneOf = append(s.OneOf, &jsonschema.Schema{Required: []string{k}})
	}
}

// Media is inline binary content.
type Media struct {
	Data     string `json:"data" jsonschema:"minLength=1" jsonschema_description:"The content in standard base64 (required)."`
	MimeType string `json:"mimeType" jsonschema:"minLength=1" jsonschema_description:"The content's MIME type, such as image/png (required)."`
}

func ptr[T any](v T) *T { return &v }
