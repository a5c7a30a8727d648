package gen

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/spec"
)

// A property's own string enum (mode: {enum: [fast, exact]}) is declared
// as an alias of string, with its constants, and its values are written in
// the property's struct tag (`jsonschema:"enum=fast,enum=exact"`) for the
// reflector: `type ToolInputMode = string`. A named Go type would cost
// every such property its own instantiation of runtime.Opt (thirteen
// compiled functions: the methods, their pointer wrappers, the equality)
// and a JSONSchemaExtend method pair; with a 1,000-tool spec that was over
// a third of the package's compile time (issue 27). Handlers read the
// value as before (in.Mode.Value == ToolInputModeFast, switch on it); what
// the alias gives up is that any string converts to it without a
// conversion. Enums of the spec's types: section, shared by several
// properties, keep their named type and write their schema once, in their
// JSONSchemaExtend; so do enums a tag cannot carry exactly (values a
// struct tag would have to escape, const discriminators, nullable ones).

// isTagEnum reports whether d is an enum declared as an alias of string,
// its values in the struct tag of the one property it is the schema of.
func (g *generator) isTagEnum(d *decl) bool {
	if g.tagEnums == nil {
		g.tagEnums = map[*decl]bool{}
		for _, sd := range g.plan.decls {
			if sd.kind != declStruct {
				continue
			}
			for _, fl := range sd.fields {
				s := fl.prop.Schema
				if ed := g.plan.declOf[s]; ed != nil && ed.kind == declEnum && ed.specName == "" && tagCarriesEnum(s) {
					g.tagEnums[ed] = true
				}
			}
		}
	}
	return g.tagEnums[d]
}

// tagCarriesEnum reports whether the reflector reads s's enum back exactly
// from `jsonschema:"enum=…"` tag entries: a string enum, not a const, not
// nullable, with values that need no escaping inside a struct tag.
func tagCarriesEnum(s *spec.Schema) bool {
	if s.Kind != spec.KindString || s.Const || s.Nullable || len(s.Enum) == 0 {
		return false
	}
	for _, v := range s.Enum {
		text, err := strconv.Unquote(string(v.JSON))
		if err != nil || v.JSON[0] != '"' || !tagSafe(text) {
			return false
		}
	}
	return true
}

// tagSafe reports whether a tag value is written as is: printable UTF-8
// without the quote, backquote and backslash that tags escape.
func tagSafe(text string) bool {
	if !utf8.ValidString(text) || strings.ContainsAny(text, "\"`\\") {
		return false
	}
	for _, r := range text {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}
