package runtime_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

type optHolder struct {
	Name  runtime.Opt[string]   `json:"name,omitzero"`
	Count runtime.Opt[int]      `json:"count,omitzero" jsonschema:"minimum=0"`
	Addr  runtime.Opt[Address]  `json:"addr,omitzero"`
	Tags  runtime.Opt[[]string] `json:"tags,omitzero"`
	Plain runtime.Opt[bool]     `json:"plain"` // no omitzero: unset encodes as null, and is required
}

func TestOptJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   optHolder
		want string
	}{
		{"all unset", optHolder{}, `{"plain":null}`},
		{"zero values are present", optHolder{Name: runtime.Some(""), Count: runtime.Some(0), Plain: runtime.Some(false)},
			`{"name":"","count":0,"plain":false}`},
		{"values", optHolder{Name: runtime.Some("x"), Addr: runtime.Some(Address{City: "Lyon"}), Tags: runtime.Some([]string{"a"}), Plain: runtime.Some(true)},
			`{"name":"x","addr":{"city":"Lyon"},"tags":["a"],"plain":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("marshal: got %s, want %s", b, tc.want)
			}
			var back optHolder
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			want := tc.in
			if !want.Plain.Set { // null unmarshals as set-with-zero
				want.Plain = runtime.Some(false)
			}
			if diff := cmp.Diff(want, back); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}

	var h optHolder
	if err := json.Unmarshal([]byte(`{"count":3}`), &h); err != nil {
		t.Fatal(err)
	}
	if v, ok := h.Count.Get(); !ok || v != 3 {
		t.Errorf("Count.Get() = %v, %v", v, ok)
	}
	if h.Name.Set || h.Name.Or("default") != "default" || !h.Name.IsZero() {
		t.Errorf("absent Name: %+v", h.Name)
	}
	if h.Count.Or(9) != 3 || h.Count.IsZero() {
		t.Errorf("present Count: %+v", h.Count)
	}
	if err := json.Unmarshal([]byte(`{"count":"three"}`), &h); err == nil {
		t.Error("a string decoded into Opt[int]")
	}
}

func TestOptSchema(t *testing.T) {
	got := string(runtime.SchemaFor[optHolder]())
	want := `{"$defs":{"Address":{"properties":{"city":{"type":"string"}},"additionalProperties":false,"type":"object","required":["city"]}},` +
		`"properties":{"name":{"type":"string"},"count":{"type":"integer","minimum":0},"addr":{"$ref":"#/$defs/Address"},` +
		`"tags":{"items":{"type":"string"},"type":"array"},"plain":{"type":"boolean"}},` +
		`"additionalProperties":false,"type":"object","required":["plain"]}`
	if got != want {
		t.Errorf("schema of Opt fields:\n got %s\nwant %s", got, want)
	}
}
