package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
)

// GeneratedTool and GeneratedToolResult are TypedTool and TypedToolResult for
// the code mcpgen generates. The generator writes each tool's schemas into
// t.InputSchema and t.OutputSchema as constants computed from the spec, so
// registering a tool reflects nothing and compiles nothing: the validators
// are compiled on the tool's first call, and the schemas are not checked
// against the JSON Schema metaschema here (the generator wrote them; the
// tests of the generator prove, with GeneratedSchemas, that they equal the
// reflection of In and Out). A nil schema, which the generator leaves where
// only reflection knows it (fields of an existing Go type), is reflected as
// TypedTool does. Validation per call is the same as TypedTool's.

// GeneratedTool is TypedTool for generated code: see above.
func GeneratedTool[In, Out any](t Tool, fn func(ctx context.Context, in *In) (*Out, error)) Tool {
	t.generated = generatedSchemas[In, Out](&t)
	in := &inputCodec{schema: trustedInputSchema(&t)}
	out := newOutputCodecFor(&t)
	name := t.Name
	t.Handler = func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
		v := new(In)
		if res, err := in.decode(name, req.Arguments, v); res != nil || err != nil {
			return res, err
		}
		o, err := fn(ctx, v)
		if err != nil {
			return failed(err)
		}
		if o == nil {
			return ErrorResult("tool returned no result"), nil
		}
		return out.result(ctx, name, o), nil
	}
	return t
}

// GeneratedToolResult is TypedToolResult for generated code: see above.
func GeneratedToolResult[In any](t Tool, fn func(ctx context.Context, in *In) (*CallToolResult, error)) Tool {
	t.generated = generatedSchemas[In, struct{}](&t)
	in := &inputCodec{schema: trustedInputSchema(&t)}
	name := t.Name
	t.Handler = func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
		v := new(In)
		if res, err := in.decode(name, req.Arguments, v); res != nil || err != nil {
			return res, err
		}
		res, err := fn(ctx, v)
		if err != nil {
			return failed(err)
		}
		if res == nil {
			return ErrorResult("tool returned no result"), nil
		}
		return res, nil
	}
	return t
}

// generatedSchemas fills the schemas the generator left out by reflection
// and remembers where each came from, for GeneratedSchemas. Out is
// struct{} for a tool without typed output.
func generatedSchemas[In, Out any](t *Tool) *schemaOrigin {
	o := &schemaOrigin{in: reflect.TypeFor[In]()}
	if t.InputSchema == nil {
		t.InputSchema = schemaForType(o.in)
	}
	o.input = t.InputSchema
	if reflect.TypeFor[Out]() != reflect.TypeFor[struct{}]() {
		o.out = reflect.TypeFor[Out]()
		if t.OutputSchema == nil {
			t.OutputSchema = schemaForType(o.out)
		}
		o.output = t.OutputSchema
	}
	return o
}

// trustedInputSchema is the input schema of a generated tool, compiled on
// first use. Its top-level type is still checked here: it is cheap, and a
// non-object input schema must fail at registration, as with TypedTool.
func trustedInputSchema(t *Tool) *lazySchema {
	if schemaType(t.InputSchema) != "object" {
		panic(fmt.Sprintf("runtime: tool %q: the input schema must have \"type\":\"object\"", t.Name))
	}
	return &lazySchema{doc: t.InputSchema}
}

// schemaOrigin records, for a tool made by GeneratedTool, its Go types and
// the schemas its validators use (before an output schema that is not an
// object is dropped from what tools/list advertises).
type schemaOrigin struct {
	in, out       reflect.Type // out is nil without typed output
	input, output json.RawMessage
}

// SchemaSources are the schemas of a generated tool twice: as its validators
// use them (the constants the generator wrote) and as reflection derives
// them from its Go types (what TypedTool would use).
type SchemaSources struct {
	Input, ReflectedInput   json.RawMessage
	Output, ReflectedOutput json.RawMessage // nil for a tool without typed output
}

// GeneratedSchemas returns the schema sources of t, a tool returned by
// GeneratedTool or GeneratedToolResult (ok is false for any other tool). A
// test compares them to prove that generated schemas and generated types
// cannot drift apart; it reflects, so it is meant for tests only.
func GeneratedSchemas(t Tool) (s SchemaSources, ok bool) {
	o := t.generated
	if o == nil {
		return SchemaSources{}, false
	}
	s.Input, s.ReflectedInput = o.input, schemaForType(o.in)
	if o.out != nil {
		s.Output, s.ReflectedOutput = o.output, schemaForType(o.out)
	}
	return s, true
}
