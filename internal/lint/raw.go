package lint

import (
	"fmt"
	"slices"

	"github.com/mcpgen/mcpgen/internal/specschema"
	"github.com/mcpgen/mcpgen/spec"
)

// rawInput checks a tool's raw inputSchema (JSON Schema written out in
// full) with the rules that check typed inputs: property descriptions,
// identifiers that take any string, open objects, defaults on required
// properties. A raw schema has no positions inside it: findings point at
// the inputSchema key and name the part by its JSON pointer.
func (l *linter) rawInput(o owner, t *spec.Tool) {
	doc, err := specschema.Decode(t.InputSchema.JSON)
	if err != nil {
		return // the loader refused it already
	}
	pos := t.InputSchema.Pos
	if pos == (spec.Pos{}) {
		pos = t.Pos
	}
	l.rawWalk(o, doc, "", fmt.Sprintf("the inputSchema of tool %q", t.Name), pos)
}

func (l *linter) rawWalk(o owner, v any, pointer, what string, pos spec.Pos) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	at := what
	if pointer != "" {
		at = what + " at " + pointer
	}
	props, _ := m["properties"].(map[string]any)
	if isRawObject(m) && m["additionalProperties"] != false && m["unevaluatedProperties"] != false {
		l.report(o, "OBJECT_OPEN", pos,
			"%s accepts unknown keys (no additionalProperties: false), so a misspelt or invented argument is ignored instead of refused", at)
	}
	required := map[string]bool{}
	if list, ok := m["required"].([]any); ok {
		for _, r := range list {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names) // a decoded object has no order; findings must have one
	for _, name := range names {
		p, _ := props[name].(map[string]any)
		ppointer := pointer + "/properties/" + specschema.PointerToken(name)
		pwhat := fmt.Sprintf("property %q of %s", name, at)
		desc, _ := p["description"].(string)
		l.description(o, desc, pos, pos, pwhat, false)
		if IsIdentifierName(name) && rawUnboundedString(p) {
			l.report(o, "STRING_UNBOUNDED_ID", pos,
				"%s looks like an identifier but takes any string; add a pattern, an enum, a format or a maxLength", pwhat)
		}
		if _, hasDefault := p["default"]; hasDefault && required[name] {
			l.report(o, "DEFAULT_ON_REQUIRED", pos,
				"%s is required and has a default, which is never applied (a call without it is refused); drop the default or make the property optional", pwhat)
		}
		l.rawWalk(o, p, ppointer, what, pos)
	}
	if items, ok := m["items"]; ok {
		l.rawWalk(o, items, pointer+"/items", what, pos)
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		list, _ := m[k].([]any)
		for i, sub := range list {
			l.rawWalk(o, sub, fmt.Sprintf("%s/%s/%d", pointer, k, i), what, pos)
		}
	}
}

// isRawObject reports whether a raw schema describes objects with
// properties of their own.
func isRawObject(m map[string]any) bool {
	_, hasProps := m["properties"]
	return m["type"] == "object" && hasProps
}

// rawUnboundedString reports whether a raw property schema (or its items)
// is a string with nothing that bounds it.
func rawUnboundedString(p map[string]any) bool {
	if p["type"] == "array" {
		items, _ := p["items"].(map[string]any)
		p = items
	}
	if p == nil || p["type"] != "string" {
		return false
	}
	for _, k := range []string{"pattern", "enum", "const", "format", "maxLength"} {
		if _, ok := p[k]; ok {
			return false
		}
	}
	return true
}
