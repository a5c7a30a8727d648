package mcpimport

import (
	"encoding/json"
	"testing"
)

// TestCompareSchema: what Compare lets pass as equivalent accepts the same
// values; every difference that changes what is accepted is Different.
func TestCompareSchema(t *testing.T) {
	for _, c := range []struct {
		orig, got string
		want      Verdict
	}{
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{"properties":{"a":{"type":"string"}},"type":"object"}`, Exact},
		{`{"type":"object","required":[]}`, `{"type":"object"}`, Equivalent},
		{`{"type":"object","properties":{}}`, `{"type":"object"}`, Equivalent},
		{`{"type":"string","const":"a"}`, `{"const":"a"}`, Equivalent},
		{`{"type":"integer","const":3}`, `{"const":3}`, Equivalent},
		// A type that is not the const's: the const alone accepts "a", the
		// schema with it accepts nothing.
		{`{"type":"integer","const":"a"}`, `{"const":"a"}`, Different},
		{`{"type":"string","const":true}`, `{"const":true}`, Different},
		// Required members lost, or changed.
		{`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, `{"type":"object","properties":{"a":{"type":"string"}}}`, Different},
		{`{"type":"object","required":["a"]}`, `{"type":"object","required":["b"]}`, Different},
		{`{"type":"object","required":["a","b"]}`, `{"type":"object","required":["b","a"]}`, Equivalent},
		{`{"type":"string"}`, `{"type":"integer"}`, Different},
	} {
		if got := CompareSchema(json.RawMessage(c.orig), json.RawMessage(c.got)); got != c.want {
			t.Errorf("CompareSchema(%s, %s) = %v, want %v", c.orig, c.got, got, c.want)
		}
		tool := func(schema string) json.RawMessage {
			return json.RawMessage(`{"name":"t","inputSchema":` + schema + `}`)
		}
		if got := Compare(tool(c.orig), tool(c.got)); got != c.want {
			t.Errorf("Compare of tools with %s and %s = %v, want %v", c.orig, c.got, got, c.want)
		}
	}
}
