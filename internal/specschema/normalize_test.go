package specschema

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func normalized(t *testing.T, doc string) any {
	t.Helper()
	v, err := Decode([]byte(doc))
	if err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	return Normalize(v, strings.ToUpper)
}

// TestNormalizeEquates: schemas that accept the same values the same way
// compare equal after Normalize, whatever their layout.
func TestNormalizeEquates(t *testing.T) {
	for _, c := range []struct{ why, a, b string }{
		{"the schema true is {}", `{"properties":{"x":true}}`, `{"properties":{"x":{}}}`},
		{"a $ref is its definition", `{"$defs":{"n":{"type":"integer"}},"properties":{"x":{"$ref":"#/$defs/n"}}}`, `{"properties":{"x":{"type":"integer"}}}`},
		{"keywords beside a $ref win", `{"$defs":{"n":{"type":"integer","description":"a"}},"properties":{"x":{"$ref":"#/$defs/n","description":"b"}}}`, `{"properties":{"x":{"type":"integer","description":"b"}}}`},
		{"oneOf with null is nullable, wherever the description is", `{"oneOf":[{"type":"string","description":"d"},{"type":"null"}]}`, `{"oneOf":[{"type":"string"},{"type":"null"}],"description":"d"}`},
		{"required is a set", `{"required":["b","a"]}`, `{"required":["a","b"]}`},
		{"numbers are values", `{"minimum":1.0}`, `{"minimum":1}`},
		{"$schema and $id say nothing", `{"$schema":"x","$id":"y","type":"string"}`, `{"type":"string"}`},
	} {
		if diff := cmp.Diff(normalized(t, c.a), normalized(t, c.b)); diff != "" {
			t.Errorf("%s: (-a +b)\n%s", c.why, diff)
		}
	}
	nullable := map[string]any{"type": "string", "nullable": true}
	if diff := cmp.Diff(nullable, normalized(t, `{"oneOf":[{"type":"string"},{"type":"null"}]}`)); diff != "" {
		t.Errorf("oneOf with null: (-want +got)\n%s", diff)
	}
	if cmp.Equal(normalized(t, `{"properties":{"x":false}}`), normalized(t, `{"properties":{"x":{}}}`)) {
		t.Error("the schema false compares equal to {}")
	}
	// const, enum, default and examples hold values, not schemas: true is
	// not {} there.
	if cmp.Equal(normalized(t, `{"const":true}`), normalized(t, `{"const":{}}`)) {
		t.Error("const true compares equal to const {}")
	}
	if diff := cmp.Diff(map[string]any{"const": true, "default": 1.0}, normalized(t, `{"const":true,"default":1}`)); diff != "" {
		t.Errorf("values: (-want +got)\n%s", diff)
	}
}

// TestNormalizeRecursion: a reference back into a definition being
// expanded becomes a marker named by canon, instead of expanding for ever.
// A broken check would recurse until memory runs out: the test gives up
// after a few seconds instead.
func TestNormalizeRecursion(t *testing.T) {
	doc, err := Decode([]byte(`{"$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}},"$ref":"#/$defs/node"}`))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan any, 1)
	go func() { done <- Normalize(doc, strings.ToUpper) }()
	var got any
	select {
	case got = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Normalize does not end on a recursive definition")
	}
	want := map[string]any{"type": "object", "properties": map[string]any{"next": map[string]any{"$recursive": "NODE"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
