package specschema

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// A Profile is the part of JSON Schema one model API takes in a function's
// (a tool's) parameters, as its provider documents it: what it rejects
// outright or silently ignores. Check finds what a schema uses beyond it;
// Apply rewrites a schema into it, for the schemas a server advertises
// (server.schemaProfile in the spec), while the server keeps validating
// arguments against the spec's own schema.
type Profile struct {
	Name   string
	Source string // the provider's documentation of these limits
	// keywords are the schema keywords the API takes.
	keywords []string
	// formats are the string formats it takes; nil: any.
	formats []string
	// nullable: null is said with "nullable": true (OpenAPI 3.0), not with
	// a union with {"type": "null"} or a list of types.
	nullable bool
	// noRecursion: no definition may reach itself.
	noRecursion bool
	// closed: every object must say "additionalProperties": false.
	closed bool
	// allRequired: every property must be listed in required.
	allRequired bool
	// rootObject: the root must be an object, and not a union.
	rootObject bool
	// stringEnums: enum values must be strings.
	stringEnums bool
	// maxMinItems is the largest minItems taken; -1: any.
	maxMinItems int64
	// maxDepth, maxProperties and maxEnumValues bound the schema's nesting
	// of objects, its properties and its enum values in all; 0: no bound.
	maxDepth, maxProperties, maxEnumValues int
}

// Profiles are the model APIs mcpgen knows, by the name the spec's
// server.schemaProfile and `mcpgen lint --profile` use (spec.SchemaProfiles
// lists the same names).
var Profiles = []*Profile{
	{
		// Gemini's FunctionDeclaration.parameters is a Schema object, "a
		// select subset of an OpenAPI 3.0 schema object".
		Name:   "gemini",
		Source: "https://ai.google.dev/api/caching#Schema",
		keywords: []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
			"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern",
			"example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"},
		formats:     []string{"enum", "date-time", "int32", "int64", "float", "double"},
		nullable:    true,
		noRecursion: true,
		stringEnums: true,
		maxMinItems: -1,
	},
	{
		// OpenAI's function calling with "strict": true takes the subset
		// of Structured Outputs.
		Name:   "openai-strict",
		Source: "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
		keywords: []string{"type", "properties", "required", "additionalProperties", "items", "enum", "const",
			"anyOf", "$ref", "$defs", "title", "description", "pattern", "format", "multipleOf", "maximum",
			"exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems"},
		formats:       []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"},
		closed:        true,
		allRequired:   true,
		rootObject:    true,
		maxMinItems:   -1,
		maxDepth:      10,
		maxProperties: 5000,
		maxEnumValues: 1000,
	},
	{
		// Anthropic's strict tool use ("strict": true) takes the subset of
		// its structured outputs.
		Name:   "anthropic",
		Source: "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations",
		keywords: []string{"type", "properties", "required", "additionalProperties", "items", "enum", "const",
			"anyOf", "allOf", "$ref", "$defs", "title", "description", "pattern", "format", "minItems"},
		formats:     []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"},
		noRecursion: true,
		closed:      true,
		maxMinItems: 1,
	},
}

// ProfileNamed returns the profile called name, or nil.
func ProfileNamed(name string) *Profile {
	for _, p := range Profiles {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// ProfileFinding is one thing of a schema its profile does not take.
type ProfileFinding struct {
	Path    string // a JSON Pointer into the schema ("" is the root)
	Rule    string // what kind of thing: keyword, format, open-object, …
	Message string
	// Fixable: Apply rewrites it into something the API takes (inlined,
	// or said in the description: the server still enforces it). The
	// others change what the schema accepts, so the spec must change.
	Fixable bool
}

func (f ProfileFinding) String() string {
	at := f.Path
	if at == "" {
		at = "the root"
	}
	return at + ": " + f.Message
}

// Check lists what the schema doc uses that the profile does not take.
func (p *Profile) Check(doc []byte) ([]ProfileFinding, error) {
	v, err := decodeOrdered(doc)
	if err != nil {
		return nil, err
	}
	root, _ := v.(object)
	c := &checker{p: p, recursive: recursiveDefs(root)}
	c.schema(root, "", 0)
	if p.rootObject {
		if t, _ := root.get("type"); t != "object" {
			c.add("", "root", false, "the root must be an object")
		}
		if _, ok := root.get("anyOf"); ok {
			c.add("", "root", false, "the root must not be anyOf")
		}
	}
	if p.maxProperties > 0 && c.properties > p.maxProperties {
		c.add("", "size", false, "%d properties in all; the API takes %d", c.properties, p.maxProperties)
	}
	if p.maxEnumValues > 0 && c.enumValues > p.maxEnumValues {
		c.add("", "size", false, "%d enum values in all; the API takes %d", c.enumValues, p.maxEnumValues)
	}
	return c.found, nil
}

type checker struct {
	p                      *Profile
	recursive              map[string]bool // $defs that reach themselves
	found                  []ProfileFinding
	properties, enumValues int
	deepest                bool // maxDepth reported once
}

func (c *checker) add(path, rule string, fixable bool, format string, args ...any) {
	c.found = append(c.found, ProfileFinding{Path: path, Rule: rule, Message: fmt.Sprintf(format, args...), Fixable: fixable})
}

// schema checks the schema s at path; depth counts the objects around it.
func (c *checker) schema(s object, path string, depth int) {
	p := c.p
	if t, _ := s.get("type"); t == "object" {
		depth++
		if p.maxDepth > 0 && depth > p.maxDepth && !c.deepest {
			c.deepest = true
			c.add(path, "size", false, "objects nested %d deep; the API takes %d", depth, p.maxDepth)
		}
		if ap, _ := s.get("additionalProperties"); p.closed && ap != false {
			c.add(path, "open-object", false, "an object that takes other keys than its properties (a map, or additionalProperties not false); the API wants additionalProperties: false on every object")
		}
		if p.allRequired {
			req, _ := s.get("required")
			props, _ := s.get("properties")
			for _, m := range asObject(props) {
				if !slices.Contains(asAnys(req), any(m.key)) {
					c.add(path+"/properties/"+PointerToken(m.key), "optional-property", false, "property %q is optional; the API wants every property in required (an optional one is required and nullable)", m.key)
				}
			}
		}
	}
	for _, m := range s {
		k, sub := m.key, path+"/"+PointerToken(m.key)
		if !slices.Contains(p.keywords, k) && k != "x-mcp-header" { // MCP's, for the host (Apply keeps it)
			c.add(sub, "keyword", true, "%s is not taken", k)
		}
		switch k {
		case "properties":
			for _, pm := range asObject(m.val) {
				c.properties++
				c.schema(asObject(pm.val), sub+"/"+PointerToken(pm.key), depth)
			}
		case "$defs":
			for _, dm := range asObject(m.val) {
				c.schema(asObject(dm.val), sub+"/"+PointerToken(dm.key), depth)
			}
		case "items", "additionalProperties":
			if o, ok := m.val.(object); ok {
				c.schema(o, sub, depth)
			}
		case "anyOf", "oneOf", "allOf":
			for i, v := range asAnys(m.val) {
				c.schema(asObject(v), fmt.Sprintf("%s/%d", sub, i), depth)
			}
		case "$ref":
			if name, ok := defName(m.val); ok && p.noRecursion && c.recursive[name] {
				// Inlining cuts a recursion where the API takes no $ref at
				// all; where it takes them, the recursion stays.
				c.add(sub, "recursion", !slices.Contains(p.keywords, "$ref"), "%s reaches itself; the API takes no recursive schema", name)
			}
		case "type":
			if _, list := m.val.([]any); list && p.nullable {
				c.add(sub, "type-list", true, "a list of types; the API takes one type (and nullable)")
			}
		case "format":
			if f, _ := m.val.(string); p.formats != nil && !slices.Contains(p.formats, f) {
				c.add(sub, "format", true, "format %q is not taken (it takes %s)", f, strings.Join(p.formats, ", "))
			}
		case "enum":
			values := asAnys(m.val)
			c.enumValues += len(values)
			if p.stringEnums && slices.ContainsFunc(values, func(v any) bool { _, ok := v.(string); return !ok }) {
				c.add(sub, "enum", true, "enum values that are not strings")
			}
		case "minItems":
			if n, _ := m.val.(json.Number).Int64(); p.maxMinItems >= 0 && n > p.maxMinItems {
				c.add(sub, "min-items", true, "minItems %d; the API takes at most %d", n, p.maxMinItems)
			}
		}
	}
}

// recursiveDefs are the definitions of root's $defs that reach themselves
// through $refs.
func recursiveDefs(root object) map[string]bool {
	defs := asObject(mustGet(root, "$defs"))
	refs := map[string][]string{} // definition → the definitions it names
	for _, d := range defs {
		collectRefs(d.val, func(name string) { refs[d.key] = append(refs[d.key], name) })
	}
	out := map[string]bool{}
	for _, d := range defs {
		seen := map[string]bool{}
		var reaches func(from string) bool
		reaches = func(from string) bool {
			for _, to := range refs[from] {
				if to == d.key {
					return true
				}
				if !seen[to] {
					seen[to] = true
					if reaches(to) {
						return true
					}
				}
			}
			return false
		}
		if reaches(d.key) {
			out[d.key] = true
		}
	}
	return out
}

// collectRefs calls f with the definition name of every $ref in v.
func collectRefs(v any, f func(string)) {
	switch v := v.(type) {
	case object:
		for _, m := range v {
			if name, ok := defName(m.val); ok && m.key == "$ref" {
				f(name)
				continue
			}
			collectRefs(m.val, f)
		}
	case []any:
		for _, e := range v {
			collectRefs(e, f)
		}
	}
}

// defName is the definition a "#/$defs/Name" reference names.
func defName(ref any) (string, bool) {
	s, _ := ref.(string)
	return strings.CutPrefix(s, "#/$defs/")
}

func asObject(v any) object { o, _ := v.(object); return o }
func asAnys(v any) []any    { a, _ := v.([]any); return a }

func mustGet(o object, k string) any { v, _ := o.get(k); return v }

// PointerToken escapes a key for a JSON Pointer (RFC 6901).
func PointerToken(k string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}

// ProfileRules sorts the rules of findings, for comparing what two checks
// found whatever the paths.
func ProfileRules(fs []ProfileFinding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	sort.Strings(out)
	return out
}
