package openapi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
)

// diamondDoc is a description whose shared schemas are not components, as
// APIs.guru's bundler writes them: levels schemas under
// components.schemas.Holder's properties (azure.com's style), each with
// two properties referring to the next level, and an operation answering
// with a schema written in another operation's response (digitalocean.com's
// style, which has no component schema) that refers to the first level.
// Inlined at every use, its answer is 2^levels copies of the last level.
func diamondDoc(levels int) string {
	var holder strings.Builder
	for i := range levels {
		if i > 0 {
			holder.WriteString(",")
		}
		next := fmt.Sprintf(`{"$ref":"#/components/schemas/Holder/properties/l%d"}`, i+1)
		fmt.Fprintf(&holder, `"l%d":{"type":"object","properties":{"a":%s,"b":%s}}`, i, next, next)
	}
	fmt.Fprintf(&holder, `,"l%d":{"type":"object","properties":{"leaf":{"type":"string","description":"the last level"}}}`, levels)
	shared := `#/paths/~1first/get/responses/200/content/application~1json/schema`
	return `{"openapi":"3.0.3","info":{"title":"diamond","version":"1"},"paths":{` +
		`"/first":{"get":{"operationId":"first","responses":{"200":{"description":"ok","content":{"application/json":{"schema":` +
		`{"type":"object","properties":{"top":{"$ref":"#/components/schemas/Holder/properties/l0"},"again":{"$ref":"#/components/schemas/Holder/properties/l0"}}}}}}}}},` +
		`"/second":{"get":{"operationId":"second","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"` + shared + `"}}}}}}},` +
		`"/third":{"post":{"operationId":"third","requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"x":{"$ref":"` + shared + `"}}}}}},"responses":{"204":{"description":"done"}}}}` +
		`},"components":{"schemas":{"Holder":{"type":"object","properties":{` + holder.String() + `}}}}}`
}

// A schema shared by a reference other than to a component is a named
// type, written once and referred to, as a component is: a diamond of
// references 6 levels deep imports into a spec (and generated code) of a
// size linear in the levels, where inlining each use wrote 2^6 copies (and generate took seconds for 8 levels, minutes for 10) of
// the last level (the runaway of azure.com's network-applicationGateway
// and digitalocean.com, issue 32).
func TestSharedSchemasAreNamedNotCopied(t *testing.T) {
	const levels = 6
	text := diamondDoc(levels)
	res, s, doc := importText(t, "diamond.json", text)
	t.Logf("description %d bytes, spec %d bytes", len(text), len(res.YAML))
	if n := len(res.YAML); n > 3*len(text) {
		t.Fatalf("the spec has %d bytes for a description of %d: shared schemas are copied", n, len(text))
	}
	types, _ := doc["types"].(map[string]any)
	for i := 0; i <= levels; i++ {
		name := fmt.Sprintf("HolderL%d", i)
		if _, ok := types[name]; !ok {
			t.Errorf("no type %s (types: %v)", name, keysOf(types))
		}
	}
	if !strings.Contains(string(res.YAML), "# shared schema #/components/schemas/Holder/properties/l0\n") {
		t.Errorf("the type HolderL0 does not say which schema it is:\n%s", res.YAML)
	}
	if got := strings.Count(string(res.YAML), "the last level"); got != 1 {
		t.Errorf("the last level is written %d times, want once", got)
	}
	tools, _ := doc["tools"].(map[string]any)
	second, _ := tools["second"].(map[string]any)
	if ref := fmt.Sprint(second["output"]); ref != "map[$ref:FirstResponse]" {
		t.Errorf("the second operation's answer, the first's by reference, is %s; want a reference to the type FirstResponse", ref)
	}
	files, err := gen.Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	for _, f := range files {
		size += len(f.Bytes)
	}
	if size > 400*len(text) {
		t.Errorf("the generated files have %d bytes for a description of %d", size, len(text))
	}
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestHoistName(t *testing.T) {
	for def, want := range map[string]string{
		"#/components/schemas/Gateway/properties/ipConfiguration":                                             "GatewayIPConfiguration",
		"#/components/schemas/Gateway/properties/ipConfiguration/properties/properties/properties/taps/items": "GatewayTapsItem",
		"#/components/schemas/Gateway/allOf/0":                                                                "Gateway",
		"#/paths/~1v2~1account~1keys/get/responses/200/content/application~1json/schema":                      "V2AccountKeysResponse",
		"#/paths/~1v2~1account~1keys/get/responses/200/content/application~1json/schema/properties/ssh_keys":  "V2AccountKeysSSHKeys",
		"#/paths/~1v2~1droplets/get/parameters/0/schema":                                                      "V2DropletsParameter",
		"#/components/responses/Error/content/application~1json/schema":                                       "Error",
		"#/x/y": "Schema",
		"#/components/schemas/9lives/properties/p": "N9LivesP",
	} {
		if got := hoistName(def); got != want {
			t.Errorf("hoistName(%q) = %q, want %q", def, got, want)
		}
	}
}
