package gen_test

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/spec"
)

// TestPropertyEnumIsAnAlias: a property's own string enum is an alias of
// string with its values in the field's tag; one whose values a tag would
// have to escape, and an enum of types:, keep a named type that says its
// values in JSONSchemaExtend.
func TestPropertyEnumIsAnAlias(t *testing.T) {
	const src = `mcpgen: 1
server: {name: e, version: 1.0.0}
go: {package: emcp, output: emcp}
types:
  Level: {enum: [low, high]}
tools:
  pick:
    description: Pick one.
    input:
      properties:
        mode: {enum: [fast, "a=b,c"]}
        odd: {enum: ['say "hi"', plain]}
        level: {$ref: Level}
`
	s, diags := spec.Load("mcpgen.yaml", []byte(src))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	files, err := gen.Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var types string
	for _, f := range files {
		if strings.HasPrefix(f.Path, "types") {
			types = string(f.Bytes)
		}
	}
	for _, want := range []string{
		"type PickInputMode = string\n",
		"`json:\"mode,omitzero\" jsonschema:\"enum=fast,enum=a=b\\\\,c\"`",
		"type PickInputOdd string\n",
		"func (PickInputOdd) JSONSchemaExtend(",
		"type Level string\n",
		"func (Level) JSONSchemaExtend(",
	} {
		if !strings.Contains(types, want) {
			t.Errorf("types file lacks %q:\n%s", want, types)
		}
	}

	// The reflector reads the tag's values back exactly, the escaped comma too.
	tag := regexp.MustCompile("(?m)^\\s*Mode\\s.*`(.*)`$").FindStringSubmatch(types)
	if tag == nil {
		t.Fatal("no Mode field")
	}
	typ := reflect.StructOf([]reflect.StructField{{Name: "Mode", Type: reflect.TypeFor[runtime.Opt[string]](), Tag: reflect.StructTag(tag[1])}})
	var r jsonschema.Reflector
	r.DoNotReference = true
	got := r.ReflectFromType(typ)
	mode, _ := got.Properties.Get("mode")
	if mode == nil || fmt.Sprint(mode.Enum) != "[fast a=b,c]" || mode.Type != "string" {
		t.Errorf("reflected mode = %+v, want a string enum [fast a=b,c]", mode)
	}
}
