package lint

import (
	"github.com/mcpgen/mcpgen/internal/specschema"
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
			l.report(owner{disabled: t.LintDisable}, "SCHEMA_PROFILE", t.Pos, "tool %q input, %s (%s, %s); %s", t.Name, f, p.Name, p.Source, what)
		}
	}
}
