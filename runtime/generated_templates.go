package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mcpgen/mcpgen/runtime/internal/gensupport"
	"github.com/mcpgen/mcpgen/runtime/internal/typeschema"
)

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
