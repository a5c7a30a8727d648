package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/mcpgen/mcpgen/internal/docs"
	"github.com/mcpgen/mcpgen/spec"
)

const docsHelp = `usage: mcpgen docs [-f spec] [-o file]

Writes a Markdown reference of the server the spec describes: server info
and instructions; each tool with its annotations and input and output
tables; resources, resource templates (variables) and prompts (arguments);
and the named types, linked wherever they are used. The output is
deterministic, so a docs.md committed beside the spec shows every spec
change in a pull request as a readable diff.

Flags:
  -f spec   the spec file (default: found from the current directory, see below)
  -o file   write to file (only when its content changes) instead of stdout
` + discoveryHelp + `
Example:
  mcpgen docs -o docs.md
  //go:generate go tool mcpgen docs -o docs.md
`

// runDocs is `mcpgen docs`.
func runDocs(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("docs")
	specPath := fs.String("f", "", "the spec file")
	out := fs.String("o", "", "the output file (default: stdout)")
	if err := parseFlags(fs, args, docsHelp, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("docs takes no arguments, got %q", fs.Args())}
	}
	path, err := findSpec(*specPath)
	if err != nil {
		return err
	}
	s, diags, err := spec.LoadFile(path)
	if err != nil {
		return err
	}
	if len(diags) > 0 {
		printDiagnostics(stderr, diags)
		return errFindings
	}
	md := docs.Markdown(s)
	if *out == "" {
		_, err := stdout.Write(md)
		return err
	}
	if old, err := os.ReadFile(*out); err == nil && bytes.Equal(old, md) {
		return nil
	}
	return os.WriteFile(*out, md, 0o644)
}
