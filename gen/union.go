package gen

import (
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/naming"
	"github.com/mcpgen/mcpgen/spec"
)

// A union of the spec (anyOf, oneOf, a list of types) becomes a Go struct
// with one pointer field per variant, exactly one of them set:
//
//	type SearchInputQuery struct {
//		String *string
//		Filter *SearchInputQueryFilter
//	}
//
// Fields rather than an interface with one method per variant: a value is
// built with a composite literal (Query{String: &s}), read with a nil check,
// and a union can hold scalars ([]string, float64) that could not implement
// an interface. MarshalJSON refuses a value with none or several fields set.

// soleVariant is the one variant of a union that has only one besides null
// (anyOf: [T, {type: null}]): its Go type is T's, nullable. Nil otherwise.
func soleVariant(s *spec.Schema) *spec.Schema {
	if s != nil && s.Kind == spec.KindUnion && len(s.Variants) == 1 {
		return s.Variants[0]
	}
	return nil
}

// planUnion names the variant fields of a union and plans their types:
// OwnerName for an inline object or enum variant.
func (p *plan) planUnion(owner string, s *spec.Schema, item string) {
	if soleVariant(s) != nil {
		return
	}
	d := p.declOf[s]
	disc, tags := p.discriminator(s)
	taken := map[string]bool{}
	for i, v := range s.Variants {
		name := p.variantName(v, tags[i])
		if name == "" {
			name = fmt.Sprintf("Variant%d", i+1)
		}
		if base := name; taken[name] {
			for n := 2; taken[name]; n++ {
				name = base + strconv.Itoa(n)
			}
		}
		taken[name] = true
		if d != nil {
			d.variants = append(d.variants, &unionVariant{name: name, schema: v, tag: tags[i]})
		}
		p.planPart(owner+name, v, fmt.Sprintf("variant %d of %s", i+1, owner), name, origin{v.Pos, item}) // a goName named the field
	}
	if d != nil {
		d.discriminator = disc
	}
}

// variantName is the Go field name of a variant: the named type it refers
// to, its discriminator value, its title, or its kind.
func (p *plan) variantName(v *spec.Schema, tag string) string {
	switch {
	case v.GoName != "":
		return v.GoName
	case v.Kind == spec.KindRef:
		if d := p.named[v.Ref]; d != nil {
			return d.name // the type's Go name, goName included
		}
		return naming.Exported(v.Ref)
	case tag != "":
		if name := naming.Exported(enumText(&spec.Value{JSON: []byte(tag)})); name != "" {
			return name
		}
	case v.Title != "":
		if name := naming.Exported(v.Title); name != "" {
			return name
		}
	case v.Kind == spec.KindGoType:
		return v.GoType.Name
	}
	switch v.Kind {
	case spec.KindAny:
		return "Value"
	case spec.KindUnion:
		return "Union"
	}
	return naming.Exported(string(v.Kind))
}

// discriminator finds the property that tells the variants of a union
// apart: required in every variant (each an object), with a const (or a
// single enum value) that differs from variant to variant. It returns the
// property's name and each variant's value as JSON, or "" and nil.
func (p *plan) discriminator(s *spec.Schema) (string, []string) {
	var objects []*spec.Schema
	for _, v := range s.Variants {
		o := p.resolvedSchema(v)
		if o == nil || o.Kind != spec.KindObject || o.Nullable {
			return "", make([]string, len(s.Variants))
		}
		objects = append(objects, o)
	}
	candidates := objects[0].Properties
	if s.Discriminator != "" { // the spec's choice, checked by the loader
		candidates = []*spec.Property{{Name: s.Discriminator}}
	}
	for _, candidate := range candidates {
		tags := make([]string, len(objects))
		seen := map[string]bool{}
		for i, o := range objects {
			tags[i] = p.constOf(o, candidate.Name)
			if tags[i] == "" || seen[tags[i]] {
				tags = nil
				break
			}
			seen[tags[i]] = true
		}
		if tags != nil {
			return candidate.Name, tags
		}
	}
	return "", make([]string, len(s.Variants))
}

// constOf is the one value required property name of object o can take, as
// JSON, or "".
func (p *plan) constOf(o *spec.Schema, name string) string {
	for _, prop := range o.Properties {
		if prop.Name != name || !prop.Required {
			continue
		}
		ps := p.resolvedSchema(prop.Schema)
		if ps != nil && len(ps.Enum) == 1 && !ps.Nullable && !prop.Schema.Nullable {
			return string(ps.Enum[0].JSON) // the loader writes values compact
		}
	}
	return ""
}

// variantField is the Go type and struct tags of a variant's field: a
// pointer to the variant's type (nil: not this variant). The tags carry the
// variant's constraints for reflection, like a property's.
func (g *generator) variantField(v *unionVariant) (jen.Code, map[string]string) {
	typ, tags := g.fieldType(&spec.Property{Pos: v.schema.Pos, Name: v.name, Schema: v.schema, Required: true})
	if v.schema.Nullable && !g.isNilable(v.schema) {
		return typ, tags // already a pointer
	}
	return jen.Op("*").Add(typ), tags
}

// unionMethods declares a union's MarshalJSON (the variant that is set) and
// UnmarshalJSON (the variant the discriminator names, else the first that
// fits, in the spec's order).
func (g *generator) unionMethods(f *jen.File, d *decl) {
	var marshal, targets []jen.Code
	marshal = append(marshal, jen.Lit(d.name))
	targets = append(targets, jen.Lit(d.name), jen.Id("data"), jen.Lit(d.discriminator))
	for _, v := range d.variants {
		marshal = append(marshal, jen.Qual(genimplPkg, "Variant").Call(jen.Lit(v.name), jen.Id("u").Dot(v.name)))
		targets = append(targets, jen.Line().Qual(genimplPkg, "Into").Call(jen.Lit(v.name), jen.Op("&").Id("u").Dot(v.name), g.variantShape(v)))
	}
	targets = append(targets, jen.Line())
	f.Line()
	f.Comment("MarshalJSON writes the variant that is set; it is an error to set none or several.")
	f.Func().Params(jen.Id("u").Id(d.name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Qual(genimplPkg, "MarshalUnion").Call(marshal...)))
	f.Line()
	if d.discriminator != "" {
		f.Comment(fmt.Sprintf("UnmarshalJSON sets the variant that property %q names.", d.discriminator))
	} else {
		f.Comment("UnmarshalJSON sets the first variant, in the spec's order, that the value fits.")
	}
	f.Func().Params(jen.Id("u").Op("*").Id(d.name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Op("*").Id("u").Op("=").Id(d.name).Values(),
		jen.Return(jen.Qual(genimplPkg, "UnmarshalUnion").Call(targets...)))
}

// variantShape is what the JSON of a variant looks like, for decoding:
// its JSON type, and an object's required and known properties.
func (g *generator) variantShape(v *unionVariant) jen.Code {
	r := g.resolved(v.schema)
	shape := jen.Dict{}
	switch {
	case v.schema.Nullable || r.Nullable:
		// null or the variant: leave it to decoding
	case r.Kind == spec.KindObject:
		var required, known []jen.Code
		for _, p := range r.Properties {
			known = append(known, jen.Lit(p.Name))
			if p.Required {
				required = append(required, jen.Lit(p.Name))
			}
		}
		shape[jen.Id("Type")] = jen.Lit("object")
		if len(required) > 0 {
			shape[jen.Id("Required")] = jen.Index().String().Values(required...)
		}
		if !r.AdditionalProperties {
			shape[jen.Id("Known")] = jen.Index().String().Values(known...)
			shape[jen.Id("Closed")] = jen.True()
		}
		if v.tag != "" {
			shape[jen.Id("Const")] = rawString(v.tag)
		}
	case r.Kind == spec.KindMap:
		shape[jen.Id("Type")] = jen.Lit("object")
	case r.Kind == spec.KindString, r.Kind == spec.KindInteger, r.Kind == spec.KindNumber,
		r.Kind == spec.KindBoolean, r.Kind == spec.KindArray:
		shape[jen.Id("Type")] = jen.Lit(string(r.Kind))
	}
	return jen.Qual(genimplPkg, "Shape").Values(shape)
}
