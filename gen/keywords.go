package gen

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/spec"
)

// The value keywords of a schema (spec.ValueKeywords) reach the reflected
// JSON Schema by their name and shape, never by code of their own here:
// a property's struct tag where github.com/invopop/jsonschema reads the
// keyword from one, else the JSONSchemaExtend method of the type that
// carries it. reflectedFields is what gen knows of the reflector, not of
// the spec: the keywords jsonschema.Schema has a field for. A keyword it
// has none for is set in Extras, which the reflector writes as is, or,
// for a string on a property, written in the jsonschema_extras tag.
var reflectedFields = map[string]reflected{
	"title":            {field: "Title", tag: anyKind},
	"description":      {field: "Description", ownTag: true},
	"default":          {field: "Default"},
	"examples":         {field: "Examples"},
	"pattern":          {field: "Pattern", tag: stringKind, raw: true},
	"format":           {field: "Format", tag: stringKind},
	"minLength":        {field: "MinLength", tag: stringKind},
	"maxLength":        {field: "MaxLength", tag: stringKind},
	"minimum":          {field: "Minimum", tag: numberKinds},
	"maximum":          {field: "Maximum", tag: numberKinds},
	"exclusiveMinimum": {field: "ExclusiveMinimum", tag: numberKinds},
	"exclusiveMaximum": {field: "ExclusiveMaximum", tag: numberKinds},
	"multipleOf":       {field: "MultipleOf", tag: numberKinds},
	"minItems":         {field: "MinItems", tag: arrayKind},
	"maxItems":         {field: "MaxItems", tag: arrayKind},
	"uniqueItems":      {field: "UniqueItems", tag: arrayKind},
}

// reflected is how the reflector holds a keyword: its field of
// jsonschema.Schema, the kinds whose `jsonschema:"name=value"` tag entry
// it reads the keyword from (nil: none; anyKind: every kind), whether gen
// writes a tag of its own for it (jsonschema_description), and whether a
// string reads better as a raw literal (patterns).
type reflected struct {
	field  string
	tag    []spec.Kind
	ownTag bool
	raw    bool
}

var (
	anyKind     = []spec.Kind{}
	stringKind  = []spec.Kind{spec.KindString}
	numberKinds = []spec.Kind{spec.KindInteger, spec.KindNumber}
	arrayKind   = []spec.Kind{spec.KindArray}
)

// inTag reports whether the struct tag of property s carries k
// (`jsonschema:"name=value"`). The reflector drops a number from a tag
// unless it parses as a float64 (1e400 does not): JSONSchemaExtend sets it.
func inTag(k *spec.Keyword, s *spec.Schema) bool {
	r, ok := reflectedFields[k.Name]
	if !ok || r.tag == nil || (len(r.tag) > 0 && !slices.Contains(r.tag, s.Kind)) {
		return false
	}
	if k.Shape() == spec.ShapeNumber {
		_, err := json.Number(k.Text(s)).Float64()
		return err == nil
	}
	return true
}

// inExtrasTag reports whether k's value in s is written in a property's
// jsonschema_extras tag: a string of a keyword the reflector has no field
// for, which the tag holds as is.
func inExtrasTag(k *spec.Keyword, s *spec.Schema) bool {
	if _, ok := reflectedFields[k.Name]; ok || k.Shape() != spec.ShapeString || k.RootOnly() {
		return false
	}
	v := k.Text(s)
	return tagSafe(v) && !strings.ContainsAny(v, ",=")
}

// propertyTags are the tag entries of the keywords of s that a property's
// struct tag carries, in the table's order: `jsonschema` entries
// (name=value, commas escaped as the reflector expects) and
// `jsonschema_extras` ones; of the constraints, or of the annotations,
// those pick allows (nil: all).
func propertyTags(s *spec.Schema, constraints bool, pick func(k *spec.Keyword) bool) (kw, extras []string) {
	for _, k := range spec.ValueKeywords {
		if !k.Present(s) || k.Constrains() != constraints || (pick != nil && !pick(k)) {
			continue
		}
		switch {
		case inTag(k, s): // a flag's text is "true"
			kw = append(kw, k.Name+"="+strings.ReplaceAll(k.Text(s), ",", `\,`))
		case inExtrasTag(k, s):
			extras = append(extras, k.Name+"="+k.Text(s))
		}
	}
	return kw, extras
}

// keywordGroup picks the value keywords a carrier sets.
type keywordGroup func(k *spec.Keyword) bool

// The groups of keywords in the order a JSONSchemaExtend sets them, which
// is the wire's: the annotations written first (title, description), the
// constraints, then those written last (default, examples). The keywords
// of a tool's input or output root ($schema) are a group of their own:
// the root's type says them, whatever its kind, and no property does.
var (
	rootKeywords     keywordGroup = (*spec.Keyword).RootOnly
	firstAnnotations keywordGroup = func(k *spec.Keyword) bool { return !k.Constrains() && !k.Last() && !k.RootOnly() }
	constraintWords  keywordGroup = (*spec.Keyword).Constrains
	lastAnnotations  keywordGroup = func(k *spec.Keyword) bool { return !k.Constrains() && k.Last() && !k.RootOnly() }
)

// setKeywords sets, on the reflected schema target, the keywords of s in
// group that pick allows, in the table's order.
func setKeywords(target *jen.Statement, s *spec.Schema, group keywordGroup, pick func(k *spec.Keyword) bool) []jen.Code {
	var body []jen.Code
	for _, k := range spec.ValueKeywords {
		if !k.Present(s) || !group(k) || (pick != nil && !pick(k)) {
			continue
		}
		if r, ok := reflectedFields[k.Name]; ok {
			body = append(body, target.Clone().Dot(r.field).Op("=").Add(fieldValue(k, s, r)))
			continue
		}
		body = append(body, jen.Qual(genimplPkg, "SetExtra").Call(target.Clone(), jen.Lit(k.Name), extraValue(k, s)))
	}
	return body
}

// fieldValue is k's value in s as the field r of jsonschema.Schema holds
// it, by k's shape.
func fieldValue(k *spec.Keyword, s *spec.Schema, r reflected) jen.Code {
	switch k.Shape() {
	case spec.ShapeCount:
		return ptrLit("uint64", k.Text(s))
	case spec.ShapeNumber:
		return jen.Qual(jsonPkg, "Number").Call(jen.Lit(k.Text(s)))
	case spec.ShapeFlag:
		return jen.True()
	case spec.ShapeValue:
		return jen.Qual(jsonPkg, "RawMessage").Call(rawString(k.Text(s)))
	case spec.ShapeValues:
		v, _ := k.Value(s)
		return jen.Index().Any().ValuesFunc(func(gr *jen.Group) {
			for _, e := range v.([]json.RawMessage) {
				gr.Add(jen.Qual(jsonPkg, "RawMessage").Call(rawString(string(e))))
			}
		})
	}
	if r.raw {
		return rawString(k.Text(s))
	}
	return jen.Lit(k.Text(s))
}

// extraValue is k's value in s for Extras: a string as itself, any other
// as its JSON.
func extraValue(k *spec.Keyword, s *spec.Schema) jen.Code {
	switch k.Shape() {
	case spec.ShapeString:
		return jen.Lit(k.Text(s))
	case spec.ShapeFlag:
		return jen.True()
	}
	return jen.Qual(jsonPkg, "RawMessage").Call(rawString(k.Text(s)))
}

// hasKeywords reports whether s holds a value keyword of group.
func hasKeywords(s *spec.Schema, group keywordGroup) bool {
	for _, k := range spec.ValueKeywords {
		if group(k) && k.Present(s) {
			return true
		}
	}
	return false
}
