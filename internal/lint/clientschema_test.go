package lint

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

// TestClientDropsTool: a tool whose input schema has a union at its root is
// refused by the Anthropic and OpenAI APIs; lint says so by default, naming
// the tool and the agent that drops it. A plain object root passes, and
// x-lint-disable silences the rule for one tool.
func TestClientDropsTool(t *testing.T) {
	src := `mcpgen: 1
server: {name: t, version: "1"}
go: {package: t}
tools:
  either:
    description: Find a book by its ISBN or by its title and author.
    inputSchema:
      type: object
      properties:
        isbn: {type: string, maxLength: 13, description: The book's ISBN.}
        title: {type: string, maxLength: 200, description: The book's title.}
      anyOf:
        - required: [isbn]
        - required: [title]
      additionalProperties: false
  quiet:
    description: Find a book by its ISBN or by its title and author.
    x-lint-disable: [CLIENT_DROPS_TOOL]
    inputSchema:
      type: object
      properties:
        isbn: {type: string, maxLength: 13, description: The book's ISBN.}
      oneOf:
        - required: [isbn]
  plain:
    description: Find a book by its ISBN, exactly as printed.
    input:
      properties:
        isbn: {type: string, maxLength: 13, description: The book's ISBN.}
      required: [isbn]
`
	s, diags := spec.Load("mcpgen.yaml", []byte(src))
	if len(diags) > 0 {
		t.Fatal(diags.Error())
	}
	var got []string
	for _, f := range Lint(s, Options{}).Findings {
		if f.Rule == "CLIENT_DROPS_TOOL" {
			got = append(got, f.Message)
		}
	}
	if len(got) != 2 {
		t.Fatalf("CLIENT_DROPS_TOOL findings %q, want two for either", got)
	}
	for i, want := range [][]string{{`"either"`, "Anthropic", "anyOf at the top level", "Claude Code"}, {`"either"`, "OpenAI", "Codex"}} {
		for _, w := range want {
			if !strings.Contains(got[i], w) {
				t.Errorf("finding %q lacks %q", got[i], w)
			}
		}
	}
}
