// Package gensupport is what package runtime shares with package
// runtime/genimpl (the support of generated code) without exporting it to
// everyone: the tool, template and prompt adapters of generated code need
// runtime's unexported validation, decoding and encoding, and runtime
// cannot import genimpl (genimpl imports runtime for its types). So runtime
// installs the hooks below in its init, and genimpl calls them. The hooks
// are typed any because this package cannot name runtime's types without
// an import cycle; genimpl, which can, asserts each to its func type once,
// at its init. The adapters are generic in genimpl only: a hook takes the
// handler's types as reflect.Types and the handler with its types erased,
// so runtime instantiates nothing per type. A runtime.Tool passes by value
// (a pointer passed through a func variable would escape: one more
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

// ToolCall is a generated tool handler with its types erased, as Call is,
// but as an interface: genimpl implements it with a method of the
// handler's func type, and a func value converts to an interface without
// allocating, where wrapping it in a Call would allocate a closure per
// registered tool. Only genimpl knows the handler's types.
type ToolCall interface {
	Call(ctx context.Context, in any) (out any, err error)
}

// Tool is a func(t runtime.Tool, inPtr, outPtr reflect.Type, call
// ToolCall) runtime.Tool, set by package runtime. It returns t with its
// Handler set to decode a call's arguments into a new value of inPtr's
// element type, run call, and encode what it returns: validated against
// the tool's output schema when outPtr (the pointer type of the output) is
// not nil, taken as the *runtime.CallToolResult otherwise. Schemas the
// generator left nil are reflected from the types. t's schemas are
// compacted in place: their bytes must be t's own.
var Tool any

// SchemaSources are a generated tool's schemas as its validators use them
// and as reflection derives them from its Go types.
type SchemaSources struct {
	Input, ReflectedInput   json.RawMessage
	Output, ReflectedOutput json.RawMessage // nil for a tool without typed output
}

// Schemas is a func(t runtime.Tool) (s SchemaSources, ok bool), set by
// package runtime: the schema sources of t, ok false when Tool did not
// make it.
var Schemas any

// Template is a func(t runtime.ResourceTemplate, params json.RawMessage,
// typ reflect.Type, call Call) runtime.ResourceTemplate, set by package
// runtime: runtime.TypedTemplate with params, the JSON Schema of typ (the
// params struct), given rather than reflected. A read decodes the URI's
// variables into a new value of typ and passes its pointer to call, whose
// out is the read's result as TypedTemplate takes it (a string, []byte,
// runtime.ResourceContents, a struct pointer…). params is compacted in
// place: its bytes must be the caller's own.
var Template any

// TemplateSchemas is a func(t runtime.ResourceTemplate) (generated,
// reflected json.RawMessage, ok bool), set by package runtime: the params
// schema Template was given for t and the reflection of its params type; ok
// false when Template did not make t.
var TemplateSchemas any

// Prompt is a func(p runtime.Prompt, args reflect.Type, call
// func(context.Context, any) (*runtime.GetPromptResult, error))
// runtime.Prompt, set by package runtime: runtime.TypedPrompt with
// p.Arguments taken as given, not derived from args (the arguments struct).
// A get decodes the arguments into a new value of args and passes its
// pointer to call.
var Prompt any

// PromptArguments is a func(p runtime.Prompt) (declared, reflected
// []runtime.PromptArgument, ok bool), set by package runtime: the arguments
// p was registered with and those reflected from its arguments type; ok
// false when Prompt did not make p.
var PromptArguments any
