package lint

import (
	"fmt"
	"io"

	"github.com/mcpgen/mcpgen/internal/findings"
)

// Write prints the result in a format: text (findings, then the context
// budget), json ({"findings": […], "budget": {…}}) or github-actions (a
// warning annotation per finding, and the budget's totals as a notice).
func (r Result) Write(w io.Writer, format findings.Format) error {
	switch format {
	case findings.JSON:
		return findings.WriteJSON(w, struct {
			Findings []findings.Finding `json:"findings"`
			Budget   *Budget            `json:"budget"`
		}{findings.NonNil(r.Findings), r.Budget})
	case findings.GitHubActions:
		findings.WriteGitHubActions(w, r.Findings, "warning")
		b := r.Budget
		_, err := fmt.Fprintf(w, "::notice title=CONTEXT_BUDGET::tools/list ~%d tokens (%d tool%s), prompts/list ~%d tokens (%d prompt%s), resources/list ~%d tokens, resources/templates/list ~%d tokens\n",
			b.Tools.Tokens, len(b.Tools.Entries), plural(len(b.Tools.Entries)), b.Prompts.Tokens, len(b.Prompts.Entries), plural(len(b.Prompts.Entries)),
			b.Resources.Tokens, b.Templates.Tokens)
		return err
	}
	findings.WriteText(w, r.Findings)
	if len(r.Findings) > 0 {
		fmt.Fprintln(w)
	}
	r.Budget.WriteText(w)
	return nil
}
