package spec

import (
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// dialectPattern matches the $schema values a spec takes: the JSON Schema
// dialects the runtime's validator knows whose keywords mean what the spec's
// do (not draft-04, whose exclusiveMinimum is a flag and which has no
// const), as servers in the field write them (http or https, a trailing #).
const dialectPattern = `^https?://json-schema\.org/(draft/2020-12|draft/2019-09|draft-07|draft-06)/schema#?$`

var dialectRE = regexp.MustCompile(dialectPattern)

// The keywords of a typed schema are declared here, once each: the JSON
// name, the kinds of schema that accept it, its reference text and the
// JSON Schema of its value (mcpgen.schema.json), and, for a keyword that
// holds one value (title, pattern, minLength, default, …), the field of
// Schema that holds it. From that one declaration
//
//   - the decoder reads the key (by the shape of its field: a string, a
//     count, a number, a flag, a JSON value or a list of them) and the
//     validator refuses it on a kind it does not apply to;
//   - internal/specschema writes it into the advertised JSON Schema
//     (ValueKeywords, Keyword.Value), before the enum or, for the
//     annotations reflection writes last, after it;
//   - the generator carries it into struct tags or JSONSchemaExtend (by
//     its name and shape; gen/keywords.go);
//   - the spec's check of defaults, examples and enum values applies its
//     constraint (checkvalue.go).
//
// Keys that shape the schema rather than hold a value (type, $ref, items,
// properties, anyOf, …) are declared here too, with a read function of
// their own; the writers spell them out. A keyword valid in one place of a
// spec alone (x-mcp-header on a property of a tool's input; root-only ones
// at a tool's input or output root) declares its place, which the
// validator checks and gen reads (Keyword.RootOnly). Adding a value
// keyword is a line here and its field in Schema (model.go).

// rawOnlyKeys are the JSON Schema keywords the typed schema language has no
// Go type for (an unknown key's hint says so); a tool that needs one
// writes its schema out in full. A keyword declared below leaves this list.
var rawOnlyKeys = []string{
	"allOf", "not", "if", "then", "else", "patternProperties", "dependentRequired",
	"dependentSchemas", "prefixItems", "contains", "minContains", "maxContains", "minProperties",
	"maxProperties", "unevaluatedProperties", "unevaluatedItems", "$anchor", "$id",
	"$dynamicRef", "$dynamicAnchor", "contentEncoding", "contentMediaType", "contentSchema",
}

// Keyword is one key of a typed schema.
type Keyword struct {
	// Name is the key as written in the spec and in JSON Schema.
	Name string
	applies
	doc, schema string
	// field points at the field of Schema that holds a value keyword: a
	// *string, **int64 (a count, not negative), **Number, *bool (a flag,
	// written when true), **Value or *[]*Value. Nil for the keys that
	// shape the schema, which read decodes.
	field func(*Schema) any
	// read decodes a key that shapes the schema; for a value keyword, it
	// is an extra check after the value is decoded (nil for none).
	read func(d *decoder, sd *schemaDecoding, v *yaml.Node)
	// last: the wire writes the keyword after the constraints and the
	// enum, where reflection writes it.
	last bool
	// place is where in a spec the keyword may be written, besides the
	// kinds it applies to; nil for anywhere.
	place *placement
	// check says why a JSON value x breaks the keyword's constraint on s
	// (the spec's check of defaults, examples and enum values), "" when it
	// holds; nil for an annotation, which constrains nothing.
	check keywordCheck
}

// keywordCheck is the check of a keyword's constraint on a JSON value, as
// decodeJSON reads it (checkvalue.go).
type keywordCheck func(c checker, k *Keyword, s *Schema, x any) string

// Shape is how a value keyword's value is held and written.
type Shape int

// The shapes of value keywords.
const (
	ShapeString Shape = iota // a string, written when not empty
	ShapeCount               // a non-negative integer (*int64)
	ShapeNumber              // a JSON number as written (*Number)
	ShapeFlag                // a boolean, written when true
	ShapeValue               // a JSON value (*Value)
	ShapeValues              // a list of JSON values ([]*Value)
)

// Shape is the shape of k's value; ShapeString for a key that shapes the
// schema.
func (k *Keyword) Shape() Shape {
	if k.field == nil {
		return ShapeString
	}
	switch k.field(&Schema{}).(type) {
	case **int64:
		return ShapeCount
	case **Number:
		return ShapeNumber
	case *bool:
		return ShapeFlag
	case **Value:
		return ShapeValue
	case *[]*Value:
		return ShapeValues
	}
	return ShapeString
}

// AppliesTo reports whether a schema of kind kind accepts k.
func (k *Keyword) AppliesTo(kind Kind) bool { return k.appliesTo(kind) }

// Present reports whether s holds a value of k.
func (k *Keyword) Present(s *Schema) bool {
	_, ok := k.Value(s)
	return ok
}

// Overlay sets k's value in dst to src's when src holds one (a keyword
// written beside a $ref over the target's).
func (k *Keyword) Overlay(dst, src *Schema) {
	if k.field == nil || !k.Present(src) {
		return
	}
	// Both point at the same field: copy src's value into dst's.
	reflect.ValueOf(k.field(dst)).Elem().Set(reflect.ValueOf(k.field(src)).Elem())
}

// count is the value of a count keyword in s (0 when absent).
func (k *Keyword) count(s *Schema) int64 {
	if p, ok := k.field(s).(**int64); ok && *p != nil {
		return **p
	}
	return 0
}

// Value is k's value in s as JSON Schema writes it: a string, a
// json.RawMessage (a count, a number, a JSON value), true, or a
// []json.RawMessage; ok is false when s holds none (and for a key that
// shapes the schema).
func (k *Keyword) Value(s *Schema) (v any, ok bool) {
	if k.field == nil {
		return nil, false
	}
	switch p := k.field(s).(type) {
	case *string:
		return *p, *p != ""
	case **int64:
		if *p != nil {
			return json.RawMessage(strconv.FormatInt(**p, 10)), true
		}
	case **Number:
		if *p != nil {
			return json.RawMessage(**p), true
		}
	case *bool:
		return true, *p
	case **Value:
		if *p != nil {
			return json.RawMessage((*p).JSON), true
		}
	case *[]*Value:
		if len(*p) > 0 {
			out := make([]json.RawMessage, len(*p))
			for i, e := range *p {
				out[i] = e.JSON
			}
			return out, true
		}
	}
	return nil, false
}

// Text is k's value in s as text: a string itself, a count or number as
// written, "true" for a flag, the JSON of a value; "" when s holds none.
func (k *Keyword) Text(s *Schema) string {
	v, ok := k.Value(s)
	if !ok {
		return ""
	}
	switch v := v.(type) {
	case string:
		return v
	case json.RawMessage:
		return string(v)
	case bool:
		return "true"
	}
	b, _ := json.Marshal(v) // a list of JSON values always marshals
	return string(b)
}

// Constrains reports whether k constrains a value (pattern, minimum, …),
// rather than annotating it (title, default, …).
func (k *Keyword) Constrains() bool { return k.check != nil }

// RootOnly reports whether k is written only at the root of a tool's input
// or output (a document's root, such as its $schema): the root's carrier
// says it, never a property.
func (k *Keyword) RootOnly() bool { return k.place == atToolRoot }

// Last reports whether the wire writes k after the enum (annotations
// reflection writes last: default, examples, extensions).
func (k *Keyword) Last() bool { return k.last }

// ValueKeywords are the keywords that hold one value each, in the
// reference's order.
var ValueKeywords []*Keyword

// decodeValue decodes v into the field of a value keyword.
func (k *Keyword) decodeValue(d *decoder, s *Schema, v *yaml.Node) {
	switch p := k.field(s).(type) {
	case *string:
		*p, _ = d.str(v, k.Name)
	case **int64:
		*p = d.intPtr(v, k.Name)
	case **Number:
		*p = d.numPtr(v, k.Name)
	case *bool:
		*p, _ = d.boolean(v, k.Name)
	case **Value:
		*p, _ = d.value(v)
	case *[]*Value:
		*p = d.values(v, k.Name)
	}
}

// valueSchema is the JSON Schema of a value keyword's value in
// mcpgen.schema.json, when its declaration gives none.
func (k *Keyword) valueSchema() string {
	if k.schema != "" {
		return k.schema
	}
	switch k.Shape() {
	case ShapeCount:
		return `{"type":"integer","minimum":0}`
	case ShapeNumber:
		return `{"type":"number"}`
	case ShapeFlag:
		return flagSchema
	case ShapeValue:
		return `{}`
	case ShapeValues:
		return `{"type":"array","items":true}`
	}
	return stringSchema
}

// applies says which kinds of schema accept a key: kinds (nil for every
// kind), and words, the same for the message about a key on a wrong kind.
type applies struct {
	kinds []Kind
	words string
}

func (a applies) appliesTo(k Kind) bool { return a.kinds == nil || slices.Contains(a.kinds, k) }

var (
	anyKind   = applies{}
	toStrings = applies{[]Kind{KindString}, "strings"}
	toFormats = applies{[]Kind{KindString, KindInteger, KindNumber}, "strings, integers and numbers"}
	toNumbers = applies{[]Kind{KindInteger, KindNumber}, "integers and numbers"}
	toArrays  = applies{[]Kind{KindArray}, "arrays"}
	toObjects = applies{[]Kind{KindObject}, "objects"}
	toUnions  = applies{[]Kind{KindUnion}, "unions"}
)

// placement is a place of a spec's schemas that a keyword may be written
// in alone.
type placement struct {
	// words say the place, for the message about a key written elsewhere.
	words string
	// schemas are the schemas of s at the place.
	schemas func(s *Spec) []*Schema
}

var (
	atToolRoot = &placement{"at the root of a tool's input or output", func(s *Spec) []*Schema {
		var out []*Schema
		for _, t := range s.Tools {
			if t != nil {
				out = append(out, t.Input, t.Output)
			}
		}
		return out
	}}
	onInputProperty = &placement{"on a property of a tool's input (written in the tool's input: properties)", func(s *Spec) []*Schema {
		var out []*Schema
		for _, t := range s.Tools {
			if t != nil && t.Input != nil && t.Input.Kind == KindObject {
				for _, p := range t.Input.Properties {
					if p != nil {
						out = append(out, p.Schema)
					}
				}
			}
		}
		return out
	}}
)

// schemaKeys are the keys of a schema, in the reference's order, and
// schemaFields the same as a table for decodeMapping. They are filled in
// init: their keys decode schemas themselves (items, properties, …), and Go
// refuses a variable whose initializer refers to itself.
var (
	schemaKeys   []*Keyword
	schemaFields fields[*schemaDecoding]
)

// value declares a value keyword held in the field of Schema that at
// points to.
func value(name string, a applies, doc string, at func(*Schema) any) *Keyword {
	return &Keyword{Name: name, applies: a, doc: doc, field: at}
}

// shaping declares a key that shapes the schema, decoded by read.
func shaping(name string, a applies, doc, schema string, read func(d *decoder, sd *schemaDecoding, v *yaml.Node)) *Keyword {
	return &Keyword{Name: name, applies: a, doc: doc, schema: schema, read: read}
}

// withSchema is k with the JSON Schema of its value in mcpgen.schema.json.
func (k *Keyword) withSchema(schema string) *Keyword {
	k.schema = schema
	return k
}

// then is k with an extra check of its value once decoded.
func (k *Keyword) then(read func(d *decoder, sd *schemaDecoding, v *yaml.Node)) *Keyword {
	k.read = read
	return k
}

// checked is k with the check of its constraint on a value.
func (k *Keyword) checked(check keywordCheck) *Keyword {
	k.check = check
	return k
}

// only is k written at place p alone.
func (k *Keyword) only(p *placement) *Keyword {
	k.place = p
	return k
}

// writtenLast is k written after the enum on the wire.
func (k *Keyword) writtenLast() *Keyword {
	k.last = true
	return k
}

func init() {
	typed := []Kind{KindUnion} // every kind but $ref and goType (a union by a list of types)
	for _, t := range typeNames {
		typed = append(typed, Kind(t))
	}
	schemaKeys = []*Keyword{
		// type is read once every key is, as what it means can depend on
		// them (object with an additionalProperties schema is a map).
		shaping("type", applies{typed, "schemas without $ref or goType"}, "The kind of value. May be left out when obvious: properties → object, items → array, values → map, enum → the type of its values. map is an object with free keys (see values); any is any JSON value. A list of scalar types ([string, number]) is a union of them; null in the list allows null.",
			`{"oneOf":[`+stringEnum(typeNames)+`,{"type":"array","minItems":1,"uniqueItems":true,"items":`+stringEnum(listTypes)+`}]}`, func(d *decoder, sd *schemaDecoding, v *yaml.Node) { sd.typ = &entry{key: "type", value: v} }),
		shaping("$ref", applies{[]Kind{KindRef}, "$ref schemas"}, "The name of a type under types: (not a JSON pointer). Recursion is allowed through an array, a map or nullable.", stringSchema,
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) {
				s := sd.Schema
				var ok bool
				if s.Ref, ok = d.str(v, "$ref"); !ok {
					d.skip[s] = true // said once, here
				}
				s.RefPos = posOf(v)
				if name, ok := strings.CutPrefix(s.Ref, "#/"); ok {
					name = name[strings.LastIndex(name, "/")+1:]
					d.errorf(s.RefPos, "$ref takes a type name, not a JSON pointer; write $ref: %s", name)
					s.Ref = name
				}
			}),
		shaping("goType", applies{[]Kind{KindGoType}, "goType schemas"}, "An existing Go type, such as time.Time or github.com/acme/x/model.Order; its schema is reflected.", `{"type":"string","pattern":"^\\S+\\.\\w+$"}`,
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) {
				if text, ok := d.str(v, "goType"); ok {
					sd.GoType = parseGoType(text, posOf(v))
				} else {
					d.skip[sd.Schema] = true // said once, here
				}
			}),
		value("$schema", applies{typed, "schemas without $ref or goType"}, "At the root of a tool's input or output: the JSON Schema dialect it is written in, advertised as written, as servers in the field send it: https://json-schema.org/draft/2020-12/schema (the default), 2019-09, draft-07 or draft-06 (http://json-schema.org/draft-07/schema#).",
			func(s *Schema) any { return &s.Dialect }).only(atToolRoot).
			withSchema(`{"type":"string","pattern":"` + strings.ReplaceAll(dialectPattern, `\`, `\\`) + `"}`).
			then(func(d *decoder, sd *schemaDecoding, v *yaml.Node) {
				if sd.Dialect != "" && !dialectRE.MatchString(sd.Dialect) {
					d.errorf(posOf(v), "$schema %q is not a dialect the runtime validates with: write https://json-schema.org/draft/2020-12/schema, 2019-09, draft-07 or draft-06", sd.Dialect)
				}
			}),
		value("title", anyKind, "A short title, carried into the JSON Schema.", func(s *Schema) any { return &s.Title }),
		value("description", anyKind, "What the value means; carried into the JSON Schema and the Go doc comment.", func(s *Schema) any { return &s.Description }),
		shaping("nullable", anyKind, "Also allow null (a *T in Go).", flagSchema,
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) { sd.Nullable, _ = d.boolean(v, "nullable") }),
		value("default", anyKind, "The default value: carried into the JSON Schema, and filled in when a client leaves the optional value out (on a template variable, only a query variable such as {?q}).", func(s *Schema) any { return &s.Default }).writtenLast(),
		value("examples", anyKind, "Example values, carried into the JSON Schema.", func(s *Schema) any { return &s.Examples }).writtenLast(),
		shaping("enum", applies{[]Kind{KindString, KindInteger, KindNumber}, "strings, integers and numbers"}, "The allowed values: strings, integers or numbers. A named Go type with one constant per value.", `{"type":"array","items":true,"minItems":1}`,
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) {
				sd.Enum = d.values(v, "enum")
				if n := deref(v); n.Kind == yaml.SequenceNode && len(n.Content) == 0 {
					d.errorf(posOf(v), "enum must not be empty")
				}
			}),
		shaping("const", applies{[]Kind{KindString, KindInteger, KindNumber, KindBoolean}, "strings, integers, numbers and booleans"}, "The one allowed value: a string, integer, number or boolean (JSON Schema's const). A named Go type with one constant.", `{}`,
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) {
				if val, ok := d.value(v); ok {
					sd.Enum, sd.Const = []*Value{val}, true
				}
			}),
		value("pattern", toStrings, "Strings: a regular expression (RE2) the value matches.", func(s *Schema) any { return &s.Pattern }).checked(patternCheck),
		value("format", toFormats, "Strings: a JSON Schema format, such as email, uri, uuid or date-time, checked; integers and numbers: int32, int64, float or double. Any other format is advertised as written and not checked.", func(s *Schema) any { return &s.Format }).checked(formatCheck),
		value("minLength", toStrings, "Strings: the least number of characters.", func(s *Schema) any { return &s.MinLength }).
			checked(lengthCheck(func(n, b int64) bool { return n < b }, "shorter than")),
		value("maxLength", toStrings, "Strings: the most number of characters.", func(s *Schema) any { return &s.MaxLength }).
			checked(lengthCheck(func(n, b int64) bool { return n > b }, "longer than")),
		value("minimum", toNumbers, "Integers and numbers: the least value.", func(s *Schema) any { return &s.Minimum }).
			checked(boundCheck(func(c int) bool { return c < 0 }, "is less than")),
		value("maximum", toNumbers, "Integers and numbers: the greatest value.", func(s *Schema) any { return &s.Maximum }).
			checked(boundCheck(func(c int) bool { return c > 0 }, "is greater than")),
		value("exclusiveMinimum", toNumbers, "Integers and numbers: the value is greater than this.", func(s *Schema) any { return &s.ExclusiveMinimum }).
			checked(boundCheck(func(c int) bool { return c <= 0 }, "is not greater than")),
		value("exclusiveMaximum", toNumbers, "Integers and numbers: the value is less than this.", func(s *Schema) any { return &s.ExclusiveMaximum }).
			checked(boundCheck(func(c int) bool { return c >= 0 }, "is not less than")),
		value("multipleOf", toNumbers, "Integers and numbers: the value is a multiple of this.", func(s *Schema) any { return &s.MultipleOf }).checked(multipleOfCheck).
			withSchema(`{"type":"number","exclusiveMinimum":0}`),
		shaping("items", toArrays, "Arrays: the schema of every item ([]T in Go).", defRef("Schema"),
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) { sd.Items = d.schema(v, "items") }),
		value("minItems", toArrays, "Arrays: the least number of items.", func(s *Schema) any { return &s.MinItems }).
			checked(countCheck(func(n, b int64) bool { return n < b }, "fewer than")),
		value("maxItems", toArrays, "Arrays: the most number of items.", func(s *Schema) any { return &s.MaxItems }).
			checked(countCheck(func(n, b int64) bool { return n > b }, "more than")),
		value("uniqueItems", toArrays, "Arrays: no two items are equal.", func(s *Schema) any { return &s.UniqueItems }).checked(uniqueCheck),
		shaping("properties", toObjects, "Objects: the properties, in order (a Go struct). Those not in required are optional (runtime.Opt[T] in Go).", mapOf(defRef("Schema")),
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) { sd.Properties = d.properties(v) }),
		shaping("required", toObjects, "Objects: the names of the required properties.", `{"type":"array","items":{"type":"string"},"uniqueItems":true}`,
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) {
				items, _ := d.list(v, "required")
				for _, item := range items {
					if !isString(item) {
						d.errorf(posOf(item), "required items must be property names")
						continue
					}
					sd.required = append(sd.required, entry{key: deref(item).Value, keyNode: item})
				}
			}),
		shaping("additionalProperties", applies{[]Kind{KindObject, KindMap}, "objects"}, "Objects: true to accept keys that are not properties (closed by default; {type: object} alone is any object). Advertised only when written, or when closed; null accepts them too, advertising nothing (JSON Schema's default, which means true), and so does {} beside properties, advertised as {}. Maps (type: object without properties): the schema of every value.", defRef("AdditionalProperties"),
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) {
				switch n := deref(v); {
				case n.Kind == yaml.MappingNode && len(n.Content) == 0:
					// {} accepts any value (a schema of no type otherwise).
					sd.apSchema, sd.apEmpty = &Schema{Pos: posOf(v), Kind: KindAny}, true
				case n.Kind == yaml.MappingNode:
					sd.apSchema = d.schema(v, "additionalProperties")
				case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool":
					sd.AdditionalProperties, sd.apBool = d.boolean(v, "additionalProperties")
				case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null":
					sd.AdditionalProperties, sd.OpenAs, sd.apBool = true, OpenUnsaid, true
				default:
					d.errorf(posOf(v), "additionalProperties must be true, false, null or a schema")
				}
			}),
		shaping("values", applies{[]Kind{KindMap}, "maps"}, "Maps: the schema of every value (map[string]T in Go).", defRef("Schema"),
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) { sd.Values = d.schema(v, "values") }),
		shaping("anyOf", toUnions, "A union: the value matches at least one of these schemas (a Go type with one pointer field per variant). A {type: null} variant allows null.", variantsSchema,
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) { d.variants(sd.Schema, v, UnionAnyOf) }),
		shaping("oneOf", toUnions, "A union: the value matches exactly one of these schemas (a Go type with one pointer field per variant). A {type: null} variant allows null.", variantsSchema,
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) { d.variants(sd.Schema, v, UnionOneOf) }),
		shaping("discriminator", toUnions, "Unions of objects: the property whose const value tells the variants apart (required in every variant, a different value in each). Decides decoding; not advertised. Absent: found when there is one.", nonEmptyString,
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) { sd.Discriminator, _ = d.str(v, "discriminator") }),
		shaping("goName", anyKind, "The Go identifier to use instead of the derived one: a named type's (or an item's) type name, a property's or a union variant's field name. For names that derive badly or collide.", `{"type":"string","pattern":"^[A-Z][A-Za-z0-9_]*$"}`,
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) {
				if sd.GoName, _ = d.str(v, "goName"); sd.GoName != "" && !isExported(sd.GoName) {
					d.errorf(posOf(v), "goName %q must be an exported Go identifier, such as %s", sd.GoName, orHint(exportedHint(sd.GoName), "PlusOne"))
				}
			}),
		shaping("goNames", applies{[]Kind{KindString, KindInteger, KindNumber}, "enums"}, "Enums: the Go name of a value's constant (after the type's name), by value: {\"+1\": PlusOne}. For values whose derived names collide or say nothing.", `{"type":"object","additionalProperties":{"type":"string","pattern":"^[A-Z][A-Za-z0-9_]*$"}}`,
			func(d *decoder, sd *schemaDecoding, v *yaml.Node) {
				m, ok := d.mapping(v, "goNames")
				if !ok {
					return
				}
				sd.EnumGoNames = map[string]string{}
				for _, e := range d.entries(m, "value") {
					name, _ := d.str(e.value, "goNames")
					if name != "" && !isExported(name) {
						d.errorf(posOf(e.value), "goNames: %q must be an exported Go identifier, such as %s", name, orHint(exportedHint(name), "PlusOne"))
					}
					sd.EnumGoNames[e.key] = name
					sd.FieldValues["goNames."+e.key] = posOf(e.keyNode)
				}
			}),
		value("propertyNames", applies{[]Kind{KindObject, KindMap}, "objects and maps"}, "Objects and maps: {type: string} only, which every key is: advertised as written, constrains nothing (any other schema of keys needs a raw inputSchema or outputSchema).",
			func(s *Schema) any { return &s.PropertyNames }).
			withSchema(`{"const":{"type":"string"}}`).writtenLast().
			then(func(d *decoder, sd *schemaDecoding, v *yaml.Node) {
				if sd.PropertyNames != nil && string(sd.PropertyNames.JSON) != `{"type":"string"}` {
					d.errorf(posOf(v), "propertyNames takes {type: string} only, which constrains nothing; a schema that constrains keys needs a raw inputSchema or outputSchema")
					sd.PropertyNames = nil
				}
			}),
		value("x-mcp-header", applies{[]Kind{KindString, KindInteger, KindBoolean}, "strings, integers and booleans (the properties of a tool's input)"}, "A string, integer or boolean property of a tool's input: the name of the HTTP header Mcp-Param-{name} that 2026-07-28 clients mirror the argument into, and the server checks.",
			func(s *Schema) any { return &s.MCPHeader }).
			withSchema(`{"type":"string","minLength":1,"pattern":"^[A-Za-z0-9!#$%&'*+.^_|~-]+$"}`).writtenLast().only(onInputProperty).
			then(func(d *decoder, sd *schemaDecoding, v *yaml.Node) {
				if sd.MCPHeader == "" && isString(v) {
					d.errorf(posOf(v), "x-mcp-header must not be empty: it names the header Mcp-Param-{name}")
				}
			}),
	}
	for _, k := range schemaKeys {
		schemaFields = append(schemaFields, k.decoding())
		if k.field != nil {
			ValueKeywords = append(ValueKeywords, k)
		}
	}
}

// decoding is k as a field of the schema table: decode records where the
// key and its value are (Schema.Fields, Schema.FieldValues), then reads
// the value.
func (k *Keyword) decoding() field[*schemaDecoding] {
	schema := k.schema
	if k.field != nil {
		schema = k.valueSchema()
	}
	return field[*schemaDecoding]{key: k.Name, doc: k.doc, schema: schema,
		decode: func(d *decoder, sd *schemaDecoding, e entry) {
			sd.Fields[e.key], sd.FieldValues[e.key] = posOf(e.keyNode), posOf(e.value)
			if k.field != nil {
				k.decodeValue(d, sd.Schema, e.value)
			}
			if k.read != nil {
				k.read(d, sd, e.value)
			}
		}}
}
