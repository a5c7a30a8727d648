package gen

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/jsonformat"
	"github.com/mcpgen/mcpgen/spec"
)

// Validating decoders (issues 20, 27): every tool input type whose schema
// is within what the decoders understand, and every struct it reaches, gets
// a decoding table: a genimpl.Object listing the properties, each with its
// constraints as a genimpl.Value rule. Tables are data that one genimpl
// function reads (runtime/genimpl/table.go), so a type costs the compiler a
// composite literal, not a method. A tool's registration passes its input's
// table to the runtime, which decodes with it instead of building the
// generic value the schema validator needs; when it refuses, the general
// validator decides and words the violations, so the answers stay the same.
//
// What a decoder understands: closed objects (structs) of up to 64
// properties, strings (length, pattern, format, enum or const of strings),
// integers (bounds, integer multipleOf), numbers (bounds a float64 holds
// exactly), booleans, and arrays of those (length, not uniqueItems),
// through named types and recursion. Anything else (nullable values,
// unions, maps, free objects, raw JSON, Go types, open objects, numeric
// enums) keeps the general validator for the whole tool.

// decoderChecks are, by keyword (spec.ValueKeywords that constrain), the
// kinds of value whose genimpl rule checks it: stringRuleCode, intRule,
// numberRule and the array's length. A value holding any other constraint
// (uniqueItems, multipleOf of a number, one the spec adds later) is not
// decodable: the general validator keeps the tool, so no constraint is
// skipped for want of a rule.
var decoderChecks = map[string][]spec.Kind{
	"pattern":          {spec.KindString},
	"format":           {spec.KindString, spec.KindInteger, spec.KindNumber}, // an integer's is its range; a number's is not checked
	"minLength":        {spec.KindString},
	"maxLength":        {spec.KindString},
	"minimum":          {spec.KindInteger, spec.KindNumber},
	"maximum":          {spec.KindInteger, spec.KindNumber},
	"exclusiveMinimum": {spec.KindInteger, spec.KindNumber},
	"exclusiveMaximum": {spec.KindInteger, spec.KindNumber},
	"multipleOf":       {spec.KindInteger},
	"minItems":         {spec.KindArray},
	"maxItems":         {spec.KindArray},
}

// decoderChecksAll reports whether a decoder's rule checks every
// constraint of s.
func decoderChecksAll(s *spec.Schema) bool {
	for _, k := range spec.ValueKeywords {
		if k.Constrains() && k.Present(s) && !slices.Contains(decoderChecks[k.Name], s.Kind) {
			return false
		}
	}
	return true
}

// tableMethod is the name of the generated method that gives a nested
// struct's table.
const tableMethod = "MCPDecodeTable"

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
	reached, nested := map[*decl]bool{}, map[*decl]bool{}
	var reach func(s *spec.Schema, field bool)
	reach = func(s *spec.Schema, field bool) {
		if s == nil {
			return
		}
		if d := g.declFor(s); d != nil && set[d] {
			nested[d] = nested[d] || field
			if reached[d] {
				return
			}
			reached[d] = true
			for _, fl := range d.fields {
				reach(fl.prop.Schema, true)
			}
		}
		if v := g.scalarView(s); v != nil && v.Kind == spec.KindArray {
			reach(v.Items, true)
		}
	}
	g.decodedInputs = g.toolInputs()
	for d := range g.decodedInputs {
		reach(d.schema, false)
	}
	g.decodedNested = nested
	g.decoded = reached
	return reached
}

func (g *generator) structDecodable(d *decl, set map[*decl]bool) bool {
	s := d.schema
	if s.Kind != spec.KindObject || s.AdditionalProperties || s.IsFreeObject() || len(d.fields) != len(s.Properties) || len(d.fields) > 64 || !decoderChecksAll(s) {
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
	if !decoderChecksAll(s) {
		return false
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
		_, ok := numberRule(s) // multipleOf: not in decoderChecks
		return len(s.Enum) == 0 && ok
	case spec.KindBoolean:
		return len(s.Enum) == 0
	case spec.KindArray:
		return s.Items != nil && g.valueDecodable(s.Items, set) // uniqueItems: not in decoderChecks
	}
	return false
}

// hasOwnConstraints reports whether a $ref carries constraints beside it
// (the validator applies both its own and the target's).
func hasOwnConstraints(s *spec.Schema) bool {
	return hasKeywords(s, constraintWords) || len(s.Enum) > 0 || s.Items != nil
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
	for _, k := range spec.ValueKeywords {
		if k.Constrains() {
			k.Overlay(&v, s)
		}
	}
	if len(s.Enum) > 0 {
		v.Enum, v.Const = s.Enum, s.Const
	}
	return &v
}

// decoderMethods writes d's decoding table, with the method that gives it
// to the tables of other structs when they hold a d, if d gets a decoder.
// A tool's input passes its table to its registration (decoderTable).
func (g *generator) decoderMethods(f *jen.File, d *decl) {
	if !g.decodedDecls()[d] {
		return
	}
	table := tableName(d)
	fields := make([]jen.Code, 0, len(d.fields)+1)
	for _, fl := range d.fields {
		kv := []jen.Code{keyValue("Name", jen.Lit(fl.prop.Name))}
		if fl.prop.Required {
			kv = append(kv, keyValue("Required", jen.True()))
		}
		line := append(kv, keyValue("Value", g.valueRule(fl.prop.Schema, false, false)))
		if codeWidth(jen.Values(line...)) > maxTableLine {
			line = append(kv, keyValue("Value", g.valueRule(fl.prop.Schema, false, true)))
		}
		fields = append(fields, jen.Line().Values(line...))
	}
	fields = append(fields, jen.Line())
	f.Line()
	f.Commentf("%s is the validating decoder's table of a %s (genimpl/table.go).", table, d.name)
	f.Var().Id(table).Op("=").Op("&").Qual(genimplPkg, "Object").Values(
		jen.Id("Type").Op(":").Parens(jen.Op("*").Id(d.name)).Parens(jen.Nil()),
		jen.Id("Fields").Op(":").Index().Qual(genimplPkg, "Field").Values(fields...))
	if g.decodedNested[d] {
		f.Line()
		f.Commentf("%s gives the tables of the structs that hold a %s its own.", tableMethod, d.name)
		f.Func().Params(jen.Op("*").Id(d.name)).Id(tableMethod).Params().Op("*").Qual(genimplPkg, "Object").Block(jen.Return(jen.Id(table)))
	}
}

// tableName is the variable holding d's decoding table.
func tableName(d *decl) string { return "decode" + d.name }

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

// valueRule is the genimpl.Value literal that decodes a value of s (a
// pointer to one when ptr).
func (g *generator) valueRule(s *spec.Schema, ptr, brk bool) jen.Code {
	kind := func(k string) jen.Code { return keyValue("Kind", jen.Qual(genimplPkg, k)) }
	var kv []jen.Code
	if g.isStruct(s) {
		kv = []jen.Code{kind("KindObject"), keyValue("Object", jen.Parens(jen.Op("*").Add(g.typeOf(s))).Parens(jen.Nil()))}
	} else {
		switch v := g.scalarView(s); v.Kind {
		case spec.KindString, spec.KindInteger, spec.KindNumber, spec.KindBoolean:
			sc := scalarRules[v.Kind]
			kv = append(kv, kind(sc.kind))
			if sc.code != nil {
				if r := sc.code(v); r != nil {
					kv = append(kv, keyValue(sc.field, r))
				}
			}
		case spec.KindArray:
			kv = append(kv, kind("KindArray"))
			if v.MinItems != nil || v.MaxItems != nil {
				kv = append(kv, keyValue("Array", jen.Op("&").Qual(genimplPkg, "ArrayRule").Values(lengthBounds("MinItems", v.MinItems, "MaxItems", v.MaxItems)...)))
			}
			kv = append(kv, keyValue("Items", g.valueRule(v.Items, true, brk)))
		default:
			panic("gen: valueRule on a schema valueDecodable refused")
		}
	}
	if brk {
		kv = broken(kv)
	}
	if ptr {
		return jen.Op("&").Qual(genimplPkg, "Value").Values(kv...)
	}
	return jen.Qual(genimplPkg, "Value").Values(kv...)
}

// scalarRules are, per scalar kind, its genimpl Kind and the Value field
// of its rule, written by code (nil when there is none).
var scalarRules = map[spec.Kind]struct {
	kind, field string
	code        func(*spec.Schema) jen.Code
}{
	spec.KindString:  {"KindString", "String", stringRuleCode},
	spec.KindInteger: {"KindInteger", "Int", intRuleCode},
	spec.KindNumber:  {"KindNumber", "Number", numberRuleCode},
	spec.KindBoolean: {"KindBoolean", "", nil},
}

// lengthBounds are the fields of a length rule: the least (0 is none) and,
// when there is one, the most.
func lengthBounds(minName string, least *int64, maxName string, most *int64) []jen.Code {
	var fields []jen.Code
	if least != nil && *least > 0 {
		fields = append(fields, keyValue(minName, intLit(*least)))
	}
	if most != nil {
		fields = append(fields, keyValue(maxName, intLit(*most)), keyValue("Has"+maxName, jen.True()))
	}
	return fields
}

// fitted is a composite literal's elements on one line when it is short,
// else one per line: a table's line stays readable.
func fitted(elems []jen.Code) []jen.Code {
	if codeWidth(jen.Values(elems...)) <= maxTableLine {
		return elems
	}
	return broken(elems)
}

// broken is a composite literal's elements, one per line.
func broken(elems []jen.Code) []jen.Code {
	out := make([]jen.Code, 0, len(elems)+1)
	for _, e := range elems {
		out = append(out, jen.Line().Add(e))
	}
	return append(out, jen.Line())
}

// codeWidth is about how long c is written on one line.
func codeWidth(c jen.Code) int {
	text := fmt.Sprintf("%#v", jen.Var().Id("_").Op("=").Id("T").Add(c)) // a fragment alone does not format
	return len(strings.Join(strings.Fields(text), " ")) - len("var _ = T")
}

// maxTableLine is the longest literal a table writes on one line.
const maxTableLine = 150

// intLit is n as an untyped constant (jen writes int64(n)).
func intLit(n int64) jen.Code { return jen.Op(strconv.FormatInt(n, 10)) }

// keyValue is the key: value element of a composite literal, which the
// decoding tables write on one line.
func keyValue(name string, value jen.Code) jen.Code { return jen.Id(name).Op(":").Add(value) }

func stringRuleCode(s *spec.Schema) jen.Code {
	if s.Pattern == "" && s.Format == "" && s.MinLength == nil && s.MaxLength == nil && len(s.Enum) == 0 {
		return nil
	}
	fields := lengthBounds("MinLength", s.MinLength, "MaxLength", s.MaxLength)
	if s.Pattern != "" {
		fields = append(fields, keyValue("Pattern", jen.Lit(s.Pattern)))
	}
	if s.Format != "" {
		fields = append(fields, keyValue("Format", jen.Lit(s.Format)))
	}
	if len(s.Enum) > 0 {
		fields = append(fields, keyValue("Enum", jen.Index().String().ValuesFunc(func(gr *jen.Group) {
			for _, v := range s.Enum {
				text, _ := strconv.Unquote(string(v.JSON))
				gr.Lit(text)
			}
		})))
	}
	return jen.Op("&").Qual(genimplPkg, "StringRule").Values(fitted(fields)...)
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
	if f, ok := jsonformat.Integer(s.Format); ok { // the format's range, where it is the stricter
		if r.min == nil || *r.min < f.Min {
			r.min = &f.Min
		}
		if r.max == nil || *r.max > f.Max {
			r.max = &f.Max
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
	var fields []jen.Code
	if r.min != nil {
		fields = append(fields, keyValue("Min", intLit(*r.min)), keyValue("HasMin", jen.True()))
	}
	if r.max != nil {
		fields = append(fields, keyValue("Max", intLit(*r.max)), keyValue("HasMax", jen.True()))
	}
	if r.multipleOf != 0 {
		fields = append(fields, keyValue("MultipleOf", intLit(r.multipleOf)))
	}
	return jen.Op("&").Qual(genimplPkg, "IntRule").Values(fields...)
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
	var fields []jen.Code
	for _, name := range []string{"Min", "Max", "ExclusiveMin", "ExclusiveMax"} {
		if f, ok := bounds[name]; ok {
			fields = append(fields, keyValue(name, jen.Qual(genimplPkg, "Bound").Values(keyValue("Set", jen.True()), keyValue("Value", jen.Lit(f)))))
		}
	}
	return jen.Op("&").Qual(genimplPkg, "NumberRule").Values(fields...)
}
