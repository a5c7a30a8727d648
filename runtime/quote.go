package runtime

import "github.com/mcpgen/mcpgen/runtime/internal/safetext"

// Short names for package safetext, which makes peer-supplied text safe to
// echo in errors and logs.

const maxQuoted = safetext.MaxLen

func quote(s string) string { return safetext.Quote(s) }

func sanitize(s string, limit int) string { return safetext.Sanitize(s, limit) }
