package gen

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/spec"
)

// typesFile declares every Go type of the spec: named types, enums, and the
// inputs and outputs of tools. The JSON Schema that clients see is reflected
// from these declarations (struct tags and JSONSchemaExtend methods), so every
// constraint of the spec is written here.
func (g *generator) typesFile(f *jen.File) {
	templateOf := map[*decl]*templatePlan{}
	for _, tp := range g.plan.templates {
		if d := g.plan.declOf[tp.params]; d != nil {
			templateOf[d] = tp
		}
	}
	for _, d := range g.plan.decls {
		f.Line()
		g.declare(f, d)
		g.applyDefaultsMethod(f, d)
		g.decoderMethods(f, d)
		if tp := templateOf[d]; tp != nil {
			g.templateHelpers(f, tp)
		}
	}
}

// templateHelpers declares a template's URI template constant, and the
// methods that turn typed values back into a URI (Expand) and into a
// resource_link content block (Link), so that a tool can point at a
// resource instead of inlining it (seed 000).
func (g *generator) templateHelpers(f *jen.File, tp *templatePlan) {
	t := tp.tmpl
	params := tp.base + "Params"
	f.Line()
	f.Add(doc(fmt.Sprintf("%sURITemplate is the URI template of resource template %q.", tp.base, t.Name)))
	f.Const().Id(tp.base + "URITemplate").Op("=").Lit(t.URITemplate)

	var body []jen.Code
	required := jen.Dict{}
	for _, prop := range tp.params.Properties {
		field := jen.Id("p").Dot(g.plan.declOf[tp.params].fieldName(prop))
		if prop.Required {
			required[jen.Lit(prop.Name)] = g.expandValue(field, prop.Schema)
			continue
		}
		body = append(body, jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Add(field).Dot("Get").Call(), jen.Id("ok")).Block(
			jen.Id("vars").Index(jen.Lit(prop.Name)).Op("=").Add(g.expandValue(jen.Id("v"), prop.Schema))))
	}
	f.Line()
	f.Comment("Expand returns the URI that these values name.")
	f.Func().Params(jen.Id("p").Id(params)).Id("Expand").Params().String().Block(append(append(
		[]jen.Code{jen.Id("vars").Op(":=").Map(jen.String()).Any().Values(required)},
		body...),
		jen.Return(jen.Qual(runtimePkg, "ExpandURITemplate").Call(jen.Id(tp.base+"URITemplate"), jen.Id("vars"))))...)

	f.Line()
	f.Comment("Link returns a resource_link content block to the resource these values name. Set its")
	f.Comment("Title or Description to say more about this one resource.")
	f.Func().Params(jen.Id("p").Id(params)).Id("Link").Params().Qual(runtimePkg, "ResourceLink").Block(
		jen.Return(jen.Qual(runtimePkg, "ResourceLink").Values(jen.DictFunc(func(d jen.Dict) {
			d[jen.Id("URI")] = jen.Id("p").Dot("Expand").Call()
			d[jen.Id("Name")] = jen.Id(tp.nameConst)
			if t.Title != "" {
				d[jen.Id("Title")] = jen.Lit(t.Title)
			}
			if t.Description != "" {
				d[jen.Id("Description")] = textLit(t.Description)
			}
			if t.MimeType != "" {
				d[jen.Id("MimeType")] = jen.Lit(t.MimeType)
			}
		}))),
	)
}

// expandValue converts a variable's Go value to what ExpandURITemplate
// takes: its underlying string, int64, float64, bool or []string.
func (g *generator) expandValue(v jen.Code, s *spec.Schema) jen.Code {
	if g.plan.declOf[s] == nil && s.Kind != spec.KindRef && s.Kind != spec.KindArray {
		return v // already a string, int64, float64 or bool
	}
	r := g.resolved(s)
	switch r.Kind {
	case spec.KindInteger:
		return jen.Int64().Call(v)
	case spec.KindNumber:
		return jen.Float64().Call(v)
	case spec.KindBoolean:
		return jen.Bool().Call(v)
	case spec.KindArray:
		return jen.Qual(genimplPkg, "Strings").Call(v)
	}
	return jen.String().Call(v)
}

func (g *generator) declare(f *jen.File, d *decl) {
	s := d.schema
	comment := fmt.Sprintf("%s is %s %s.", d.name, d.what, g.at(s.Pos))
	if d.specName != "" {
		comment = fmt.Sprintf("%s is the spec's %s %s.", d.name, d.what, g.at(s.Pos))
	}
	if s.Description != "" {
		comment += "\n\n" + s.Description
	}
	if d.kind == declUnion {
		comment += "\n\nIt is a union: set exactly one field, the variant the value is."
	}
	f.Add(doc(comment))
	switch d.kind {
	case declStruct:
		f.Type().Id(d.name).StructFunc(func(gr *jen.Group) {
			for i, fl := range d.fields {
				if i > 0 && fl.prop.Schema.Description != "" {
					gr.Line()
				}
				gr.Add(doc(fl.prop.Schema.Description))
				typ, tags := g.fieldType(fl.prop)
				gr.Id(fl.name).Add(typ).Tag(tags)
			}
		})
	case declUnion:
		f.Type().Id(d.name).StructFunc(func(gr *jen.Group) {
			for _, v := range d.variants {
				typ, tags := g.variantField(v)
				gr.Id(v.name).Add(typ).Tag(tags)
			}
		})
		g.unionMethods(f, d)
	case declEnum, declScalar, declSlice, declMap:
		if g.isTagEnum(d) {
			f.Type().Id(d.name).Op("=").Add(g.underlying(s))
			break
		}
		f.Type().Id(d.name).Add(g.underlying(s))
	case declAlias:
		f.Type().Id(d.name).Op("=").Add(g.underlying(s))
	}
	if d.kind == declEnum {
		f.Line()
		f.Const().DefsFunc(func(gr *jen.Group) {
			for _, c := range d.consts {
				gr.Id(c.name).Id(d.name).Op("=").Add(enumLiteral(s.Kind, c.value))
			}
		})
	}
	if body := g.extendBody(d); len(body) > 0 {
		f.Line()
		f.Add(doc(fmt.Sprintf("JSONSchemaExtend adds to the reflected JSON Schema of %s what struct tags cannot say.", d.name)))
		f.Func().Params(jen.Id(d.name)).Id("JSONSchemaExtend").
			Params(jen.Id("s").Op("*").Qual(jsonschemaPkg, "Schema")).Block(body...)
	}
}

// typeOf is the Go type of a value of schema s wherever it is used.
func (g *generator) typeOf(s *spec.Schema) jen.Code {
	if only := soleVariant(s); only != nil {
		return g.typeOf(only)
	}
	if d := g.plan.declOf[s]; d != nil {
		return jen.Id(d.name)
	}
	return g.underlying(s)
}

// underlying is the Go type a schema maps to, ignoring its own declaration.
func (g *generator) underlying(s *spec.Schema) jen.Code {
	if only := soleVariant(s); only != nil {
		return g.typeOf(only)
	}
	switch s.Kind {
	case spec.KindRef:
		if d := g.plan.named[s.Ref]; d != nil {
			return jen.Id(d.name)
		}
		return jen.Id("invalidRef")
	case spec.KindGoType:
		if g.goTypeText != nil {
			return jen.Id(g.goTypePlaceholder(s.GoType.ImportPath + "." + s.GoType.Name))
		}
		return jen.Qual(s.GoType.ImportPath, s.GoType.Name)
	case spec.KindString:
		return jen.String()
	case spec.KindInteger:
		return jen.Int64()
	case spec.KindNumber:
		return jen.Float64()
	case spec.KindBoolean:
		return jen.Bool()
	case spec.KindAny:
		return jen.Qual(jsonPkg, "RawMessage")
	case spec.KindArray:
		return jen.Index().Add(g.typeOf(s.Items))
	case spec.KindMap:
		return jen.Map(jen.String()).Add(g.typeOf(s.Values))
	case spec.KindObject:
		if s.IsFreeObject() {
			return jen.Map(jen.String()).Qual(jsonPkg, "RawMessage")
		}
		// Only reached for an object that was not planned, which the plan
		// never leaves; an empty struct keeps the output compilable.
		return jen.Struct()
	}
	return jen.Qual(jsonPkg, "RawMessage")
}

// resolved follows $refs to the schema that says what a value is.
func (g *generator) resolved(s *spec.Schema) *spec.Schema {
	for i := 0; s != nil && (s.Kind == spec.KindRef || soleVariant(s) != nil) && i < 100; i++ {
		if only := soleVariant(s); only != nil {
			s = only
			continue
		}
		d := g.plan.named[s.Ref]
		if d == nil {
			return s
		}
		s = d.schema
	}
	return s
}

// isNilable reports whether the Go type of s has a nil value that means
// "absent" (slices, maps, raw JSON): such values are never wrapped.
func (g *generator) isNilable(s *spec.Schema) bool {
	r := g.resolved(s)
	switch r.Kind {
	case spec.KindArray, spec.KindMap, spec.KindAny:
		return true
	}
	return r.IsFreeObject()
}

// fieldType is the Go type and struct tags of an object property. Optional
// values are runtime.Opt[T] (absent ≠ zero) and nullable ones are pointers
// (nil = null); slices, maps and raw JSON use their own nil and are never
// wrapped unless they are both optional and nullable.
func (g *generator) fieldType(prop *spec.Property) (jen.Code, map[string]string) {
	s := prop.Schema
	base := g.typeOf(s)
	jsonTag := prop.Name
	var typ jen.Code
	switch {
	case g.isNilable(s) && !s.Nullable:
		typ = base
		if !prop.Required {
			jsonTag += ",omitempty"
		}
	case g.isNilable(s):
		typ = base
		if !prop.Required {
			typ = jen.Qual(runtimePkg, "Opt").Types(base)
			jsonTag += ",omitzero"
		}
	case s.Nullable:
		typ = jen.Op("*").Add(base)
		if !prop.Required {
			typ = jen.Qual(runtimePkg, "Opt").Types(jen.Op("*").Add(base))
			jsonTag += ",omitzero"
		}
	default:
		typ = base
		if !prop.Required {
			typ = jen.Qual(runtimePkg, "Opt").Types(base)
			jsonTag += ",omitzero"
		}
	}
	tags := map[string]string{"json": jsonTag}
	kw, extras := g.tagKeywords(s)
	if len(kw) > 0 {
		tags["jsonschema"] = strings.Join(kw, ",")
	}
	if len(extras) > 0 {
		// Kept in the schema tools/list sends (x-mcp-header: the client
		// mirrors the argument into Mcp-Param-{name}, the runtime checks it).
		tags["jsonschema_extras"] = strings.Join(extras, ",")
	}
	desc := s.Description
	if only := soleVariant(s); only != nil && desc == "" {
		desc = only.Description
	}
	if desc == "" && s.Kind == spec.KindRef && !g.isDeclaredElsewhere(s) {
		// invopop inlines named scalar types and replaces their description
		// with the field's: carry the type's own description over.
		desc = g.resolved(s).Description
	}
	if desc != "" {
		tags["jsonschema_description"] = desc
	}
	return typ, tags
}

// isDeclaredElsewhere reports whether a $ref lands in the schema's $defs
// (structs and slices do; scalars, enums and maps are inlined by the
// reflector).
func (g *generator) isDeclaredElsewhere(s *spec.Schema) bool {
	d := g.plan.named[s.Ref]
	return d != nil && (d.kind == declStruct || d.kind == declSlice || d.kind == declUnion)
}

// tagKeywords are the `jsonschema:"…"` keywords of a property (the
// title, nullable, and the constraints written on the property itself, of
// those a tag carries), and its `jsonschema_extras:"…"` ones.
func (g *generator) tagKeywords(s *spec.Schema) (kw, extras []string) {
	kw, extras = propertyTags(s, false, nil)
	if s.Nullable {
		kw = append(kw, "nullable")
	}
	if only := soleVariant(s); only != nil {
		// The constraints are the variant's; the annotations the union's,
		// else the variant's.
		k, e := propertyTags(only, false, func(k *spec.Keyword) bool { return !k.Present(s) })
		kw, extras = append(kw, k...), append(extras, e...)
		s = only
	}
	if d := g.plan.declOf[s]; d != nil {
		if g.isTagEnum(d) { // an alias of string: the tag carries its values
			for _, v := range s.Enum {
				kw = append(kw, "enum="+strings.ReplaceAll(enumText(v), ",", `\,`))
			}
		}
		return kw, extras // a declared type carries its own constraints
	}
	k, e := propertyTags(s, true, nil)
	return append(kw, k...), append(extras, e...)
}

// extendBody is the body of a type's JSONSchemaExtend method: what a type
// says about itself (named types), and the property annotations that tags
// cannot carry exactly (defaults, examples).
func (g *generator) extendBody(d *decl) []jen.Code {
	s := d.schema
	if d.kind == declAlias || g.isTagEnum(d) {
		return nil // no methods can be declared on another package's type (nor on string)
	}
	var body []jen.Code
	set := func(field string, v jen.Code) {
		body = append(body, jen.Id("s").Dot(field).Op("=").Add(v))
	}
	// Only at a tool's root, which no property carries (spec's placement).
	body = append(body, setKeywords(jen.Id("s"), s, rootKeywords, nil)...)
	if d.specName != "" { // a derived type's use says these (tags, its carrier)
		body = append(body, setKeywords(jen.Id("s"), s, firstAnnotations, nil)...)
	}
	switch d.kind {
	case declEnum:
		if s.Const {
			set("Const", enumLiteral(s.Kind, s.Enum[0]))
			break
		}
		set("Enum", jen.Index().Any().ValuesFunc(func(gr *jen.Group) {
			for _, v := range s.Enum {
				gr.Add(enumLiteral(s.Kind, v))
			}
		}))
	case declSlice:
		body = append(body, g.itemsBody(jen.Id("s"), s)...)
	case declUnion:
		keyword := s.UnionKeyword
		if keyword == spec.UnionTypeList {
			keyword = spec.UnionAnyOf // reflection has no list of types; the same union
		}
		args := []jen.Code{jen.Id("s"), jen.Lit(keyword)}
		for _, v := range d.variants {
			args = append(args, jen.Lit(v.name))
		}
		body = append(body, jen.Qual(genimplPkg, "UnionSchema").Call(args...))
	case declStruct:
		switch {
		case !s.AdditionalProperties:
			if len(s.Properties) == 0 && s.Fields["properties"] == (spec.Pos{}) {
				set("Properties", jen.Nil()) // none written, none advertised (the wire's)
			}
		case s.OpenAs == spec.OpenUnsaid:
			set("AdditionalProperties", jen.Nil()) // open, and said nowhere (the wire's)
		default: // {} too, which reflection writes as true (the wire says {})
			set("AdditionalProperties", jen.Qual(jsonschemaPkg, "TrueSchema"))
		}
		for _, fl := range d.fields {
			inner := g.propertyBody(fl.prop.Schema)
			if len(inner) == 0 {
				continue
			}
			body = append(body, jen.If(
				jen.List(jen.Id("p"), jen.Id("ok")).Op(":=").Id("s").Dot("Properties").Dot("Get").Call(jen.Lit(fl.prop.Name)),
				jen.Id("ok"),
			).Block(inner...))
		}
	}
	body = append(body, setKeywords(jen.Id("s"), s, constraintWords, nil)...)
	if d.kind != declStruct { // a struct's use says these, on its property
		// A string a property's tag carries is not said again.
		body = append(body, setKeywords(jen.Id("s"), s, lastAnnotations, func(k *spec.Keyword) bool { return !inExtrasTag(k, s) })...)
	}
	return body
}

// propertyBody sets, on a property's reflected schema p, what its tags
// cannot carry (defaults, examples, an integer's format): the items of a
// plain array, and the property's keywords no tag holds.
func (g *generator) propertyBody(ps *spec.Schema) []jen.Code {
	p := jen.Id("p")
	body := g.itemsBody(p, ps)
	notTagged := func(s *spec.Schema) func(k *spec.Keyword) bool {
		return func(k *spec.Keyword) bool {
			return !inTag(k, s) && !inExtrasTag(k, s) && !reflectedFields[k.Name].ownTag
		}
	}
	body = append(body, setKeywords(p, ps, firstAnnotations, notTagged(ps))...)
	cs := ps
	if only := soleVariant(ps); only != nil {
		cs = only // the constraints are the variant's (tagKeywords)
	}
	if g.plan.declOf[cs] == nil { // a declared type carries its own
		body = append(body, setKeywords(p, cs, constraintWords, notTagged(cs))...)
	}
	return append(body, setKeywords(p, ps, lastAnnotations, notTagged(ps))...)
}

// itemsBody describes the plain scalar items of an array (see
// plainItems) on the reflected schema of the array, schema: their
// constraints and annotations, which no Go type of theirs carries. Nothing
// for other arrays.
func (g *generator) itemsBody(schema *jen.Statement, s *spec.Schema) []jen.Code {
	if s.Kind != spec.KindArray || s.Items == nil || g.plan.declOf[s.Items] != nil || !plainItems(s.Items) {
		return nil
	}
	it := s.Items
	items := func() *jen.Statement { return schema.Clone().Dot("Items") }
	var body []jen.Code
	for _, group := range []keywordGroup{firstAnnotations, constraintWords, lastAnnotations} {
		body = append(body, setKeywords(items(), it, group, nil)...)
	}
	if len(body) == 0 {
		return nil
	}
	// The reflector gives a slice's items a schema; the check keeps a
	// surprise from panicking at startup.
	return []jen.Code{jen.If(items().Op("!=").Nil()).Block(body...)}
}

// ptrLit is new(T(v)): a pointer to a constant (Go 1.26).
func ptrLit(typ, v string) jen.Code {
	return jen.New(jen.Id(typ).Call(jen.Id(v)))
}

// rawJSON is json.RawMessage(`…`): a spec value, exactly as written.
func rawJSON(v *spec.Value) jen.Code {
	return jen.Qual(jsonPkg, "RawMessage").Call(rawString(string(v.JSON)))
}

// rawString renders a Go string literal, as a raw string when that is
// possible and reads better (JSON is full of double quotes).
func rawString(s string) jen.Code {
	if canBeRaw(s) {
		return jen.Op("`" + s + "`")
	}
	return jen.Lit(s)
}

// canBeRaw reports whether s can be written as a raw string literal.
func canBeRaw(s string) bool {
	return !strings.ContainsAny(s, "`\r") && isPrintable(s)
}

func isPrintable(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' {
			return false
		}
		if r == 0x7f || r == 0xfffd {
			return false
		}
	}
	return true
}

// enumLiteral is the Go literal of an enum value of the given kind.
func enumLiteral(kind spec.Kind, v *spec.Value) jen.Code {
	if kind == spec.KindString {
		return jen.Lit(enumText(v))
	}
	return jen.Op(string(v.JSON))
}

// enumText is the text of an enum value: the string itself for strings, the
// JSON text otherwise.
func enumText(v *spec.Value) string {
	var str string
	if err := json.Unmarshal(v.JSON, &str); err == nil {
		return str
	}
	return string(v.JSON)
}
