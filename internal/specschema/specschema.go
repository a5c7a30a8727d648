// Package specschema computes, straight from a spec, the JSON Schema that a
// tool's input or output must have on the wire. It does not look at the
// generated Go code: tests compare its answer with the schema the runtime
// reflects from the generated types, so that a wrong struct tag or a missed
// constraint in the generator cannot go unnoticed.
package specschema

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/spec"
)

// Defs is the `$defs` section: every named type of the spec, by spec name.
func Defs(s *spec.Spec) map[string]any {
	defs := map[string]any{}
	for _, nt := range s.Types {
		defs[nt.Name] = Of(nt.Schema)
	}
	return defs
}

// Document is a schema with the spec's named types as `$defs`.
func Document(s *spec.Spec, sch *spec.Schema) map[string]any {
	doc := Of(sch)
	if len(s.Types) > 0 {
		doc["$defs"] = Defs(s)
	}
	return doc
}

// Of is the JSON Schema of one spec schema, as a JSON-compatible map.
// References stay references ("#/$defs/Name"); a Go type reference becomes
// {"x-go-type": "import/path.Name"}, since only reflection can tell its
// schema.
func Of(s *spec.Schema) map[string]any {
	out := map[string]any{}
	switch s.Kind {
	case spec.KindRef:
		out["$ref"] = "#/$defs/" + s.Ref
	case spec.KindGoType:
		out["x-go-type"] = s.GoType.ImportPath + "." + s.GoType.Name
	case spec.KindAny:
	case spec.KindString, spec.KindInteger, spec.KindNumber, spec.KindBoolean:
		out["type"] = string(s.Kind)
	case spec.KindArray:
		out["type"] = "array"
		if s.Items != nil {
			out["items"] = Of(s.Items)
		}
	case spec.KindObject:
		out["type"] = "object"
		props := map[string]any{}
		var required []any
		for _, p := range s.Properties {
			props[p.Name] = Of(p.Schema)
			if p.Required {
				required = append(required, p.Name)
			}
		}
		if len(props) > 0 {
			out["properties"] = props
		}
		if len(required) > 0 {
			out["required"] = required
		}
		out["additionalProperties"] = s.AdditionalProperties
	case spec.KindMap:
		out["type"] = "object"
		if s.Values != nil {
			out["additionalProperties"] = Of(s.Values)
		}
	}
	setString(out, "title", s.Title)
	setString(out, "description", s.Description)
	setString(out, "pattern", s.Pattern)
	setString(out, "format", s.Format)
	setString(out, "x-mcp-header", s.MCPHeader)
	setInt(out, "minLength", s.MinLength)
	setInt(out, "maxLength", s.MaxLength)
	setInt(out, "minItems", s.MinItems)
	setInt(out, "maxItems", s.MaxItems)
	if s.UniqueItems {
		out["uniqueItems"] = true
	}
	setNumber(out, "minimum", s.Minimum)
	setNumber(out, "maximum", s.Maximum)
	setNumber(out, "exclusiveMinimum", s.ExclusiveMinimum)
	setNumber(out, "exclusiveMaximum", s.ExclusiveMaximum)
	setNumber(out, "multipleOf", s.MultipleOf)
	if len(s.Enum) > 0 {
		out["enum"] = values(s.Enum)
	}
	if s.Default != nil {
		out["default"] = value(s.Default)
	}
	if len(s.Examples) > 0 {
		out["examples"] = values(s.Examples)
	}
	if s.Nullable {
		return map[string]any{"oneOf": []any{out, map[string]any{"type": "null"}}}
	}
	return out
}

func setString(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}

func setInt(m map[string]any, k string, v *int64) {
	if v != nil {
		m[k] = json.Number(jsonInt(*v))
	}
}

func setNumber(m map[string]any, k string, v *spec.Number) {
	if v != nil {
		m[k] = json.Number(*v)
	}
}

func jsonInt(v int64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func value(v *spec.Value) any {
	var out any
	dec := json.NewDecoder(bytesReader(v.JSON))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return string(v.JSON)
	}
	return out
}

func values(vs []*spec.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = value(v)
	}
	return out
}
