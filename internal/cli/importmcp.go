package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/mcpimport"
)

const importMCPHelp = `usage: mcpgen import mcp [flags] URL
       mcpgen import mcp [flags] -- COMMAND [ARGS…]

Writes an mcpgen spec from what a running MCP server advertises: with
-- COMMAND it starts the server as a child process and speaks stdio to it;
with URL it speaks Streamable HTTP. It initializes (offering 2025-11-25,
then older revisions to a server that refuses it), pages through
tools/list, resources/list, resources/templates/list and prompts/list,
and writes each tool (title, description, annotations, execution, icons,
_meta), resource, template and prompt. Every inputSchema and outputSchema
becomes the spec's typed schema language ($defs as named types; anyOf,
oneOf, const, type lists and nullable as written); a schema with a keyword
the language cannot say (allOf, if/then, patternProperties…) stays a raw
inputSchema/outputSchema, and a note names the keyword. Then review the
spec and run mcpgen generate: the handlers are yours to write.

Flags:
  -o FILE          the spec to write (default mcpgen.yaml; - for standard output)
  -force           overwrite FILE if it exists
  -H 'Name: value' a header sent with every HTTP request, such as Authorization (repeatable)
  -timeout D       how long each step may take, starting the server included (default 3m:
                   npx -y on a cold npm cache installs the server first)
  -package P       go.package (default: from the server's name)

Example:
  mcpgen import mcp -o mcpgen.yaml -- npx -y @modelcontextprotocol/server-everything
  mcpgen import mcp -H "Authorization: Bearer $TOKEN" https://mcp.example.com/mcp
`

// headerList is the repeatable -H flag.
type headerList http.Header

func (h headerList) String() string { return "" }
func (h headerList) Set(v string) error {
	name, value, ok := strings.Cut(v, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("-H takes 'Name: value', got %q", v)
	}
	http.Header(h).Add(name, strings.TrimSpace(value))
	return nil
}

// runImportMCP is `mcpgen import mcp`.
func runImportMCP(args []string, stdout, stderr io.Writer) error {
	var command []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, command = args[:i], args[i+1:]
	}
	fs := newFlags("import mcp")
	out := fs.String("o", "mcpgen.yaml", "the spec to write")
	force := fs.Bool("force", false, "overwrite the spec")
	timeout := fs.Duration("timeout", mcpimport.DefaultTimeout, "each step's time")
	headers := http.Header{}
	fs.Var(headerList(headers), "H", "an HTTP header")
	var opts mcpimport.Options
	fs.StringVar(&opts.Package, "package", "", "go.package")
	rest, err := parseInterspersed(fs, args, importMCPHelp, stdout)
	if err != nil {
		return err
	}
	switch {
	case len(command) > 0 && len(rest) > 0:
		return usageError{fmt.Sprintf("import mcp takes a URL or -- COMMAND, not both (got %q and %q)", rest, command)}
	case len(command) > 0:
		opts.Command = command
	case len(rest) == 1 && (strings.HasPrefix(rest[0], "http://") || strings.HasPrefix(rest[0], "https://")):
		opts.URL = rest[0]
	case len(rest) == 1:
		return usageError{fmt.Sprintf("import mcp: %q is not an http(s) URL; to start a stdio server write -- %s", rest[0], rest[0])}
	default:
		return usageError{"import mcp needs the server: a URL, or -- COMMAND ARGS… to start it"}
	}
	if len(headers) > 0 && opts.URL == "" {
		return usageError{"-H sets HTTP headers; a stdio server (-- COMMAND) gets none"}
	}
	opts.Headers, opts.Timeout = headers, *timeout
	if *out != "-" && !*force && isFile(*out) {
		return usageError{fmt.Sprintf("%s exists; pass -force to overwrite it, or -o another file", *out)}
	}
	res, err := mcpimport.Import(context.Background(), opts)
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("import mcp: %w\n(no answer within -timeout %s; a server that takes longer to start, such as npx -y installing it, needs more: pass -timeout 10m)", err, *timeout)
	}
	if err != nil {
		return fmt.Errorf("import mcp: %w", err)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(stderr, "note: %s\n", n)
	}
	if *out == "-" {
		_, err = stdout.Write(res.YAML)
	} else {
		err = os.WriteFile(*out, res.YAML, 0o644)
	}
	if err != nil {
		return err
	}
	c := res.Counts
	fmt.Fprintf(stderr, "mcpgen: imported %d tools, %d resources, %d resource templates, %d prompts (protocol %s); %d raw schemas",
		c.Tools, c.Resources, c.Templates, c.Prompts, res.Protocol, len(res.Raw))
	if *out != "-" {
		fmt.Fprintf(stderr, "; written to %s", *out)
	}
	fmt.Fprintln(stderr)
	return nil
}

var _ flag.Value = headerList(nil)
