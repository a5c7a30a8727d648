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

// Both are generic over pointer types (In is *XInput, Out is *XOutput), not
// over the structs: all pointers share one GC shape, so the compiler
// compiles one adapter for all the tools of a package instead of one per
// tool (building 1,000 generated tools is then mostly the types'
// own code).

// GeneratedTool is TypedTool for generated code: see above. In and Out must
// be pointer types; the handler gets a new *In per call.
func GeneratedTool[In, Out any](t Tool, fn func(ctx context.Context, in In) (Out, error)) Tool {
	newIn := generatedSchemas(&t, reflect.TypeFor[In](), reflect.TypeFor[Out]())
	out := newOutputCodecFor(&t)
	name := t.Name
	t.Handler = typedHandler(name, &inputCodec{schema: trustedInputSchema(&t)},
		func() In { return reflect.New(newIn).Interface().(In) }, fn,
		func(ctx context.Context, o Out) *CallToolResult {
			var none Out // a nil pointer
			if any(o) == any(none) {
				return noResult()
			}
			return out.result(ctx, name, o)
		})
	return t
}

// GeneratedToolResult is TypedToolResult for generated code: see above. In
// must be a pointer type.
func GeneratedToolResult[In any](t Tool, fn func(ctx context.Context, in In) (*CallToolResult, error)) Tool {
	newIn := generatedSchemas(&t, reflect.TypeFor[In](), nil)
	t.Handler = typedHandler(t.Name, &inputCodec{schema: trustedInputSchema(&t)},
		func() In { return reflect.New(newIn).Interface().(In) }, fn, builtResult)
	return t
}

// generatedSchemas fills the schemas the generator left out by reflection
// and records where each came from, for GeneratedSchemas. inPtr and outPtr
// are the handler's pointer types (outPtr is nil without typed output). It
// returns the type a call's arguments are decoded into.
func generatedSchemas(t *Tool, inPtr, outPtr reflect.Type) reflect.Type {
	for _, p := range []reflect.Type{inPtr, outPtr} {
		if p != nil && p.Kind() != reflect.Pointer {
			panic(fmt.Sprintf("runtime: tool %q: GeneratedTool's input and output types must be pointers, not %v", t.Name, p))
		}
	}
	o := &schemaOrigin{in: inPtr.Elem()}
	t.InputSchema, t.OutputSchema = compactSchema(t.InputSchema), compactSchema(t.OutputSchema)
	if t.InputSchema == nil {
		t.InputSchema = schemaForType(o.in)
	}
	o.input = t.InputSchema
	if outPtr != nil {
		o.out = outPtr.Elem()
		if t.OutputSchema == nil {
			t.OutputSchema = schemaForType(o.out)
		}
		o.output = t.OutputSchema
	}
	t.generated = o
	return o.in
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
