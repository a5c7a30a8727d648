package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	validate "github.com/santhosh-tekuri/jsonschema/v6"
)

// Schemas are derived from Go types by reflection once, at registration, and
// compiled into validators once; no schema work happens per call.

// SchemaFor returns the JSON Schema that TypedTool and TypedToolResult
// advertise for T: reflected by github.com/invopop/jsonschema with the
// top-level struct expanded, named types in $defs referenced by $ref, and no
// $schema or $id (MCP schemas default to draft 2020-12). NoArgs gives
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

// validator is a compiled schema, plus the schema itself to explain
// violations (e.g. which properties are allowed).
type validator struct {
	sch *validate.Schema
	doc any
}

// noLoader refuses every external reference: a schema must be
// self-contained, and the runtime never reads files or the network because a
// schema says so (2026-07-28 makes this a MUST).
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema references are not supported: %s", url)
}

const schemaURL = "mcpgen:schema.json"

// compileSchema compiles a JSON Schema (draft 2020-12 unless it says
// otherwise) with format assertions on, so "format":"date-time" is checked.
func compileSchema(schema json.RawMessage) (*validator, error) {
	doc, err := decodeInstance(schema)
	if err != nil {
		return nil, err
	}
	c := validate.NewCompiler()
	c.DefaultDraft(validate.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, err
	}
	return &validator{sch: sch, doc: doc}, nil
}

// decodeInstance decodes JSON as the validator wants it: numbers stay
// json.Number, so integers beyond 2^53 are checked exactly.
func decodeInstance(b []byte) (any, error) {
	return jsonwire.ParseValue(b)
}

// check validates inst and returns every violation, sorted by location.
func (v *validator) check(inst any) []violation {
	err := v.sch.Validate(inst)
	if err == nil {
		return nil
	}
	if ve, ok := errors.AsType[*validate.ValidationError](err); ok {
		return explain(ve, inst, v.doc)
	}
	return []violation{{msg: sanitize(err.Error(), 300)}}
}

// lazySchema is a schema compiled into a validator once, on first use:
// compiling is most of the cost of registering a tool, and a server may
// register many tools it never calls (or be built per request).
type lazySchema struct {
	doc  json.RawMessage
	once sync.Once
	v    *validator
	err  error
}

func (ls *lazySchema) validator() (*validator, error) {
	ls.once.Do(func() { ls.v, ls.err = compileSchema(ls.doc) })
	return ls.v, ls.err
}
