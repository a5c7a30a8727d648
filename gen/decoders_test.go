package gen

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

// TestIntRuleRounding: the integer bounds a decoder checks admit exactly
// the integers the schema's rational bounds admit (minimum 1.5 is 2,
// exclusiveMaximum -2.5 is -3, …).
func TestIntRuleRounding(t *testing.T) {
	bounds := []string{"2", "-2", "1.5", "-1.5", "0.25", "-0.25", "0"}
	for _, b := range bounds {
		n := spec.Number(b)
		q, _ := new(big.Rat).SetString(b)
		for _, c := range []struct {
			set   func(*spec.Schema)
			admit func(x *big.Rat) bool
		}{
			{func(s *spec.Schema) { s.Minimum = &n }, func(x *big.Rat) bool { return x.Cmp(q) >= 0 }},
			{func(s *spec.Schema) { s.ExclusiveMinimum = &n }, func(x *big.Rat) bool { return x.Cmp(q) > 0 }},
			{func(s *spec.Schema) { s.Maximum = &n }, func(x *big.Rat) bool { return x.Cmp(q) <= 0 }},
			{func(s *spec.Schema) { s.ExclusiveMaximum = &n }, func(x *big.Rat) bool { return x.Cmp(q) < 0 }},
		} {
			s := &spec.Schema{Kind: spec.KindInteger}
			c.set(s)
			r, ok := intRule(s)
			if !ok {
				t.Fatalf("bound %s refused", b)
			}
			for i := int64(-4); i <= 4; i++ {
				got := (r.min == nil || i >= *r.min) && (r.max == nil || i <= *r.max)
				if want := c.admit(new(big.Rat).SetInt64(i)); got != want {
					t.Errorf("bound %s (%+v): %d admitted %v, want %v", b, s, i, got, want)
				}
			}
		}
	}
	if _, ok := intRule(&spec.Schema{Kind: spec.KindInteger, MultipleOf: new(spec.Number("0.5"))}); ok {
		t.Error("a fractional multipleOf is understood; the decoder checks only integer ones")
	}
	if _, ok := numberRule(&spec.Schema{Kind: spec.KindNumber, Minimum: new(spec.Number("0.1"))}); ok {
		t.Error("minimum 0.1, which no float64 holds exactly, is understood")
	}
}

// TestDecoderChecksEveryConstraint: a tool input holding a constraint
// that no decoder rule checks (uniqueItems; a number's multipleOf) gets no
// decoding table, so the general validator checks it; the same input
// without it gets one. decoderChecks names only constraint keywords.
func TestDecoderChecksEveryConstraint(t *testing.T) {
	for name := range decoderChecks {
		known := false
		for _, k := range spec.ValueKeywords {
			known = known || (k.Name == name && k.Constrains())
		}
		if !known {
			t.Errorf("decoderChecks: %s is not a constraint keyword of the spec", name)
		}
	}
	for _, c := range []struct {
		prop    string
		decoded bool
	}{
		{"{type: array, items: {type: string}, maxItems: 3}", true},
		{"{type: array, items: {type: string}, uniqueItems: true}", false},
		{"{type: number, minimum: 1}", true},
		{"{type: number, multipleOf: 2}", false},
		{"{type: integer, multipleOf: 2}", true},
	} {
		src := "mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\ntools:\n  t:\n    description: d\n    input:\n      properties:\n        a: " + c.prop + "\n"
		s, diags := spec.Load("d.yaml", []byte(src))
		if len(diags) > 0 {
			t.Fatalf("%s: %v", c.prop, diags)
		}
		files, err := Generate(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var all []byte
		for _, f := range files {
			all = append(all, f.Bytes...)
		}
		if got := bytes.Contains(all, []byte("var decodeTInput = &genimpl.Object")); got != c.decoded {
			t.Errorf("%s: decoded %v, want %v", c.prop, got, c.decoded)
		}
	}
}
