package mcpimport

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

func importTool(t *testing.T, tool string) *Result {
	t.Helper()
	res, err := FromLists(&Lists{Tools: []json.RawMessage{json.RawMessage(tool)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRawOnlyWhereUntypable: every keyword docs/importing.md names as
// untypable keeps the input raw, with a note naming the keyword and where
// it is (tools.t.input…), while the tool's output stays typed; the
// keywords that constrain nothing, or that the spec types, keep the input
// typed.
func TestRawOnlyWhereUntypable(t *testing.T) {
	const out = `{"type":"object","properties":{"r":{"type":"string"}}}`
	for _, c := range []struct {
		prop    string // the schema of input property p
		keyword string // "" : typed
	}{
		{`{"type":"string","if":{"minLength":1},"then":{"maxLength":3}}`, "the keywords if, then"},
		{`{"not":{"type":"string"}}`, "the keyword not"},
		{`{"type":"object","propertyNames":{"pattern":"^x"}}`, "the keyword propertyNames"},
		{`{"type":"object","propertyNames":{"type":"string"}}`, ""},
		{`{"const":[1,2]}`, "const"},
		{`{"type":"array","prefixItems":[{"type":"string"}]}`, "the keyword prefixItems"},
		{`false`, "the schema false"},
		{`{"type":"null"}`, "type null outside a union"},
		{`{"anyOf":[{"type":"string"}],"oneOf":[{"type":"integer"}]}`, "anyOf beside oneOf"},
		{`{"type":["string","object"]}`, "a list of types with object"},
		{`{"type":["object","string","null"]}`, "a list of types with object"},
		{`{"type":["object","null"]}`, ""},
		{`{"type":["string","integer"]}`, ""},
		{`{"type":"string","format":"email","minLength":1}`, ""},
		{`{"anyOf":[{"type":"string"},{"type":"null"}]}`, ""},
		{`{"type":"object","additionalProperties":{"type":"integer"}}`, ""},
	} {
		tool := `{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"p":` + c.prop + `}},"outputSchema":` + out + `}`
		res := importTool(t, tool)
		notes := strings.Join(res.Notes, "\n")
		if c.keyword == "" {
			if len(res.Raw) > 0 {
				t.Errorf("%s: raw %q, want it typed; notes %q", c.prop, res.Raw, notes)
			}
			continue
		}
		if len(res.Raw) != 1 || !strings.Contains(notes, "(tools.t.input.p: "+c.keyword) || !strings.Contains(notes, " cannot be typed)") {
			t.Errorf("%s: raw %q, notes %q; want the input raw and a note naming %q at tools.t.input.p", c.prop, res.Raw, notes, c.keyword)
		}
		if strings.Contains(notes, "tools.t.output") {
			t.Errorf("%s: the output went raw too: %q", c.prop, notes)
		}
		if !strings.Contains(string(res.YAML), "inputSchema:") || strings.Contains(string(res.YAML), "outputSchema:") {
			t.Errorf("%s: want a raw inputSchema and a typed output:\n%s", c.prop, res.YAML)
		}
	}
}

// TestOpenObjectsAndTODO: an object schema without additionalProperties
// is written additionalProperties: null (open, advertised without the
// key); one that says true keeps it, false is the spec's closed default; a tool without a
// description gets description: TODO and a note.
func TestOpenObjectsAndTODO(t *testing.T) {
	res := importTool(t, `{"name":"t","inputSchema":{"type":"object","properties":{"silent":{"type":"object","properties":{"a":{"type":"string"}}},"open":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true},"closed":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}}}`)
	y := string(res.YAML)
	if _, diags := spec.Load("x.yaml", res.YAML); len(diags) > 0 {
		t.Fatalf("%v\n%s", diags, y)
	}
	if !strings.Contains(y, "additionalProperties: null") {
		t.Errorf("the silent object is not written additionalProperties: null:\n%s", y)
	}
	// The spec's objects are closed unless they say otherwise: false is
	// written as no key.
	closed := y[strings.Index(y, "closed:"):]
	closed = closed[:strings.Index(closed, "additionalProperties")]
	if !strings.Contains(y, "additionalProperties: true") || strings.Count(closed, "\n") != 4 {
		t.Errorf("true is not kept, or false is not written closed:\n%s", y)
	}
	if !strings.Contains(y, "description: TODO") || !strings.Contains(strings.Join(res.Notes, "\n"), "TODO") {
		t.Errorf("a tool without description: want description: TODO and a note; notes %q\n%s", res.Notes, y)
	}
}
