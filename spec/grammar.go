package spec

import (
	"encoding/json"
	"slices"

	"gopkg.in/yaml.v3"
)

// The grammar of the spec format lives in one table per kind of mapping (the
// root, server, a tool, an icon, a schema, …): for each key, what it means,
// the JSON Schema of its value, and how the decoder reads it. The decoder
// dispatches on these tables, unknown-key messages draw their did-you-mean
// suggestions from them, and `mcpgen schema` (internal/specformat) builds
// mcpgen.schema.json from them through FormatMappings. Adding a key is one
// line in one table.

// field is one key of a mapping that decodes into a T.
type field[T any] struct {
	key string
	// required: mcpgen.schema.json requires the key. The loader reports a
	// missing one in its own words (validate*.go).
	required bool
	// doc is the key's description in mcpgen.schema.json.
	doc string
	// schema is the JSON Schema of the value (without its description);
	// "#/$defs/Name" refers to another entry of FormatMappings.
	schema string
	decode func(d *decoder, into T, e entry)
}

// fields is the table of the keys of one kind of mapping, in the order of
// the reference (and of did-you-mean ties).
type fields[T any] []field[T]

// keys lists the table's keys in order.
func (fs fields[T]) keys() []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.key
	}
	return out
}

// find returns the field of key, or nil.
func (fs fields[T]) find(key string) *field[T] {
	for i := range fs {
		if fs[i].key == key {
			return &fs[i]
		}
	}
	return nil
}

// decodeMapping decodes the entries of mapping m into `into` through fs in
// file order; an entry whose key is not in fs goes to unknown.
func decodeMapping[T any](d *decoder, m *yaml.Node, into T, fs fields[T], unknown func(entry)) {
	for _, e := range d.entries(m, "key") {
		if f := fs.find(e.key); f != nil {
			f.decode(d, into, e)
		} else {
			unknown(e)
		}
	}
}

// unknownKey reports a key that is not in the table of its mapping, with the
// nearest valid key as a hint.
func (d *decoder) unknownKey(e entry, where string, valid []string) {
	hint := didYouMean(e.key, valid)
	if hint == "" {
		hint = commaHint(e)
	}
	d.errorf(posOf(e.keyNode), "unknown key %q %s%s", e.key, where, hint)
}

// unknownKeyOr is unknownKey with hints for keys that have a known meaning
// elsewhere.
func (d *decoder) unknownKeyOr(e entry, where string, valid []string, hints map[string]string) {
	if hint, ok := hints[e.key]; ok {
		d.errorf(posOf(e.keyNode), "unknown key %q %s%s", e.key, where, hint)
		return
	}
	d.unknownKey(e, where, valid)
}

// FormatKey describes one key of a mapping of the spec format.
type FormatKey struct {
	Name     string
	Doc      string // one or two sentences, for editors
	Schema   string // the JSON Schema of the value, without Doc
	Required bool
}

// FormatMapping describes one kind of value of the spec format, by its name
// in mcpgen.schema.json's $defs ("" for the document itself). A mapping has
// Keys, and no other key is accepted; Schema then holds what the keys cannot
// say (oneOf, allOf). A value that is not a mapping of fixed keys (a
// duration, content, a list of lint rules) has Schema only.
type FormatMapping struct {
	Name   string
	Keys   []FormatKey
	Schema string
}

// FormatMappings describes the spec format for tools that document it
// (internal/specformat builds mcpgen.schema.json from it): the document
// first, then every named kind of value. It is read from the tables the
// decoder uses, so the two cannot disagree.
func FormatMappings() []FormatMapping {
	schema := formatKeys(schemaFields)
	return []FormatMapping{
		{Name: "", Keys: formatKeys(topFields)},
		{Name: "Server", Keys: formatKeys(serverFields)},
		{Name: "Go", Keys: formatKeys(goFields)},
		{Name: "Icon", Keys: formatKeys(iconFields)},
		{Name: "Scopes", Schema: `{"type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$"}}`},
		{Name: "Caching", Keys: formatKeys(cachingFields)},
		{Name: "CacheHint", Keys: formatKeys(cacheHintFields)},
		{Name: "Duration", Schema: `{"oneOf":[{"type":"string","minLength":1},{"type":"integer","enum":[0]}]}`},
		{Name: "Version", Schema: `{"anyOf":[{"type":"string","minLength":1},{"type":"number"}]}`},
		{Name: "Toolset", Keys: formatKeys(toolsetFields)},
		{Name: "ServerToolsets", Keys: formatKeys(serverToolsetFields)},
		{Name: "Lint", Keys: formatKeys(lintFields)},
		{Name: "Registry", Keys: formatKeys(registryFields)},
		{Name: "LintRules", Schema: `{"type":"array","items":` + stringEnum(LintRuleIDs) + `}`},
		{Name: "Schema", Keys: schema},
		{Name: "AdditionalProperties", Schema: `{"oneOf":[{"type":"boolean"},{"type":"null"},{"$ref":"#/$defs/Schema"}],"default":false}`},
		{Name: "Tool", Keys: formatKeys(toolFields), Schema: `{"allOf":[{"not":{"required":["input","inputSchema"]}},{"not":{"required":["output","outputSchema"]}}]}`},
		{Name: "RawSchema", Schema: `{"type":"object","description":"A JSON Schema (draft 2020-12)."}`},
		{Name: "Meta", Schema: `{"type":"object"}`},
		{Name: "ToolAnnotations", Keys: formatKeys(toolAnnotationFields)},
		{Name: "ToolExecution", Keys: formatKeys(toolExecutionFields)},
		{Name: "ToolUI", Keys: formatKeys(toolUIFields)},
		{Name: "Requires", Keys: formatKeys(requiresFields)},
		{Name: "Idempotency", Keys: formatKeys(idempotencyFields)},
		{Name: "RateLimit", Keys: formatKeys(rateLimitFields)},
		{Name: "Resource", Keys: formatKeys(resourceFields)},
		{Name: "ResourceUI", Keys: formatKeys(resourceUIFields)},
		{Name: "AppCSP", Keys: formatKeys(cspFields)},
		{Name: "Annotations", Keys: formatKeys(annotationFields)},
		{Name: "Content", Schema: `{"oneOf":[` + stringEnum(contentWords) + `,{"$ref":"#/$defs/Schema"}],"default":"text"}`},
		{Name: "ResourceTemplate", Keys: formatKeys(templateFields)},
		// A variable is a schema with `complete` beside its keys.
		{Name: "Variable", Keys: append(slices.Clip(schema), formatKeys(variableFields)...)},
		{Name: "Prompt", Keys: formatKeys(promptFields)},
		{Name: "Argument", Keys: formatKeys(argumentFields)},
		{Name: "Message", Keys: formatKeys(messageFields), Schema: `{"oneOf":[{"required":["text"]},{"required":["resource"]},{"required":["image"]},{"required":["audio"]}]}`},
		{Name: "Media", Keys: formatKeys(mediaFields)},
		{Name: "Upstream", Keys: formatKeys(upstreamFields)},
		{Name: "UpstreamAuth", Keys: formatKeys(upstreamAuthFields), Schema: `{"minProperties":1,"maxProperties":1}`},
		{Name: "APIKeyAuth", Keys: formatKeys(apiKeyAuthFields)},
		{Name: "BearerAuth", Keys: formatKeys(bearerAuthFields)},
		{Name: "ClientCredentialsAuth", Keys: formatKeys(clientCredentialsAuthFields)},
		{Name: "HTTPBinding", Keys: formatKeys(httpBindingFields)},
		{Name: "HTTPParam", Keys: formatKeys(httpParamFields)},
		{Name: "AWSQuery", Keys: formatKeys(awsQueryFields)},
	}
}

func formatKeys[T any](fs fields[T]) []FormatKey {
	out := make([]FormatKey, len(fs))
	for i, f := range fs {
		out[i] = FormatKey{Name: f.key, Doc: f.doc, Schema: f.schema, Required: f.required}
	}
	return out
}

// stringEnum is the JSON Schema of a string that is one of values.
func stringEnum(values []string) string {
	b, _ := json.Marshal(values) // a []string always marshals
	return `{"type":"string","enum":` + string(b) + `}`
}

// listOf is the JSON Schema of a list of items.
func listOf(items string) string {
	return `{"type":"array","items":` + items + `}`
}

// The JSON Schemas that recur in the tables.
const (
	stringSchema    = `{"type":"string"}`
	nonEmptyString  = `{"type":"string","minLength":1}`
	booleanSchema   = `{"type":"boolean"}`
	flagSchema      = `{"type":"boolean","default":false}` // a boolean that is false unless said
	iconsSchema     = `{"type":"array","items":{"$ref":"#/$defs/Icon"}}`
	metaSchema      = `{"$ref":"#/$defs/Meta"}`
	lintRulesSchema = `{"$ref":"#/$defs/LintRules"}`
)

// defRef is the JSON Schema that refers to the $defs entry name.
func defRef(name string) string { return `{"$ref":"#/$defs/` + name + `"}` }

// mapOf is the JSON Schema of a mapping of free keys whose values are each
// an items.
func mapOf(items string) string {
	return `{"type":"object","additionalProperties":` + items + `}`
}

// namedMapOf is mapOf with keys that match pattern.
func namedMapOf(items, pattern string) string {
	p, _ := json.Marshal(pattern) // a string always marshals
	return `{"type":"object","additionalProperties":` + items + `,"propertyNames":{"pattern":` + string(p) + `}}`
}
