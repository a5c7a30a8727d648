package mcpimport

import (
	"context"
	"encoding/json"
	"testing"
	"time"
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
		init, err := json.Marshal(initializeResult{ProtocolVersion: "2025-11-25", Capabilities: in.Capabilities, ServerInfo: in.ServerInfo, Instructions: in.Instructions})
		if err != nil {
			t.Fatal(err)
		}
		lists := &Lists{Tools: in.Tools, Resources: in.Resources, Templates: in.ResourceTemplates, Prompts: in.Prompts, Protocol: "2025-11-25", Initialize: init}
		res, err := FromLists(lists, Options{})
		if err == nil && len(res.YAML) == 0 {
			t.Fatal("no error and no spec")
		}
	})
}

// FuzzListResults: whatever a server answers to initialize and to each
// list method, page after page (any JSON, or a JSON-RPC error), the
// lister returns lists or an error, and the import of those lists a spec
// or an error; neither panics.
func FuzzListResults(f *testing.F) {
	for _, seed := range []string{
		`{"initialize":[{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{},"prompts":{}},"serverInfo":{"name":"s","version":"1"}}],
		  "tools/list":[{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"2"},{"tools":[{"name":"b"}]}],
		  "resources/list":[{"resources":[{"name":"r","uri":"x://r"}]}],"resources/templates/list":[{"error":-32601}],
		  "prompts/list":[{"prompts":[{"name":"p","arguments":[{"name":"a"}]}]}]}`,
		`{"initialize":[{"protocolVersion":"2025-11-25","capabilities":{"tools":7}}],"tools/list":[{"tools":{"a":1}}]}`,
		`{"initialize":[{"error":-32602},{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":3}}],"tools/list":[{"tools":[],"nextCursor":"a"},{"tools":[],"nextCursor":"a"}]}`,
		`{"initialize":[[]],"tools/list":[null]}`,
		`{"initialize":[{"protocolVersion":"x","capabilities":{"prompts":null}}],"prompts/list":[{"prompts":[{"name":"p","arguments":{"a":{}}},{"name":"p"}],"nextCursor":7}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var answers map[string][]json.RawMessage
		if json.Unmarshal(data, &answers) != nil {
			return
		}
		l := &lister{c: &scripted{answers: answers}, timeout: time.Second, caps: map[string]any{}}
		lists, err := l.run(context.Background())
		if err != nil {
			return
		}
		res, err := FromLists(lists, Options{})
		if err == nil && len(res.YAML) == 0 {
			t.Fatal("no error and no spec")
		}
	})
}

// scripted is a server that answers each method with its next scripted
// result ({"error": code} is a JSON-RPC error), then with method not
// found.
type scripted struct {
	answers map[string][]json.RawMessage
}

func (s *scripted) call(_ context.Context, method string, _ any) (json.RawMessage, error) {
	list := s.answers[method]
	if len(list) == 0 {
		return nil, &rpcError{Code: methodNotFound, Message: "no more answers"}
	}
	r := list[0]
	s.answers[method] = list[1:]
	var e struct {
		Error *int `json:"error"`
	}
	if json.Unmarshal(r, &e) == nil && e.Error != nil {
		return nil, &rpcError{Code: *e.Error, Message: "scripted"}
	}
	return r, nil
}

func (s *scripted) strayLines() []string                 { return nil }
func (s *scripted) notify(context.Context, string) error { return nil }
func (s *scripted) close() error                         { return nil }
