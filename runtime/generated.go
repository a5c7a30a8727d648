package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mcpgen/mcpgen/runtime/internal/gensupport"
	"github.com/mcpgen/mcpgen/runtime/internal/typeschema"
	"github.com/mcpgen/mcpgen/runtime/internal/validate"
)

// The tool adapter of generated code (runtime/genimpl's GeneratedTool and
// GeneratedToolResult) lives here, next to TypedTool's, because it shares
// TypedTool's unexported validation and encoding; the template and prompt
// adapters live here too, for the same reason. genimpl
// calls them as the methods of GeneratedCodeSupport: typed, so a change of
// signature is a compile error in genimpl, not a panic at start.

// GeneratedCodeSupport is runtime's side of package runtime/genimpl, the
// support of generated code, as protoimpl.X is protobuf-go's: its methods
// are for genimpl only and have no compatibility promise beyond the
// version handshake (IsAtLeastVersion0_1_0). People writing servers use
// TypedTool, TypedTemplate and TypedPrompt, which do the same by
// reflection.
var GeneratedCodeSupport generatedCodeSupport

// generatedCodeSupport is unexported so that its methods stay out of the
// package's documented API.
type generatedCodeSupport struct{}

// Tool is TypedTool for the code mcpgen generates. The generator
// writes each tool's schemas into t.InputSchema and t.OutputSchema as
// constants computed from the spec, so registering a tool reflects nothing
// and compiles nothing: the validators are compiled on the tool's first
// call, and the schemas are not checked against the JSON Schema metaschema
// here (the generator wrote them; the tests of the generator prove, with
// the schema sources, that they equal the reflection of the types). A nil
// schema, which the generator leaves where only reflection knows it (fields
// of an existing Go type), is reflected as TypedTool does. Validation per
// call is the same as TypedTool's, except that with dec, the input type's
// generated validating decoder, valid arguments are decoded and checked in
// one pass; what dec refuses goes through TypedTool's path.
//
// The handler's types are erased (call takes and returns any): genimpl's
// generic adapters are generic over pointer types, which share one GC
// shape, and converting a pointer to any does not allocate, so a call
// costs what TypedTool's does. The handler is typedHandler's sequence
// (decode into a new input, call, then fail or finish) written out for the
// erased types, as one closure.
func (generatedCodeSupport) Tool(t Tool, inPtr, outPtr reflect.Type, dec gensupport.Decoder, call gensupport.Call) Tool {
	in := generatedSchemas(&t, inPtr, outPtr)
	t.generated.decoder = dec
	codec := inputCodec{schema: trustedInputSchema(&t), decoder: dec}
	name := t.Name
	var out *outputCodec // nil: call returns a *CallToolResult
	if outPtr != nil {
		out = newOutputCodecFor(&t)
	}
	t.Handler = func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
		v := reflect.New(in).Interface()
		if res, err := codec.decode(name, req.Arguments, v); res != nil || err != nil {
			return res, err
		}
		if res, err := checkInput(ctx, name, v); res != nil || err != nil {
			return res, err
		}
		o, err := call(ctx, v)
		if err != nil {
			return failed(ctx, err)
		}
		if out == nil {
			res, _ := o.(*CallToolResult)
			return builtResult(ctx, res), nil
		}
		if o == nil {
			return noResult(), nil
		}
		return out.result(ctx, name, o), nil
	}
	return t
}

// generatedSchemas fills the schemas the generator left out by reflection
// and records where each came from, for the schema sources. inPtr and
// outPtr are the handler's pointer types (outPtr is nil without typed
// output). It returns the type a call's arguments are decoded into.
func generatedSchemas(t *Tool, inPtr, outPtr reflect.Type) reflect.Type {
	for _, p := range []reflect.Type{inPtr, outPtr} {
		if p != nil && p.Kind() != reflect.Pointer {
			panic(fmt.Sprintf("runtime: tool %q: GeneratedTool's input and output types must be pointers, not %v", t.Name, p))
		}
	}
	o := &schemaOrigin{in: inPtr.Elem()}
	t.InputSchema, t.OutputSchema = compactSchema(t.InputSchema), compactSchema(t.OutputSchema)
	t.AdvertisedInputSchema = compactSchema(t.AdvertisedInputSchema)
	if t.InputSchema == nil {
		t.InputSchema = typeschema.For(o.in)
	}
	o.input = t.InputSchema
	if outPtr != nil {
		o.out = outPtr.Elem()
		if t.OutputSchema == nil {
			t.OutputSchema = typeschema.For(o.out)
		}
		o.output = t.OutputSchema
	}
	t.generated = o
	return o.in
}

// trustedInputSchema is the input schema of a generated tool, compiled on
// first use. Its top-level type is still checked here: it is cheap, and a
// non-object input schema must fail at registration, as with TypedTool.
func trustedInputSchema(t *Tool) *validate.Lazy {
	if typeschema.Type(t.InputSchema) != "object" {
		panic(fmt.Sprintf("runtime: tool %q: the input schema must have \"type\":\"object\"", t.Name))
	}
	return validate.NewLazy(t.InputSchema)
}

// schemaOrigin records, for a generated tool, its Go types and the schemas
// its validators use (before an output schema that is not an object is
// dropped from what tools/list advertises).
type schemaOrigin struct {
	in, out       reflect.Type // out is nil without typed output
	input, output json.RawMessage
	decoder       gensupport.Decoder // nil when the input type has none
}

// Schemas returns the schemas of t, a generated tool, as
// its validators use them and as reflection derives them (ok is false for
// any other tool). It reflects: it is meant for tests only.
func (generatedCodeSupport) Schemas(t Tool) (s gensupport.SchemaSources, ok bool) {
	o := t.generated
	if o == nil {
		return gensupport.SchemaSources{}, false
	}
	s.Input, s.ReflectedInput = o.input, typeschema.For(o.in)
	if o.out != nil {
		s.Output, s.ReflectedOutput = o.output, typeschema.For(o.out)
	}
	return s, true
}

// IsAtLeastVersion0_1_0 is a compile-time handshake between generated code and
// this package: every file mcpgen generates contains
//
//	const _ = runtime.IsAtLeastVersion0_1_0
//
// If this constant is undefined when you build, the generated code is newer
// than the runtime it is compiled against: upgrade the module
// (go get github.com/mcpgen/mcpgen@latest). Later releases add a constant per
// version and keep the old ones, so older generated code keeps compiling.
const IsAtLeastVersion0_1_0 = true

// compactSchema returns a schema constant of generated code in compact form:
// the bytes json.Compact writes for it. The generator writes schemas
// indented, to read well in review; clients must still receive the compact
// bytes, so registration compacts them once.
//
// It compacts in place: s must be the caller's own copy (generated code
// hands over json.RawMessage(`…`), a fresh copy of a string constant), and
// its bytes are overwritten. Compacting only drops whitespace, so the
// result is a prefix of s's array and registration allocates nothing for
// it. Invalid JSON is returned as is, unmodified: it fails where the schema
// is compiled. Already compact JSON (one line, no whitespace outside
// strings) is returned without being validated, as json.Compact would
// return it unchanged if it is valid.
func compactSchema(s json.RawMessage) json.RawMessage {
	i := nextSpace(s, 0)
	if i < 0 || !json.Valid(s) {
		return s
	}
	// s is valid JSON: whitespace outside strings is only ever between
	// tokens, so after a run of it the scan is outside a string again.
	n := i
	for j := i; j < len(s); {
		if isJSONSpace(s[j]) {
			j++
			continue
		}
		k := nextSpace(s, j)
		if k < 0 {
			k = len(s)
		}
		n += copy(s[n:], s[j:k])
		j = k
	}
	return s[:n:n]
}

// nextSpace is the index of the first whitespace byte of s outside a JSON
// string from i on (i outside a string), or -1 if there is none.
func nextSpace(s []byte, i int) int {
	inString, escaped := false, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case isJSONSpace(c):
			return i
		case c == '"':
			inString = true
		}
	}
	return -1
}

// isJSONSpace reports whether c is whitespace between JSON tokens.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// The template and prompt adapters of generated code (runtime/genimpl's
// GeneratedTemplate and GeneratedPrompt) are TypedTemplate and TypedPrompt
// with what those reflect from the Go types at registration (a template's
// params schema, a prompt's argument list) computed by the generator from
// the spec and passed in, so a server reflects nothing when it starts. Like
// the tool adapter, they live here because they share TypedTemplate's and
// TypedPrompt's unexported code, and genimpl reaches them through the hooks
// of runtime/internal/gensupport (installed in generated.go). The tests of
// the generator prove, with the schema sources below, that what it passes
// equals the reflection of the generated types.

// Template is TypedTemplate with params, the JSON Schema of the
// params type (a struct; indented or compact), given. call gets a new *P as
// any. Reads behave exactly as with TypedTemplate.
func (generatedCodeSupport) Template(t ResourceTemplate, params json.RawMessage, typ reflect.Type, call gensupport.Call) ResourceTemplate {
	params = compactSchema(params)
	t = typedTemplate(t, params, typ, call)
	t.generated = &generatedParams{typ: typ, schema: params}
	return t
}

// generatedParams records what Template was given.
type generatedParams struct {
	typ    reflect.Type
	schema json.RawMessage
}

// TemplateSchemas returns the params schema t was registered with
// and the one reflection derives from its params type (what TypedTemplate
// would use); ok is false for a template not made by Template. It
// reflects: it is meant for tests only.
func (generatedCodeSupport) TemplateSchemas(t ResourceTemplate) (generated, reflected json.RawMessage, ok bool) {
	if t.generated == nil {
		return nil, nil, false
	}
	return t.generated.schema, typeschema.For(t.generated.typ), true
}

// Prompt is TypedPrompt for a prompt whose p.Arguments are written
// out (nil for NoArgs): they are taken as given, not derived from args (the
// arguments type, a struct) or checked against it. call gets a new *A as
// any. Calls behave exactly as with TypedPrompt.
func (generatedCodeSupport) Prompt(p Prompt, args reflect.Type, call func(ctx context.Context, args any) (*GetPromptResult, error)) Prompt {
	p.Handler = promptHandler(p.Name, args, call)
	p.generatedArgs = args
	return p
}

// PromptArguments returns the arguments p was registered with and
// those TypedPrompt would derive from its arguments type; ok is false for a
// prompt not made by Prompt. It reflects: it is meant for tests
// only.
func (generatedCodeSupport) PromptArguments(p Prompt) (declared, reflected []PromptArgument, ok bool) {
	if p.generatedArgs == nil {
		return nil, nil, false
	}
	where := fmt.Sprintf("runtime: GeneratedPrompt(%q)", p.Name)
	return p.Arguments, promptFields(typeschema.For(p.generatedArgs), where, p.generatedArgs), true
}
