package genimpl

import (
	"strings"
	"testing"
)

type circle struct {
	Kind   string  `json:"kind"`
	Radius float64 `json:"radius"`
}

type square struct {
	Kind string  `json:"kind"`
	Side float64 `json:"side"`
}

// TestClosedVariantRefusesUnknownKeys: a variant whose schema refuses
// other properties (additionalProperties: false) does not take an object
// with a key it does not know, whether the union is told apart by a
// discriminator or by the variants' shapes; an open variant takes it.
func TestClosedVariantRefusesUnknownKeys(t *testing.T) {
	targets := func(c **circle, s **square, closed bool) []UnionTarget {
		return []UnionTarget{
			Into("Circle", c, Shape{Type: "object", Required: []string{"kind", "radius"}, Known: []string{"kind", "radius"}, Closed: closed, Const: `"circle"`}),
			Into("Square", s, Shape{Type: "object", Required: []string{"kind", "side"}, Known: []string{"kind", "side"}, Closed: closed, Const: `"square"`}),
		}
	}
	for _, discriminator := range []string{"kind", ""} {
		var c *circle
		var s *square
		err := UnmarshalUnion("Shape", []byte(`{"kind":"circle","radius":1,"colour":"red"}`), discriminator, targets(&c, &s, true)...)
		if err == nil || !strings.Contains(err.Error(), `"colour" is unknown`) {
			t.Errorf("discriminator %q: a closed variant took an unknown key: err %v, circle %+v", discriminator, err, c)
		}
		c = nil
		if err := UnmarshalUnion("Shape", []byte(`{"kind":"circle","radius":1,"colour":"red"}`), discriminator, targets(&c, &s, false)...); err != nil || c == nil || c.Radius != 1 {
			t.Errorf("discriminator %q: an open variant refused an unknown key: %v", discriminator, err)
		}
		c = nil
		if err := UnmarshalUnion("Shape", []byte(`{"kind":"circle","radius":2}`), discriminator, targets(&c, &s, true)...); err != nil || c == nil || c.Radius != 2 {
			t.Errorf("discriminator %q: a closed variant refused its own keys: %v", discriminator, err)
		}
	}
}
