package runtime

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
