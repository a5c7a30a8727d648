package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
)

// GeneratedTemplate and GeneratedPrompt are TypedTemplate and TypedPrompt for
// the code mcpgen generates: what TypedTemplate and TypedPrompt reflect from
// the Go types at registration (a template's params schema, a prompt's
// argument list), the generator computed from the spec and passes in, so a
// server reflects nothing when it starts. The tests of the generator prove,
// with GeneratedTemplateSchemas and GeneratedPromptArguments, that what it
// passes equals the reflection of the generated types.

// GeneratedTemplate is TypedTemplate with params, the JSON Schema of P, given
// (indented or compact). Reads behave exactly as with TypedTemplate.
func GeneratedTemplate[P, R any](t ResourceTemplate, params json.RawMessage, fn func(ctx context.Context, p *P) (R, error)) ResourceTemplate {
	params = compactSchema(params)
	t = typedTemplate(t, params, fn)
	t.generated = &generatedParams{typ: reflect.TypeFor[P](), schema: params}
	return t
}

// generatedParams records what GeneratedTemplate was given.
type generatedParams struct {
	typ    reflect.Type
	schema json.RawMessage
}

// GeneratedTemplateSchemas returns the params schema t was registered with
// and the one reflection derives from its params type (what TypedTemplate
// would use); ok is false for a template not made by GeneratedTemplate. It
// reflects, so it is meant for tests.
func GeneratedTemplateSchemas(t ResourceTemplate) (generated, reflected json.RawMessage, ok bool) {
	if t.generated == nil {
		return nil, nil, false
	}
	return t.generated.schema, schemaForType(t.generated.typ), true
}

// GeneratedPrompt is TypedPrompt for a prompt whose p.Arguments are written
// out (nil for NoArgs): they are taken as given, not derived from A or
// checked against it. Calls behave exactly as with TypedPrompt.
func GeneratedPrompt[A any](p Prompt, fn func(ctx context.Context, args *A) (*GetPromptResult, error)) Prompt {
	p.Handler = promptHandler(p.Name, fn)
	p.generatedArgs = reflect.TypeFor[A]()
	return p
}

// GeneratedPromptArguments returns the arguments p was registered with and
// those TypedPrompt would derive from its arguments type; ok is false for a
// prompt not made by GeneratedPrompt. It reflects, so it is meant for tests.
func GeneratedPromptArguments(p Prompt) (declared, reflected []PromptArgument, ok bool) {
	if p.generatedArgs == nil {
		return nil, nil, false
	}
	where := fmt.Sprintf("runtime: GeneratedPrompt(%q)", p.Name)
	return p.Arguments, promptFields(schemaForType(p.generatedArgs), where, p.generatedArgs), true
}
