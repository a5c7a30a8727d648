package genimpl

import (
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// The decoding tables generated code writes (issue 27): one Object per
// struct a tool's input reaches, a Field per property, each with the Value
// rule its JSON is checked against. They are data, read by Object.Decode:
// one compiled decoder serves every generated type, so a 1,000-tool server
// compiles a table per type, not a method.
//
// A table names its struct by a nil pointer and its properties by their
// JSON names; the Go side (field offsets, runtime.Opt wrappers, slice
// types) is read once by reflection, at the first decoding. A table that
// does not match its type (generated code edited by hand, a generator bug)
// never accepts: the general validator decides every call, as for a type
// without a decoder.

// Kind is the JSON type a Value rule decodes.
type Kind uint8

// The kinds a decoder understands. Each decodes into a Go value of one
// underlying type: KindString a string, KindInteger an int64, KindNumber a
// float64, KindBoolean a bool, KindArray a slice of its items', KindObject
// the struct of its table.
const (
	_ Kind = iota
	KindString
	KindInteger
	KindNumber
	KindBoolean
	KindArray
	KindObject
)

// Value is the rule of one JSON value: its kind and, for that kind, what
// it asks beyond the type (a nil rule asks nothing).
type Value struct {
	Kind   Kind
	String *StringRule
	Int    *IntRule
	Number *NumberRule
	Array  *ArrayRule
	Items  *Value // KindArray: the rule of every item
	// Object is, for KindObject, a nil pointer to the generated struct
	// whose table (its MCPDecodeTable method) decodes the value: named
	// through its type, not its table variable, so that recursive types
	// need no initialization cycle.
	Object Tabled

	slice reflect.Type // KindArray: the Go slice, set when the table is resolved
}

// Tabled is a generated struct with a decoding table.
type Tabled interface {
	MCPDecodeTable() *Object
}

// Field is one property of an Object: its JSON name, whether it is
// required, and the rule of its value.
type Field struct {
	Name     string
	Required bool
	Value    Value
}

// Object is the decoding table of a generated struct: a closed object of
// the Fields (at most 64), into a value of Type's element type.
type Object struct {
	Type   any // (*T)(nil)
	Fields []Field

	once     sync.Once
	typ      reflect.Type // T; nil when the table does not match it
	places   []place      // per field: where its value goes in a T
	required uint64
}

// place is where a field's value lives in the struct: at off, and for a
// runtime.Opt field, with its Set flag at set.
type place struct {
	off, set uintptr
	opt      bool
}

// Decode decodes args, tool arguments, into x, a *T of the table's Type,
// and reports whether it accepted them: one object that the table accepts,
// nothing but whitespace after it. On false *x is zero: the runtime's
// general validator then decides, and says what is wrong.
func (o *Object) Decode(args []byte, x any) bool {
	o.once.Do(o.resolve)
	rv := reflect.ValueOf(x)
	if o.typ == nil || x == nil || rv.Type() != reflect.TypeOf(o.Type) || rv.IsNil() {
		return false
	}
	p := rv.UnsafePointer()
	d := decoder{data: args}
	d.space()
	d.object(p, o)
	d.space()
	if !d.refused && d.i == len(d.data) {
		return true
	}
	rv.Elem().SetZero()
	return false
}

// resolve reads the Go side of the table: each field's offset by its json
// name, Opt wrappers, slice types. It leaves o.typ nil when a field or a
// rule does not match the struct.
func (o *Object) resolve() {
	pt := reflect.TypeOf(o.Type)
	if pt == nil || pt.Kind() != reflect.Pointer || pt.Elem().Kind() != reflect.Struct || len(o.Fields) > 64 {
		return
	}
	t := pt.Elem()
	byName := map[string]reflect.StructField{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if name, _, _ := strings.Cut(sf.Tag.Get("json"), ","); name != "" && name != "-" {
			byName[name] = sf
		}
	}
	places := make([]place, len(o.Fields))
	var required uint64
	for i := range o.Fields {
		f := &o.Fields[i]
		sf, ok := byName[f.Name]
		if !ok {
			return
		}
		pl, ft := place{off: sf.Offset}, sf.Type
		if isOpt(ft) {
			pl = place{off: sf.Offset + ft.Field(0).Offset, set: sf.Offset + ft.Field(1).Offset, opt: true}
			ft = ft.Field(0).Type
		}
		if !f.Value.resolve(ft) {
			return
		}
		places[i] = pl
		if f.Required {
			required |= 1 << i
		}
	}
	o.places, o.required, o.typ = places, required, t
}

// isOpt reports whether t is a runtime.Opt[T]: a struct of Value and Set.
func isOpt(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.PkgPath() == "github.com/mcpgen/mcpgen/runtime" && strings.HasPrefix(t.Name(), "Opt[") &&
		t.NumField() == 2 && t.Field(0).Name == "Value" && t.Field(1).Name == "Set" && t.Field(1).Type.Kind() == reflect.Bool
}

// resolve checks that values of v decode into a Go value of type t, and
// records the slice types of arrays.
func (v *Value) resolve(t reflect.Type) bool {
	switch v.Kind {
	case KindString:
		return t.Kind() == reflect.String
	case KindInteger:
		return t.Kind() == reflect.Int64
	case KindNumber:
		return t.Kind() == reflect.Float64
	case KindBoolean:
		return t.Kind() == reflect.Bool
	case KindArray:
		if t.Kind() != reflect.Slice || v.Items == nil || !v.Items.resolve(t.Elem()) {
			return false
		}
		v.slice = t
		return true
	case KindObject:
		return v.Object != nil && reflect.TypeOf(v.Object) == reflect.PointerTo(t) && v.Object.MCPDecodeTable() != nil
	}
	return false
}

// object decodes an object into the struct at p with table o.
func (d *decoder) object(p unsafe.Pointer, o *Object) {
	o.once.Do(o.resolve)
	if o.typ == nil || !d.open() {
		d.refused = true
		return
	}
	var seen uint64
	hint := 0 // members usually come in the table's order
	for first := true; ; first = false {
		key, ok := d.next(first)
		if !ok {
			break
		}
		i := o.find(key, hint)
		if i < 0 || seen&(1<<i) != 0 { // unknown, or sent twice (encoding/json merges, the validator sees the last)
			d.refused = true
			return
		}
		seen |= 1 << i
		hint = i + 1
		pl := o.places[i]
		if d.value(unsafe.Add(p, pl.off), &o.Fields[i].Value) && pl.opt {
			*(*bool)(unsafe.Add(p, pl.set)) = true
		}
		if d.refused {
			return
		}
	}
	if seen&o.required != o.required {
		d.refused = true
	}
}

// find is the index of the field named key, trying hint first; -1 for none.
func (o *Object) find(key string, hint int) int {
	if hint < len(o.Fields) && o.Fields[hint].Name == key {
		return hint
	}
	for i := range o.Fields {
		if o.Fields[i].Name == key {
			return i
		}
	}
	return -1
}

// value decodes a value with rule v into the Go value at p, and reports
// whether it did.
func (d *decoder) value(p unsafe.Pointer, v *Value) bool {
	switch v.Kind {
	case KindString:
		return decodeString(d, (*string)(p), v.String)
	case KindInteger:
		return decodeInt(d, (*int64)(p), v.Int)
	case KindNumber:
		return decodeNumber(d, (*float64)(p), v.Number)
	case KindBoolean:
		return decodeBool(d, (*bool)(p))
	case KindArray:
		return d.array(p, v)
	case KindObject:
		d.object(p, v.Object.MCPDecodeTable())
		return !d.refused
	}
	d.refused = true
	return false
}

// array decodes an array into the slice at p. An empty array decodes as
// an empty, non-nil slice, as with encoding/json. Scalar items build their
// slice directly (a []Tier has the layout of a []string); others through
// reflection.
func (d *decoder) array(p unsafe.Pointer, v *Value) bool {
	if !d.enter('[') {
		return false
	}
	var n int
	var ok bool
	switch v.Items.Kind {
	case KindString:
		n, ok = items(d, (*[]string)(p), v.Items)
	case KindInteger:
		n, ok = items(d, (*[]int64)(p), v.Items)
	case KindNumber:
		n, ok = items(d, (*[]float64)(p), v.Items)
	case KindBoolean:
		n, ok = items(d, (*[]bool)(p), v.Items)
	default:
		n, ok = d.reflectItems(p, v)
	}
	if !ok {
		return false
	}
	d.depth--
	if !v.Array.accepts(n) {
		d.refused = true
		return false
	}
	return true
}

// items decodes the items of an array whose '[' was read into *s.
func items[T any](d *decoder, s *[]T, v *Value) (int, bool) {
	out := []T{}
	for first := true; ; first = false {
		if !d.more(first) {
			break
		}
		var zero T
		out = append(out, zero)
		if !d.value(unsafe.Pointer(&out[len(out)-1]), v) {
			return 0, false
		}
	}
	if d.refused {
		return 0, false
	}
	*s = out
	return len(out), true
}

// reflectItems is items for arrays of objects and arrays.
func (d *decoder) reflectItems(p unsafe.Pointer, v *Value) (int, bool) {
	s := reflect.NewAt(v.slice, p).Elem()
	s.Set(reflect.MakeSlice(v.slice, 0, 0))
	n := 0
	for first := true; ; first = false {
		if !d.more(first) {
			break
		}
		if s.Len() == s.Cap() {
			s.Grow(1)
		}
		s.SetLen(n + 1)
		if !d.value(s.Index(n).Addr().UnsafePointer(), v.Items) {
			return 0, false
		}
		n++
	}
	return n, !d.refused
}

// more moves to the next item of an array (first says whether it is the
// first), and reports whether there is one; at the closing ']' it moves
// past it and reports false, as it does on a refusal.
func (d *decoder) more(first bool) bool {
	if d.refused {
		return false
	}
	c := d.peek()
	if c == ']' {
		d.i++
		return false
	}
	if !first {
		if c != ',' {
			d.refused = true
			return false
		}
		d.i++
	}
	return true
}
