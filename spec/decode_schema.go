package spec

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// typeNames are the values `type:` accepts, in the reference's order.
var typeNames = []string{"string", "integer", "number", "boolean", "array", "object", "map", "any"}

// listTypes are the types a list of types may hold (`type: [string,
// number, null]`): a union of scalars, nullable when null is among them.
var listTypes = []string{"string", "integer", "number", "boolean", "null"}

// variantsSchema is the JSON Schema of the list of an anyOf or oneOf: schemas,
// or {type: null}.
const variantsSchema = `{"type":"array","minItems":1,"items":{"anyOf":[{"$ref":"#/$defs/Schema"},{"type":"object","properties":{"type":{"enum":[null,"null"]}},"required":["type"],"additionalProperties":false}]}}`

// validKeys are the keys a schema of kind k may hold, in table order.
func validKeys(k Kind) []string {
	var keys []string
	for _, sk := range schemaKeys {
		if sk.appliesTo(k) {
			keys = append(keys, sk.Name)
		}
	}
	return keys
}

// kindKeys are the keys that only some kinds of schema hold, and k among
// them.
func kindKeys(k Kind) []string {
	var keys []string
	for _, sk := range schemaKeys {
		if sk.kinds != nil && sk.appliesTo(k) {
			keys = append(keys, sk.Name)
		}
	}
	return keys
}

// keyDomain says the kinds key applies to, in words ("" for every kind).
func keyDomain(key string) string {
	for _, sk := range schemaKeys {
		if sk.Name == key {
			return sk.words
		}
	}
	return ""
}

// unsupportedHints answer the JSON Schema keys people reach for that the spec
// language spells differently.
var unsupportedHints = map[string]string{
	"$defs":       "; put named types under types: and use $ref: Name",
	"definitions": "; put named types under types: and use $ref: Name",
}

func init() {
	for _, k := range rawOnlyKeys {
		unsupportedHints[k] = fmt.Sprintf("; typed schemas have no %s: write the tool's schema in full with inputSchema or outputSchema (raw JSON Schema 2020-12, advertised as written)", k)
	}
}

// schemaDecoding is a schema being decoded: what its kind and its
// required list wait for until every key is read.
type schemaDecoding struct {
	*Schema
	typ      *entry
	apSchema *Schema // additionalProperties was written as a schema
	apEmpty  bool    // that schema is {}
	apBool   bool    // additionalProperties was written true, false or null
	required []entry
}

// schema decodes a schema mapping. what names the place in messages
// ("items", `property "id"`, `type "Order"`). The result is never nil: a
// schema that cannot be read at all is a placeholder the validator skips.
func (d *decoder) schema(n *yaml.Node, what string) *Schema {
	return d.schemaOr(n, what, "")
}

// schemaOr is schema with the kind to assume when nothing tells it: a tool's
// input is an object, so `input: {description: …}` needs no type.
func (d *decoder) schemaOr(n *yaml.Node, what string, assume Kind) *Schema {
	return d.schemaWith(n, what, assume, nil)
}

// schemaWith is schemaOr for a schema written beside other keys (a template
// variable's `complete:`), which the caller has taken out of n; they are the
// first suggestions for an unknown key.
func (d *decoder) schemaWith(n *yaml.Node, what string, assume Kind, beside []string) *Schema {
	s := &Schema{Pos: posOf(n)}
	m := deref(n)
	if m.Kind != yaml.MappingNode {
		d.errorf(posOf(n), "%s must be a mapping, such as %s", what, d.schemaHint(m))
		d.skip[s] = true
		return s
	}
	s.Fields, s.FieldValues = map[string]Pos{}, map[string]Pos{}
	sd := &schemaDecoding{Schema: s}
	var unknown []entry
	decodeMapping(d, m, sd, schemaFields, func(e entry) { unknown = append(unknown, e) })
	typ, apSchema, apBool := sd.typ, sd.apSchema, sd.apBool
	if s.Fields["const"] != (Pos{}) && s.Fields["enum"] != (Pos{}) {
		d.errorf(s.Fields["const"], "const and enum both give the allowed values; keep one")
	}

	s.Kind = d.kind(s, typ, apSchema, assume)
	if s.Kind == "" {
		d.skip[s] = true
	}

	for _, e := range unknown {
		label := "schema"
		if s.Kind != "" {
			label = kindLabel(s.Kind) + " schema"
		}
		hint := unsupportedHints[e.key]
		if hint == "" {
			hint = didYouMean(e.key, beside)
		}
		if hint == "" {
			hint = didYouMean(e.key, validKeys(s.Kind))
		}
		if hint == "" {
			hint = didYouMean(e.key, schemaFields.keys())
		}
		if hint == "" {
			hint = commaHint(e)
		}
		d.errorf(posOf(e.keyNode), "unknown key %q in %s%s", e.key, label, hint)
	}

	// A schema under additionalProperties is the value schema of a map; beside
	// properties the model has no room for it (an object's extra keys are
	// either refused or accepted as they are).
	switch {
	case s.Kind == KindMap && apSchema != nil && s.Values != nil:
		d.errorf(s.Fields["additionalProperties"], "values and additionalProperties both give the value schema of the map; keep values")
	case s.Kind == KindMap && apSchema != nil:
		s.Values = apSchema
	case s.Kind == KindMap && apBool:
		d.errorf(s.FieldValues["additionalProperties"], "additionalProperties of a map must be a schema (or use values)")
		s.AdditionalProperties, s.OpenAs = false, OpenTrue // reported once, here
	case sd.apEmpty && s.Kind == KindObject:
		// {} accepts any value: an open object, advertised as written.
		s.AdditionalProperties, s.OpenAs = true, OpenEmpty
	case apSchema != nil && s.Kind == KindObject:
		d.errorf(s.FieldValues["additionalProperties"], "additionalProperties must be true, false, null or {} beside properties; a schema makes a map, which has no fixed properties")
	}

	if s.Kind == KindObject && typ != nil && s.Fields["properties"] == (Pos{}) && s.Fields["additionalProperties"] == (Pos{}) {
		// {type: object} alone is any object, as in JSON Schema.
		s.AdditionalProperties = true
	}
	if s.Kind == KindObject {
		d.required(s, sd.required)
	}
	return s
}

// kind reads `type:` or infers the kind from the keys present. It returns ""
// (and reports why) when it cannot tell.
func (d *decoder) kind(s *Schema, typ *entry, apSchema *Schema, assume Kind) Kind {
	switch {
	case s.Fields["$ref"] != (Pos{}):
		return KindRef // a goType beside it is refused by the validator
	case s.Fields["goType"] != (Pos{}):
		return KindGoType
	case s.UnionKeyword == UnionAnyOf || s.UnionKeyword == UnionOneOf:
		if typ != nil {
			d.errorf(s.Fields["type"], "type cannot be used beside %s; give each variant its type", s.UnionKeyword)
		}
		return KindUnion
	case typ != nil && deref(typ.value).Kind == yaml.SequenceNode:
		return d.typeList(s, typ.value)
	case typ != nil:
		k := d.typeName(typ.value)
		if k == KindObject && apSchema != nil && len(s.Properties) == 0 && s.Fields["properties"] == (Pos{}) {
			return KindMap
		}
		return k
	case s.Fields["properties"] != (Pos{}):
		return KindObject
	case apSchema != nil:
		return KindMap
	case s.Fields["items"] != (Pos{}):
		return KindArray
	case s.Fields["values"] != (Pos{}):
		return KindMap
	case s.Fields["enum"] != (Pos{}) || s.Fields["const"] != (Pos{}):
		if k := enumKind(s.Enum); k != "" {
			return k
		}
		if len(s.Enum) > 0 {
			d.errorf(s.Pos, "cannot tell the type from the enum values; add type: string, integer or number")
		}
		return ""
	case assume != "":
		return assume
	}
	d.errorf(s.Pos, "cannot tell the type; add type: %s", guessType(s))
	return ""
}

// variants decodes the list of an anyOf or oneOf. A {type: null} variant
// is not a schema of the model: it makes the union nullable, spelled as
// written.
func (d *decoder) variants(s *Schema, n *yaml.Node, keyword string) {
	if s.UnionKeyword != "" {
		d.errorf(posOf(n), "anyOf and oneOf cannot both be used; a union is one of them")
		return
	}
	s.UnionKeyword = keyword
	items, ok := d.list(n, keyword)
	if !ok {
		return
	}
	if len(items) == 0 {
		d.errorf(posOf(n), "%s must list at least one schema", keyword)
	}
	for i, item := range items {
		if isNullSchema(item) {
			if s.Nullable {
				d.errorf(posOf(item), "%s lists {type: null} twice", keyword)
			}
			s.Nullable, s.NullSpelling, s.NullAt = true, keyword, i
			continue
		}
		s.Variants = append(s.Variants, d.schema(item, fmt.Sprintf("variant %d of %s", i+1, keyword)))
	}
	if len(s.Variants) == 0 && len(items) > 0 {
		d.errorf(posOf(n), "%s needs a variant besides {type: null}", keyword)
	}
}

// exportedHint is name with its first letter upper-cased, when that makes
// an exported Go identifier; else "".
func exportedHint(name string) string {
	r := []rune(name)
	if len(r) == 0 {
		return ""
	}
	r[0] = unicode.ToUpper(r[0])
	if isExported(string(r)) {
		return string(r)
	}
	return ""
}

// isNullSchema reports whether n is the mapping {type: null}.
func isNullSchema(n *yaml.Node) bool {
	m := deref(n)
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 {
		return false
	}
	k, v := deref(m.Content[0]), deref(m.Content[1])
	return k.Value == "type" && (isNull(v) || v.Value == "null")
}

// typeList reads `type: [string, number, null]`: one type and null is that
// type, nullable; several are a union of scalars. The JSON Schema repeats the
// list as written.
func (d *decoder) typeList(s *Schema, n *yaml.Node) Kind {
	seen := map[string]bool{}
	for i, item := range deref(n).Content {
		v := deref(item)
		name := v.Value
		if isNull(v) {
			name = "null"
		}
		switch {
		case v.Kind == yaml.ScalarNode && (name == "object" || name == "array"):
			// [object, null] is a nullable object (as written): no
			// union of objects or arrays is a list of types.
			s.Variants = append(s.Variants, &Schema{Pos: posOf(item), Kind: Kind(name)})
		case v.Kind != yaml.ScalarNode || !slices.Contains(listTypes, name):
			d.errorf(posOf(item), "a list of types takes %s; write other unions with anyOf", joinList(listTypes, "and"))
			return ""
		case seen[name]:
			d.errorf(posOf(item), "type %s is listed twice", name)
			return ""
		case name == "null":
			s.Nullable, s.NullSpelling, s.NullAt = true, UnionTypeList, i
		default:
			s.Variants = append(s.Variants, &Schema{Pos: posOf(item), Kind: Kind(name)})
		}
		seen[name] = true
	}
	switch len(s.Variants) {
	case 0:
		d.errorf(posOf(n), "type must list a type besides null")
		return ""
	case 1:
	default:
		for _, v := range s.Variants {
			if v.Kind == KindObject || v.Kind == KindArray {
				d.errorf(v.Pos, "a list of types takes %s alone with null, or scalar types (%s); write other unions with anyOf", v.Kind, joinList(listTypes, "and"))
				s.Variants = nil
				return ""
			}
		}
	}
	switch len(s.Variants) {
	case 1:
		k := s.Variants[0].Kind
		s.Variants = nil
		return k
	}
	s.UnionKeyword = UnionTypeList
	return KindUnion
}

// typeName reads the value of `type:`.
func (d *decoder) typeName(n *yaml.Node) Kind {
	v := deref(n)
	switch {
	case isNull(v) || v.Value == "null":
		d.errorf(posOf(n), "type cannot be null; to allow null, add nullable: true")
		return ""
	case !isString(v):
		d.errorf(posOf(n), "type must be one of %s", joinList(typeNames, "or"))
		return ""
	case slices.Contains(typeNames, v.Value):
		return Kind(v.Value)
	case d.typeNames[v.Value]:
		d.errorf(posOf(n), "type %q is a named type; write $ref: %s", v.Value, v.Value)
		return ""
	}
	hint := didYouMean(v.Value, typeNames)
	if hint == "" {
		hint = "; use one of " + joinList(typeNames, "or")
	}
	d.errorf(posOf(n), "unknown type %q%s", v.Value, hint)
	return ""
}

// enumKind is the JSON type shared by the enum values: string, integer
// (every number integral) or number, or "" if they do not share one.
func enumKind(enum []*Value) Kind {
	var k Kind
	for _, v := range enum {
		var vk Kind
		switch j := v.JSON; {
		case len(j) > 0 && j[0] == '"':
			vk = KindString
		case isJSONNumber(string(j)) && !strings.ContainsAny(string(j), ".eE"):
			vk = KindInteger
		case isJSONNumber(string(j)):
			vk = KindNumber
		case string(j) == "true" || string(j) == "false":
			vk = KindBoolean // const only: enum takes strings and numbers
		default:
			return ""
		}
		switch {
		case k == "" || k == vk:
			k = vk
		case (k == KindInteger || k == KindNumber) && (vk == KindInteger || vk == KindNumber):
			k = KindNumber
		default:
			return ""
		}
	}
	return k
}

// guessType suggests a `type:` from the constraints present, for the message
// that says the type cannot be told.
func guessType(s *Schema) string {
	var guess []string
	for _, k := range typeNames {
		for _, key := range kindKeys(Kind(k)) {
			if key != "enum" && key != "const" && s.Fields[key] != (Pos{}) {
				guess = append(guess, k)
				break
			}
		}
	}
	if len(guess) == 0 || len(guess) > 2 {
		guess = typeNames
	}
	return joinList(guess, "or")
}

// schemaHint suggests how to write a schema where a scalar was given:
// `items: string` means {type: string}, `items: Order` means {$ref: Order}.
func (d *decoder) schemaHint(v *yaml.Node) string {
	if isString(v) {
		if slices.Contains(typeNames, v.Value) {
			return "{type: " + v.Value + "}"
		}
		if d.typeNames[v.Value] {
			return "{$ref: " + v.Value + "}"
		}
	}
	return "{type: string}"
}

func kindLabel(k Kind) string {
	switch k {
	case KindRef:
		return "$ref"
	case KindGoType:
		return "goType"
	}
	return string(k)
}

// properties decodes the `properties:` mapping in file order.
func (d *decoder) properties(n *yaml.Node) []*Property {
	m, ok := d.mapping(n, "properties")
	if !ok {
		return nil
	}
	var props []*Property
	for _, e := range d.entries(m, "property") {
		props = append(props, &Property{
			Pos:    posOf(e.keyNode),
			Name:   e.key,
			Schema: d.schema(e.value, fmt.Sprintf("property %q", e.key)),
		})
	}
	return props
}

// required marks the properties named in `required:`. The model keeps the
// flag on each property, so a name that is not a property can only be
// reported here.
func (d *decoder) required(s *Schema, names []entry) {
	first := map[string]*yaml.Node{}
	var propNames []string
	for _, p := range s.Properties {
		propNames = append(propNames, p.Name)
	}
	for _, e := range names {
		if f, dup := first[e.key]; dup {
			d.errorf(posOf(e.keyNode), "duplicate property %q in required (first listed at %s)", e.key, at(d.file, posOf(f)))
			continue
		}
		first[e.key] = e.keyNode
		i := slices.IndexFunc(s.Properties, func(p *Property) bool { return p.Name == e.key })
		if i < 0 {
			d.errorf(posOf(e.keyNode), "unknown property %q in required%s", e.key, didYouMean(e.key, propNames))
			continue
		}
		s.Properties[i].Required = true
	}
}

// values decodes a list of JSON values (enum, examples).
func (d *decoder) values(n *yaml.Node, key string) []*Value {
	items, ok := d.list(n, key)
	if !ok {
		return nil
	}
	out := make([]*Value, 0, len(items))
	for _, item := range items {
		if v, ok := d.value(item); ok {
			out = append(out, v)
		}
	}
	return out
}

func (d *decoder) intPtr(n *yaml.Node, key string) *int64 {
	if i, ok := d.integer(n, key); ok {
		return &i
	}
	return nil
}

func (d *decoder) numPtr(n *yaml.Node, key string) *Number {
	if num, ok := d.number(n, key); ok {
		return &num
	}
	return nil
}

// parseGoType splits "github.com/acme/x/model.Order" at its last dot after
// the last slash. Whether the parts are valid is the validator's business.
func parseGoType(text string, p Pos) *GoTypeRef {
	g := &GoTypeRef{Pos: p, Name: text}
	if dot := strings.LastIndex(text, "."); dot > strings.LastIndex(text, "/") {
		g.ImportPath, g.Name = text[:dot], text[dot+1:]
	}
	return g
}
