package gen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/spec"
)

// API is the Go API a spec generates, read from the generator's plan: every
// declared type with its fields or constants and every Handler method with
// its signature, each tied to the spec element it comes from. Generate
// renders the same plan, so `mcpgen diff` compares two APIs to find the
// changes that break code written against the generated package, without
// deriving a Go name of its own.
//
// Go types are written as Go source (runtime.Opt[*Money], []OrderLine),
// except that an existing Go type (goType:) is written with its full import
// path (github.com/acme/money.Amount).
type API struct {
	Types   []*APIType   // in declaration order
	Methods []*APIMethod // in the order of the Handler interface
	// Collisions are the findings that a goName (or an enum's goNames)
	// would settle, as data: an importer writes the fix where each says.
	Collisions []Collision

	byName map[string]*APIType
	plan   *plan
}

// APIType is one declared Go type.
type APIType struct {
	Name string
	// Kind is struct, enum, scalar, slice, map or alias.
	Kind string
	// Definition is "struct" for a struct, else the underlying type, with
	// "= " before it for an alias: "string", "[]OrderLine", "= time.Time".
	Definition string
	Schema     *spec.Schema
	Pos        spec.Pos // where the spec writes the schema
	// Subject is the position of the spec key that asks for the type (a
	// property, a named type, …), and Item the top-level spec item it
	// belongs to: "tool:x", "type:X", "resource:x", "template:x", "prompt:x".
	Subject spec.Pos
	Item    string
	What    string // for messages: `the input of tool "x"`, `property "y" of Z`
	Fields  []*APIField
	Consts  []*APIConst
}

// APIField is a field of a struct type.
type APIField struct {
	Name string
	Type string
	Prop *spec.Property
}

// APIConst is a constant of an enum type.
type APIConst struct {
	Name   string
	Suffix string // Name without the type's name
	Pos    spec.Pos
}

// APIMethod is a method of the Handler interface.
type APIMethod struct {
	Name string
	// Signature is "(context.Context, params…) (results…, error)".
	Signature string
	Pos       spec.Pos
	What      string // `tool "x"`, `resource "y"`, …
	// Key identifies what the method serves across a rename of its spec
	// name: "resource <uri>" for a resource, empty for the others.
	Key string
}

// PlanAPI plans the Go API of s as Generate would. When Generate would
// refuse s (two spec names with one Go name, …) the diagnostics say why,
// and the API leaves out what could not be named.
func PlanAPI(s *spec.Spec) (*API, spec.Diagnostics) { return planAPI(s, true) }

// PlanNames is PlanAPI without the Go source of types (Definition,
// APIField.Type and Signature are empty): the names and collisions an
// importer settles, without rendering each type through format.Source,
// most of PlanAPI's cost on a large spec.
func PlanNames(s *spec.Spec) (*API, spec.Diagnostics) { return planAPI(s, false) }

func planAPI(s *spec.Spec, withText bool) (*API, spec.Diagnostics) {
	p := newPlan(s)
	g := &generator{spec: s, plan: p, source: baseName(s.File), goTypeText: map[string]string{}}
	goText := g.goText
	if !withText {
		goText = func(jen.Code) string { return "" }
	}
	a := &API{byName: map[string]*APIType{}, plan: p}
	for _, d := range p.decls {
		t := &APIType{Name: d.name, Kind: d.kind.String(), Schema: d.schema, Pos: d.pos,
			Subject: d.origin.subject, Item: d.origin.item, What: d.what}
		if d.specName != "" {
			t.What = fmt.Sprintf("the spec's type %q", d.specName) // "type %q" reads ambiguously after "Go type X"
		}
		switch d.kind {
		case declStruct, declUnion:
			t.Definition = "struct"
		case declAlias:
			t.Definition = "= " + goText(g.underlying(d.schema))
		case declEnum:
			t.Definition = goText(g.underlying(d.schema))
			if g.isTagEnum(d) {
				t.Definition = "= " + t.Definition
			}
		default:
			t.Definition = goText(g.underlying(d.schema))
		}
		for _, f := range d.fields {
			typ, _ := g.fieldType(f.prop)
			t.Fields = append(t.Fields, &APIField{Name: f.name, Type: goText(typ), Prop: f.prop})
		}
		for _, v := range d.variants {
			typ, _ := g.variantField(v)
			t.Fields = append(t.Fields, &APIField{Name: v.name, Type: goText(typ),
				Prop: &spec.Property{Pos: v.schema.Pos, Name: v.name, Schema: v.schema}})
		}
		for _, c := range d.consts {
			t.Consts = append(t.Consts, &APIConst{Name: c.name, Suffix: c.suffix, Pos: c.value.Pos})
		}
		if !withText {
			t.Definition = ""
		}
		a.Types = append(a.Types, t)
		a.byName[t.Name] = t
	}
	uris := map[string]string{}
	for _, rp := range p.resources {
		uris[rp.method] = rp.res.URI
	}
	for _, ms := range [][]*handlerMethod{g.toolMethods(), g.resourceMethods(), g.promptMethods()} {
		for _, m := range ms {
			if m.name == "" {
				continue // refused: the diagnostics say why
			}
			var params, results []string
			for i := 1; i < len(m.params); i += 2 {
				params = append(params, goText(m.params[i]))
			}
			for _, r := range m.results {
				results = append(results, goText(r))
			}
			am := &APIMethod{Name: m.name, Pos: p.methods[m.name].pos, What: p.methods[m.name].what,
				Signature: "(" + strings.Join(append([]string{"context.Context"}, params...), ", ") + ") (" +
					strings.Join(append(results, "error"), ", ") + ")"}
			if !withText {
				am.Signature = ""
			}
			if uri, ok := uris[m.name]; ok && m.kind == "resource" {
				am.Key = "resource " + uri
			}
			a.Methods = append(a.Methods, am)
		}
	}
	a.Collisions = p.collisions
	return a, p.diags
}

// Type returns the declared type named name, or nil.
func (a *API) Type(name string) *APIType { return a.byName[name] }

// TypeAt returns the declared type a value of schema s has: its own
// declaration, or the named type a $ref names; nil for a value of a Go
// built-in type.
func (a *API) TypeAt(s *spec.Schema) *APIType {
	if d := a.plan.declOf[s]; d != nil {
		return a.byName[d.name]
	}
	if s.Kind == spec.KindRef {
		if d := a.plan.named[s.Ref]; d != nil {
			return a.byName[d.name]
		}
	}
	return nil
}

func (k declKind) String() string {
	switch k {
	case declStruct:
		return "struct"
	case declEnum:
		return "enum"
	case declScalar:
		return "scalar"
	case declSlice:
		return "slice"
	case declMap:
		return "map"
	case declUnion:
		return "union"
	}
	return "alias"
}

// goTypePlaceholder is the identifier an existing Go type renders as while
// goTypeText is set.
func (g *generator) goTypePlaceholder(full string) string {
	for ph, f := range g.goTypeText {
		if f == full {
			return ph
		}
	}
	ph := fmt.Sprintf("mcpgenGoType%d_", len(g.goTypeText))
	g.goTypeText[ph] = full
	return ph
}

// goText renders a Go type expression as Go source, with existing Go types
// under their full import path.
func (g *generator) goText(c jen.Code) string {
	text := fmt.Sprintf("%#v", jen.Add(c))
	for ph, full := range g.goTypeText {
		text = strings.ReplaceAll(text, ph, full)
	}
	return text
}
