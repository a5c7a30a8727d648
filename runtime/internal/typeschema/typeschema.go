// Package typeschema derives the JSON Schema of a Go type by reflection
// (github.com/invopop/jsonschema), once, at registration, and reads a
// schema's top-level type; runtime.SchemaFor and the typed and generated
// registrations call it. No schema work happens per call.
package typeschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// NoArgs is the input type of a tool that takes no arguments (runtime.NoArgs).
type NoArgs struct{}

// NoArgsSchema is what a tool without arguments advertises (tools.mdx
// recommends it), and NoArgs's schema. Callers must not modify it.
var NoArgsSchema = json.RawMessage(`{"type":"object","additionalProperties":false}`)

// For returns the JSON Schema of t (pointers followed): reflected with the
// top-level struct expanded, named types in $defs referenced by $ref, and
// no $schema or $id (MCP schemas default to draft 2020-12); NoArgs gives
// NoArgsSchema. A schema that cannot be encoded panics.
func For(t reflect.Type) json.RawMessage {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[NoArgs]() {
		return bytes.Clone(NoArgsSchema)
	}
	// Reflect with the root as a $ref, then expand the root by hand: invopop's
	// ExpandedStruct drops the root's definition even when the type refers to
	// itself (a tree), which would leave a dangling "#/$defs/Node".
	r := jsonschema.Reflector{Anonymous: true}
	s := r.ReflectFromType(t)
	if name, ok := strings.CutPrefix(s.Ref, "#/$defs/"); ok && s.Definitions[name] != nil {
		def := s.Definitions[name]
		root := *def
		root.Definitions = s.Definitions
		delete(s.Definitions, name)
		if selfRef := `"#/$defs/` + name + `"`; strings.Contains(string(mustMarshal(t, &root)), selfRef) {
			s.Definitions[name] = def // recursive: keep the definition the refs point to
		}
		s = &root
	}
	s.Version = ""
	s.ID = ""
	if s.Properties != nil && s.Properties.Len() == 0 {
		s.Properties = nil // a struct without fields: no "properties":{}
	}
	return mustMarshal(t, s)
}

func mustMarshal(t reflect.Type, s *jsonschema.Schema) []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("runtime: cannot encode the JSON Schema of %v: %v", t, err))
	}
	return b
}

// Type returns the top-level "type" of a schema when it is a single
// string, or "". It scans only the top level (schemas can be large and a
// server registers many).
func Type(schema json.RawMessage) string {
	var typ []byte
	notObject, err := jsonwire.ScanObject(schema, func(key, val []byte) {
		if string(key) == "type" {
			typ = val // the last of duplicate keys wins, as in encoding/json
		}
	})
	if notObject || err != nil {
		return ""
	}
	s, ok := jsonwire.MethodBytes(typ) // a JSON string, escapes decoded
	if !ok {
		return ""
	}
	return string(s)
}
