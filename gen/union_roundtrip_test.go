package gen_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/golden/consts"
	gonames "github.com/mcpgen/mcpgen/golden/go_names"
	"github.com/mcpgen/mcpgen/golden/nullable"
	"github.com/mcpgen/mcpgen/golden/unions"
	"github.com/mcpgen/mcpgen/runtime"
)

// TestUnionsRoundTrip marshals a value of every variant of the generated
// unions (golden/unions) and of the const types (golden/consts), checks the
// JSON, and decodes it back into the same Go value: each variant is chosen
// by its discriminator or, without one, by trial in the spec's order.
func TestUnionsRoundTrip(t *testing.T) {
	str, num, yes, zero := "abc", 2.5, true, int64(7)
	cases := []struct {
		name  string
		value any    // a pointer to a Go value
		json  string // what it marshals to
	}{
		{"query string", &unions.SearchInputQuery{String: &str}, `"abc"`},
		{"query filter", &unions.SearchInputQuery{Filter: &unions.Filter{Field: "a", Equals: "b"}}, `{"field":"a","equals":"b"}`},
		{"id string", &unions.SearchInputIdsItem{String: &str}, `"abc"`},
		{"id integer", &unions.SearchInputIdsItem{Integer: &zero}, `7`},
		{"value string", &unions.SearchInputValue{String: &str}, `"abc"`},
		{"value number", &unions.SearchInputValue{Number: &num}, `2.5`},
		{"value boolean", &unions.SearchInputValue{Boolean: &yes}, `true`},
		{"page integer", &unions.SearchInputPage{Integer: &zero}, `7`},
		{"page array", &unions.SearchInputPage{Array: &[]int64{1, 2}}, `[1,2]`},
		{"shape circle", &unions.Shape{Circle: &unions.Circle{Kind: unions.CircleKindCircle, Radius: 1}}, `{"kind":"circle","radius":1}`},
		{"shape square", &unions.Shape{Square: &unions.Square{Kind: unions.SquareKindSquare, Side: 2}}, `{"kind":"square","side":2}`},
		{"event created", &unions.Event{Created: &unions.EventCreated{Version: unions.EventCreatedVersionN1, Type: unions.EventCreatedTypeCreated, ID: "x"}},
			`{"version":1,"type":"created","id":"x"}`},
		{"event deleted", &unions.Event{Deleted: &unions.EventDeleted{Version: unions.EventDeletedVersionN2, Type: unions.EventDeletedTypeDeleted}},
			`{"version":2,"type":"deleted"}`},
		{"content text", &unions.SearchOutputContentItem{Text: &unions.SearchOutputContentItemText{Type: unions.SearchOutputContentItemTextTypeText, Text: "hi"}},
			`{"type":"text","text":"hi"}`},
		{"content image", &unions.SearchOutputContentItem{Image: &unions.SearchOutputContentItemImage{Type: unions.SearchOutputContentItemImageTypeImage, Data: "AA==", MimeType: "image/png"}},
			`{"type":"image","data":"AA==","mimeType":"image/png"}`},
		{"choice by name", &unions.PickInputChoice{Object: &unions.PickInputChoiceObject{Name: "x"}}, `{"name":"x"}`},
		{"choice by id", &unions.PickInputChoice{Object2: &unions.PickInputChoiceObject2{ID: 3}}, `{"id":3}`},
		{"nullable note null", &nullable.AnnotateInput{}, `{"note":null}`},
		{"nullable every spelling", &nullable.AnnotateInput{Note: &str, Count: runtime.Some[*int64](&zero),
			Filter: runtime.Some(&nullable.Filter{Field: "f"}), Point: runtime.Some(&nullable.AnnotateInputPoint{X: 1, Y: 2}),
			Either: runtime.Some(&nullable.AnnotateInputEither{Boolean: &yes}), Legacy: runtime.Some[*string](nil)},
			`{"note":"abc","count":7,"filter":{"field":"f"},"point":{"x":1,"y":2},"either":true,"legacy":null}`},
		{"go names", &gonames.ReactInput{Vote: gonames.ReactInputVoteDown, LegacyUserID: runtime.Some("u"),
			Target: runtime.Some(gonames.ReactInputTarget{ByLink: &gonames.Link{Href: "https://x.example"}})},
			`{"vote":"-1","userId":"u","target":{"href":"https://x.example"}}`},
		{"const input", &consts.DrawInput{Kind: consts.KindShape, Version: consts.DrawInputVersionN2}, `{"kind":"shape","version":2}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, err := json.Marshal(c.value)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			if string(data) != c.json {
				t.Errorf("marshalled to %s, want %s", data, c.json)
			}
			back := newLike(c.value)
			if err := json.Unmarshal(data, back); err != nil {
				t.Fatalf("unmarshal %s: %v", data, err)
			}
			if diff := cmp.Diff(c.value, back); diff != "" {
				t.Errorf("round trip of %s (-sent +decoded):\n%s", data, diff)
			}
		})
	}
}

// TestUnionErrors: a union value with no variant or several set does not
// marshal, and JSON that fits no variant does not decode; each error says
// which union and why.
func TestUnionErrors(t *testing.T) {
	str, n := "a", int64(1)
	for _, c := range []struct {
		value any
		want  string
	}{
		{unions.SearchInputIdsItem{}, "SearchInputIdsItem: no variant is set; set one of String, Integer"},
		{unions.SearchInputIdsItem{String: &str, Integer: &n}, "SearchInputIdsItem: String and Integer are all set; set exactly one"},
	} {
		if _, err := json.Marshal(c.value); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("marshal %#v: error %v, want %q", c.value, err, c.want)
		}
	}
	for _, c := range []struct {
		json string
		into any
		want string
	}{
		{`{"kind":"hexagon"}`, &unions.Shape{}, `Shape: property "kind" is "hexagon", want one of "circle", "square"`},
		{`{"radius":1}`, &unions.Shape{}, `Shape: property "kind" is missing`},
		{`[1]`, &unions.Shape{}, `Shape: want an object with property "kind", got an array`},
		{`true`, &unions.SearchInputIdsItem{}, `SearchInputIdsItem: the value matches none of its variants (String: want a string, got a boolean; Integer: want an integer, got a boolean)`},
		{`{"field":"a"}`, &unions.SearchInputQuery{}, `SearchInputQuery: the value matches none of its variants (String: want a string, got an object; Filter: property "equals" is missing)`},
	} {
		err := json.Unmarshal([]byte(c.json), c.into)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("unmarshal %s into %T: error %v, want %q", c.json, c.into, err, c.want)
		}
	}
}

// newLike returns a new zero value of the type v points to.
func newLike(v any) any {
	switch v.(type) {
	case *unions.SearchInputQuery:
		return &unions.SearchInputQuery{}
	case *unions.SearchInputIdsItem:
		return &unions.SearchInputIdsItem{}
	case *unions.SearchInputValue:
		return &unions.SearchInputValue{}
	case *unions.SearchInputPage:
		return &unions.SearchInputPage{}
	case *unions.Shape:
		return &unions.Shape{}
	case *unions.Event:
		return &unions.Event{}
	case *unions.SearchOutputContentItem:
		return &unions.SearchOutputContentItem{}
	case *unions.PickInputChoice:
		return &unions.PickInputChoice{}
	case *nullable.AnnotateInput:
		return &nullable.AnnotateInput{}
	case *gonames.ReactInput:
		return &gonames.ReactInput{}
	case *consts.DrawInput:
		return &consts.DrawInput{}
	}
	panic("newLike: add the type")
}

// BenchmarkUnionDecode measures what choosing a variant costs against
// decoding the variant's type alone: by discriminator, and by trial
// (the variant that fits is not the first).
func BenchmarkUnionDecode(b *testing.B) {
	for _, c := range []struct {
		name string
		json string
		into func() any
	}{
		{"plain struct", `{"kind":"square","side":2}`, func() any { return &unions.Square{} }},
		{"discriminated", `{"kind":"square","side":2}`, func() any { return &unions.Shape{} }},
		{"trial object", `{"field":"a","equals":"b"}`, func() any { return &unions.SearchInputQuery{} }},
		{"trial scalar", `true`, func() any { return &unions.SearchInputValue{} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			data := []byte(c.json)
			b.ReportAllocs()
			for b.Loop() {
				if err := json.Unmarshal(data, c.into()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
