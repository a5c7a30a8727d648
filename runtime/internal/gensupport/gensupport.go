// Package gensupport holds the types that package runtime and package
// runtime/genimpl (the support of generated code) share without exporting
// them to everyone. The tool, template and prompt adapters of generated
// code need runtime's unexported validation, decoding and encoding: genimpl
// calls them as the typed methods of runtime.GeneratedCodeSupport, whose
// signatures use the types below (runtime cannot import genimpl, which
// imports runtime for its types). The adapters are generic in genimpl
// only: a method takes the handler's types as reflect.Types and the
// handler with its types erased, so runtime instantiates nothing per type.
// A runtime.Tool passes by value (a pointer would escape: one more
// allocation per registered tool), and so do templates and prompts.
package gensupport

import (
	"context"
	"encoding/json"
)

// MaxCompletionValues is the protocol's cap on the values of one
// completion/complete result.
const MaxCompletionValues = 100

// Call is a generated handler with its types erased: in is the call's
// decoded *XInput, out its *XOutput (nil for none) or, for a handler that
// builds its own result, its *runtime.CallToolResult.
type Call func(ctx context.Context, in any) (out any, err error)

// Decoder is the validating decoder of a generated input type (a
// genimpl.Object table): Decode checks args against the input schema while
// it decodes them into x, a new *XInput, and reports whether it accepted
// them (on false x is left zero and the general path decides).
type Decoder interface {
	Decode(args []byte, x any) bool
}

// SchemaSources are a generated tool's schemas as its validators use them
// and as reflection derives them from its Go types.
type SchemaSources struct {
	Input, ReflectedInput   json.RawMessage
	Output, ReflectedOutput json.RawMessage // nil for a tool without typed output
}
