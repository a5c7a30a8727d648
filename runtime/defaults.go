package runtime

import (
	"encoding/json"
	"fmt"
)

// Defaulter is implemented by argument types that fill in defaults for what
// the client left out: mcpgen generates ApplyDefaults for every type whose
// spec has a `default:` a client may omit. TypedTool, TypedToolResult,
// TypedTemplate and TypedPrompt call it after the arguments are validated and
// decoded, so validation sees the arguments exactly as sent (a JSON Schema
// default is only an annotation) and the handler sees the defaults applied.
// ApplyDefaults must keep every value the client sent, null included.
type Defaulter interface {
	ApplyDefaults()
}

// applyDefaults calls v's ApplyDefaults, if it has one.
func applyDefaults(v any) {
	if d, ok := v.(Defaulter); ok {
		d.ApplyDefaults()
	}
}

// DecodeDefault sets *dst to a spec default written as JSON. Generated
// ApplyDefaults methods use it for defaults that have no Go literal (arrays,
// objects, null). mcpgen checks every default against its schema before
// generating, so a default that does not decode is a bug in the generated
// code: DecodeDefault panics, and the session answers that call with an
// internal error.
func DecodeDefault[T any](dst *T, defaultJSON string) {
	if err := json.Unmarshal([]byte(defaultJSON), dst); err != nil {
		panic(fmt.Sprintf("runtime: the spec default %s cannot be decoded into a %T: %v", defaultJSON, *dst, err))
	}
}
