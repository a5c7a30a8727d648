package mcpimport

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/internal/naming"
	"github.com/mcpgen/mcpgen/internal/specschema"
)

// Verdict is how an item a server lists compares with the same item of
// another server (the original, and the one generated from its import).
type Verdict int

const (
	// Exact: JSON-equal, keys in any order.
	Exact Verdict = iota
	// Equivalent: equal once every inputSchema and outputSchema is in
	// EquivalentForm: the differences are ones JSON Schema cannot see.
	Equivalent
	// Different: anything else.
	Different
)

func (v Verdict) String() string {
	return [...]string{"exact", "equivalent", "different"}[v]
}

// Compare classifies two items of a list (a tool, resource, template or
// prompt).
func Compare(orig, got json.RawMessage) Verdict {
	o, g := DecodeItem(orig), DecodeItem(got)
	if reflect.DeepEqual(o, g) {
		return Exact
	}
	if reflect.DeepEqual(EquivalentForm(o), EquivalentForm(g)) {
		return Equivalent
	}
	return Different
}

// CompareSchema classifies two JSON Schemas.
func CompareSchema(orig, got json.RawMessage) Verdict {
	o, g := DecodeItem(orig), DecodeItem(got)
	switch {
	case reflect.DeepEqual(o, g):
		return Exact
	case reflect.DeepEqual(SchemaForm(o), SchemaForm(g)):
		return Equivalent
	}
	return Different
}

// DecodeItem parses JSON keeping numbers exact (an unparsable item stays
// its text).
func DecodeItem(raw json.RawMessage) any {
	v, err := specschema.Decode(raw)
	if err != nil {
		return string(raw)
	}
	return v
}

// EquivalentForm puts the schemas of an item (its inputSchema and
// outputSchema) in the canonical form of specschema.Normalize —
// definitions expanded, null spellings and additionalProperties: true as
// JSON Schema reads them, $schema dropped, numbers as numbers, required
// sorted; an inputSchema without a type reads as type: object (MCP's
// arguments are an object); an empty _meta.ui (MCP Apps' view settings,
// none) is no _meta.ui — and drops required: [], properties: {}, items: {} and
// propertyNames: {type: string}, each of which accepts what its absence
// accepts, and a type beside a const of that type (the const says it);
// a prompt's arguments: [] is dropped too.
func EquivalentForm(item any) any {
	m, ok := item.(map[string]any)
	if !ok {
		return item
	}
	out := map[string]any{}
	for k, v := range m {
		if k == "inputSchema" {
			v = asArguments(v)
		}
		if k == "inputSchema" || k == "outputSchema" {
			v = SchemaForm(v)
		}
		if k == "arguments" && isEmptyList(v) {
			continue // a prompt's arguments: [] is no arguments
		}
		if k == "_meta" {
			if v = withoutEmptyUI(v); v == nil {
				continue
			}
		}
		out[k] = v
	}
	return out
}

// withoutEmptyUI is a _meta without an empty ui (MCP Apps' settings of a
// view: {} sets none, as no ui does), or nil when nothing else is left.
func withoutEmptyUI(meta any) any {
	m, ok := meta.(map[string]any)
	if !ok || !isEmptyMap(m["ui"]) {
		return meta
	}
	out := map[string]any{}
	for k, v := range m {
		if k != "ui" {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// asArguments is an inputSchema as the schema of a tool's arguments,
// which MCP sends as an object always: a root that says no type (nor a
// $ref or union that would) accepts the same arguments as one that says
// type: object.
func asArguments(schema any) any {
	m, ok := schema.(map[string]any)
	if !ok {
		return schema
	}
	for _, k := range []string{"type", "$ref", "anyOf", "oneOf", "allOf", "not", "if", "const", "enum"} {
		if _, ok := m[k]; ok {
			return schema
		}
	}
	out := map[string]any{"type": "object"}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// SchemaForm is EquivalentForm of one schema.
func SchemaForm(schema any) any {
	// A definition's name may be its Go spelling on one side (node, Node):
	// recursion markers compare by the Go name.
	return dropEmpty(specschema.Normalize(schema, naming.Exported))
}

func dropEmpty(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e := v[k]
			if (k == "properties" || k == "items") && isEmptyMap(e) || k == "required" && isEmptyList(e) ||
				k == "propertyNames" && reflect.DeepEqual(e, map[string]any{"type": "string"}) {
				continue
			}
			if c, ok := v["const"]; ok && k == "type" && e == jsonType(c) {
				continue
			}
			if props, ok := e.(map[string]any); ok && k == "properties" {
				kept := map[string]any{}
				for pk, pv := range props {
					kept[pk] = dropEmpty(pv)
				}
				out[k] = kept
				continue
			}
			out[k] = dropEmpty(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = dropEmpty(e)
		}
		return out
	}
	return v
}

func isEmptyMap(v any) bool  { m, ok := v.(map[string]any); return ok && len(m) == 0 }
func isEmptyList(v any) bool { l, ok := v.([]any); return ok && len(l) == 0 }

// jsonType is the JSON Schema type of a decoded value (numbers are
// float64 after Normalize).
func jsonType(v any) string {
	switch v := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if v == float64(int64(v)) {
			return "integer" // also a number; the spec writes integer for an integer const
		}
		return "number"
	}
	return ""
}

// Difference is one place where two items differ: the path of the key
// (dotted, list indexes in brackets) and the value on each side (absent
// when nil and Only says which side has it).
type Difference struct {
	Path      string
	Orig, Got any
	// Only is "original" or "generated" when the key is on one side only.
	Only string
}

// Reason is the difference without the names of properties and types:
// the keyword and what happened to it, for counting the causes of
// inexact items ("inputSchema…additionalProperties: true only in
// generated").
func (d Difference) Reason() string {
	segs := strings.Split(d.Path, ".")
	root, _, _ := strings.Cut(segs[0], "[")
	last := segs[len(segs)-1]
	if len(segs) > 1 && slices.Contains([]string{"$defs", "definitions", "properties"}, segs[len(segs)-2]) {
		last = segs[len(segs)-2] + ".*" // a property or definition, whatever its name
	}
	where := root
	if len(segs) > 1 {
		where = root + "…" + last
	}
	o, g := short(d.Orig), short(d.Got)
	if strings.HasSuffix(last, ".*") {
		o, g = "one", "one" // their schemas differ by name: counted as one cause
	}
	switch d.Only {
	case "original":
		return fmt.Sprintf("%s: %s only in the original", where, o)
	case "generated":
		return fmt.Sprintf("%s: %s only in the generated", where, g)
	}
	return fmt.Sprintf("%s: %s, generated %s", where, o, g)
}

// short is a value in a few characters.
func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}

// Differences lists where two items differ, key by key (JSON-decoded,
// numbers as written), in path order.
func Differences(orig, got json.RawMessage) []Difference {
	var out []Difference
	diffValues("", DecodeItem(orig), DecodeItem(got), &out)
	return out
}

func diffValues(path string, o, g any, out *[]Difference) {
	if reflect.DeepEqual(o, g) {
		return
	}
	om, ok1 := o.(map[string]any)
	gm, ok2 := g.(map[string]any)
	if ok1 && ok2 {
		keys := map[string]bool{}
		for k := range om {
			keys[k] = true
		}
		for k := range gm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			p := k
			if path != "" {
				p = path + "." + k
			}
			ov, inO := om[k]
			gv, inG := gm[k]
			switch {
			case !inG:
				*out = append(*out, Difference{Path: p, Orig: ov, Only: "original"})
			case !inO:
				*out = append(*out, Difference{Path: p, Got: gv, Only: "generated"})
			default:
				diffValues(p, ov, gv, out)
			}
		}
		return
	}
	ol, ok1 := o.([]any)
	gl, ok2 := g.([]any)
	if ok1 && ok2 && len(ol) == len(gl) {
		for i := range ol {
			diffValues(fmt.Sprintf("%s[%d]", path, i), ol[i], gl[i], out)
		}
		return
	}
	*out = append(*out, Difference{Path: path, Orig: o, Got: g})
}
