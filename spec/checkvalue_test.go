package spec

import (
	"encoding/json"
	"reflect"
	"regexp"
	"testing"
)

// TestCheckValue runs the value checker over one schema of each shape.
func TestCheckValue(t *testing.T) {
	num := func(s string) *Number { n := Number(s); return &n }
	i64 := func(i int64) *int64 { return &i }
	line := &NamedType{Name: "Line", Schema: &Schema{Kind: KindObject, Properties: []*Property{
		{Name: "sku", Required: true, Schema: &Schema{Kind: KindString}},
		{Name: "qty", Schema: &Schema{Kind: KindInteger, Minimum: num("1")}},
	}}}
	node := &NamedType{Name: "Node", Schema: &Schema{Kind: KindObject, AdditionalProperties: true, Properties: []*Property{
		{Name: "next", Schema: &Schema{Kind: KindRef, Ref: "Node", Nullable: true}},
	}}}
	loop := &NamedType{Name: "Loop", Schema: &Schema{Kind: KindRef, Ref: "Loop"}}
	code := &Schema{Kind: KindString, Pattern: `^[A-Z]+$`, MinLength: i64(2), MaxLength: i64(4)}
	v := &validator{
		s:        &Spec{},
		types:    map[string]*NamedType{"Line": line, "Node": node, "Loop": loop},
		patterns: map[*Schema]*regexp.Regexp{},
	}
	for _, c := range []struct {
		name   string
		schema *Schema
		json   string
		want   string
	}{
		{"string ok", code, `"ABC"`, ""},
		{"string type", code, `12`, `12 is a number, not a string`},
		{"string short", code, `"A"`, `"A" is shorter than minLength 2`},
		{"string long", code, `"ABCDE"`, `"ABCDE" is longer than maxLength 4`},
		{"string runes", &Schema{Kind: KindString, MaxLength: i64(2)}, `"éé"`, ""},
		{"pattern", code, `"ab"`, `"ab" does not match the pattern ^[A-Z]+$`},
		{"null", code, `null`, `null is not allowed (the schema is not nullable)`},
		{"nullable", &Schema{Kind: KindString, Nullable: true}, `null`, ""},
		{"integer", &Schema{Kind: KindInteger}, `1.0`, ""},
		{"integer fraction", &Schema{Kind: KindInteger}, `1.5`, `1.5 is not an integer`},
		{"integer huge", &Schema{Kind: KindInteger}, `123456789012345678901234567890`, ""},
		{"minimum", &Schema{Kind: KindNumber, Minimum: num("0.1")}, `0.05`, `0.05 is less than minimum 0.1`},
		{"maximum", &Schema{Kind: KindNumber, Maximum: num("1e2")}, `100.5`, `100.5 is greater than maximum 1e2`},
		{"exclusiveMinimum", &Schema{Kind: KindNumber, ExclusiveMinimum: num("0")}, `0`, `0 is not greater than exclusiveMinimum 0`},
		{"exclusiveMaximum", &Schema{Kind: KindNumber, ExclusiveMaximum: num("1")}, `1.0`, `1.0 is not less than exclusiveMaximum 1`},
		{"multipleOf exact", &Schema{Kind: KindNumber, MultipleOf: num("0.1")}, `0.3`, ""}, // 0.3/0.1 is not 3 in float64
		{"multipleOf", &Schema{Kind: KindInteger, MultipleOf: num("5")}, `12`, `12 is not a multiple of 5`},
		{"boolean", &Schema{Kind: KindBoolean}, `"true"`, `"true" is a string, not a boolean`},
		{"enum", &Schema{Kind: KindString, Enum: []*Value{val(`"a"`), val(`"b"`)}}, `"c"`, `"c" is not one of "a", "b"`},
		{"enum number equality", &Schema{Kind: KindNumber, Enum: []*Value{val(`1`), val(`2.5`)}}, `1.0`, ""},
		{"array items", &Schema{Kind: KindArray, Items: &Schema{Kind: KindRef, Ref: "Line"}}, `[{"sku":"a"},{"sku":"b","qty":0}]`, `/1/qty: 0 is less than minimum 1`},
		{"array min", &Schema{Kind: KindArray, Items: &Schema{Kind: KindAny}, MinItems: i64(2)}, `[1]`, `the array has 1 item, fewer than minItems 2`},
		{"array max", &Schema{Kind: KindArray, Items: &Schema{Kind: KindAny}, MaxItems: i64(1)}, `[1,2]`, `the array has 2 items, more than maxItems 1`},
		{"unique", &Schema{Kind: KindArray, Items: &Schema{Kind: KindAny}, UniqueItems: true}, `[{"a":1,"b":2},3,{"b":2,"a":1.0}]`, `items 0 and 2 are equal, and uniqueItems is set`},
		{"required", &Schema{Kind: KindRef, Ref: "Line"}, `{"qty":2}`, `missing required property "sku"`},
		{"unknown property", &Schema{Kind: KindRef, Ref: "Line"}, `{"sku":"a","qtty":2}`, `unknown property "qtty"; did you mean "qty"?`},
		{"additional allowed", &Schema{Kind: KindRef, Ref: "Node"}, `{"x":1,"next":{"next":null}}`, ""},
		{"recursive", &Schema{Kind: KindRef, Ref: "Node"}, `{"next":{"next":5}}`, `/next/next: 5 is a number, not an object`},
		{"map", &Schema{Kind: KindMap, Values: &Schema{Kind: KindInteger}}, `{"a":1,"b/c":"x"}`, `/b~1c: "x" is a string, not an integer`},
		{"map not object", &Schema{Kind: KindMap, Values: &Schema{Kind: KindInteger}}, `[]`, `[] is an array, not an object`},
		{"any", &Schema{Kind: KindAny}, `{"x":[null]}`, ""},
		{"go type", &Schema{Kind: KindGoType, GoType: &GoTypeRef{ImportPath: "time", Name: "Time"}}, `"whenever"`, ""},
		{"unknown ref", &Schema{Kind: KindRef, Ref: "Nope"}, `1`, ""},
		{"ref loop", &Schema{Kind: KindRef, Ref: "Loop"}, `1`, ""},
		{"long value cut", &Schema{Kind: KindInteger}, `"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"`, `"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa… is a string, not an integer`},
	} {
		x, err := decodeJSON([]byte(c.json))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := checker{v: v, withEnum: true}.check(c.schema, x, "", 0)
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestRatOfRefusesHugeExponents(t *testing.T) {
	if _, ok := ratOf("1e1000000000"); ok {
		t.Error("1e1000000000 was expanded")
	}
	if r, ok := ratOf("2.5e2"); !ok || r.RatString() != "250" {
		t.Errorf("2.5e2 = %v, %v", r, ok)
	}
}

func TestCanonical(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{`1`, `1.0`}, {`1e2`, `100`}, {`{"a":1,"b":[true]}`, `{"b":[true],"a":1}`}, {`"x"`, `"x"`},
	} {
		x, _ := decodeJSON([]byte(c.a))
		y, _ := decodeJSON([]byte(c.b))
		if canonical(x) != canonical(y) {
			t.Errorf("%s and %s differ: %s vs %s", c.a, c.b, canonical(x), canonical(y))
		}
	}
	x, _ := decodeJSON([]byte(`"1"`))
	y, _ := decodeJSON([]byte(`1`))
	if canonical(x) == canonical(y) {
		t.Error(`"1" and 1 are equal`)
	}
}

// TestDecodeJSONRefuses: a value that is not one JSON value is refused,
// and numbers keep their text.
func TestDecodeJSONRefuses(t *testing.T) {
	for _, bad := range []string{`01`, `[1,]`, `{"a" 1}`, "\"\x01\"", `1 2`, ``} {
		if _, err := decodeJSON([]byte(bad)); err == nil {
			t.Errorf("%q: read", bad)
		}
	}
	x, err := decodeJSON([]byte(` [1.50, 1e400] `))
	if err != nil || !reflect.DeepEqual(x, []any{json.Number("1.50"), json.Number("1e400")}) {
		t.Errorf("read %#v, %v", x, err)
	}
}
