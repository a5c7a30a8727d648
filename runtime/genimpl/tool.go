package genimpl

import (
	"context"
	"reflect"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gensupport"
)

// GeneratedTool is runtime.TypedTool for generated code. The generator
// writes each tool's schemas into t.InputSchema and t.OutputSchema as
// constants computed from the spec, so registering a tool reflects nothing
// and compiles nothing: the validators are compiled on the tool's first
// call. A nil schema (the generator leaves one where only reflection knows
// it, for fields of an existing Go type) is reflected as TypedTool does.
// Validation per call is TypedTool's, except that dec, the decoding table
// of In's struct (nil for none), decodes and checks valid arguments in one
// pass; what it refuses goes through TypedTool's path.
//
// In and Out must be pointer types (*XInput, *XOutput), not the structs:
// all pointers share one GC shape, so the compiler compiles this function
// and its closure once for all the tools of a package; each tool costs
// only its instantiation's dictionary. The handler gets a new In per call;
// a nil Out with a nil error is an isError result.
//
// The schemas' bytes are compacted in place, so they must be t's own, as
// generated code's json.RawMessage(`…`) of a string constant is: do not
// pass the same slice to two registrations.
func GeneratedTool[In, Out any](t runtime.Tool, dec *Object, fn func(ctx context.Context, in In) (Out, error)) runtime.Tool {
	in := reflect.TypeFor[In]()
	return rt.Tool(t, in, reflect.TypeFor[Out](), decoderFor(t, in, dec), func(ctx context.Context, in any) (any, error) {
		out, err := fn(ctx, in.(In))
		var none Out // a nil pointer: no output
		if any(out) == any(none) {
			return nil, err
		}
		return out, err
	})
}

// GeneratedToolResult is runtime.TypedToolResult for generated code: see
// GeneratedTool. In must be a pointer type.
func GeneratedToolResult[In any](t runtime.Tool, dec *Object, fn func(ctx context.Context, in In) (*runtime.CallToolResult, error)) runtime.Tool {
	in := reflect.TypeFor[In]()
	return rt.Tool(t, in, nil, decoderFor(t, in, dec), func(ctx context.Context, in any) (any, error) {
		return fn(ctx, in.(In))
	})
}

// decoderFor is dec as the runtime takes it: nil (an interface, not a nil
// *Object) when there is no table or when it is not the table of in's
// struct. Not generic: one compiled function for all tools. A tool without
// arguments (*runtime.NoArgs, its schema reflected:
// {"type":"object","additionalProperties":false}) gets noArgs, so that its
// {} is decoded without the general validator and encoding/json either.
func decoderFor(t runtime.Tool, in reflect.Type, dec *Object) gensupport.Decoder {
	if dec == nil && in == noArgsType && t.InputSchema == nil {
		return noArgs
	}
	if dec == nil || reflect.TypeOf(dec.Type) != in {
		return nil
	}
	return dec
}

// noArgs is the table of runtime.NoArgs: a closed object of no properties.
var (
	noArgs     = &Object{Type: (*runtime.NoArgs)(nil)}
	noArgsType = reflect.TypeFor[*runtime.NoArgs]()
)

// SchemaSources are the schemas of a generated tool twice: as its
// validators use them (the constants the generator wrote) and as
// reflection derives them from its Go types (what TypedTool would use).
type SchemaSources = gensupport.SchemaSources

// Schemas returns the schema sources of t, a tool returned by
// GeneratedTool or GeneratedToolResult (ok is false for any other tool).
// The generator's tests compare them to prove that generated schemas and
// generated types cannot drift apart; it reflects, so it is meant for
// tests only.
func Schemas(t runtime.Tool) (s SchemaSources, ok bool) {
	return rt.Schemas(t)
}

// rt is runtime's side of this package: typed entry points to its
// unexported validation and encoding.
var rt = runtime.GeneratedCodeSupport
