package lint

import (
	"strings"
	"testing"
)

// profileFindings are the SCHEMA_PROFILE messages of linting path.
func profileFindings(t *testing.T, path, profile string) []string {
	t.Helper()
	var out []string
	for _, f := range Lint(load(t, path), Options{Profile: profile}).Findings {
		if f.Rule == "SCHEMA_PROFILE" {
			out = append(out, f.Message)
		}
	}
	return out
}

func hasFinding(found []string, parts ...string) bool {
	for _, m := range found {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(m, p)
		}
		if ok {
			return true
		}
	}
	return false
}

// --profile reports what each API refuses, citing its documentation, and
// says which of it server.schemaProfile rewrites; under the spec's own
// profile only what cannot be rewritten is left.
func TestSchemaProfile(t *testing.T) {
	const path = "../../golden/schema_profile/mcpgen.yaml" // server.schemaProfile: gemini

	if found := profileFindings(t, path, ""); len(found) != 0 {
		t.Errorf("under its own profile (gemini, all rewritten): %q", found)
	}
	openai := profileFindings(t, path, "openai-strict")
	for _, want := range [][]string{
		{`tool "transfer" input, /properties/memo: property "memo" is optional`, "no profile can rewrite this"},
		{`tool "transfer" input, /properties/meta: an object that takes other keys`, "no profile can rewrite this"},
		{`/properties/region/examples: examples is not taken`, "server.schemaProfile: openai-strict advertises it rewritten"},
		{"https://platform.openai.com/docs/guides/structured-outputs#supported-schemas"},
	} {
		if !hasFinding(openai, want...) {
			t.Errorf("openai-strict: no finding with %q in\n%s", want, strings.Join(openai, "\n"))
		}
	}
	anthropic := profileFindings(t, path, "anthropic")
	if !hasFinding(anthropic, `tool "categorize"`, "Category reaches itself", "no profile can rewrite this") {
		t.Errorf("anthropic: no recursion finding in\n%s", strings.Join(anthropic, "\n"))
	}
	if hasFinding(anthropic, "optional") {
		t.Errorf("anthropic takes optional properties:\n%s", strings.Join(anthropic, "\n"))
	}
}
