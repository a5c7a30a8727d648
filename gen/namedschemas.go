package gen

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/naming"
	"github.com/mcpgen/mcpgen/spec"
)

// namedSchema is the schema of a named type as specschema.Wire writes it
// where the type is used: for an object type, its entry in a tool schema's
// $defs; for any other type, the schema written out in place of a $ref.
// It is written once, as the constant name, which every use names.
type namedSchema struct {
	name    string // the constant
	typ     *spec.NamedType
	defsKey string // the $defs key of an object type, "" for the others
	schema  []byte // compact
	used    bool
}

// namedSchemas are the spec's named types by spec name, computed once.
func (g *generator) namedSchemas() map[string]*namedSchema {
	if g.named != nil {
		return g.named
	}
	g.named = map[string]*namedSchema{}
	for _, nt := range g.spec.Types {
		if nt.Schema == nil {
			continue
		}
		doc, reachesGoType := g.wire(&spec.Schema{Kind: spec.KindRef, Ref: nt.Name})
		if reachesGoType {
			continue // only reflection knows this schema
		}
		goName := nt.Schema.GoName
		if goName == "" {
			goName = naming.Exported(nt.Name)
		}
		ns := &namedSchema{name: "schemaOf" + goName, typ: nt, schema: withoutDefs(doc)}
		if nt.Schema.Kind == spec.KindObject {
			ns.defsKey = goName // reflection defines only structs in $defs
		}
		g.named[nt.Name] = ns
	}
	return g.named
}

// constFor is the constant that holds schema when it is the schema of the
// named type ns (nil is none), and records the use.
func constFor(ns *namedSchema, schema []byte) string {
	if ns == nil || !bytes.Equal(ns.schema, schema) {
		return ""
	}
	ns.used = true
	return ns.name
}

// defsEntry is the constant of the $defs entry key, or nil. The index is
// built once: a scan of every type per entry of every tool's $defs was
// cubic on a spec of thousands of types (microsoft.com's Graph).
func (g *generator) defsEntry(key string) *namedSchema {
	if g.namedByDefs == nil {
		g.namedByDefs = map[string]*namedSchema{}
		for _, nt := range g.spec.Types {
			if ns := g.namedSchemas()[nt.Name]; ns != nil && ns.defsKey != "" && g.namedByDefs[ns.defsKey] == nil {
				g.namedByDefs[ns.defsKey] = ns
			}
		}
	}
	return g.namedByDefs[key]
}

// namedSchemaConsts declares the constants of the named types' schemas that
// the registration used, in spec order.
func (g *generator) namedSchemaConsts(f *jen.File) {
	// A constant may use others (an object type's properties of named
	// scalar types): lay out until no new one is used.
	text := map[*namedSchema]jen.Code{}
	for grew := true; grew; {
		grew = false
		for _, nt := range g.spec.Types {
			if ns := g.namedSchemas()[nt.Name]; ns != nil && ns.used && text[ns] == nil {
				text[ns] = g.layoutSchema(ns.schema, nt.Schema, true)
				grew = true
			}
		}
	}
	var defs []jen.Code
	for _, nt := range g.spec.Types {
		ns := g.namedSchemas()[nt.Name]
		if ns == nil || text[ns] == nil {
			continue
		}
		if len(defs) > 0 {
			defs = append(defs, jen.Line())
		}
		defs = append(defs, doc(fmt.Sprintf("%s is the schema of type %s %s.", ns.name, strconv.Quote(nt.Name), g.at(nt.Pos))),
			jen.Id(ns.name).Op("=").Add(text[ns]))
	}
	if len(defs) == 0 {
		return
	}
	f.Line()
	f.Comment("The schemas of the spec's named types, each written once: the tools' schemas above")
	f.Comment("are assembled from them.")
	f.Const().Defs(defs...)
}

// withoutDefs is a compact schema without its top-level "$defs".
func withoutDefs(compact []byte) []byte {
	n, err := parseCompact(compact)
	if err != nil || n.kind != '{' {
		return compact
	}
	b := []byte{'{'}
	for i, k := range n.keys {
		if string(k) == `"$defs"` {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(append(append(b, k...), ':'), n.kids[i].raw...)
	}
	return append(b, '}')
}

// useConstants replaces, in the parsed schema j of spec schema s, the
// values that are a named type's schema by the type's constant: the
// members of the root's $defs, and the schemas written out in place of a
// $ref to a named non-object type. It follows the structure Wire writes;
// a value is replaced only when its bytes are the constant's, so the text
// stays the same bytes whatever it finds.
func (g *generator) useConstants(j *jsonNode, s *spec.Schema, isConst bool) {
	if j.kind != '{' {
		return
	}
	s = g.derefRoot(s)
	for i, k := range j.keys {
		if string(k) != `"$defs"` || j.kids[i].kind != '{' {
			continue
		}
		d := j.kids[i]
		for n, def := range d.kids {
			ns := g.defsEntry(unquote(d.keys[n]))
			if name := constFor(ns, def.raw); name != "" {
				d.kids[n] = &jsonNode{kind: 'c', raw: []byte(name)}
			} else if ns != nil {
				g.inlineRefs(def, ns.typ.Schema)
			}
		}
	}
	if !isConst {
		g.inlineRefs(j, s)
		return
	}
	g.inlineKids(j, s)
}

// derefRoot is the schema Wire writes at the root for s: a root $ref to a
// named type is expanded.
func (g *generator) derefRoot(s *spec.Schema) *spec.Schema {
	for i := 0; s != nil && s.Kind == spec.KindRef && !s.Nullable && i < len(g.spec.Types); i++ {
		ns := g.namedSchemas()[s.Ref]
		if ns == nil {
			break
		}
		s = ns.typ.Schema
	}
	return s
}

// rootType is the named type a root $ref (s) stands for, or nil.
func (g *generator) rootType(s *spec.Schema) *namedSchema {
	var ns *namedSchema
	for i := 0; s != nil && s.Kind == spec.KindRef && !s.Nullable && i < len(g.spec.Types); i++ {
		if ns = g.namedSchemas()[s.Ref]; ns == nil {
			return nil
		}
		s = ns.typ.Schema
	}
	return ns
}

// inlineRefs replaces j by a constant when s is a $ref to a named non-object
// type written out in place, and else looks at j's members.
func (g *generator) inlineRefs(j *jsonNode, s *spec.Schema) {
	if s == nil || j == nil || j.kind != '{' {
		return
	}
	if s.Nullable && s.NullSpelling == "" { // {"oneOf": [schema, {"type": "null"}]}
		if v := j.member("oneOf"); v != nil && v.kind == '[' && len(v.kids) == 2 {
			inner := *s
			inner.Nullable = false
			g.inlineRefs(v.kids[0], &inner)
		}
		return
	}
	if s.Kind == spec.KindRef {
		ns := g.namedSchemas()[s.Ref]
		if ns == nil || ns.defsKey != "" {
			return // a $ref on the wire
		}
		if name := constFor(ns, j.raw); name != "" {
			*j = jsonNode{kind: 'c', raw: []byte(name)}
			return
		}
		s = ns.typ.Schema
	}
	g.inlineKids(j, s)
}

// inlineKids looks at the schemas inside j, of spec schema s.
func (g *generator) inlineKids(j *jsonNode, s *spec.Schema) {
	switch s.Kind {
	case spec.KindObject:
		if props := j.member("properties"); props != nil {
			for _, p := range s.Properties {
				g.inlineRefs(props.member(p.Name), p.Schema)
			}
		}
	case spec.KindArray:
		g.inlineRefs(j.member("items"), s.Items)
	case spec.KindMap:
		g.inlineRefs(j.member("additionalProperties"), s.Values)
	case spec.KindUnion:
		v := j.member(s.UnionKeyword)
		if v == nil || v.kind != '[' {
			return
		}
		kids := v.kids
		if s.Nullable && s.NullSpelling != "" && len(kids) == len(s.Variants)+1 {
			at := min(max(s.NullAt, 0), len(s.Variants))
			kids = append(kids[:at:at], kids[at+1:]...)
		}
		for i, variant := range s.Variants {
			if i < len(kids) {
				g.inlineRefs(kids[i], variant)
			}
		}
	}
}

// member is the value of an object's key k (written without escapes), or nil.
func (j *jsonNode) member(k string) *jsonNode {
	if j == nil || j.kind != '{' {
		return nil
	}
	for i, key := range j.keys {
		if unquote(key) == k {
			return j.kids[i]
		}
	}
	return nil
}
