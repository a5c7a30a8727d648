package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/typeschema"
)

// TypedPrompt returns p with its Handler set to call fn with the arguments
// decoded into a *A: a struct of string, named string (enum) and Opt fields
// whose json tags are the argument names; NoArgs for a prompt without
// arguments. When p.Arguments is nil it is derived from A (names, titles,
// descriptions, required unless omitzero/omitempty, enums); otherwise every
// argument must be a field of A. The session has already checked the
// arguments against p.Arguments when fn runs. TypedPrompt panics if A is not
// such a struct.
func TypedPrompt[A any](p Prompt, fn func(ctx context.Context, args *A) (*GetPromptResult, error)) Prompt {
	where := fmt.Sprintf("runtime: TypedPrompt(%q)", p.Name)
	fields := promptFields(SchemaFor[A](), where, reflect.TypeFor[A]())
	if p.Arguments == nil {
		p.Arguments = fields
	}
	for _, a := range p.Arguments {
		if !slices.ContainsFunc(fields, func(f PromptArgument) bool { return f.Name == a.Name }) {
			panic(fmt.Sprintf("%s: argument %q is not a field of %v (by its json tag)", where, a.Name, reflect.TypeFor[A]()))
		}
	}
	p.Handler = promptHandler(p.Name, reflect.TypeFor[A](), func(ctx context.Context, args any) (*GetPromptResult, error) {
		return fn(ctx, args.(*A))
	})
	return p
}

// promptHandler decodes a prompts/get request's arguments into a new value
// of args (A's type, so fn gets a *A as any) for fn. fn's types are erased,
// as typedTemplate's are: one instance serves every prompt, TypedPrompt's
// and generated code's alike.
func promptHandler(name string, args reflect.Type, fn func(ctx context.Context, args any) (*GetPromptResult, error)) PromptHandler {
	return func(ctx context.Context, req *GetPromptRequest) (*GetPromptResult, error) {
		a := reflect.New(args).Interface() // a *A
		if len(req.Arguments) > 0 {
			// Prompts are not a hot path: a JSON round trip decodes named
			// string types and Opt fields as the tools' arguments are.
			b, err := json.Marshal(req.Arguments)
			if err == nil {
				err = json.Unmarshal(b, a)
			}
			if err != nil {
				return nil, errorf(CodeInvalidParams, "invalid arguments for prompt %s: %s", quote(name), sanitize(err.Error(), 300))
			}
		}
		applyDefaults(a)
		return fn(ctx, a)
	}
}

// promptFields derives prompt arguments from the object schema of an
// arguments struct, in field order.
func promptFields(schema json.RawMessage, where string, t reflect.Type) []PromptArgument {
	if typeschema.Type(schema) != "object" {
		panic(fmt.Sprintf("%s: the arguments type %v must be a struct", where, t))
	}
	var doc struct {
		Properties json.RawMessage            `json:"properties"`
		Required   []string                   `json:"required"`
		Defs       map[string]json.RawMessage `json:"$defs"`
	}
	_ = json.Unmarshal(schema, &doc)
	var out []PromptArgument
	if len(doc.Properties) == 0 {
		return out
	}
	_, _ = jsonwire.ScanObject(doc.Properties, func(key, val []byte) { // in order, unlike a map
		var own schemaNode
		_ = json.Unmarshal(val, &own)
		n := resolveNode(val, doc.Defs)
		if tn := n.typeName(); tn != "string" && tn != "" {
			panic(fmt.Sprintf("%s: field %q of %v is a %s; prompt arguments are strings", where, key, t, tn))
		}
		a := PromptArgument{Name: string(key), Title: own.Title, Description: own.Description, Required: slices.Contains(doc.Required, string(key))}
		if a.Title == "" {
			a.Title = n.Title
		}
		if a.Description == "" {
			a.Description = n.Description
		}
		for _, e := range n.Enum {
			var s string
			if json.Unmarshal(e, &s) == nil {
				a.Enum = append(a.Enum, s)
			}
		}
		out = append(out, a)
	})
	return out
}
