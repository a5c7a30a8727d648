package specschema

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/spec"
)

// Apply rewrites the schema doc (a tool's input schema, as Wire writes it)
// into what the profile's API takes: $refs inlined where it takes none (a
// definition met again inside itself becomes its type, with a description
// that says so), null
// spelled its way, oneOf as anyOf, and each keyword it does not take
// removed and said in the description instead ("minimum: 1"), so that the
// model still reads it. The server validates against the spec's own
// schema, so nothing is enforced less. What cannot be rewritten without
// changing what the schema accepts (an open object, an optional property
// for openai-strict) stays as it is: Check on the result lists it.
func (p *Profile) Apply(doc []byte) ([]byte, error) {
	v, err := decodeOrdered(doc)
	if err != nil {
		return nil, err
	}
	root := asObject(v)
	a := &applier{p: p, defs: asObject(mustGet(root, "$defs"))}
	a.inline = !slices.Contains(p.keywords, "$ref")
	if a.inline {
		root = root.without("$defs")
	}
	return marshal(a.schema(root, nil))
}

type applier struct {
	p      *Profile
	defs   object
	inline bool // $refs are replaced by their definitions
}

// takes reports whether the profile takes keyword k.
func (a *applier) takes(k string) bool { return slices.Contains(a.p.keywords, k) }

// schema rewrites s; stack holds the definitions being inlined around it.
func (a *applier) schema(s object, stack []string) object {
	if name, ok := defName(mustGet(s, "$ref")); ok && a.inline {
		def := asObject(mustGet(a.defs, name))
		if slices.Contains(stack, name) {
			cut := object{}
			if t, ok := def.get("type"); ok {
				cut = append(cut, member{"type", t})
			}
			return append(cut, member{"description", "a " + name + " again (recursive; its full schema is above)"})
		}
		merged := slices.Clone(def)
		for _, m := range s.without("$ref") {
			merged = merged.set(m.key, m.val) // the keywords beside the $ref win
		}
		return a.schema(merged, append(stack, name))
	}
	if s2, ok := a.nullUnion(s); ok {
		return a.schema(s2, stack) // T may be a $ref to inline
	}
	var out object
	var notes []string
	fold := func(k string, v any) { notes = append(notes, k+": "+noteValue(v)) }
	for _, m := range s {
		k, v := m.key, m.val
		switch {
		case k == "x-mcp-header":
			// MCP's own (2026-07-28 clients mirror the argument into a
			// header), not the model's: hosts read it before calling the
			// model, so it stays.
		case strings.HasPrefix(k, "x-"):
			continue // other annotations: nothing for a model
		case k == "type" && a.p.nullable:
			out = a.typeList(out, v)
			continue
		case k == "oneOf" && !a.takes(k):
			out = append(out, member{"anyOf", a.schemas(v, stack)})
			notes = append(notes, "exactly one of the variants")
			continue
		case k == "const" && !a.takes(k):
			if _, isString := v.(string); a.takes("enum") && (isString || !a.p.stringEnums) {
				out = append(out, member{"enum", []any{v}})
			} else {
				fold(k, v)
			}
			continue
		case k == "enum" && a.p.stringEnums && slices.ContainsFunc(asAnys(v), func(e any) bool { _, ok := e.(string); return !ok }),
			k == "format" && a.p.formats != nil && !slices.Contains(a.p.formats, noteValue(v)),
			k == "minItems" && a.p.maxMinItems >= 0 && numberAbove(v, a.p.maxMinItems):
			fold(k, v)
			continue
		case k == "additionalProperties" && !a.takes(k):
			if o, ok := v.(object); ok {
				fold("values", a.schema(o, stack))
			}
			continue // false or true: the server refuses or takes other keys as the spec says
		case !a.takes(k) && !(k == "$defs" && !a.inline):
			fold(k, v)
			continue
		}
		switch k {
		case "properties", "$defs":
			var props object
			for _, pm := range asObject(v) {
				props = append(props, member{pm.key, a.schema(asObject(pm.val), stack)})
			}
			if props == nil {
				props = object{}
			}
			v = props
		case "items", "additionalProperties":
			if o, ok := v.(object); ok {
				v = a.schema(o, stack)
			}
		case "anyOf", "allOf":
			v = a.schemas(v, stack)
		}
		out = append(out, member{k, v})
	}
	if len(notes) > 0 {
		d, _ := out.get("description")
		text, _ := d.(string)
		if text != "" {
			text += " "
		}
		out = out.set("description", text+"("+strings.Join(notes, "; ")+")")
	}
	if out == nil {
		out = object{}
	}
	return out
}

// schemas rewrites a list of schemas.
func (a *applier) schemas(v any, stack []string) []any {
	var out []any
	for _, e := range asAnys(v) {
		out = append(out, a.schema(asObject(e), stack))
	}
	return out
}

// nullUnion rewrites "T or null" (a oneOf or anyOf of a schema and
// {"type":"null"}) the profile's way: T with "nullable": true, or an anyOf
// of both where it takes no oneOf.
func (a *applier) nullUnion(s object) (object, bool) {
	for _, k := range []string{"oneOf", "anyOf"} {
		variants := asAnys(mustGet(s, k))
		i := slices.IndexFunc(variants, isNullSchema)
		if len(variants) != 2 || i < 0 {
			continue
		}
		other := asObject(variants[1-i])
		if a.p.nullable {
			merged := slices.Clone(other)
			for _, m := range s.without(k) {
				merged = merged.set(m.key, m.val)
			}
			return merged.set("nullable", true), true
		}
		if k == "oneOf" && !a.takes(k) {
			out := object{}
			for _, m := range s {
				if m.key == k {
					m = member{"anyOf", variants}
				}
				out = append(out, m)
			}
			return out, true
		}
	}
	return s, false
}

func isNullSchema(v any) bool {
	o := asObject(v)
	return len(o) == 1 && o[0].key == "type" && o[0].val == "null"
}

// typeList appends to out a "type" the OpenAPI way: one type, "nullable"
// for null, an anyOf of types for several.
func (a *applier) typeList(out object, v any) object {
	list, ok := v.([]any)
	if !ok {
		return append(out, member{"type", v})
	}
	var types []any
	for _, t := range list {
		if t == "null" {
			out = append(out, member{"nullable", true})
		} else {
			types = append(types, t)
		}
	}
	if len(types) == 1 {
		return append(out, member{"type", types[0]})
	}
	var variants []any
	for _, t := range types {
		variants = append(variants, object{{"type", t}})
	}
	return append(out, member{"anyOf", variants})
}

// noteValue is a value as a description says it: a string as it is, any
// other value as JSON.
func noteValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

func numberAbove(v any, limit int64) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	i, err := n.Int64()
	return err == nil && i > limit
}

// AdvertisedInput is the input schema of a tool whose input is root, as
// tools/list shows it: Wire's, rewritten by the spec's server.schemaProfile
// when it has one (the server validates against Wire's). A schema that
// reaches a Go type is Wire's, unrewritten: only reflection knows it.
func AdvertisedInput(s *spec.Spec, root *spec.Schema) (doc []byte, reachesGoType bool) {
	doc, reachesGoType = Wire(s, root)
	p := ProfileNamed(s.Server.SchemaProfile)
	if p == nil || reachesGoType {
		return doc, reachesGoType
	}
	out, err := p.Apply(doc)
	if err != nil {
		panic("specschema: applying the " + p.Name + " profile to Wire's schema: " + err.Error()) // Wire writes JSON
	}
	return out, false
}
