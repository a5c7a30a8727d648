package mcpimport

import (
	"encoding/json"
	"testing"
)

// FuzzFromLists: whatever a server lists (any JSON in any of the four
// lists, any initialize result), the import returns a spec or an error and
// never panics.
func FuzzFromLists(f *testing.F) {
	for _, seed := range []string{
		`{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"a":{"type":["object","null"],"propertyNames":{"type":"string"},"additionalProperties":{}}},"required":[]}}]}`,
		`{"tools":[{"name":"t","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#"}}],"capabilities":{"tools":{},"resources":{},"completions":{}}}`,
		`{"tools":[{"name":"a-b","inputSchema":{"type":"object","$defs":{"n":{"type":"object","properties":{"n":{"$ref":"#/$defs/n"}}}},"properties":{"x":{"$ref":"#/$defs/n"}}}},{"name":"a_b"}]}`,
		`{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"i":{"type":"integer","format":"int32"},"s":{"type":"string","format":"json","enum":["+1","-1",""]}}},"annotations":{"title":"x","x-y":1}}]}`,
		`{"resources":[{"name":"r","uri":"file:///x","annotations":{"priority":2}}],"resourceTemplates":[{"name":"t","uriTemplate":"x://{a}{/b*}"}],"prompts":[{"name":"p","arguments":[{"name":"a","required":true},{"name":"a"}]}]}`,
		`{"tools":[{"name":"t","description":"\n lead","outputSchema":{"anyOf":[{"type":"null"},{"type":"array","items":[{}]}]}}],"serverInfo":{"name":"","version":3}}`,
		`{"tools":[1,null,{"name":7}],"prompts":[[]]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var in struct {
			Tools, Resources, ResourceTemplates, Prompts []json.RawMessage
			Capabilities                                 map[string]json.RawMessage
			ServerInfo                                   map[string]any
			Instructions                                 string
		}
		if json.Unmarshal(data, &in) != nil {
			return
		}
		lists := &Lists{Tools: in.Tools, Resources: in.Resources, Templates: in.ResourceTemplates, Prompts: in.Prompts, Protocol: "2025-11-25",
			init: initializeResult{ProtocolVersion: "2025-11-25", Capabilities: in.Capabilities, ServerInfo: in.ServerInfo, Instructions: in.Instructions}}
		res, err := FromLists(lists, Options{})
		if err == nil && len(res.YAML) == 0 {
			t.Fatal("no error and no spec")
		}
	})
}
