package mcpimport

import (
	"encoding/json"
	"strings"
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

// TestCompareArguments: MCP's arguments are an object, so an inputSchema
// without a type accepts what type: object does; not so for an
// outputSchema, nor below the root.
func TestCompareArguments(t *testing.T) {
	for _, c := range []struct {
		orig, got   string
		input, outp Verdict
	}{
		{`{"$schema":"http://json-schema.org/draft-07/schema#"}`, `{"type":"object"}`, Equivalent, Different},
		{`{}`, `{"type":"object"}`, Equivalent, Different},
		{`{"properties":{"a":{}}}`, `{"type":"object","properties":{"a":{"type":"object"}}}`, Different, Different},
		{`{"anyOf":[{"type":"object"}]}`, `{"type":"object"}`, Different, Different},
	} {
		item := func(key, schema string) json.RawMessage {
			return json.RawMessage(`{"name":"t","` + key + `":` + schema + `}`)
		}
		if got := Compare(item("inputSchema", c.orig), item("inputSchema", c.got)); got != c.input {
			t.Errorf("inputSchemas %s and %s: %v, want %v", c.orig, c.got, got, c.input)
		}
		if got := Compare(item("outputSchema", c.orig), item("outputSchema", c.got)); got != c.outp {
			t.Errorf("outputSchemas %s and %s: %v, want %v", c.orig, c.got, got, c.outp)
		}
	}
}

// TestDifferences: each difference names its path and side, and its
// Reason leaves out the names of properties and definitions, so that
// the causes of a server's inexact items can be counted.
func TestDifferences(t *testing.T) {
	orig := `{"name":"t","inputSchema":{"$schema":"x","type":"object","properties":{"a":{"type":"string","description":" a"}},"$defs":{"N":{}}},"arguments":[1,2]}`
	got := `{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string","description":"a"}},"additionalProperties":true},"arguments":[1,3]}`
	var gotReasons []string
	for _, d := range Differences(json.RawMessage(orig), json.RawMessage(got)) {
		gotReasons = append(gotReasons, d.Path+" | "+d.Reason())
	}
	want := []string{
		`arguments[1] | arguments: 2, generated 3`,
		`inputSchema.$defs | inputSchema…$defs: {"N":{}} only in the original`,
		`inputSchema.$schema | inputSchema…$schema: "x" only in the original`,
		`inputSchema.additionalProperties | inputSchema…additionalProperties: true only in the generated`,
		`inputSchema.properties.a.description | inputSchema…description: " a", generated "a"`,
	}
	if strings.Join(gotReasons, "\n") != strings.Join(want, "\n") {
		t.Errorf("Differences:\n%s\nwant:\n%s", strings.Join(gotReasons, "\n"), strings.Join(want, "\n"))
	}
	d := Difference{Path: "inputSchema.$defs.Node", Orig: map[string]any{"type": "object"}, Only: "original"}
	if r := d.Reason(); r != "inputSchema…$defs.*: one only in the original" {
		t.Errorf("a definition's Reason = %q", r)
	}
	if ds := Differences(json.RawMessage(orig), json.RawMessage(orig)); len(ds) != 0 {
		t.Errorf("an item differs from itself: %v", ds)
	}
}

// TestCompareEmptyUI: a view's _meta.ui of {} sets nothing, as no ui
// does; a ui that sets something, or another _meta key, still counts.
func TestCompareEmptyUI(t *testing.T) {
	for _, c := range []struct {
		orig, got string
		want      Verdict
	}{
		{`{"uri":"ui://v"}`, `{"uri":"ui://v","_meta":{"ui":{}}}`, Equivalent},
		{`{"uri":"ui://v","_meta":{"x":1}}`, `{"uri":"ui://v","_meta":{"x":1,"ui":{}}}`, Equivalent},
		{`{"uri":"ui://v"}`, `{"uri":"ui://v","_meta":{"ui":{"prefersBorder":true}}}`, Different},
		{`{"uri":"ui://v"}`, `{"uri":"ui://v","_meta":{"x":1,"ui":{}}}`, Different},
	} {
		if got := Compare(json.RawMessage(c.orig), json.RawMessage(c.got)); got != c.want {
			t.Errorf("%s and %s: %v, want %v", c.orig, c.got, got, c.want)
		}
	}
}
