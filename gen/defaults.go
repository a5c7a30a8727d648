package gen

import (
	"encoding/json"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/spec"
)

// The spec's `default:` values are applied, not only advertised. Each
// generated type whose values can hold a defaulted property that a client
// may leave out gets an ApplyDefaults method (runtime.Defaulter); the
// runtime's typed adapters call it after validating and decoding the
// arguments, so the validator sees the arguments as sent (JSON Schema
// defaults are annotations) and the handler sees the defaults filled in.
//
// What "left out" means, per Go shape of an optional property:
//   - runtime.Opt[T] (and Opt[*T] for a nullable one): not Set. A null sent
//     for a nullable property sets the Opt (to nil), so it is kept.
//   - a slice, map or json.RawMessage that is optional and not nullable: nil.
//     An empty array or object the client sent decodes as non-nil and is kept.
//   - a pointer is never "left out": pointers only hold required nullable
//     values, where nil is the null the client sent.
//
// Required properties are never defaulted (the validator rejects a call that
// leaves one out), and the defaults of array items and map values stay
// annotations: an item is never left out. Defaults apply recursively: inside
// objects, array items and map values, including inside a default just
// filled in.

// propDefault is the default filled into an optional property left out: its
// own, else that of the named type it refers to, which the reflected schema
// advertises there too. A named object type's default is not advertised
// (extendBody), so it is not applied either.
func (g *generator) propDefault(prop *spec.Property) *spec.Value {
	if prop.Required {
		return nil
	}
	s := prop.Schema
	for i := 0; s != nil && i < 100; i++ {
		if s.Default != nil {
			return s.Default
		}
		if s.Kind != spec.KindRef {
			return nil
		}
		d := g.plan.named[s.Ref]
		if d == nil || d.kind == declStruct {
			return nil
		}
		s = d.schema
	}
	return nil
}

// declFor is the declared type that holds values of schema s: its own, or
// the named type it refers to, through aliases of other named types.
func (g *generator) declFor(s *spec.Schema) *decl {
	d := g.plan.declOf[s]
	for i := 0; i < 100; i++ {
		if d == nil && s != nil && s.Kind == spec.KindRef {
			d = g.plan.named[s.Ref]
		}
		if d == nil || d.kind != declAlias || d.schema.Kind != spec.KindRef {
			return d
		}
		s, d = d.schema, nil
	}
	return d
}

// defaultedDecls decides which declared types get an ApplyDefaults method:
// structs with a defaulted optional property, and any type whose parts hold
// such a struct. Named types can refer to each other in cycles, so the set
// grows until it no longer changes.
func (g *generator) defaultedDecls() map[*decl]bool {
	if g.defaulted != nil {
		return g.defaulted
	}
	m := map[*decl]bool{}
	for changed := true; changed; {
		changed = false
		for _, d := range g.plan.decls {
			if !m[d] && g.declNeedsDefaults(d, m) {
				m[d] = true
				changed = true
			}
		}
	}
	g.defaulted = m
	return m
}

func (g *generator) declNeedsDefaults(d *decl, m map[*decl]bool) bool {
	switch d.kind {
	case declStruct:
		for _, fl := range d.fields {
			if g.propDefault(fl.prop) != nil || g.holdsDefaults(fl.prop.Schema, m) {
				return true
			}
		}
	case declSlice:
		return g.holdsDefaults(d.schema.Items, m)
	case declMap:
		return g.holdsDefaults(d.schema.Values, m)
	}
	return false
}

// holdsDefaults reports whether a value of schema s can hold something that
// ApplyDefaults fills in.
func (g *generator) holdsDefaults(s *spec.Schema, m map[*decl]bool) bool {
	if s == nil {
		return false
	}
	if d := g.declFor(s); d != nil {
		return m[d]
	}
	switch s.Kind {
	case spec.KindArray:
		return g.holdsDefaults(s.Items, m)
	case spec.KindMap:
		return g.holdsDefaults(s.Values, m)
	}
	return false
}

// applyDefaultsMethod declares d's ApplyDefaults method, if it needs one.
func (g *generator) applyDefaultsMethod(f *jen.File, d *decl) {
	if !g.defaultedDecls()[d] {
		return
	}
	self := func() *jen.Statement { return jen.Id("x") }
	var body []jen.Code
	recv := jen.Id("x").Id(d.name)
	switch d.kind {
	case declStruct:
		recv = jen.Id("x").Op("*").Id(d.name)
		for _, fl := range d.fields {
			field := func() *jen.Statement { return jen.Id("x").Dot(fl.name) }
			if def := g.propDefault(fl.prop); def != nil {
				body = append(body, g.fillDefault(field, fl.prop, def))
			}
			body = append(body, g.applyInsideField(field, fl.prop)...)
		}
	case declSlice, declMap:
		body = g.applyToParts(self, d.schema, 0)
	}
	f.Line()
	f.Comment("ApplyDefaults fills in the spec's defaults where the client left a value out (an Opt not")
	f.Comment("set, a nil slice or map); what the client sent, null included, is kept. The runtime calls it")
	f.Comment("after validating and decoding the arguments.")
	f.Func().Params(recv).Id("ApplyDefaults").Params().Block(body...)
}

// fillDefault sets a left-out optional property to its default: a Go
// literal for scalars and null, the default's JSON decoded for everything
// else (only when the value was left out, so a call that sends it pays
// nothing).
func (g *generator) fillDefault(field func() *jen.Statement, prop *spec.Property, def *spec.Value) jen.Code {
	s := prop.Schema
	nilable := g.isNilable(s)
	leftOut := jen.Op("!").Add(field().Dot("Set"))
	if nilable && !s.Nullable {
		leftOut = field().Op("==").Nil()
	}
	var fill jen.Code
	if string(def.JSON) == "null" { // only a nullable property can default to null
		typ := g.typeOf(s)
		if !nilable {
			typ = jen.Op("*").Add(typ)
		}
		return jen.If(leftOut).Block(field().Op("=").Qual(runtimePkg, "Some").Types(typ).Call(jen.Nil()))
	}
	if lit := g.scalarLiteral(s, def); lit != nil && !nilable {
		if s.Nullable {
			lit = jen.New(lit)
		}
		fill = field().Op("=").Qual(runtimePkg, "Some").Call(lit)
	} else {
		fill = jen.Qual(genimplPkg, "DecodeDefault").Call(jen.Op("&").Add(field()), rawString(string(def.JSON)))
	}
	return jen.If(leftOut).Block(fill)
}

// scalarLiteral is the Go expression of a scalar default, typed as the
// property's Go type (an enum's constant when there is one), or nil when the
// default is not a scalar or has no exact Go literal (null, an integer
// beyond int64): those are decoded from JSON instead.
func (g *generator) scalarLiteral(s *spec.Schema, def *spec.Value) jen.Code {
	if string(def.JSON) == "null" {
		return nil
	}
	r := g.resolved(s)
	typ := g.typeOf(s)
	named := g.declFor(s) != nil
	convert := func(lit jen.Code) jen.Code {
		if !named && (r.Kind == spec.KindString || r.Kind == spec.KindBoolean) {
			return lit // an untyped string or bool constant already has the right type
		}
		return jen.Add(typ).Call(lit)
	}
	if d := g.declFor(s); d != nil && d.kind == declEnum {
		for _, c := range d.consts {
			if string(c.value.JSON) == string(def.JSON) {
				return jen.Id(c.name)
			}
		}
	}
	switch r.Kind {
	case spec.KindString:
		var str string
		if json.Unmarshal(def.JSON, &str) != nil {
			return nil
		}
		return convert(jen.Lit(str))
	case spec.KindBoolean:
		var b bool
		if json.Unmarshal(def.JSON, &b) != nil {
			return nil
		}
		return convert(jen.Lit(b))
	case spec.KindInteger:
		n, err := strconv.ParseInt(string(def.JSON), 10, 64)
		if err != nil {
			return nil
		}
		return convert(jen.Op(strconv.FormatInt(n, 10)))
	case spec.KindNumber:
		text := string(def.JSON)
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return nil
		}
		return convert(jen.Op(text)) // a JSON number is a Go float literal
	}
	return nil
}

// applyInsideField applies the defaults inside a property's value (a struct,
// or a slice or map of them), whatever Go shape the property has.
func (g *generator) applyInsideField(field func() *jen.Statement, prop *spec.Property) []jen.Code {
	s := prop.Schema
	if !g.holdsDefaults(s, g.defaultedDecls()) {
		return nil
	}
	nilable := g.isNilable(s)
	switch {
	case nilable && s.Nullable && !prop.Required: // Opt[[]T]: an unset Opt holds nil
		return g.applyTo(func() *jen.Statement { return field().Dot("Value") }, s, 0)
	case nilable: // []T, map[string]T: nil holds nothing
		return g.applyTo(field, s, 0)
	case s.Nullable && !prop.Required: // Opt[*T]
		return []jen.Code{jen.If(field().Dot("Value").Op("!=").Nil()).Block(
			g.applyTo(func() *jen.Statement { return field().Dot("Value") }, s, 0)...)}
	case s.Nullable: // *T
		return []jen.Code{jen.If(field().Op("!=").Nil()).Block(g.applyTo(field, s, 0)...)}
	case !prop.Required: // Opt[T]
		return []jen.Code{jen.If(field().Dot("Set")).Block(
			g.applyTo(func() *jen.Statement { return field().Dot("Value") }, s, 0)...)}
	}
	return g.applyTo(field, s, 0)
}

// applyTo applies the defaults inside an addressable value of schema s: its
// type's ApplyDefaults, or a loop over the items of an undeclared slice or
// map type.
func (g *generator) applyTo(val func() *jen.Statement, s *spec.Schema, depth int) []jen.Code {
	m := g.defaultedDecls()
	if d := g.declFor(s); d != nil {
		if m[d] {
			return []jen.Code{val().Dot("ApplyDefaults").Call()}
		}
		return nil
	}
	if !g.holdsDefaults(s, m) {
		return nil
	}
	return g.applyToParts(val, s, depth)
}

// applyToParts loops over the items of a slice or the values of a map.
// Map values are not addressable, so each is copied, filled and stored back.
func (g *generator) applyToParts(val func() *jen.Statement, s *spec.Schema, depth int) []jen.Code {
	suffix := ""
	if depth > 0 {
		suffix = strconv.Itoa(depth)
	}
	switch s.Kind {
	case spec.KindArray:
		i := "i" + suffix
		inner := g.applyTo(func() *jen.Statement { return val().Index(jen.Id(i)) }, s.Items, depth+1)
		if len(inner) == 0 {
			return nil
		}
		return []jen.Code{jen.For(jen.Id(i).Op(":=").Range().Add(val())).Block(inner...)}
	case spec.KindMap:
		k, v := "k"+suffix, "v"+suffix
		inner := g.applyTo(func() *jen.Statement { return jen.Id(v) }, s.Values, depth+1)
		if len(inner) == 0 {
			return nil
		}
		inner = append(inner, val().Index(jen.Id(k)).Op("=").Id(v))
		return []jen.Code{jen.For(jen.List(jen.Id(k), jen.Id(v)).Op(":=").Range().Add(val())).Block(inner...)}
	}
	return nil
}
