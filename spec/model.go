// Package spec is the model of an mcpgen spec file (mcpgen.yaml): loading it
// from YAML with the position of every element, and validating it.
//
// The package knows YAML and the MCP vocabulary, and nothing of Go code: the
// generator (package gen) turns a validated *Spec into Go. Every element keeps
// the Pos of its YAML node so that every finding prints as file:line:col.
//
// The grammar is in one place: one table of keys per kind of mapping
// (grammar.go, and the tables beside each decoder), from which the decoder
// reads, unknown keys get their did-you-mean hints, and FormatMappings
// describes the format for mcpgen.schema.json. The fields that tools,
// resources, templates and prompts share are one embedded Item.
//
// A JSON Schema keyword of the typed schemas is declared once, in
// keywords.go: its name, the kinds it applies to, its reference text and,
// for a keyword holding one value, the Schema field that holds it. The
// decoder, the validator's check of misplaced keys, the wire writer
// (internal/specschema) and the generator's struct tags and
// JSONSchemaExtend (gen) read that table (ValueKeywords); adding a value
// keyword is its line there and its field in Schema.
package spec

import (
	"path"

	"github.com/mcpgen/mcpgen/internal/contract"
)

// Pos is a position in the spec file, 1-based. The zero Pos means "unknown".
type Pos struct {
	Line   int
	Column int
}

// Spec is a whole spec file. Slices keep the order of the file, which is also
// the order on the wire (tools/list is deterministic).
type Spec struct {
	// File is the path the spec was loaded from, as given to Load.
	File string

	// Version is the spec format version (the `mcpgen:` key); only 1 exists.
	Version    int
	VersionPos Pos

	Server Server
	Go     GoOptions

	// Types are the named types of the `types:` section.
	Types []*NamedType
	// Tools are the entries of the `tools:` section.
	Tools []*Tool
	// Resources are the static resources of the `resources:` section.
	Resources []*Resource
	// ResourceTemplates are the entries of `resourceTemplates:`.
	ResourceTemplates []*ResourceTemplate
	// Prompts are the entries of the `prompts:` section.
	Prompts []*Prompt
	// Toolsets are the entries of `toolsets:` (toolsets.go).
	Toolsets []*Toolset

	// Lint is the `lint:` section (rules `mcpgen lint` skips, and its
	// limits); nil when absent.
	Lint *LintConfig
	// Registry is the `registry:` section (for `mcpgen registry`); nil
	// when absent.
	Registry *RegistryConfig
	// Upstream is the `upstream:` section, the HTTP API that tools with
	// an http binding call (upstream.go); nil when absent.
	Upstream *Upstream
}

// LintConfig is the `lint:` section. Zero limits mean the defaults of
// `mcpgen lint`.
type LintConfig struct {
	Pos Pos
	// Disable lists lint rule IDs (see LintRuleIDs) that never report.
	Disable    []string
	DisablePos []Pos
	// MaxTools is the most tools before TOO_MANY_TOOLS.
	MaxTools    int
	MaxToolsPos Pos
	// MaxListItems is the most static resources before RESOURCE_LIST_LARGE.
	MaxListItems    int
	MaxListItemsPos Pos
}

// Server is the `server:` section: the MCP Implementation info plus
// instructions.
type Server struct {
	Pos          Pos
	Name         string
	Title        string
	Version      string
	Description  string
	Instructions string
	WebsiteURL   string
	Icons        []*Icon
	// Scopes are the OAuth scopes a tool needs when it declares none of its
	// own (`scopes:`), in resource-server mode over HTTP.
	Scopes Scopes
	// Caching is `caching:`, the 2026-07-28 caching hints; nil when absent.
	Caching *Caching
	// RateLimit is `rateLimit:`, a per-caller limit on the requests that
	// run server code; nil when absent.
	RateLimit *RateLimit
	// Toolsets is `toolsets:` (toolsets.go); nil when absent.
	Toolsets *ServerToolsets
	// ListByScope: with authorization, each caller's tools/list shows only
	// the tools its token's scopes allow (runtime.WithListsByScope).
	ListByScope bool
	// SchemaProfile is `schemaProfile:`, the model API (one of
	// SchemaProfiles) whose schema subset the advertised tool input
	// schemas keep to; "" for plain JSON Schema.
	SchemaProfile    string
	SchemaProfilePos Pos
	// Exposure is how tools/list shows the tools (Exposures): "all", or
	// "search" for search_tools, describe_tools and call_tool in their
	// place; "" when not said (all).
	Exposure    string
	ExposurePos Pos
	// Capabilities are `capabilities:`, the server capabilities advertised
	// even when the spec has nothing for them (AdvertisableCapabilities).
	Capabilities []string

	// InjectedArguments is `injectedArguments:` (InjectedArgumentPolicies):
	// what the server does with an argument a known client adds to every
	// tool call; "" when not said (drop).
	InjectedArguments    string
	InjectedArgumentsPos Pos

	// Positions of the values of name, version and websiteUrl, for
	// diagnostics about a bad value (zero when absent).
	NamePos       Pos
	VersionPos    Pos
	WebsiteURLPos Pos
}

// AdvertisableCapabilities are the values of server.capabilities.
var AdvertisableCapabilities = []string{"tools", "resources", "prompts", "completions"}

// InjectedArgumentPolicies are the values of server.injectedArguments
// (runtime.DropInjected, runtime.RejectInjected).
var InjectedArgumentPolicies = []string{"drop", "reject"}

// SchemaProfiles are the model APIs server.schemaProfile may name (see
// internal/specschema.Profiles, which implements them).
var SchemaProfiles = []string{"gemini", "openai-strict", "anthropic"}

// Icon is an MCP Icon: {src, mimeType, sizes, theme}.
type Icon struct {
	Pos      Pos
	Src      string
	MimeType string
	Sizes    []string
	Theme    string // "", "light" or "dark"

	// Positions of the values of src and theme (zero when absent).
	SrcPos   Pos
	ThemePos Pos
}

// GoOptions is the `go:` section.
type GoOptions struct {
	Pos     Pos
	Package string // name of the generated package
	// Output is the directory of the generated files, relative to the spec
	// file's directory; "" means the spec's own directory.
	Output string
	// Client is the directory of the typed client package (over the
	// official Go SDK's client), relative to the spec file's directory; ""
	// for none. `client: true` means Output + "client" beside the server
	// package. The client is its own package so that only code that imports
	// it depends on the SDK.
	Client string

	// Positions of the values of package, output and client (zero when absent).
	PackagePos Pos
	OutputPos  Pos
	ClientPos  Pos
}

// ClientPackage is the name of the typed client package: the last element
// of its directory.
func (g *GoOptions) ClientPackage() string {
	return path.Base(g.Client)
}

// NamedType is one entry of `types:`.
type NamedType struct {
	Pos    Pos    // position of the key
	Name   string // as written in the spec, e.g. OrderID
	Schema *Schema
}

// Kind is the kind of value a Schema describes.
type Kind string

// The kinds of the type system. A Schema's Kind is written with `type:` or
// inferred (properties → object, items → array, $ref → ref, goType → go,
// enum → the type of its values).
const (
	KindString  Kind = "string"
	KindInteger Kind = "integer"
	KindNumber  Kind = "number"
	KindBoolean Kind = "boolean"
	KindArray   Kind = "array"
	// KindObject has fixed Properties. AdditionalProperties says whether
	// other keys are accepted (false by default: a typo never passes);
	// OpenAs, how an open object's JSON Schema says so.
	// {type: object} alone, without properties, is any object (IsFreeObject).
	KindObject Kind = "object"
	// KindMap is an object with free keys whose values all follow Values:
	// written `{type: object, additionalProperties: {…schema…}}` with no
	// properties, or `{type: map, values: {…}}`.
	KindMap Kind = "map"
	// KindAny is any JSON value (raw JSON in Go).
	KindAny Kind = "any"
	// KindRef refers to a named type by name ($ref).
	KindRef Kind = "ref"
	// KindGoType refers to an existing Go type (goType: "import/path.Name").
	KindGoType Kind = "go"
	// KindUnion is one of several schemas (Variants): written `anyOf:`,
	// `oneOf:` or as a list of types (`type: [string, number]`).
	KindUnion Kind = "union"
)

// The ways a union is written, which its JSON Schema repeats.
const (
	UnionAnyOf    = "anyOf"
	UnionOneOf    = "oneOf"
	UnionTypeList = "type"
)

// Schema is a type in the spec's type system. Constraints that do not apply
// to the Kind are rejected by validation, never silently kept.
type Schema struct {
	Pos  Pos // position of the schema's mapping (or scalar)
	Kind Kind

	// KindRef: the referenced named type, and the position of the $ref value.
	Ref    string
	RefPos Pos

	// KindGoType: the referenced Go type.
	GoType *GoTypeRef

	// Dialect is `$schema`, at the root of a tool's input or output: the
	// JSON Schema dialect's URI, advertised as written.
	Dialect string

	Title       string
	Description string
	// Nullable allows JSON null besides the Kind.
	Nullable bool
	// NullSpelling is how the JSON Schema says null, as the spec wrote it:
	// "" for `nullable: true` ({"oneOf":[T,{"type":"null"}]}), UnionAnyOf
	// or UnionOneOf for a {type: null} variant (at NullAt among the
	// variants), UnionTypeList for "null" in a list of types (at NullAt).
	NullSpelling string
	NullAt       int
	// Default and Examples are JSON values written in YAML.
	Default  *Value
	Examples []*Value
	// Enum lists the allowed values of a string, integer or number.
	Enum []*Value
	// Const says the schema was written `const: X`: Enum holds X alone,
	// and the JSON Schema says "const" as written, not "enum".
	Const bool

	// GoName is `goName:`, the Go identifier the spec chooses where the
	// derived one would not do: a named type's or an item's type name, a
	// property's or a union variant's field name. "" derives it.
	GoName string
	// EnumGoNames is `goNames:` of an enum: the text of a value ("+1",
	// "fast") → the Go name of its constant after the type's name.
	EnumGoNames map[string]string

	// MCPHeader is `x-mcp-header`: on a string, integer or boolean property
	// of a tool's input, the name of the HTTP header (Mcp-Param-{name})
	// that mirrors the argument in the 2026-07-28 era.
	MCPHeader string

	// Strings.
	Pattern   string
	Format    string
	MinLength *int64
	MaxLength *int64

	// Integers and numbers. Numbers are kept as written (decimal text) so
	// that no bound is rounded.
	Minimum          *Number
	Maximum          *Number
	ExclusiveMinimum *Number
	ExclusiveMaximum *Number
	MultipleOf       *Number

	// Arrays.
	Items       *Schema
	MinItems    *int64
	MaxItems    *int64
	UniqueItems bool

	// Objects. Required is a property's own flag, filled from the object's
	// `required:` list.
	Properties           []*Property
	AdditionalProperties bool
	// OpenAs is how the JSON Schema of an open object (AdditionalProperties
	// true) says so, as the spec wrote additionalProperties, so that an
	// imported server's schema is advertised as the server wrote it.
	OpenAs OpenSpelling

	// Maps: the schema of every value.
	Values *Schema

	// PropertyNames is `propertyNames: {type: string}` on an object or a
	// map: it constrains nothing (every JSON key is a string), and is kept
	// to be advertised as written.
	PropertyNames *Value

	// Unions: the variants in the order written (a {type: null} variant
	// is not one: it makes the union Nullable), and how the union was
	// written (UnionAnyOf, UnionOneOf or UnionTypeList).
	Variants     []*Schema
	UnionKeyword string
	// Discriminator is `discriminator:`, the property whose const value
	// says which variant an object is; "" lets the generator find one.
	// It decides decoding only, and is not advertised.
	Discriminator string

	// Fields lists the keys present in the schema's YAML mapping with their
	// positions, for diagnostics that point at a key.
	Fields map[string]Pos
	// FieldValues holds the positions of the values of those keys, for
	// diagnostics about a bad value (a pattern that does not compile).
	FieldValues map[string]Pos
}

// IsFreeObject reports whether s is {type: object} alone: any object, with
// no properties of its own (map[string]json.RawMessage in Go).
func (s *Schema) IsFreeObject() bool {
	return s.Kind == KindObject && len(s.Properties) == 0 && s.AdditionalProperties && s.Fields["properties"] == (Pos{})
}

// OpenSpelling is how an open object's JSON Schema says it accepts keys
// that are not properties; each means the same to a validator.
type OpenSpelling string

const (
	// OpenTrue is `additionalProperties: true`, advertised when written.
	OpenTrue OpenSpelling = ""
	// OpenUnsaid is `additionalProperties: null`: no key advertised, JSON
	// Schema's default.
	OpenUnsaid OpenSpelling = "unsaid"
	// OpenEmpty is `additionalProperties: {}` beside properties: the
	// schema that accepts any value, advertised as {}.
	OpenEmpty OpenSpelling = "{}"
)

// Property is one property of an object schema.
type Property struct {
	Pos      Pos // position of the key
	Name     string
	Schema   *Schema
	Required bool
}

// GoTypeRef names an existing Go type, e.g. "time.Time" or
// "github.com/acme/orders/model.Order".
type GoTypeRef struct {
	Pos        Pos
	ImportPath string // "time"
	Name       string // "Time"
}

// Number is a JSON number as written in the spec (e.g. "10", "0.5", "-3e2").
type Number string

// Value is a JSON value written in YAML (a default, an example, an enum value,
// a _meta object), converted to JSON with the key order of the file.
type Value struct {
	Pos  Pos
	JSON []byte
}

// Item is what every tool, resource, resource template and prompt has: its
// name, the key under its section (e.g. lookup_order), and MCP's fields
// that describe it to clients.
type Item struct {
	Pos         Pos // position of the key
	Name        string
	Title       string
	Description string
	// DescriptionPos is the position of the description value (zero when
	// absent).
	DescriptionPos Pos
	Icons          []*Icon
	// Meta is the `_meta` object, if any.
	Meta *Value
	// GoName is `goName:`, the Go spelling of Name for its handler method,
	// name constant and types; "" derives it from Name.
	GoName string
	// Requires is `requires:`, the client capabilities it is listed for
	// (requires.go); nil: any client.
	Requires *Requires
}

// item gives the table of each section's keys (grammar.go) one way to the
// keys they share.
func (it *Item) item() *Item { return it }

// Tool is one entry of `tools:`.
type Tool struct {
	Item
	// Input is the arguments object: an object schema or a $ref to a named
	// object type. Nil means the tool takes no arguments.
	Input *Schema
	// Output is the structured result. Nil means the handler returns content
	// itself. It may be of any kind (SEP-2106); where the negotiated protocol
	// wants an object, the runtime says so.
	Output *Schema
	// InputSchema and OutputSchema are raw JSON Schemas (2020-12), written
	// instead of input or output for what the type system cannot say
	// (allOf, if/then/else, $anchor, …). They are advertised as written;
	// the handler gets and returns raw JSON, validated against them.
	InputSchema  *Value
	OutputSchema *Value
	Annotations  *ToolAnnotations
	// Execution is MCP's `execution` of the tool (whether it runs as a
	// task), advertised as written; nil when absent.
	Execution *ToolExecution
	// UI links the tool to an MCP App view (apps.go); nil for none.
	UI *ToolUI

	// Idempotency is the `idempotency:` mapping (a key argument that
	// deduplicates retries); nil when absent.
	Idempotency *Idempotency
	// ResultBudget is maxResultBytes, onOverflow and resultTTL
	// (resultbudget.go); nil when none is written.
	ResultBudget *ResultBudget
	// Keywords are `keywords:`, words a user may say for the tool that its
	// name, title and description do not use: search exposure searches
	// them; they are not advertised.
	Keywords []string
	// RateLimit is `rateLimit:`, a per-caller limit on the tool's calls;
	// nil when absent.
	RateLimit *RateLimit

	// Permission is what `mcpgen config` grants the tool in client
	// settings: "allow", "ask" or "deny"; "" derives it from the
	// annotations (read-only → allow, destructive → deny, else ask).
	Permission    string
	PermissionPos Pos
	// LintDisable lists lint rule IDs skipped for this tool and its
	// schemas (`x-lint-disable:`), with the position of each.
	LintDisable    []string
	LintDisablePos []Pos
	// Scopes are the OAuth scopes a call of the tool needs (`scopes:`);
	// when absent, the server's default scopes apply (see Spec.ToolScopes).
	Scopes Scopes
	// HTTP is the `http:` binding: the upstream request gen writes for the
	// tool (upstream.go); nil when the handler serves it.
	HTTP *HTTPBinding
}

// Scopes is a `scopes:` list of OAuth scope names. Set tells an empty list
// (`scopes: []`, no scope needed) from an absent key.
type Scopes struct {
	Set   bool
	Pos   Pos // of the list
	Names []string
	// NamePos holds the position of each name.
	NamePos []Pos
}

// ToolScopes returns the scopes a call of t needs: its own when it
// declares them, else the server's default scopes.
func (s *Spec) ToolScopes(t *Tool) []string {
	if t.Scopes.Set {
		return t.Scopes.Names
	}
	return s.Server.Scopes.Names
}

// ToolAnnotations are the MCP tool hints. Nil pointers are "not said".
type ToolAnnotations struct {
	Pos             Pos
	Title           string
	ReadOnlyHint    *bool
	DestructiveHint *bool
	IdempotentHint  *bool
	OpenWorldHint   *bool
	// Extra are the keys outside MCP's hints, in the order written,
	// advertised as written (servers in the field add their own); a key
	// that is a near miss of a hint is refused as a typo instead.
	Extra []*AnnotationExtra
}

// AnnotationExtra is one key of a tool's annotations outside MCP's set.
type AnnotationExtra struct {
	Pos   Pos // of the key
	Key   string
	Value *Value
}

// ToolExecution is MCP's execution properties of a tool.
type ToolExecution struct {
	Pos Pos
	// TaskSupport is "forbidden", "optional" or "required" (TaskSupports);
	// "" when not said.
	TaskSupport    string
	TaskSupportPos Pos
	// InputFirst (mcpgen's, not advertised): in 2026-07-28 the input the
	// handler asks for first is gathered with input_required rounds before
	// the call becomes a task (runtime.ToolExecution.InputFirst).
	InputFirst    bool
	InputFirstPos Pos
}

// Exposures are the values of server.exposure and of a toolset's exposure.
var Exposures = []string{"all", "search"}

// SearchToolNames are the tools search exposure lists: no tool of the spec
// may have their names when server.exposure or a toolset's is search.
var SearchToolNames = contract.SearchToolNames

// TaskSupports are the values of a tool's execution.taskSupport.
var TaskSupports = []string{"forbidden", "optional", "required"}

// Resource is one entry of `resources:`: a static resource with a fixed URI.
type Resource struct {
	Item
	URI      string // absolute URI, e.g. config://app
	URIPos   Pos
	MimeType string
	// Size is the size in bytes, if declared.
	Size        *int64
	Annotations *Annotations
	// Content says what the handler returns; never nil after Load (the
	// default is text).
	Content *Content
	// UI is the `ui:` key of an MCP App view (apps.go); nil for none.
	UI *ResourceUI
	// AsTemplate, when set (`asTemplate:`), also lists the resource in
	// resources/templates/list under this name, as a template of its URI
	// without variables (runtime.FixedTemplate).
	AsTemplate    string
	AsTemplatePos Pos
	// Cache is the caching hint of its reads (`cache:`), or nil.
	Cache *CacheHint

	// Positions of the values of mimeType and size (zero when absent).
	MimeTypePos Pos
	SizePos     Pos

	// LintDisable lists lint rule IDs skipped for this resource.
	LintDisable    []string
	LintDisablePos []Pos
}

// Annotations are the MCP annotations of a resource, template or content.
type Annotations struct {
	Pos          Pos
	Audience     []string // "user", "assistant"
	Priority     *Number  // 0..1
	LastModified string   // ISO 8601 / RFC 3339

	// Positions of each audience value, and of the values of priority and
	// lastModified (nil or zero when absent, or when built in Go).
	AudiencePos     []Pos
	PriorityPos     Pos
	LastModifiedPos Pos
}

// ContentKind is what a resource handler returns, which decides the
// contents of resources/read (seed 001's table).
type ContentKind string

const (
	// ContentText: the handler returns a string → a text content with the
	// declared mimeType, else text/plain.
	ContentText ContentKind = "text"
	// ContentBinary: the handler returns bytes → a base64 blob with the
	// declared mimeType, else application/octet-stream.
	ContentBinary ContentKind = "binary"
	// ContentJSON: the handler returns a typed value (Content.Schema) → its
	// JSON, as application/json.
	ContentJSON ContentKind = "json"
	// ContentContents: the handler returns the list of contents itself.
	ContentContents ContentKind = "contents"
)

// Content is the `content:` key of a resource or template: a word (text,
// binary, contents) or a schema (the typed value returned as JSON).
type Content struct {
	Pos    Pos
	Kind   ContentKind
	Schema *Schema // ContentJSON only
}

// ResourceTemplate is one entry of `resourceTemplates:`.
type ResourceTemplate struct {
	Item
	URITemplate    string // RFC 6570, e.g. github://{owner}/{repo}/readme
	URITemplatePos Pos
	MimeType       string
	Annotations    *Annotations
	// Variables are the template's variables, in the order they appear in
	// the URI template, each typed by its declaration under `variables:`
	// (a plain string when undeclared). A declared variable the template
	// lacks is reported, and follows the others.
	Variables []*Variable
	// Content is as for a Resource; never nil after Load.
	Content *Content
	// Cache is the caching hint of the reads of its resources, or nil.
	Cache *CacheHint

	// Position of the value of mimeType (zero when absent).
	MimeTypePos Pos

	// LintDisable lists lint rule IDs skipped for this template.
	LintDisable    []string
	LintDisablePos []Pos
}

// Variable is one variable of a URI template.
type Variable struct {
	Pos    Pos // position of its declaration key (or of the uriTemplate when undeclared)
	Name   string
	Schema *Schema // a scalar (string, integer, number, boolean, enum); an array of scalars for an exploded {/path*}
	// Complete asks for a generated completion method for this variable.
	// Enum variables complete from their values without it.
	Complete bool
}

// Prompt is one entry of `prompts:`.
type Prompt struct {
	Item
	Arguments []*PromptArgument
	// EmptyArguments is set by `arguments: {}` written out: prompts/list
	// advertises "arguments": [], where no key advertises none.
	EmptyArguments bool
	// Messages, when present, make the prompt declarative: no handler
	// method, the runtime fills the placeholders. Empty means the handler
	// builds the messages.
	Messages []*PromptMessage

	// LintDisable lists lint rule IDs skipped for this prompt and its
	// arguments.
	LintDisable    []string
	LintDisablePos []Pos
}

// PromptArgument is one argument of a prompt. MCP prompt arguments are
// strings; Enum restricts the values (and completes them).
type PromptArgument struct {
	Pos         Pos
	Name        string
	Title       string
	Description string
	Required    bool
	// ExplicitOptional is set by `required: false` written out: it is
	// advertised as written, where no `required` key advertises none.
	ExplicitOptional bool
	Enum             []string
	Complete         bool

	// EnumPos holds the position of each Enum value (nil when built in Go).
	EnumPos []Pos
}

// PromptMessage is one declarative message: exactly one of Text, Resource,
// Image or Audio is set. Text and Resource may hold {{.arg}} placeholders,
// each naming an argument.
type PromptMessage struct {
	Pos      Pos
	Role     string // "user" or "assistant"
	Text     string
	Resource string // a URI (with placeholders) read through the server and embedded
	Image    *Media
	Audio    *Media

	// Positions of the values of role, text and resource (zero when
	// absent).
	RolePos     Pos
	TextPos     Pos
	ResourcePos Pos
}

// Media is inline binary content of a declarative message.
type Media struct {
	Pos      Pos
	Data     []byte // decoded from base64 in the spec
	MimeType string

	// Positions of the values of data and mimeType (zero when absent).
	DataPos     Pos
	MimeTypePos Pos
}
