// Package cli is the mcpgen command line: flags, file I/O and exit codes.
// It stays thin: loading and validating is package spec, generating is
// package gen.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

// Exit codes. Findings (a spec error, stale generated files) have their own
// code so that CI can tell "your spec is wrong" from "the tool broke".
const (
	ExitOK       = 0
	ExitInternal = 1
	ExitUsage    = 2
	ExitFindings = 100
)

// errFindings means the findings were already printed.
var errFindings = errors.New("findings")

// usageError is a bad command line: printed with a hint, exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

const usage = `mcpgen turns an MCP server spec (mcpgen.yaml) into a typed Go server.

Usage:
  mcpgen generate [-f spec] [-o dir]   write the generated Go files
  mcpgen check    [-f spec] [-o dir]   exit 100 with a diff when they are stale
  mcpgen init     [dir] [-module m] [-name n] [-replace clone]
                                       scaffold a ready-to-run server (see init -h)
  mcpgen init     [dir] -openapi FILE [-tag t]…
                                       scaffold a server that calls an OpenAPI-described API
  mcpgen import   openapi [flags] FILE|-
                                       write a spec from an OpenAPI 3 or Swagger 2.0 description (see import -h)
  mcpgen import   mcp [flags] URL | -- COMMAND [ARGS…]
                                       write a spec from a running MCP server's lists (see import mcp -h)
  mcpgen docs     [-f spec] [-o file]  write a Markdown reference of the server
  mcpgen schema                        print the JSON Schema of the spec format
  mcpgen lint     [-f spec] [flags]    lint the spec, estimate its context cost (see lint -h)
  mcpgen diff     OLD NEW | --against REF
                                       report breaking changes, WIRE and GO (see diff -h)
  mcpgen config   claude|codex|cursor  client configuration with per-tool permissions
  mcpgen registry -name NS/NAME [-image REF] [-remote URL] [-dockerfile path]
                                       server.json for the MCP registry, and a Dockerfile (see registry -h)
  mcpgen version                       print the version
  mcpgen help [command]                this text, or a command's (as command -h)

The spec is -f, else mcpgen.yaml or mcpgen.yml in the current directory or
the nearest parent up to the module root (go.mod).
Generated files go to the spec's go.output directory (default: beside the spec).

Exit codes: 0 ok, 1 internal error, 2 usage, 100 spec findings or stale files.
`

// Run runs mcpgen with the given arguments (without the program name) and
// returns the process exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "generate", "gen":
		err = runGenerate(rest, stdout, stderr, false)
	case "check":
		err = runGenerate(rest, stdout, stderr, true)
	case "init":
		err = runInit(rest, stdout, stderr)
	case "import":
		err = runImport(rest, stdin, stdout, stderr)
	case "docs":
		err = runDocs(rest, stdout, stderr)
	case "schema":
		err = runSchema(rest, stdout)
	case "lint":
		err = runLint(rest, stdout, stderr)
	case "diff":
		err = runDiff(rest, stdout, stderr)
	case "config":
		err = runConfig(rest, stdout, stderr)
	case "registry":
		err = runRegistry(rest, stdout, stderr)
	case "version", "-version", "--version":
		err = runVersion(rest, stdout)
	case "help", "-h", "-help", "--help":
		err = runHelp(rest, stdin, stdout, stderr)
	default:
		err = usageError{fmt.Sprintf("unknown command %q", cmd)}
	}
	var ue usageError
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errFindings):
		return ExitFindings
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "mcpgen: %s\nRun 'mcpgen help' for usage.\n", ue.msg)
		return ExitUsage
	case errors.Is(err, flag.ErrHelp):
		return ExitOK
	default:
		fmt.Fprintf(stderr, "mcpgen: %v\n", err)
		return ExitInternal
	}
}

// version, when set, is the version of a release build: GoReleaser links it
// with -ldflags "-X github.com/mcpgen/mcpgen/internal/cli.version=v1.2.3".
var version string

// Version is the version mcpgen was built as: the release's (see version),
// else the module version in its build info, else "(devel)".
func Version() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return versionFrom(bi)
}

// versionFrom finds mcpgen's version in build info. Under `go tool mcpgen`
// the tool's module is the main module of its build info; under `go run
// github.com/mcpgen/mcpgen/cmd/mcpgen` from a user's module, mcpgen is one
// of the main module's dependencies, so its version is in Deps (followed
// through a replace directive).
func versionFrom(bi *debug.BuildInfo) string {
	if bi.Main.Path == mcpgenModule {
		return released(bi.Main.Version)
	}
	for _, dep := range bi.Deps {
		if dep.Path != mcpgenModule {
			continue
		}
		if dep.Replace != nil {
			return released(dep.Replace.Version)
		}
		return released(dep.Version)
	}
	return "(devel)"
}

// zeroPseudo is the placeholder version a go.mod requires mcpgen at when a
// replace directive points it to a clone (`go mod edit -require
// github.com/mcpgen/mcpgen@v0.0.0-00010101000000-000000000000`): no release.
const zeroPseudo = "v0.0.0-00010101000000-000000000000"

// released is v, or "(devel)" when v names no version of mcpgen.
func released(v string) string {
	if v == "" || v == "(devel)" || v == zeroPseudo {
		return "(devel)"
	}
	return v
}

func runGenerate(args []string, stdout, stderr io.Writer, check bool) error {
	name := "generate"
	if check {
		name = "check"
	}
	fs, help := newFlags(name), generateHelp
	if check {
		help = checkHelp
	}
	specPath := fs.String("f", "", "the spec file (default: mcpgen.yaml or mcpgen.yml in the current directory)")
	outDir := fs.String("o", "", "the output directory (default: the spec's go.output, else the spec's directory)")
	if err := parseFlags(fs, args, help, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("%s takes no arguments, got %q", name, fs.Args())}
	}
	path, err := findSpec(*specPath)
	if err != nil {
		return err
	}
	s, files, err := load(path, stderr)
	if err != nil {
		return err
	}
	dir := *outDir
	if dir == "" {
		dir = filepath.Join(filepath.Dir(path), filepath.FromSlash(s.Go.Output))
	}
	clientDir, clientFiles, err := client(path, s, dir)
	if err != nil {
		return err
	}
	if check {
		fix := selfCommand() + " generate"
		if *specPath != "" {
			fix += " -f " + shellQuote(*specPath)
		}
		if *outDir != "" {
			fix += " -o " + shellQuote(*outDir)
		}
		err := checkFiles(dir, files, fix, stdout, stderr)
		if clientDir != "" && (err == nil || errors.Is(err, errFindings)) {
			if cerr := checkFiles(clientDir, clientFiles, fix, stdout, stderr); cerr != nil {
				err = cerr
			}
		}
		return err
	}
	if err := writeFiles(dir, files, stderr); err != nil {
		return err
	}
	if clientDir != "" {
		return writeFiles(clientDir, clientFiles, stderr)
	}
	return nil
}

// client generates the typed client package that go.client asks for, into
// its directory (relative to the spec); "" and no files when there is
// none. The client imports the server package, whose import path comes
// from the go.mod above the server's directory, serverDir.
func client(specPath string, s *spec.Spec, serverDir string) (string, []gen.File, error) {
	if s.Go.Client == "" {
		return "", nil, nil
	}
	absServer, err := filepath.Abs(serverDir)
	if err != nil {
		return "", nil, err
	}
	root, ok := moduleRoot(absServer)
	if !ok {
		return "", nil, fmt.Errorf("go.client: the client imports the server package, but no go.mod is above %s to give its import path", relative(serverDir))
	}
	modPath, err := modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", nil, err
	}
	importPath := modPath
	if rel, err := filepath.Rel(root, absServer); err == nil && rel != "." {
		importPath += "/" + filepath.ToSlash(rel)
	}
	files, err := gen.Client(s, gen.ClientOptions{ServerImport: importPath})
	if err != nil {
		return "", nil, err
	}
	return filepath.Join(filepath.Dir(specPath), filepath.FromSlash(s.Go.Client)), files, nil
}

// load reads, validates and generates. Spec findings are printed to stderr
// as file:line:col: message, and reported as errFindings.
func load(path string, stderr io.Writer) (*spec.Spec, []gen.File, error) {
	s, diags, err := spec.LoadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if len(diags) > 0 {
		printDiagnostics(stderr, diags)
		return nil, nil, errFindings
	}
	files, err := gen.Generate(s, gen.Options{SpecDir: os.DirFS(filepath.Dir(path))})
	var gd spec.Diagnostics
	if errors.As(err, &gd) {
		printDiagnostics(stderr, gd)
		return nil, nil, errFindings
	}
	if err != nil {
		return nil, nil, err
	}
	return s, files, nil
}

func printDiagnostics(w io.Writer, diags spec.Diagnostics) {
	for _, d := range diags {
		fmt.Fprintln(w, d.String())
	}
	fmt.Fprintf(w, "mcpgen: %d problem%s in the spec\n", len(diags), plural(len(diags)))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// relative shows a path relative to the current directory when it can.
func relative(path string) string {
	if wd, err := os.Getwd(); err == nil {
		if abs, err := filepath.Abs(path); err == nil {
			if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
				return rel
			}
		}
	}
	return path
}
