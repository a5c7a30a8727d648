package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// Schemas are derived from Go types by reflection once, at registration, and
// compiled into validators once; no schema work happens per call.

// SchemaFor returns the JSON Schema that TypedTool and TypedToolResult
// advertise for T: reflected by github.com/invopop/jsonschema with the
// top-level struct expanded, named types in $defs referenced by $ref, and no
// $schema or $id of the reflector's (MCP schemas default to draft 2020-12;
// a spec's own $schema comes from the type's JSONSchemaExtend). NoArgs gives
// {"type":"object","additionalProperties":false}.
func SchemaFor[T any]() json.RawMessage {
	return schemaForType(reflect.TypeFor[T]())
}

func schemaForType(t reflect.Type) json.RawMessage {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[NoArgs]() {
		return bytes.Clone(noArgsSchema)
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

// schemaType returns the top-level "type" of a schema when it is a single
// string, or "". It scans only the top level (schemas can be large and a
// server registers many).
func schemaType(schema json.RawMessage) string {
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
