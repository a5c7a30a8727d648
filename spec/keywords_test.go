package spec

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// keywordSample is a value of a value keyword that a schema of kind kind
// accepts, in YAML.
func keywordSample(k *Keyword, kind Kind) string {
	switch k.Name {
	case "format":
		if kind == KindString {
			return "email"
		}
		return "int32"
	case "x-mcp-header":
		return "X-Region"
	case "$schema":
		return "http://json-schema.org/draft-07/schema#"
	case "propertyNames":
		return "{type: string}"
	}
	switch k.Shape() {
	case ShapeCount, ShapeNumber:
		return "1"
	case ShapeFlag:
		return "true"
	case ShapeValue, ShapeValues:
		v := map[Kind]string{KindString: `"a"`, KindInteger: "1", KindNumber: "1", KindBoolean: "true", KindArray: `["a"]`, KindObject: "{}"}[kind]
		if k.Shape() == ShapeValues {
			return "[" + v + "]"
		}
		return v
	}
	return "a"
}

// TestValueKeywordsOnePlace: every value keyword of the table is read
// from the spec into its field and written on the wire under its name, by
// the table alone.
func TestValueKeywordsOnePlace(t *testing.T) {
	if len(ValueKeywords) < 15 {
		t.Fatalf("only %d value keywords", len(ValueKeywords))
	}
	for _, k := range ValueKeywords {
		kind := KindString
		if k.kinds != nil {
			kind = k.kinds[0]
		}
		extra := ""
		if kind == KindArray {
			extra = ", items: {type: string}"
		}
		src := fmt.Sprintf("mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\ntools:\n  t:\n    description: d\n    input:\n      properties:\n        a: {type: %s%s, %q: %s}\n", kind, extra, k.Name, keywordSample(k, kind))
		if k.RootOnly() { // on the input itself, an object
			kind = KindObject
			src = fmt.Sprintf("mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\ntools:\n  t:\n    description: d\n    input:\n      %q: %s\n      properties:\n        a: {type: string}\n", k.Name, keywordSample(k, kind))
		}
		s, diags := Load("k.yaml", []byte(src))
		if len(diags) > 0 {
			t.Errorf("%s: %v\n%s", k.Name, diags, src)
			continue
		}
		a := s.Tools[0].Input.Properties[0].Schema
		if k.RootOnly() {
			a = s.Tools[0].Input
		}
		v, ok := k.Value(a)
		if !ok || !k.Present(a) || k.Text(a) == "" {
			t.Errorf("%s: not read into its field (value %v, %v)", k.Name, v, ok)
			continue
		}
		if _, err := json.Marshal(v); err != nil {
			t.Errorf("%s: value %v does not marshal: %v", k.Name, v, err)
		}
		if !k.AppliesTo(kind) {
			t.Errorf("%s does not apply to %s", k.Name, kind)
		}
	}
}

// TestRawOnlyKeysUndeclared: a keyword the typed language declares is
// not also said to need a raw schema (its hint would be wrong).
func TestRawOnlyKeysUndeclared(t *testing.T) {
	for _, k := range schemaKeys {
		if slices.Contains(rawOnlyKeys, k.Name) {
			t.Errorf("%s is declared, and listed in rawOnlyKeys", k.Name)
		}
	}
}

// TestDialect: $schema is taken at the root of a tool's input or output
// alone, and only naming a dialect the runtime validates alike.
func TestDialect(t *testing.T) {
	const d7 = "http://json-schema.org/draft-07/schema#"
	load := func(tools, types string) Diagnostics {
		src := "mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\n" + types + "tools:\n  t:\n    description: d\n" + tools
		_, diags := Load("d.yaml", []byte(src))
		return diags
	}
	for _, ok := range []string{
		"    input: {$schema: '" + d7 + "', properties: {a: {type: string}}}\n",
		"    output: {$schema: https://json-schema.org/draft/2020-12/schema, type: array, items: {type: string}}\n",
		"    output: {$schema: 'http://json-schema.org/draft-06/schema', type: integer}\n",
	} {
		if diags := load(ok, ""); len(diags) > 0 {
			t.Errorf("%s: %v", ok, diags)
		}
	}
	for _, c := range []struct{ tools, types, want string }{
		{"    input: {properties: {a: {type: string, $schema: '" + d7 + "'}}}\n", "", "d.yaml:7:44: $schema belongs at the root of a tool's input or output, not here"},
		{"    input: {$ref: In}\n", "types:\n  In: {$schema: '" + d7 + "', properties: {a: {type: string}}}\n", "d.yaml:5:8: $schema belongs at the root of a tool's input or output, not here"},
		{"    input: {$ref: In, $schema: '" + d7 + "'}\n", "types:\n  In: {properties: {a: {type: string}}}\n", "$schema cannot be used with $ref"},
		{"    input: {$schema: 'http://json-schema.org/draft-04/schema#', properties: {}}\n", "", "is not a dialect the runtime validates with"},
		{"    input: {$schema: x, properties: {}}\n", "", `$schema "x" is not a dialect`},
	} {
		diags := load(c.tools, c.types)
		if len(diags) != 1 || !strings.Contains(diags[0].String(), c.want) {
			t.Errorf("%s%s: %v, want %q", c.types, c.tools, diags, c.want)
		}
	}
}
