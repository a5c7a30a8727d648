package gen

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/spec"
)

// Validating decoders (issue 20): every tool input type whose schema is
// within what the decoders understand gets a DecodeValidated method, and
// every struct it reaches a decodeMCP method: a switch on the property
// names, each case one call of a runtime/genimpl helper with the
// property's constraints as a package-level rule. The runtime calls
// DecodeValidated instead of building the generic value the schema
// validator needs; when it refuses, the general validator decides and
// words the violations, so the answers stay the same.
//
// What a decoder understands: closed objects (structs) of up to 64
// properties, strings (length, pattern, format, enum or const of strings),
// integers (bounds, integer multipleOf), numbers (bounds a float64 holds
// exactly), booleans, and arrays of those (length, not uniqueItems),
// through named types and recursion. Anything else (nullable values,
// unions, maps, free objects, raw JSON, Go types, open objects, numeric
// enums) keeps the general validator for the whole tool.

// decoderMethod and validatingMethod are the names of the generated methods.
const (
	decoderMethod    = "decodeMCP"
	validatingMethod = "DecodeValidated"
)

// decodedDecls is the set of struct declarations that get a decoder: the
// largest set whose every field is understood, given that set (named
// types may reach each other in cycles).
func (g *generator) decodedDecls() map[*decl]bool {
	if g.decoded != nil {
		return g.decoded
	}
	set := map[*decl]bool{}
	for _, d := range g.plan.decls {
		if d.kind == declStruct {
			set[d] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for d := range set {
			if !g.structDecodable(d, set) {
				delete(set, d)
				changed = true
			}
		}
	}
	// Only what a tool's input reaches is decoded: outputs, resource
	// contents and template variables keep their code small.
	reached := map[*decl]bool{}
	var reach func(s *spec.Schema)
	reach = func(s *spec.Schema) {
		if s == nil {
			return
		}
		if d := g.declFor(s); d != nil && set[d] && !reached[d] {
			reached[d] = true
			for _, fl := range d.fields {
				reach(fl.prop.Schema)
			}
		}
		if v := g.scalarView(s); v != nil && v.Kind == spec.KindArray {
			reach(v.Items)
		}
	}
	g.decodedInputs = g.toolInputs()
	for d := range g.decodedInputs {
		reach(d.schema)
	}
	g.decoded = reached
	return reached
}

func (g *generator) structDecodable(d *decl, set map[*decl]bool) bool {
	s := d.schema
	if s.Kind != spec.KindObject || s.AdditionalProperties || s.IsFreeObject() || len(d.fields) != len(s.Properties) || len(d.fields) > 64 {
		return false
	}
	for _, fl := range d.fields {
		if !g.valueDecodable(fl.prop.Schema, set) {
			return false
		}
	}
	return true
}

// valueDecodable reports whether a decoder understands values of s.
func (g *generator) valueDecodable(s *spec.Schema, set map[*decl]bool) bool {
	if s == nil || s.Nullable || s.Kind == spec.KindUnion {
		return false
	}
	if s.Kind == spec.KindRef {
		d := g.plan.named[s.Ref]
		if d == nil {
			return false
		}
		if d.kind == declStruct {
			return set[d] && !hasOwnConstraints(s)
		}
		v := g.scalarView(s)
		return v != nil && v.Kind != spec.KindRef && g.valueDecodable(v, set)
	}
	switch s.Kind {
	case spec.KindObject:
		d := g.plan.declOf[s]
		return d != nil && set[d]
	case spec.KindString:
		for _, v := range s.Enum {
			if _, err := strconv.Unquote(string(v.JSON)); err != nil || v.JSON[0] != '"' {
				return false
			}
		}
		if s.Pattern != "" {
			if _, err := regexp.Compile(s.Pattern); err != nil {
				return false
			}
		}
		return true
	case spec.KindInteger:
		_, ok := intRule(s)
		return len(s.Enum) == 0 && ok
	case spec.KindNumber:
		_, ok := numberRule(s)
		return len(s.Enum) == 0 && ok
	case spec.KindBoolean:
		return len(s.Enum) == 0
	case spec.KindArray:
		return !s.UniqueItems && s.Items != nil && g.valueDecodable(s.Items, set)
	}
	return false
}

// hasOwnConstraints reports whether a $ref carries constraints beside it
// (the validator applies both its own and the target's).
func hasOwnConstraints(s *spec.Schema) bool {
	return hasScalarConstraints(s) || len(s.Enum) > 0 || s.MinItems != nil || s.MaxItems != nil || s.UniqueItems || s.Items != nil
}

// scalarView is the schema a value of s is checked against when s refers
// to a named scalar or array type: the target's keywords, with those
// written beside the $ref taking precedence (as specschema.Wire writes
// them out). Nil when a reference does not resolve.
func (g *generator) scalarView(s *spec.Schema) *spec.Schema {
	if s.Kind != spec.KindRef {
		return s
	}
	d := g.plan.named[s.Ref]
	if d == nil || d.schema == s {
		return nil
	}
	target := g.scalarView(d.schema)
	if target == nil {
		return nil
	}
	v := *target
	v.Nullable = v.Nullable || s.Nullable
	for _, o := range []struct{ dst, src *string }{{&v.Pattern, &s.Pattern}, {&v.Format, &s.Format}} {
		if *o.src != "" {
			*o.dst = *o.src
		}
	}
	for _, o := range []struct{ dst, src **int64 }{{&v.MinLength, &s.MinLength}, {&v.MaxLength, &s.MaxLength}, {&v.MinItems, &s.MinItems}, {&v.MaxItems, &s.MaxItems}} {
		if *o.src != nil {
			*o.dst = *o.src
		}
	}
	for _, o := range []struct{ dst, src **spec.Number }{{&v.Minimum, &s.Minimum}, {&v.Maximum, &s.Maximum},
		{&v.ExclusiveMinimum, &s.ExclusiveMinimum}, {&v.ExclusiveMaximum, &s.ExclusiveMaximum}, {&v.MultipleOf, &s.MultipleOf}} {
		if *o.src != nil {
			*o.dst = *o.src
		}
	}
	if len(s.Enum) > 0 {
		v.Enum, v.Const = s.Enum, s.Const
	}
	v.UniqueItems = v.UniqueItems || s.UniqueItems
	return &v
}

// decoderMethods writes d's decodeMCP method, and DecodeValidated when d is
// a tool's input, if d gets a decoder.
func (g *generator) decoderMethods(f *jen.File, d *decl) {
	if !g.decodedDecls()[d] {
		return
	}
	var cases []jen.Code
	var required uint64
	for i, fl := range d.fields {
		if fl.prop.Required {
			required |= 1 << i
		}
		field := func() *jen.Statement { return jen.Id("x").Dot(fl.name) }
		body := []jen.Code{jen.Id("d").Dot("Once").Call(jen.Op("&").Id("seen"), jen.Lit(i))}
		s := fl.prop.Schema
		optional := !fl.prop.Required && !g.isNilable(s)
		switch {
		case optional && g.isStruct(s):
			body = append(body, field().Dot("Value").Dot(decoderMethod).Call(jen.Id("d")),
				field().Dot("Set").Op("=").True())
		case optional:
			body = append(body, field().Dot("Set").Op("=").Add(g.decodeCall(jen.Op("&").Add(field().Dot("Value")), s, d.name+"_"+fl.name)))
		case g.isStruct(s):
			body = append(body, field().Dot(decoderMethod).Call(jen.Id("d")))
		default:
			body = append(body, g.decodeCall(jen.Op("&").Add(field()), s, d.name+"_"+fl.name))
		}
		cases = append(cases, jen.Case(jen.Lit(fl.prop.Name)).Block(body...))
	}
	cases = append(cases, jen.Default().Block(jen.Id("d").Dot("Refuse").Call()))
	loop := []jen.Code{
		jen.List(jen.Id("key"), jen.Id("ok")).Op(":=").Id("d").Dot("Next").Call(jen.Id("first")),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Break()),
		jen.Switch(jen.Id("key")).Block(cases...),
	}
	body := []jen.Code{jen.If(jen.Op("!").Id("d").Dot("Object").Call()).Block(jen.Return())}
	if len(d.fields) == 0 { // no property is allowed
		body = append(body, jen.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("d").Dot("Next").Call(jen.True()), jen.Id("ok")).Block(
			jen.Id("d").Dot("Refuse").Call()))
	} else {
		body = append(body, jen.Var().Id("seen").Uint64(),
			jen.For(jen.Id("first").Op(":=").True(), jen.Empty(), jen.Id("first").Op("=").False()).Block(loop...))
	}
	if required != 0 {
		body = append(body, jen.Id("d").Dot("Require").Call(jen.Id("seen"), jen.Lit(required)))
	}
	f.Line()
	f.Comment(fmt.Sprintf("%s decodes the JSON object of a %s, checking it against its schema (genimpl/decode.go).", decoderMethod, d.name))
	f.Func().Params(jen.Id("x").Op("*").Id(d.name)).Id(decoderMethod).Params(jen.Id("d").Op("*").Qual(genimplPkg, "Decoder")).Block(body...)
	for _, r := range g.pendingRules {
		f.Line()
		f.Var().Id(r.name).Op("=").Add(r.value)
	}
	g.pendingRules = nil
	if g.decodedInputs[d] {
		f.Line()
		f.Comment(validatingMethod + " decodes tool arguments into x, checking them against the input schema as it")
		f.Comment("goes. On false x is left zero: the runtime's general validator then decides, and says")
		f.Comment("what is wrong.")
		f.Func().Params(jen.Id("x").Op("*").Id(d.name)).Id(validatingMethod).Params(jen.Id("args").Index().Byte()).Bool().Block(
			jen.If(jen.Qual(genimplPkg, "DecodeObject").Call(jen.Id("args"), jen.Id("x").Dot(decoderMethod))).Block(jen.Return(jen.True())),
			jen.Op("*").Id("x").Op("=").Id(d.name).Values(),
			jen.Return(jen.False()))
	}
}

// toolInputs are the declarations that are a typed tool's input.
func (g *generator) toolInputs() map[*decl]bool {
	m := map[*decl]bool{}
	for _, tp := range g.plan.tools {
		if tp.input != nil && tp.tool.InputSchema == nil && tp.tool.OutputSchema == nil {
			if d := g.declFor(tp.input); d != nil {
				m[d] = true
			}
		}
	}
	return m
}

// isStruct reports whether values of s are a declared struct.
func (g *generator) isStruct(s *spec.Schema) bool {
	d := g.declFor(s)
	return d != nil && d.kind == declStruct
}

// rule is a package-level rule variable a decoder refers to.
type rule struct {
	name  string
	value jen.Code
}

// decodeCall is the call that decodes a value of s through ptr, a pointer
// expression; name names its rules.
func (g *generator) decodeCall(ptr jen.Code, s *spec.Schema, name string) jen.Code {
	v := g.scalarView(s)
	d := jen.Id("d")
	if v.Kind != spec.KindArray && g.declFor(s) != nil {
		ptr = jen.Parens(jen.Op("*").Add(g.underlying(v))).Parens(ptr) // *Tier → *string: the helpers are not generic
	}
	switch v.Kind {
	case spec.KindString:
		return jen.Qual(genimplPkg, "String").Call(d, ptr, g.stringRule(v, name))
	case spec.KindInteger:
		return jen.Qual(genimplPkg, "Int").Call(d, ptr, g.addRule(name, intRuleCode(v)))
	case spec.KindNumber:
		return jen.Qual(genimplPkg, "Number").Call(d, ptr, g.addRule(name, numberRuleCode(v)))
	case spec.KindBoolean:
		return jen.Qual(genimplPkg, "Bool").Call(d, ptr)
	case spec.KindArray:
		var item jen.Code
		if g.isStruct(v.Items) {
			item = jen.Parens(jen.Op("*").Add(g.typeOf(v.Items))).Dot(decoderMethod)
		} else if plain := plainItemHelper(v.Items); plain != "" && g.declFor(v.Items) == nil {
			item = jen.Qual(genimplPkg, plain)
		} else {
			item = jen.Func().Params(jen.Id("p").Op("*").Add(g.typeOf(v.Items)), jen.Id("d").Op("*").Qual(genimplPkg, "Decoder")).
				Block(g.decodeCall(jen.Id("p"), v.Items, name+"_item"))
		}
		var ar jen.Code = jen.Nil()
		if v.MinItems != nil || v.MaxItems != nil {
			ar = g.addRule(name, jen.Op("&").Qual(genimplPkg, "ArrayRule").Values(jen.Dict{
				jen.Id("MinItems"): jen.Lit(bound(v.MinItems)), jen.Id("MaxItems"): jen.Lit(bound(v.MaxItems))}))
		}
		return jen.Qual(genimplPkg, "Array").Call(d, ptr, ar, item)
	}
	panic("gen: decodeCall on a schema valueDecodable refused")
}

// plainItemHelper is the genimpl helper that decodes an item of s, a
// scalar without constraints, or "".
func plainItemHelper(s *spec.Schema) string {
	if hasScalarConstraints(s) || len(s.Enum) > 0 {
		return ""
	}
	switch s.Kind {
	case spec.KindString:
		return "StringItem"
	case spec.KindInteger:
		return "IntItem"
	case spec.KindNumber:
		return "NumberItem"
	case spec.KindBoolean:
		return "BoolItem"
	}
	return ""
}

func bound(n *int64) int {
	if n == nil {
		return -1
	}
	return int(*n)
}

func (g *generator) addRule(name string, value jen.Code) jen.Code {
	if value == nil {
		return jen.Nil()
	}
	name = "rule" + name
	g.pendingRules = append(g.pendingRules, rule{name, value})
	return jen.Id(name)
}

func (g *generator) stringRule(s *spec.Schema, name string) jen.Code {
	if s.Pattern == "" && s.Format == "" && s.MinLength == nil && s.MaxLength == nil && len(s.Enum) == 0 {
		return jen.Nil()
	}
	fields := jen.Dict{jen.Id("MinLength"): jen.Lit(bound(s.MinLength)), jen.Id("MaxLength"): jen.Lit(bound(s.MaxLength))}
	if s.Pattern != "" {
		fields[jen.Id("Pattern")] = jen.Lit(s.Pattern)
	}
	if s.Format != "" {
		fields[jen.Id("Format")] = jen.Lit(s.Format)
	}
	if len(s.Enum) > 0 {
		fields[jen.Id("Enum")] = jen.Index().String().ValuesFunc(func(gr *jen.Group) {
			for _, v := range s.Enum {
				text, _ := strconv.Unquote(string(v.JSON))
				gr.Lit(text)
			}
		})
	}
	return g.addRule(name, jen.Op("&").Qual(genimplPkg, "StringRule").Values(fields))
}

// intRule rounds an integer schema's bounds to integers (x ≥ 1.5 is x ≥ 2)
// and reports whether they and multipleOf fit what the decoder checks.
func intRule(s *spec.Schema) (r struct {
	min, max   *int64
	multipleOf int64
}, ok bool) {
	bounds := []struct {
		n     *spec.Number
		dst   **int64
		round func(*big.Rat) *big.Int
		shift int64
	}{
		{s.Minimum, &r.min, ceil, 0}, {s.ExclusiveMinimum, &r.min, floor, 1},
		{s.Maximum, &r.max, floor, 0}, {s.ExclusiveMaximum, &r.max, ceil, -1},
	}
	for _, b := range bounds {
		if b.n == nil {
			continue
		}
		q, valid := new(big.Rat).SetString(string(*b.n))
		if !valid {
			return r, false
		}
		i := new(big.Int).Add(b.round(q), big.NewInt(b.shift))
		if !i.IsInt64() {
			return r, false
		}
		v := i.Int64()
		switch {
		case *b.dst == nil:
			*b.dst = &v
		case b.dst == &r.min && v > **b.dst, b.dst == &r.max && v < **b.dst:
			*b.dst = &v // both minimum and exclusiveMinimum: the stricter
		}
	}
	if s.MultipleOf != nil {
		q, valid := new(big.Rat).SetString(string(*s.MultipleOf))
		if !valid || !q.IsInt() || q.Sign() <= 0 || !q.Num().IsInt64() {
			return r, false
		}
		r.multipleOf = q.Num().Int64()
	}
	return r, true
}

func floor(q *big.Rat) *big.Int {
	i := new(big.Int)
	i.Div(q.Num(), q.Denom()) // Euclidean: rounds toward -∞ for a positive divisor
	return i
}

func ceil(q *big.Rat) *big.Int {
	i := floor(q)
	if !q.IsInt() {
		i.Add(i, big.NewInt(1))
	}
	return i
}

func intRuleCode(s *spec.Schema) jen.Code {
	r, _ := intRule(s)
	if r.min == nil && r.max == nil && r.multipleOf == 0 {
		return nil
	}
	fields := jen.Dict{}
	if r.min != nil {
		fields[jen.Id("HasMin")], fields[jen.Id("Min")] = jen.True(), jen.Lit(*r.min)
	}
	if r.max != nil {
		fields[jen.Id("HasMax")], fields[jen.Id("Max")] = jen.True(), jen.Lit(*r.max)
	}
	if r.multipleOf != 0 {
		fields[jen.Id("MultipleOf")] = jen.Lit(r.multipleOf)
	}
	return jen.Op("&").Qual(genimplPkg, "IntRule").Values(fields)
}

// numberRule reads a number schema's bounds as float64s, and reports
// whether each is exactly a float64 (and there is no multipleOf).
func numberRule(s *spec.Schema) (bounds map[string]float64, ok bool) {
	if s.MultipleOf != nil {
		return nil, false
	}
	bounds = map[string]float64{}
	for name, n := range map[string]*spec.Number{"Min": s.Minimum, "Max": s.Maximum, "ExclusiveMin": s.ExclusiveMinimum, "ExclusiveMax": s.ExclusiveMaximum} {
		if n == nil {
			continue
		}
		q, valid := new(big.Rat).SetString(string(*n))
		if !valid {
			return nil, false
		}
		f, exact := q.Float64()
		if !exact || math.IsInf(f, 0) {
			return nil, false
		}
		bounds[name] = f
	}
	return bounds, true
}

func numberRuleCode(s *spec.Schema) jen.Code {
	bounds, _ := numberRule(s)
	if len(bounds) == 0 {
		return nil
	}
	fields := jen.Dict{}
	for name, f := range bounds {
		fields[jen.Id(name)] = jen.Qual(genimplPkg, "Bound").Values(jen.Dict{jen.Id("Set"): jen.True(), jen.Id("Value"): jen.Lit(f)})
	}
	return jen.Op("&").Qual(genimplPkg, "NumberRule").Values(fields)
}
