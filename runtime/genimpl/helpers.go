package genimpl

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gensupport"
)

// DecodeDefault sets *dst to a spec default written as JSON. Generated
// ApplyDefaults methods use it for defaults that have no Go literal
// (arrays, objects, null). mcpgen checks every default against its schema
// before generating, so a default that does not decode is a bug in the
// generated code: DecodeDefault panics, and the session answers that call
// with an internal error.
func DecodeDefault[T any](dst *T, defaultJSON string) {
	if err := json.Unmarshal([]byte(defaultJSON), dst); err != nil {
		panic(fmt.Sprintf("runtime: the spec default %s cannot be decoded into a %T: %v", defaultJSON, *dst, err))
	}
}

// Strings converts the items of an exploded URI template variable
// ({/path*}) to the strings runtime.ExpandURITemplate takes. Generated
// Expand methods use it.
func Strings[T ~string | ~int64 | ~float64 | ~bool](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprint(v)
	}
	return out
}

// CompleteList wraps the full list a generated completion method returned:
// the first 100 values, Total = len(values), HasMore = len(values) > 100.
// An error is returned as is. Generated code calls it as
// CompleteList(h.CompleteX(ctx, req.Value, req.Context)).
func CompleteList(values []string, err error) (*runtime.Completion, error) {
	if err != nil {
		return nil, err
	}
	n := len(values)
	if values == nil {
		values = []string{}
	}
	limit := gensupport.MaxCompletionValues
	return &runtime.Completion{Values: values[:min(n, limit)], Total: n, HasMore: n > limit}, nil
}

// StaticHTML is the fn of runtime.AppResource for a view fixed at build
// time, embedded with //go:embed.
func StaticHTML(html string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) { return html, nil }
}

// SetExtra sets a keyword the reflector has no field for on the reflected
// schema s (a generated JSONSchemaExtend says the spec's $schema, say, so).
func SetExtra(s *jsonschema.Schema, keyword string, value any) {
	if s.Extras == nil {
		s.Extras = map[string]any{}
	}
	s.Extras[keyword] = value
}
