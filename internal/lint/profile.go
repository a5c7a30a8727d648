package lint

import (
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/naming"
	"github.com/mcpgen/mcpgen/internal/specschema"
	"github.com/mcpgen/mcpgen/spec"
)

// schemaProfile reports, for SCHEMA_PROFILE, what the model API of the
// profile named name refuses or ignores in each tool's input schema (see
// specschema.Profiles, which cite each API's documentation). Under the
// spec's own server.schemaProfile the generator rewrites what it can, so
// only the rest is reported.
func (l *linter) schemaProfile(name string) {
	p := specschema.ProfileNamed(name)
	if p == nil {
		return
	}
	for _, t := range l.s.Tools {
		var schema []byte
		rewritten := false // the generator advertises the profile's rewrite
		switch {
		case t.InputSchema != nil: // advertised byte for byte
			schema = t.InputSchema.JSON
		case t.Input != nil:
			b, reachesGoType := specschema.Wire(l.s, t.Input)
			if reachesGoType {
				continue // only reflection knows the schema
			}
			schema, rewritten = b, l.s.Server.SchemaProfile == name
		default:
			continue
		}
		found, err := p.Check(schema)
		if err != nil {
			continue
		}
		for _, f := range found {
			var what string
			switch {
			case rewritten && f.Fixable:
				continue
			case !f.Fixable:
				what = "no profile can rewrite this without accepting other values: change the schema, or leave strict mode off for this tool"
			case t.InputSchema != nil:
				what = "a raw inputSchema is advertised as written: write it within the profile"
			default:
				what = "server.schemaProfile: " + p.Name + " advertises it rewritten (validation stays as the spec says)"
			}
			pos := t.Pos
			if t.InputSchema == nil {
				pos = l.schemaPos(t.Input, f.Path, t.Pos)
			}
			l.report(owner{disabled: t.LintDisable}, "SCHEMA_PROFILE", pos, "tool %q input, %s (%s, %s); %s", t.Name, f, p.Name, p.Source, what)
		}
	}
}

// schemaPos is the position in the spec of what pointer (a JSON Pointer
// into Wire's schema of root) is about: the deepest schema the pointer
// reaches through properties, items, values, variants and $defs; at when
// it reaches none.
func (l *linter) schemaPos(root *spec.Schema, pointer string, at spec.Pos) spec.Pos {
	cur := root
	tokens := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i := 0; cur != nil && i < len(tokens); i++ {
		if cur.Pos != (spec.Pos{}) {
			at = cur.Pos
		}
		tok := strings.NewReplacer("~1", "/", "~0", "~").Replace(tokens[i])
		next := func() string { // the token after this one, consumed
			if i+1 < len(tokens) {
				i++
				return tokens[i]
			}
			return ""
		}
		use := cur // where the schema is written; cur becomes what it names
		for cur.Kind == spec.KindRef && l.types[cur.Ref] != nil {
			cur = l.types[cur.Ref].Schema
		}
		switch tok {
		case "properties":
			name := next()
			var found *spec.Schema
			for _, p := range cur.Properties {
				if p.Name == name {
					found = p.Schema
				}
			}
			cur = found
		case "items":
			cur = cur.Items
		case "additionalProperties":
			cur = cur.Values
		case "anyOf", "oneOf":
			n, _ := strconv.Atoi(next())
			if cur.Kind != spec.KindUnion { // the oneOf Wire wraps a nullable schema in
				cur = use
				continue
			}
			if n < len(cur.Variants) {
				cur = cur.Variants[n]
			} else {
				cur = nil
			}
		case "$defs":
			name := next()
			cur = nil
			for _, nt := range l.s.Types {
				if nt.Name == name || nt.Schema.GoName == name || naming.Exported(nt.Name) == name {
					cur = nt.Schema
				}
			}
		default:
			return at // a keyword
		}
	}
	if cur != nil && cur.Pos != (spec.Pos{}) {
		at = cur.Pos
	}
	return at
}
