package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/findings"
	"github.com/mcpgen/mcpgen/internal/lint"
	"github.com/mcpgen/mcpgen/spec"
)

const lintHelp = `usage: mcpgen lint [-f spec] [--format text|json|github-actions] [--max-tools N] [--max-list-items N] [--profile gemini|openai-strict|anthropic]

Checks the spec for what makes a server hard for clients and models to use
well (rules with stable IDs, in docs/cli.md, "CLI reference"), and estimates
what each tool and prompt costs in context tokens (bytes of its list entry's
JSON / 4). Findings print as file:line:col: RULE_ID: message, then the
budget; --format json prints {"findings": [...], "budget": {...}};
--format github-actions prints annotations for pull requests.

--profile checks each tool's input schema against what that model API
takes (SCHEMA_PROFILE, citing its documentation); with server.schemaProfile
in the spec, lint reports what the generator cannot rewrite for it.

Turn a rule off for the whole spec with lint: {disable: [RULE_ID]}, or for
one tool, resource, template or prompt with x-lint-disable: [RULE_ID].

Exit codes: 0 no findings, 100 findings (or spec errors), 2 usage, 1 internal.
` + discoveryHelp + `
Examples:
  mcpgen lint --format github-actions
  mcpgen lint --profile openai-strict
`

// runLint is `mcpgen lint`.
func runLint(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("lint")
	specPath := fs.String("f", "", "the spec file")
	format := fs.String("format", "text", "text, json or github-actions")
	maxTools := fs.Int("max-tools", 0, "the most tools before TOO_MANY_TOOLS (default: lint.maxTools, else 20)")
	maxItems := fs.Int("max-list-items", 0, "the most static resources before RESOURCE_LIST_LARGE (default: lint.maxListItems, else 50)")
	profile := fs.String("profile", "", "check the tools' input schemas against a model API: "+strings.Join(spec.SchemaProfiles, ", ")+" (default: server.schemaProfile)")
	rest, err := parseInterspersed(fs, args, lintHelp, stdout)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError{fmt.Sprintf("lint takes no arguments, got %q (the spec is -f)", rest)}
	}
	f, err := findings.ParseFormat(*format)
	if err != nil {
		return usageError{err.Error()}
	}
	if *maxTools < 0 || *maxItems < 0 {
		return usageError{"--max-tools and --max-list-items must be positive"}
	}
	if *profile != "" && !slices.Contains(spec.SchemaProfiles, *profile) {
		return usageError{fmt.Sprintf("--profile %q is not a profile: use one of %s", *profile, strings.Join(spec.SchemaProfiles, ", "))}
	}
	path, err := findSpec(*specPath)
	if err != nil {
		return err
	}
	s, err := loadSpec(path, stderr)
	if err != nil {
		return err
	}
	r := lint.Lint(s, lint.Options{MaxTools: *maxTools, MaxListItems: *maxItems, Profile: *profile})
	if err := r.Write(stdout, f); err != nil {
		return err
	}
	if n := len(r.Findings); n > 0 {
		fmt.Fprintf(stderr, "mcpgen: %d lint finding%s\n", n, plural(n))
		return errFindings
	}
	return nil
}

// loadSpec reads and validates a spec; its findings are printed to stderr
// and reported as errFindings.
func loadSpec(path string, stderr io.Writer) (*spec.Spec, error) {
	s, diags, err := spec.LoadFile(path)
	if err != nil {
		return nil, err
	}
	if len(diags) > 0 {
		printDiagnostics(stderr, diags)
		return nil, errFindings
	}
	return s, nil
}

// parseInterspersed parses flags that may come after positional
// arguments (mcpgen diff old.yaml new.yaml --format json) and returns the
// positional ones. After "--", everything is positional.
func parseInterspersed(fs *flag.FlagSet, args []string, help string, stdout io.Writer) ([]string, error) {
	var rest []string
	for {
		dashdash := -1
		for i, a := range args {
			if a == "--" {
				dashdash = i
				break
			}
		}
		if err := parseFlags(fs, args, help, stdout); err != nil {
			return nil, err
		}
		left := fs.Args()
		if dashdash >= 0 && len(left) == len(args)-dashdash-1 {
			return append(rest, left...), nil // the parse stopped at "--"
		}
		if len(left) == 0 {
			return rest, nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}
