package genimpl

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/validate"
)

// The scalar helpers against the general validator, their oracle, on
// numbers where float64 rounding, int64 overflow or screening could make
// them disagree: what a helper accepts the validator accepts, with the
// value encoding/json decodes; what the validator accepts written as a
// plain literal, the helper accepts.
func TestScalarHelpersAgreeWithValidator(t *testing.T) {
	values := []string{"0", "-0", "1", "-1", "2", "3", "1.5", "-1.5", "2.5", "100", "101", "99", "100.0", "1e2", "0.0",
		"99.99999999999999999999", "100.00000000000000001", "-0.00000000000000000001", "0.1", "0.30000000000000004",
		"1e-400", "-1e-400", "1e400", "1e-320", "5e-324", "9007199254740993", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808", "-9223372036854775809", `"1"`, "true", "null", "[]", "{}"}
	cases := []struct {
		schema string
		decode func(d *decoder) (any, bool)
	}{
		{`{"type":"number","minimum":0}`, number(&NumberRule{Min: Bound{true, 0}})},
		{`{"type":"number","maximum":100}`, number(&NumberRule{Max: Bound{true, 100}})},
		{`{"type":"number","exclusiveMinimum":0}`, number(&NumberRule{ExclusiveMin: Bound{true, 0}})},
		{`{"type":"number","exclusiveMaximum":100}`, number(&NumberRule{ExclusiveMax: Bound{true, 100}})},
		{`{"type":"number","minimum":1.5,"maximum":2.5}`, number(&NumberRule{Min: Bound{true, 1.5}, Max: Bound{true, 2.5}})},
		{`{"type":"number"}`, number(nil)},
		{`{"type":"integer","minimum":1,"maximum":100}`, integer(&IntRule{HasMin: true, Min: 1, HasMax: true, Max: 100})},
		{`{"type":"integer","multipleOf":3}`, integer(&IntRule{MultipleOf: 3})},
		{`{"type":"integer"}`, integer(nil)},
		{`{"type":"boolean"}`, func(d *decoder) (any, bool) { var b bool; ok := decodeBool(d, &b); return b, ok }},
		{`{"type":"string","minLength":1,"maxLength":1}`, str(&StringRule{MinLength: 1, MaxLength: 1, HasMaxLength: true})},
	}
	for _, c := range cases {
		v, err := validate.Compile([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range values {
			d := decoder{data: []byte(text)}
			got, ok := c.decode(&d)
			ok = ok && !d.refused && d.i == len(d.data)
			inst, err := validate.Decode([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			screened := validate.Screen(inst)
			oracle := len(screened.Violations) == 0 && len(v.Check(inst)) == 0
			decoded, _ := json.Marshal(inst) // as the runtime decodes it: rewritten (1e2 as 100) when screening rewrote it
			var want any
			switch got.(type) {
			case float64:
				var f float64
				want, oracle = &f, oracle && json.Unmarshal(decoded, &f) == nil
			case int64:
				var n int64
				want, oracle = &n, oracle && json.Unmarshal(decoded, &n) == nil
			}
			if ok && !oracle {
				t.Errorf("%s: %s: the helper accepts what the validator refuses", c.schema, text)
			}
			if !ok && oracle && !screened.Rewritten { // a rewritten integer (1e2) is left to the general path
				t.Errorf("%s: %s: the helper refuses what the validator accepts", c.schema, text)
			}
			if ok && want != nil && fmt.Sprint(got) != fmt.Sprint(deref(want)) {
				t.Errorf("%s: %s: decoded %v, encoding/json %v", c.schema, text, got, deref(want))
			}
		}
	}
}

func number(r *NumberRule) func(d *decoder) (any, bool) {
	return func(d *decoder) (any, bool) { var f float64; ok := decodeNumber(d, &f, r); return f, ok }
}

func integer(r *IntRule) func(d *decoder) (any, bool) {
	return func(d *decoder) (any, bool) { var n int64; ok := decodeInt(d, &n, r); return n, ok }
}

func str(r *StringRule) func(d *decoder) (any, bool) {
	return func(d *decoder) (any, bool) { var s string; ok := decodeString(d, &s, r); return s, ok }
}

func deref(p any) any {
	switch p := p.(type) {
	case *float64:
		return *p
	case *int64:
		return *p
	}
	return p
}

// TestStringLengthCountsCodePoints: minLength and maxLength count code
// points (JSON Schema), not bytes nor UTF-16 units, in the decoders and in
// the general validator alike: é is 2 bytes, 🙂 4 bytes and 2 UTF-16 units
// (an escaped surrogate pair), each one code point.
func TestStringLengthCountsCodePoints(t *testing.T) {
	for _, c := range []struct {
		text     string
		min, max int64
		want     bool
	}{
		{`"é"`, 1, 1, true},
		{`"\u00e9"`, 1, 1, true},
		{`"🙂"`, 1, 1, true},
		{`"\ud83d\ude42"`, 1, 1, true},
		{`"日本語"`, 3, 3, true},
		{`"日本語"`, 4, -1, false},
		{`"éé"`, -1, 2, true},
		{`"ééé"`, -1, 2, false},
		{`"e\u0301"`, 2, 2, true}, // e and a combining accent: two code points
		{`"ab"`, 3, -1, false},
	} {
		schema := `{"type":"string"`
		if c.min >= 0 {
			schema += fmt.Sprintf(`,"minLength":%d`, c.min)
		}
		if c.max >= 0 {
			schema += fmt.Sprintf(`,"maxLength":%d`, c.max)
		}
		schema += "}"
		d := decoder{data: []byte(c.text)}
		_, ok := str(&StringRule{MinLength: max(c.min, 0), MaxLength: max(c.max, 0), HasMaxLength: c.max >= 0})(&d)
		if ok = ok && !d.refused && d.i == len(d.data); ok != c.want {
			t.Errorf("decoder, %s against %s: accepted %v, want %v", c.text, schema, ok, c.want)
		}
		v, err := validate.Compile([]byte(schema))
		if err != nil {
			t.Fatal(err)
		}
		inst, err := validate.Decode([]byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		if ok := len(v.Check(inst)) == 0; ok != c.want {
			t.Errorf("validator, %s against %s: accepted %v, want %v", c.text, schema, ok, c.want)
		}
	}
}
