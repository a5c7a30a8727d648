package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/internal/breaking"
	"github.com/mcpgen/mcpgen/internal/findings"
	"github.com/mcpgen/mcpgen/spec"
)

const diffHelp = `usage: mcpgen diff [--format text|json|github-actions] [--level wire|go] OLD NEW
       mcpgen diff [--format …] [--level wire|go] --against GIT_REF [-f spec]

Reports the breaking changes from one version of a spec to another, in
buf's style: each finding names a rule (TOOL_NO_DELETE, BOUND_NO_TIGHTEN,
GO_FIELD_SAME_TYPE, …; the table is in docs/cli.md, "CLI reference") and points at
the new spec, or at the old one for what was removed. --level wire reports
what MCP clients see; --level go (the default) adds what breaks the handler
code written against the generated package.

--against reads the old version with git (git show GIT_REF:path, run in the
spec's directory), for CI on pull requests: mcpgen diff --against origin/main.
A spec that did not exist at GIT_REF breaks nothing.

Exit codes: 0 nothing breaks, 100 breaking changes (or spec errors), 2 usage,
1 internal (git failed).
` + discoveryHelp + `
Examples:
  mcpgen diff old/mcpgen.yaml mcpgen.yaml
  mcpgen diff --against origin/main --format github-actions
`

// runDiff is `mcpgen diff`.
func runDiff(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("diff")
	specPath := fs.String("f", "", "the spec file, with --against")
	against := fs.String("against", "", "a git revision to compare the spec with")
	format := fs.String("format", "text", "text, json or github-actions")
	levelFlag := fs.String("level", "go", "wire or go")
	rest, err := parseInterspersed(fs, args, diffHelp, stdout)
	if err != nil {
		return err
	}
	f, err := findings.ParseFormat(*format)
	if err != nil {
		return usageError{err.Error()}
	}
	level, err := breaking.ParseLevel(*levelFlag)
	if err != nil {
		return usageError{err.Error()}
	}
	var oldSpec, newSpec *spec.Spec
	switch {
	case *against != "" && len(rest) > 0:
		return usageError{"diff takes either OLD NEW or --against GIT_REF, not both"}
	case *against != "":
		path, err := findSpec(*specPath)
		if err != nil {
			return err
		}
		data, label, err := gitShow(*against, path)
		switch {
		case errors.Is(err, errNotAtRef):
			fmt.Fprintf(stderr, "mcpgen: %s did not exist at %s; nothing to break\n", relative(path), *against)
			return writeDiff(stdout, f, nil)
		case err != nil:
			return err
		}
		if oldSpec, err = loadBytes(label, data, stderr); err != nil {
			return err
		}
		if newSpec, err = loadSpec(path, stderr); err != nil {
			return err
		}
	case len(rest) == 2:
		if *specPath != "" {
			return usageError{"-f goes with --against; with OLD NEW, name both files"}
		}
		if oldSpec, err = loadSpec(rest[0], stderr); err != nil {
			return err
		}
		if newSpec, err = loadSpec(rest[1], stderr); err != nil {
			return err
		}
	default:
		return usageError{fmt.Sprintf("diff needs OLD NEW, or --against GIT_REF; got %d argument%s", len(rest), plural(len(rest)))}
	}
	found := breaking.Compare(oldSpec, newSpec, level)
	if err := writeDiff(stdout, f, found); err != nil {
		return err
	}
	if n := len(found); n > 0 {
		fmt.Fprintf(stderr, "mcpgen: %d breaking change%s\n", n, plural(n))
		return errFindings
	}
	return nil
}

func writeDiff(w io.Writer, f findings.Format, fs []findings.Finding) error {
	switch f {
	case findings.JSON:
		return findings.WriteJSON(w, struct {
			Findings []findings.Finding `json:"findings"`
		}{findings.NonNil(fs)})
	case findings.GitHubActions:
		findings.WriteGitHubActions(w, fs, "error")
	default:
		findings.WriteText(w, fs)
	}
	return nil
}

func loadBytes(label string, data []byte, stderr io.Writer) (*spec.Spec, error) {
	s, diags := spec.Load(label, data)
	if len(diags) > 0 {
		printDiagnostics(stderr, diags)
		return nil, errFindings
	}
	return s, nil
}

var errNotAtRef = errors.New("not at the revision")

// gitShow reads the spec at path as it was at ref: git show ref:P, where P
// is path relative to the root of its repository, run in the spec's
// directory. The label names it in findings: path@ref.
func gitShow(ref, path string) ([]byte, string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", err
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	dir := filepath.Dir(abs)
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, "", fmt.Errorf("--against needs the spec in a git repository: %w", err)
	}
	root := strings.TrimSpace(string(top))
	if resolved, err := filepath.EvalSymlinks(root); err == nil {
		root = resolved
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return nil, "", err
	}
	if _, err := git(dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err != nil {
		return nil, "", usageError{fmt.Sprintf("--against %s: not a revision of the repository at %s", ref, relative(root))}
	}
	data, err := git(dir, "show", ref+":"+filepath.ToSlash(rel))
	if err != nil {
		if msg := err.Error(); strings.Contains(msg, "does not exist in") || strings.Contains(msg, "exists on disk, but not in") {
			return nil, "", errNotAtRef
		}
		return nil, "", err
	}
	return data, relative(path) + "@" + ref, nil
}

// git runs git in dir and returns its standard output; an error carries
// its standard error.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return out, nil
}
