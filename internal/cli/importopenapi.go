package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/mcpgen/mcpgen/internal/lint"
	"github.com/mcpgen/mcpgen/internal/openapi"
	"github.com/mcpgen/mcpgen/spec"
)

const importHelp = `usage: mcpgen import openapi [flags] FILE|-

Writes an mcpgen spec from an OpenAPI 3.0 or 3.1 description, or a
Swagger 2.0 one (converted to OpenAPI 3.0 first by kin-openapi; what the
conversion changes is noted), JSON or YAML (- reads standard input): one
tool per selected operation, named from
its operationId in snake_case (at most 64 characters: a longer name keeps
its start and gets a stable hash suffix; a taken name gets _2, _3),
title and description from summary and description, input from the path,
query, header and cookie parameters merged with the JSON body's
properties, output from the 2xx JSON response, annotations from the
method (GET, HEAD, OPTIONS read-only; PUT and DELETE idempotent; every
other method destructive unless x-mcp says otherwise), and
the component schemas the tools use as named types (allOf merged,
circular references as recursive types). Everything it had to leave out
or rename is printed as a note.

On an operation, x-mcp: false leaves it out, x-mcp: true takes it
whatever the flags say, x-mcp: {name: N, description: D} names and
describes its tool, and x-mcp: {readOnlyHint: true} (or destructiveHint,
idempotentHint) sets a hint the method would not.

Flags (each selection flag may be repeated or take a comma-separated list):
  -o FILE                  the spec to write (default mcpgen.yaml; - for standard output)
  -force                   overwrite FILE if it exists, instead of re-importing
  -tag T                   operations with tag T
  -path GLOB               operations on matching paths (* is any run of characters: /repos/*/issues*)
  -operation ID            the operation with this operationId (or tool name)
  -exclude-tag, -exclude-path, -exclude-operation
                           drop operations the selection took
  -name N, -package P      server.name and go.package (default: from info.title)

Re-import: beside FILE the import writes FILE's name with .openapi-lock.json
(what it imported). When FILE exists, importing again (a newer description)
keeps what a person changed since: renamed tools (the comment "# openapi:
METHOD /path" above each tool says where it came from; keep it), edited
titles, descriptions and annotations, keys added to a tool, removed tools,
and tools and types added by hand; inputs, outputs and the imported types
follow the description. It prints what changed upstream and what it kept;
then 'mcpgen diff' shows the wire impact.

Without a selection every operation is imported; when that is more than
lint's maxTools (20), it prints the context budget and the tags to select.

Example:
  mcpgen import openapi -tag pet -o mcpgen.yaml petstore.json
  curl -s https://example.com/openapi.yaml | mcpgen import openapi -path '/v1/orders*' -
`

// commaList is a repeatable flag that also splits on commas.
type commaList []string

func (l *commaList) String() string { return strings.Join(*l, ",") }
func (l *commaList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// runImport is `mcpgen import FORMAT ...`; openapi is the one format.
func runImport(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		if len(args) == 0 {
			return usageError{"import needs a source: mcpgen import openapi FILE, or mcpgen import mcp URL|-- COMMAND"}
		}
		fmt.Fprint(stdout, importHelp)
		return flag.ErrHelp
	}
	if args[0] == "mcp" {
		return runImportMCP(args[1:], stdout, stderr)
	}
	if args[0] != "openapi" {
		return usageError{fmt.Sprintf("import knows two sources, openapi and mcp; got %q", args[0])}
	}
	fs := newFlags("import")
	out := fs.String("o", "mcpgen.yaml", "the spec to write")
	force := fs.Bool("force", false, "overwrite the spec")
	var opts openapi.Options
	for name, l := range map[string]*[]string{"tag": &opts.Tags, "path": &opts.Paths, "operation": &opts.Operations,
		"exclude-tag": &opts.ExcludeTags, "exclude-path": &opts.ExcludePaths, "exclude-operation": &opts.ExcludeOperations} {
		fs.Var((*commaList)(l), name, "selection")
	}
	fs.StringVar(&opts.ServerName, "name", "", "server.name")
	fs.StringVar(&opts.Package, "package", "", "go.package")
	rest, err := parseInterspersed(fs, args[1:], importHelp, stdout)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usageError{fmt.Sprintf("import openapi takes one description (a file, or - for standard input), got %q", rest)}
	}
	var data []byte
	if rest[0] == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(rest[0])
	}
	if err != nil {
		return err
	}
	defer importMemoryLimit()()
	var lock *openapi.Lock
	lockPath := lockFile(*out)
	if *out != "-" && !*force && isFile(*out) {
		if lock, err = readLock(lockPath); err != nil {
			return usageError{fmt.Sprintf("%s exists but %s, which a re-import needs, cannot be read (%v); pass -force to overwrite the spec, or -o another file", *out, lockPath, err)}
		}
	}
	var res *openapi.Result
	if lock != nil {
		var curated []byte
		if curated, err = os.ReadFile(*out); err == nil {
			res, err = openapi.Reimport(curated, lock, data, opts)
		}
	} else {
		res, err = openapi.Import(data, opts)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", rest[0], err)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(stderr, "note: %s\n", n)
	}
	for _, c := range res.Changes {
		fmt.Fprintf(stdout, "%s\n", c)
	}
	if *out == "-" {
		_, err = stdout.Write(res.YAML)
	} else {
		err = writeSpecAndLock(*out, lockPath, res)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "mcpgen: %d tools from %d operations", len(res.Tools), res.Operations)
	if *out != "-" {
		fmt.Fprintf(stderr, " written to %s", *out)
	}
	fmt.Fprintln(stderr)
	budgetWarning(res, stderr)
	return nil
}

// lockFile is where an import records what it wrote (mcpgen.yaml →
// mcpgen.openapi-lock.json), for the next re-import.
func lockFile(spec string) string {
	return strings.TrimSuffix(spec, filepath.Ext(spec)) + ".openapi-lock.json"
}

func readLock(path string) (*openapi.Lock, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var l openapi.Lock
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &l, nil
}

func writeSpecAndLock(spec, lockPath string, res *openapi.Result) error {
	lock, err := res.Lock()
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(lock, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(spec, res.YAML, 0o644); err != nil {
		return err
	}
	return os.WriteFile(lockPath, append(data, '\n'), 0o644)
}

// budgetWarning prints lint's context budget when the import has more tools
// than lint allows by default, with the tags to select from.
func budgetWarning(res *openapi.Result, stderr io.Writer) {
	if len(res.Tools) <= lint.DefaultMaxTools {
		return
	}
	s, diags := spec.Load("imported.yaml", res.YAML)
	if len(diags) > 0 {
		return // mcpgen generate will say what is wrong
	}
	b := lint.Estimate(s)
	fmt.Fprintf(stderr, "warning: %d tools, more than lint's maxTools (%d): their definitions cost about %d tokens of the model's context on every turn.\n",
		len(res.Tools), lint.DefaultMaxTools, b.Tools.Tokens)
	fmt.Fprintln(stderr, "Select what the model needs with -tag, -path or -operation. Operations per tag:")
	for _, tc := range res.Tags {
		fmt.Fprintf(stderr, "  %5d  %s\n", tc.Count, tc.Tag)
	}
}

// importMemoryLimit sets a soft memory limit of 400 MiB for an import,
// unless GOMEMLIMIT says otherwise, and returns what restores the previous
// one. Parsing a large description makes garbage faster than the default
// GC pace collects it: on GitHub's 13 MB description the peak RSS was
// 475–500 MB, and 420 MB with the limit, for the same CPU time (a lower
// limit costs CPU: 370 MB at 300 MiB took 25% more).
func importMemoryLimit() (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(400 << 20)
	return func() { debug.SetMemoryLimit(prev) }
}
