package genimpl

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/validate"
)

// TestStringConstAndEnum: the string decoder accepts what the validator
// accepts for a const (an enum of one) and an enum, and nothing else.
func TestStringConstAndEnum(t *testing.T) {
	for _, c := range []struct {
		schema string
		rule   *StringRule
	}{
		{`{"type":"string","const":"a"}`, &StringRule{Enum: []string{"a"}}},
		{`{"type":"string","enum":["a"]}`, &StringRule{Enum: []string{"a"}}},
		{`{"type":"string","enum":["a","b"]}`, &StringRule{Enum: []string{"a", "b"}}},
		{`{"type":"string","const":""}`, &StringRule{Enum: []string{""}}},
	} {
		v, err := validate.Compile([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{`"a"`, `"b"`, `"c"`, `""`, `"A"`, `"a "`} {
			d := decoder{data: []byte(text)}
			_, ok := str(c.rule)(&d)
			ok = ok && !d.refused && d.i == len(d.data)
			inst, err := validate.Decode([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			if oracle := len(v.Check(inst)) == 0; ok != oracle {
				t.Errorf("%s: %s: the decoder accepts: %v, the validator: %v", c.schema, text, ok, oracle)
			}
		}
	}
}

// TestUnionNumberTakesInteger: a number variant takes an integer such as
// 3 (JSON Schema's integer is a number); the first variant that fits wins.
func TestUnionNumberTakesInteger(t *testing.T) {
	var s *string
	var f *float64
	var n *int64
	for _, text := range []string{`3`, `-3`, `0`, `3.5`} {
		s, f = nil, nil
		err := UnmarshalUnion("Amount", []byte(text), "", Into("Name", &s, Shape{Type: "string"}), Into("Value", &f, Shape{Type: "number"}))
		if err != nil || f == nil || s != nil {
			t.Errorf("%s into string|number: err %v, number %v, string %v", text, err, f, s)
		}
	}
	f, n = nil, nil
	if err := UnmarshalUnion("Amount", []byte(`3`), "", Into("Value", &f, Shape{Type: "number"}), Into("Count", &n, Shape{Type: "integer"})); err != nil || f == nil || *f != 3 || n != nil {
		t.Errorf("3 into number|integer: err %v, number %v, integer %v; want the number", err, f, n)
	}
	f, n = nil, nil
	if err := UnmarshalUnion("Amount", []byte(`3`), "", Into("Count", &n, Shape{Type: "integer"}), Into("Value", &f, Shape{Type: "number"})); err != nil || n == nil || *n != 3 || f != nil {
		t.Errorf("3 into integer|number: err %v, integer %v, number %v; want the integer", err, n, f)
	}
	f, n = nil, nil
	if err := UnmarshalUnion("Amount", []byte(`3.5`), "", Into("Count", &n, Shape{Type: "integer"}), Into("Value", &f, Shape{Type: "number"})); err != nil || f == nil || *f != 3.5 || n != nil {
		t.Errorf("3.5 into integer|number: err %v, integer %v, number %v; want the number", err, n, f)
	}
}
