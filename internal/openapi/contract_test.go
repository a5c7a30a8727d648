package openapi

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestGlobAgreesWithRegexp: for random patterns and paths, glob is the
// regular expression that reads * as .* and everything else literally,
// anchored at both ends.
func TestGlobAgreesWithRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 12))
	alphabet := []string{"a", "b", "/", "{", "}", "."}
	word := func(n int, star bool) string {
		var b strings.Builder
		for range n {
			if star && rng.IntN(4) == 0 {
				b.WriteString("*")
				continue
			}
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 20000 {
		pattern, path := word(rng.IntN(7), true), word(rng.IntN(9), false)
		var re strings.Builder
		re.WriteString("^")
		for i, part := range strings.Split(pattern, "*") {
			if i > 0 {
				re.WriteString(".*")
			}
			re.WriteString(regexp.QuoteMeta(part))
		}
		re.WriteString("$")
		if want := regexp.MustCompile(re.String()).MatchString(path); glob(pattern, path) != want {
			t.Fatalf("glob(%q, %q) = %v, want %v", pattern, path, !want, want)
		}
	}
}

const selectionDoc = `openapi: 3.0.0
info: {title: t, version: '1'}
paths:
  /a:
    get:
      operationId: getA
      tags: [t1]
      responses: {"200": {description: ok}}
    post:
      operationId: postA
      tags: [t1, t2]
      responses: {"200": {description: ok}}
  /b/{id}:
    get:
      operationId: getB
      tags: [t2]
      x-mcp: true
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: ok}}
  /c:
    get:
      operationId: getC
      tags: [t1]
      x-mcp: false
      responses: {"200": {description: ok}}
  /d:
    get:
      operationId: getD
      tags: [t3]
      x-mcp: {exclude: true}
      responses: {"200": {description: ok}}
  /e/x:
    get:
      operationId: getE
      responses: {"200": {description: ok}}
`

// TestSelectionContract: any selection option that matches selects (tags,
// path globs, operationIds or tool names); every exclusion option drops
// from the selection (an operation with two tags by either); x-mcp true
// takes an operation whatever the options, x-mcp false and {exclude:
// true} leave it out whatever they say.
func TestSelectionContract(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
		want []string // tools; nil: nothing selected
	}{
		{"none", Options{}, []string{"get_a", "get_b", "get_e", "post_a"}},
		{"tag", Options{Tags: []string{"t1"}}, []string{"get_a", "get_b", "post_a"}},
		{"tag of the second of two", Options{Tags: []string{"t2"}}, []string{"get_b", "post_a"}},
		{"tag of an excluded one", Options{Tags: []string{"t3"}}, []string{"get_b"}},
		{"path glob", Options{Paths: []string{"/e/*"}}, []string{"get_b", "get_e"}},
		{"path exact", Options{Paths: []string{"/a"}}, []string{"get_a", "get_b", "post_a"}},
		{"operationId", Options{Operations: []string{"getE"}}, []string{"get_b", "get_e"}},
		{"tool name", Options{Operations: []string{"post_a"}}, []string{"get_b", "post_a"}},
		{"x-mcp false beats a selection", Options{Operations: []string{"getC", "getD"}}, []string{"get_b"}},
		{"options add up", Options{Tags: []string{"t2"}, Paths: []string{"/e*"}, Operations: []string{"getA"}}, []string{"get_a", "get_b", "get_e", "post_a"}},
		{"exclude tag", Options{ExcludeTags: []string{"t1"}}, []string{"get_b", "get_e"}},
		{"exclude the second tag", Options{ExcludeTags: []string{"t2"}}, []string{"get_a", "get_b", "get_e"}},
		{"exclude path", Options{ExcludePaths: []string{"/a"}}, []string{"get_b", "get_e"}},
		{"exclude path glob", Options{ExcludePaths: []string{"*/x"}}, []string{"get_a", "get_b", "post_a"}},
		{"exclude operationId", Options{ExcludeOperations: []string{"postA"}}, []string{"get_a", "get_b", "get_e"}},
		{"exclude tool name", Options{ExcludeOperations: []string{"get_e"}}, []string{"get_a", "get_b", "post_a"}},
		{"x-mcp true beats an exclusion", Options{ExcludeTags: []string{"t2"}, ExcludePaths: []string{"/b/*"}, ExcludeOperations: []string{"getB"}}, []string{"get_a", "get_b", "get_e"}},
		{"exclude from a selection", Options{Tags: []string{"t1"}, ExcludeOperations: []string{"getA"}}, []string{"get_b", "post_a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Import([]byte(selectionDoc), c.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for name := range res.Tools {
				got = append(got, name)
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("%+v: tools %q, want %q", c.opts, got, c.want)
			}
		})
	}
}
