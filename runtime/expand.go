package runtime

import (
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/internal/uritemplate"
)

// ExpandURITemplate expands an RFC 6570 template (levels 1 to 3, plus the
// prefix {x:3} and explode {x*} modifiers) with vars. Values are string,
// bool, int, int64, float64 or []string; an absent or nil value, or an
// empty list, is undefined and skipped as the RFC says. Generated Expand
// helpers call it with their template, so a malformed template or a value
// of another type is a programming error: it panics.
func ExpandURITemplate(template string, vars map[string]any) string {
	uri, err := uritemplate.Expand(template, vars)
	if err != nil {
		panic(fmt.Sprintf("runtime: ExpandURITemplate(%q): %v", template, err))
	}
	return uri
}
