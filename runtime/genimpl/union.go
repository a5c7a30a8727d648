package genimpl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// A union of the spec (anyOf, oneOf, a list of types) is generated as a
// struct with one pointer field per variant, exactly one of them set. Its
// MarshalJSON writes the variant that is set; its UnmarshalJSON picks the
// variant by the discriminator property when the variants have one (a
// const property that tells them apart), else tries the variants in the
// order the spec lists them and keeps the first whose shape fits and that
// decodes. The helpers below are that code, written once.

// UnionVariant is one variant of a union value, for MarshalUnion.
type UnionVariant struct {
	name  string
	set   bool
	value any
}

// Variant describes the variant field name of a union value, holding v.
func Variant[T any](name string, v *T) UnionVariant {
	return UnionVariant{name: name, set: v != nil, value: v}
}

// MarshalUnion writes the one variant that is set, or says which are.
func MarshalUnion(union string, variants ...UnionVariant) ([]byte, error) {
	var set, names []string
	var value any
	for _, v := range variants {
		names = append(names, v.name)
		if v.set {
			set = append(set, v.name)
			value = v.value
		}
	}
	switch len(set) {
	case 1:
		return json.Marshal(value)
	case 0:
		return nil, fmt.Errorf("%s: no variant is set; set one of %s", union, strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("%s: %s are all set; set exactly one", union, strings.Join(set, " and "))
}

// Shape is what a variant's JSON looks like, enough to choose it: its JSON
// type ("string", "integer", "number", "boolean", "array", "object", or ""
// for any), and for objects the required and known properties, whether
// others are refused, and the discriminator's value as compact JSON.
type Shape struct {
	Type     string
	Required []string
	Known    []string
	Closed   bool
	Const    string
}

// UnionTarget is a variant UnmarshalUnion may decode into.
type UnionTarget struct {
	name   string
	shape  Shape
	decode func([]byte) error
}

// Into is the variant field *p of a union being decoded, with its shape.
func Into[T any](name string, p **T, shape Shape) UnionTarget {
	return UnionTarget{name: name, shape: shape, decode: func(data []byte) error {
		v := new(T)
		if err := json.Unmarshal(data, v); err != nil {
			return err
		}
		*p = v
		return nil
	}}
}

// UnmarshalUnion decodes data into one of the targets: by the value of the
// discriminator property when there is one (""), else into the first
// target, in order, whose shape fits data and that decodes it.
func UnmarshalUnion(union string, data []byte, discriminator string, targets ...UnionTarget) error {
	if discriminator != "" {
		return unmarshalDiscriminated(union, data, discriminator, targets)
	}
	typ := jsonType(data)
	// An object is read once, by the first object shape that needs it.
	object := sync.OnceValues(func() (obj map[string]json.RawMessage, err error) {
		err = json.Unmarshal(data, &obj)
		return obj, err
	})
	var why []string
	for _, t := range targets {
		if reason := t.shape.refuses(typ, object); reason != "" {
			why = append(why, t.name+": "+reason)
			continue
		}
		err := t.decode(data)
		if err == nil {
			return nil
		}
		why = append(why, t.name+": "+err.Error())
	}
	return fmt.Errorf("%s: the value matches none of its variants (%s)", union, strings.Join(why, "; "))
}

func unmarshalDiscriminated(union string, data []byte, discriminator string, targets []UnionTarget) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return fmt.Errorf("%s: want an object with property %q, got %s", union, discriminator, typePhrase(jsonType(data)))
	}
	raw, ok := obj[discriminator]
	if !ok {
		return fmt.Errorf("%s: property %q is missing; it says which variant the object is", union, discriminator)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return fmt.Errorf("%s: property %q: %v", union, discriminator, err)
	}
	var want []string
	for _, t := range targets {
		if t.shape.Const == compact.String() {
			// The discriminator chose the variant; its shape still holds (a
			// closed one refuses keys it does not know).
			if reason := t.shape.refuses("object", func() (map[string]json.RawMessage, error) { return obj, nil }); reason != "" {
				return fmt.Errorf("%s (%s %s): %s", union, discriminator, compact.String(), reason)
			}
			if err := t.decode(data); err != nil {
				return fmt.Errorf("%s (%s %s): %w", union, discriminator, compact.String(), err)
			}
			return nil
		}
		want = append(want, t.shape.Const)
	}
	return fmt.Errorf("%s: property %q is %s, want one of %s", union, discriminator, compact.String(), strings.Join(want, ", "))
}

// refuses says why data of JSON type typ, read as an object by object,
// cannot be this shape, or "".
func (s Shape) refuses(typ string, object func() (map[string]json.RawMessage, error)) string {
	switch {
	case s.Type == "":
		return ""
	case s.Type == "number" && typ == "integer":
		return ""
	case s.Type != typ:
		return "want " + typePhrase(s.Type) + ", got " + typePhrase(typ)
	case typ != "object":
		return ""
	}
	obj, err := object()
	if err != nil {
		return err.Error()
	}
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			return fmt.Sprintf("property %q is missing", name)
		}
	}
	if s.Closed {
		for name := range obj {
			if !slices.Contains(s.Known, name) {
				return fmt.Sprintf("property %q is unknown", name)
			}
		}
	}
	return ""
}

// jsonType is the JSON type of a JSON text: integer for a number without a
// fraction or exponent (1.0 too, as JSON Schema counts it), else number.
func jsonType(data []byte) string {
	switch jsonwire.FirstByte(data) {
	case 0:
		return ""
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	var n json.Number
	if json.Unmarshal(data, &n) == nil {
		if _, err := n.Int64(); err == nil {
			return "integer"
		}
		if f, err := n.Float64(); err == nil && f == float64(int64(f)) {
			return "integer"
		}
	}
	return "number"
}

func typePhrase(t string) string {
	switch t {
	case "integer", "array", "object":
		return "an " + t
	case "null", "":
		return "null"
	}
	return "a " + t
}

// UnionSchema turns the reflected schema of a generated union struct (an
// object with one property per variant field) into the union the spec
// wrote: the variants' schemas, in field order, under keyword ("anyOf" or
// "oneOf"; a list of types reflects as anyOf). Generated JSONSchemaExtend
// methods call it, so that reflection of the Go types says what the
// generated schema constants say.
func UnionSchema(s *jsonschema.Schema, keyword string, fields ...string) {
	var variants []*jsonschema.Schema
	for _, f := range fields {
		if p, ok := s.Properties.Get(f); ok {
			variants = append(variants, p)
		}
	}
	s.Type, s.Properties, s.Required, s.AdditionalProperties = "", nil, nil, nil
	if keyword == "oneOf" {
		s.OneOf = variants
	} else {
		s.AnyOf = variants
	}
}
