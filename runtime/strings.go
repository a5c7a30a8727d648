package runtime

import "fmt"

// Strings converts the items of an exploded URI template variable
// ({/path*}) to the strings ExpandURITemplate takes. Generated Expand
// methods use it.
func Strings[T ~string | ~int64 | ~float64 | ~bool](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprint(v)
	}
	return out
}
