package genimpl

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/mcpgen/mcpgen/runtime"
)

// GeneratedTemplate is runtime.TypedTemplate for generated code: params,
// the JSON Schema of P (indented or compact), is the one the generator
// computed from the spec, so registering the template reflects nothing.
// Reads behave exactly as with TypedTemplate. params is compacted in
// place, so its bytes must be the caller's own (see GeneratedTool).
func GeneratedTemplate[P, R any](t runtime.ResourceTemplate, params json.RawMessage, fn func(ctx context.Context, p *P) (R, error)) runtime.ResourceTemplate {
	return rt.Template(t, params, reflect.TypeFor[P](), func(ctx context.Context, p any) (any, error) {
		return fn(ctx, p.(*P))
	})
}

// TemplateSchemas returns the params schema t was registered with and the
// one reflection derives from its params type (what TypedTemplate would
// use); ok is false for a template not made by GeneratedTemplate. The
// generator's tests compare them; it reflects, so it is meant for tests
// only.
func TemplateSchemas(t runtime.ResourceTemplate) (generated, reflected json.RawMessage, ok bool) {
	return rt.TemplateSchemas(t)
}

// GeneratedPrompt is runtime.TypedPrompt for generated code: p.Arguments
// are written out by the generator (nil for runtime.NoArgs) and taken as
// given, not derived from A or checked against it, so registering the
// prompt reflects nothing. Calls behave exactly as with TypedPrompt.
func GeneratedPrompt[A any](p runtime.Prompt, fn func(ctx context.Context, args *A) (*runtime.GetPromptResult, error)) runtime.Prompt {
	return rt.Prompt(p, reflect.TypeFor[A](), func(ctx context.Context, args any) (*runtime.GetPromptResult, error) {
		return fn(ctx, args.(*A))
	})
}

// PromptArguments returns the arguments p was registered with and those
// TypedPrompt would derive from its arguments type; ok is false for a
// prompt not made by GeneratedPrompt. The generator's tests compare them;
// it reflects, so it is meant for tests only.
func PromptArguments(p runtime.Prompt) (declared, reflected []runtime.PromptArgument, ok bool) {
	return rt.PromptArguments(p)
}
