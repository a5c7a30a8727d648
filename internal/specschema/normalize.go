package specschema

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Decode parses a JSON Schema document keeping numbers exact.
func Decode(data []byte) (any, error) {
	var v any
	err := exactDecoder(data).Decode(&v)
	return v, err
}

// exactDecoder reads data keeping numbers as written (json.Number).
func exactDecoder(data []byte) *json.Decoder {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec
}

// Normalize rewrites a schema document into a canonical form in which two
// schemas that accept the same values in the same way compare equal,
// whatever their layout:
//   - every "$ref" to "#/$defs/Name" is replaced by the definition, merged
//     with the keywords beside the $ref (those win); a reference back into
//     a definition being expanded becomes {"$recursive": canon(Name)};
//   - null spelled {"type":"null"} among the variants of a oneOf or anyOf,
//     or "null" in a list of types, becomes {"nullable":true}, and a
//     union left with one variant becomes that variant plus the keywords
//     beside it; a list of several types becomes the anyOf of them;
//   - "additionalProperties": true is dropped (it is the default);
//   - numbers become float64, and "required" is sorted;
//   - const, enum, default and examples are values, not schemas: true
//     stays true there;
//   - "$defs", "$schema" and "$id" are dropped.
//
// canon maps a definition name to the name used in recursion markers, so
// that a spec name ("tree_node") and its Go name ("TreeNode") agree.
func Normalize(doc any, canon func(string) string) any {
	root, _ := doc.(map[string]any)
	defs, _ := root["$defs"].(map[string]any)
	n := &normalizer{defs: defs, canon: canon}
	return n.walk(doc, nil)
}

type normalizer struct {
	defs  map[string]any
	canon func(string) string
}

func (n *normalizer) walk(v any, stack []string) any {
	switch v := v.(type) {
	case map[string]any:
		return n.object(v, stack)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = n.walk(e, stack)
		}
		return out
	case bool:
		// The boolean schema true accepts anything, like {}.
		if v {
			return map[string]any{}
		}
		return v
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return string(v)
		}
		return f
	default:
		return v
	}
}

func (n *normalizer) object(m map[string]any, stack []string) any {
	if ref, ok := m["$ref"].(string); ok && strings.HasPrefix(ref, "#/$defs/") {
		name := strings.TrimPrefix(ref, "#/$defs/")
		for _, s := range stack {
			if s == name {
				return map[string]any{"$recursive": n.canon(name)}
			}
		}
		def, _ := n.defs[name].(map[string]any)
		merged := map[string]any{}
		for k, v := range def {
			merged[k] = v
		}
		for k, v := range m {
			if k != "$ref" {
				merged[k] = v
			}
		}
		return n.walk(merged, append(stack, name))
	}
	m = spellNullOnce(m)
	for _, keyword := range []string{"oneOf", "anyOf"} {
		if one, ok := m[keyword].([]any); ok && len(one) == 1 && m["nullable"] == true {
			// T or null, however spelled, is T plus nullable, with the
			// keywords beside the union merged in.
			inner, _ := n.walk(one[0], stack).(map[string]any)
			merged := map[string]any{}
			for k, v := range inner {
				merged[k] = v
			}
			for k, v := range m {
				switch k {
				case keyword:
				case "nullable":
					merged[k] = v // a flag, not a schema: true must not become {}
				default:
					merged[k] = n.walk(v, stack)
				}
			}
			return merged
		}
	}
	out := map[string]any{}
	for k, v := range m {
		switch k {
		case "$defs", "$schema", "$id":
			continue
		case "nullable":
			out[k] = v // a flag, not a schema: true must not become {}
		case "const", "enum", "default", "examples":
			out[k] = values(v) // values, not schemas: true must stay true
		case "required":
			names := n.walk(v, stack).([]any)
			sort.Slice(names, func(i, j int) bool { return names[i].(string) < names[j].(string) })
			out[k] = names
		case "properties":
			props := map[string]any{}
			for pk, pv := range v.(map[string]any) {
				props[pk] = n.walk(pv, stack)
			}
			out[k] = props
		default:
			out[k] = n.walk(v, stack)
		}
	}
	if ap, ok := out["additionalProperties"].(map[string]any); ok && len(ap) == 0 {
		delete(out, "additionalProperties") // true, JSON Schema's default
	}
	return out
}

// values normalizes JSON values (not schemas): numbers become float64.
func values(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = values(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = values(e)
		}
		return out
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return string(v)
		}
		return f
	}
	return v
}

// spellNullOnce rewrites the spellings of null into "nullable": true: a
// {"type":"null"} among the variants of a oneOf or anyOf, "null" in a list
// of types. A list of other types becomes the anyOf of them, which accepts
// the same values.
func spellNullOnce(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for _, keyword := range []string{"oneOf", "anyOf"} {
		list, ok := m[keyword].([]any)
		if !ok {
			continue
		}
		var kept []any
		for _, v := range list {
			if null, ok := v.(map[string]any); ok && len(null) == 1 && null["type"] == "null" {
				out["nullable"] = true
				continue
			}
			kept = append(kept, v)
		}
		out[keyword] = kept
	}
	if types, ok := m["type"].([]any); ok {
		var kept []any
		for _, t := range types {
			if t == "null" {
				out["nullable"] = true
				continue
			}
			kept = append(kept, map[string]any{"type": t})
		}
		delete(out, "type")
		if len(kept) == 1 {
			out["type"] = kept[0].(map[string]any)["type"]
		} else {
			out["anyOf"] = kept
		}
	}
	return out
}

// MatchGoTypes returns actual with every subtree that expected marks as a
// Go type reference ({"x-go-type": …}) replaced by that marker: the spec
// cannot say what schema an existing Go type reflects to, so comparisons
// accept whatever is there.
func MatchGoTypes(expected, actual any) any {
	switch e := expected.(type) {
	case map[string]any:
		if _, ok := e["x-go-type"]; ok {
			marked := map[string]any{}
			for k, v := range e {
				marked[k] = v
			}
			if a, ok := actual.(map[string]any); ok {
				// Keep what the use site adds (description, nullable…).
				for _, k := range []string{"description", "title", "nullable", "default", "examples"} {
					if v, ok := a[k]; ok {
						marked[k] = v
					}
				}
			}
			return marked
		}
		a, ok := actual.(map[string]any)
		if !ok {
			return actual
		}
		out := map[string]any{}
		for k, v := range a {
			if ev, ok := e[k]; ok {
				out[k] = MatchGoTypes(ev, v)
			} else {
				out[k] = v
			}
		}
		return out
	case []any:
		a, ok := actual.([]any)
		if !ok || len(a) != len(e) {
			return actual
		}
		out := make([]any, len(a))
		for i := range a {
			out[i] = MatchGoTypes(e[i], a[i])
		}
		return out
	}
	return actual
}
