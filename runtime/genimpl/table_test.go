package genimpl

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// tree is a recursive struct, as the generator writes one: its table names
// its own type for the children, through MCPDecodeTable.
type tree struct {
	Name     string              `json:"name"`
	Size     runtime.Opt[int64]  `json:"size,omitzero"`
	Children []tree              `json:"children,omitempty"`
	Tags     []string            `json:"tags,omitempty"`
	Weight   runtime.Opt[string] `json:"weight,omitzero"`
}

var decodeTree = &Object{Type: (*tree)(nil), Fields: []Field{
	{Name: "name", Required: true, Value: Value{Kind: KindString, String: &StringRule{MinLength: 1}}},
	{Name: "size", Value: Value{Kind: KindInteger, Int: &IntRule{Min: 0, HasMin: true}}},
	{Name: "children", Value: Value{Kind: KindArray, Array: &ArrayRule{MaxItems: 2, HasMaxItems: true}, Items: &Value{Kind: KindObject, Object: (*tree)(nil)}}},
	{Name: "tags", Value: Value{Kind: KindArray, Items: &Value{Kind: KindString}}},
	{Name: "weight", Value: Value{Kind: KindString}},
}}

func (*tree) MCPDecodeTable() *Object { return decodeTree }

func TestObjectDecode(t *testing.T) {
	cases := []struct {
		args string
		ok   bool
		want tree
	}{
		{`{"name":"a"}`, true, tree{Name: "a"}},
		{` {"size":3, "name":"a", "tags":[]} `, true, tree{Name: "a", Size: runtime.Some(int64(3)), Tags: []string{}}},
		{`{"name":"a","children":[{"name":"b","children":[{"name":"c"}]},{"name":"d","weight":"w"}]}`, true,
			tree{Name: "a", Children: []tree{{Name: "b", Children: []tree{{Name: "c"}}}, {Name: "d", Weight: runtime.Some("w")}}}},
		{`{"name":""}`, false, tree{}},                                                      // minLength
		{`{"size":1}`, false, tree{}},                                                       // name is required
		{`{"name":"a","size":-1}`, false, tree{}},                                           // minimum
		{`{"name":"a","name":"b"}`, false, tree{}},                                          // sent twice
		{`{"name":"a","other":1}`, false, tree{}},                                           // closed object
		{`{"name":"a","children":[{"name":"b"},{"name":"c"},{"name":"d"}]}`, false, tree{}}, // maxItems
		{`{"name":"a","children":[{}]}`, false, tree{}},                                     // an item's required property
		{`{"name":"a","tags":["x",1]}`, false, tree{}},                                      // an item's type
		{`{"name":"a"} x`, false, tree{}},                                                   // trailing data
		{`[]`, false, tree{}},
	}
	for _, c := range cases {
		var got tree
		if ok := decodeTree.Decode([]byte(c.args), &got); ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Decode(%s) = %v, %+v; want %v, %+v", c.args, ok, got, c.ok, c.want)
		}
	}
}

// Decode accepts only JSON: a raw control character (U+0000 to U+001F,
// tab and newline included) inside a string, a value's or a key's, is not
// JSON, so the decoder refuses it whatever the rules say.
func TestObjectDecodeRefusesRawControlCharacters(t *testing.T) {
	for c := range byte(0x20) {
		for _, args := range []string{
			`{"name":"a` + string(c) + `b"}`,
			`{"name":"a","tags":["` + string(c) + `"]}`,
			`{"name":"a","weight` + string(c) + `":"w"}`,
		} {
			var got tree
			if decodeTree.Decode([]byte(args), &got) {
				t.Errorf("Decode(%q) accepted invalid JSON: %+v", args, got)
			}
		}
	}
	var got tree
	if !decodeTree.Decode([]byte(`{"name":"a\tb\n"}`), &got) || got.Name != "a\tb\n" {
		t.Errorf("escaped tab and newline: %+v", got)
	}
}

// A table that does not match its struct never accepts: the general
// validator decides every call.
func TestObjectMismatchRefuses(t *testing.T) {
	type small struct {
		A string `json:"a"`
	}
	tables := map[string]*Object{
		"unknown property": {Type: (*small)(nil), Fields: []Field{{Name: "b", Value: Value{Kind: KindString}}}},
		"wrong kind":       {Type: (*small)(nil), Fields: []Field{{Name: "a", Value: Value{Kind: KindInteger}}}},
		"not a pointer":    {Type: small{}, Fields: []Field{{Name: "a", Value: Value{Kind: KindString}}}},
		"array of nothing": {Type: (*small)(nil), Fields: []Field{{Name: "a", Value: Value{Kind: KindArray}}}},
	}
	for name, o := range tables {
		var x small
		if o.Decode([]byte(`{"a":"x"}`), &x) {
			t.Errorf("%s: the table accepted arguments", name)
		}
	}
	good := &Object{Type: (*small)(nil), Fields: []Field{{Name: "a", Value: Value{Kind: KindString}}}}
	var wrong tree
	if good.Decode([]byte(`{"a":"x"}`), &wrong) {
		t.Error("a table decoded into a value of another type")
	}
	var x small
	if !good.Decode([]byte(`{"a":"x"}`), &x) || x.A != "x" {
		t.Errorf("the matching table refused, or decoded %+v", x)
	}
}

// The strings of small arguments share one copy of them: one allocation
// for all of them, and none aliases the caller's bytes, which a transport
// reuses after the call. Large arguments copy each string on its own.
func TestObjectDecodeStringsCopied(t *testing.T) {
	args := []byte(`{"name":"a","tags":["x","y","z"],"weight":"w","children":[{"name":"b"}]}`)
	var x tree
	if !decodeTree.Decode(args, &x) {
		t.Fatal("refused")
	}
	for i := range args {
		args[i] = ' '
	}
	want := tree{Name: "a", Tags: []string{"x", "y", "z"}, Weight: runtime.Some("w"), Children: []tree{{Name: "b"}}}
	if !reflect.DeepEqual(x, want) {
		t.Errorf("after the arguments were overwritten, decoded %+v, want %+v", x, want)
	}

	small := []byte(`{"name":"abc","weight":"xyz"}`)
	if n := testing.AllocsPerRun(100, func() {
		var x tree
		decodeTree.Decode(small, &x)
	}); n != 2 {
		t.Errorf("decoding two strings allocated %v times, want 2 (the value, one copy of the arguments)", n)
	}
	large := []byte(`{"name":"abc","weight":"` + strings.Repeat("w", maxSharedText) + `"}`)
	var y tree
	if !decodeTree.Decode(large, &y) || len(y.Weight.Value) != maxSharedText {
		t.Fatal("large arguments refused")
	}
	if n := testing.AllocsPerRun(20, func() {
		var x tree
		decodeTree.Decode(large, &x)
	}); n != 3 {
		t.Errorf("decoding two strings of large arguments allocated %v times, want 3 (the value, one each)", n)
	}
}
