package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/clientconfig"
	"github.com/mcpgen/mcpgen/internal/openapi"
	"github.com/mcpgen/mcpgen/internal/specformat"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/templates"
)

const initHelp = `usage: mcpgen init [dir] [-module path] [-name server-name] [-replace checkout]
       mcpgen init [dir] -openapi FILE [-tag t,…] [-path glob,…] [-operation id,…] [flags]

Scaffolds a ready-to-run MCP server in dir (default: the current directory;
created if missing):

  mcpgen.yaml   the spec, every option shown with its default: one tool,
                resource, resource template and prompt to start from
  handlers.go   your implementation of the generated Handler (yours: mcpgen
                never rewrites it)
  main.go       serves stdio, or Streamable HTTP at /mcp with -http ADDR
  generate.go   //go:generate go tool mcpgen generate
  .mcp.json     starts the built server (bin/NAME) from Claude Code
  .claude/settings.json  Claude Code's permission per tool (as mcpgen
                config claude writes them)
  NAMEmcp/      the generated code

It uses the go.mod of dir or of a parent, else runs go mod init; adds mcpgen
to go.mod as a tool (go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen);
generates the code; runs go mod tidy; and prints how to run and connect.

It writes nothing, and exits 1 listing every file in the way, when one of
them exists, when dir holds other Go files, or when a directory between dir
and the module root already holds a spec.

With -openapi FILE it scaffolds a server that calls an HTTP API instead:
mcpgen.yaml is imported from the OpenAPI description FILE (as mcpgen import
openapi does, with its lock file for later re-imports), and main.go serves
the generated UpstreamHandler, so there is no handlers.go to write. The
API's base URL comes from the description's servers, and can be replaced at
run time with -base-url or the environment variable the spec's
upstream.baseUrlEnv names.

Flags:
  -openapi FILE  scaffold from an OpenAPI 3.0/3.1 or Swagger 2.0 description (see above);
                 -tag, -path, -operation, -exclude-tag, -exclude-path and
                 -exclude-operation select operations as in mcpgen import
                 openapi
  -module path   the module path for go mod init when there is no go.mod
                 (default: the server name); must match an existing go.mod
  -name name     the server's name (default: dir's name), letters, digits,
                 '.', '_' and '-'; the Go package is the name + "mcp"
  -replace dir   build against a local clone of mcpgen: writes
                 replace github.com/mcpgen/mcpgen => dir into go.mod, so
                 nothing is fetched from the module proxy for mcpgen. A go.mod
                 that already has such a replace is used as it is.

Examples:
  mkdir hello && cd hello && mcpgen init -module example.com/hello
  go run github.com/mcpgen/mcpgen/cmd/mcpgen@latest init hello
  cd mcpgen && go run ./cmd/mcpgen init ../hello -module example.com/hello -replace .
`

// mcpgenModule is the module that the scaffolded server requires.
const mcpgenModule = "github.com/mcpgen/mcpgen"

// zeroVersion is the version required alongside a -replace: any version
// works once replaced, and this one needs no module proxy.
const zeroVersion = "v0.0.0-00010101000000-000000000000"

var serverNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// runInit is `mcpgen init`.
func runInit(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("init")
	modFlag := fs.String("module", "", "module path for go mod init")
	nameFlag := fs.String("name", "", "the server's name")
	// -replace writes `replace github.com/mcpgen/mcpgen => path` into
	// go.mod (with a placeholder requirement) before anything is fetched,
	// so that a scaffold builds against a local clone, offline.
	replace := fs.String("replace", "", "a local clone of mcpgen to build against")
	openapiFile := fs.String("openapi", "", "an OpenAPI description to scaffold from")
	var sel openapi.Options
	for name, l := range map[string]*[]string{"tag": &sel.Tags, "path": &sel.Paths, "operation": &sel.Operations,
		"exclude-tag": &sel.ExcludeTags, "exclude-path": &sel.ExcludePaths, "exclude-operation": &sel.ExcludeOperations} {
		fs.Var((*commaList)(l), name, "selection (with -openapi)")
	}
	// Flags may come before or after dir.
	var pos []string
	for {
		if err := parseFlags(fs, args, initHelp, stdout); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) > 1 {
		return usageError{fmt.Sprintf("init takes one directory, got %q", pos)}
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return usageError{fmt.Sprintf("%s is a file, not a directory", relative(dir))}
	}

	name := *nameFlag
	if name == "" {
		name = serverName(filepath.Base(dir))
	} else if !serverNameRE.MatchString(name) {
		return usageError{fmt.Sprintf("-name %q: use letters, digits, '.', '_' and '-', starting with a letter or digit", name)}
	}
	pkg := packageName(name)

	// The module: dir's go.mod or a parent's, else one made here.
	root, haveMod := moduleRoot(dir)
	modPath := *modFlag
	if haveMod {
		declared, err := modulePath(filepath.Join(root, "go.mod"))
		if err != nil {
			return err
		}
		if modPath != "" && modPath != declared {
			return usageError{fmt.Sprintf("-module %s, but %s already declares module %s", modPath, relative(filepath.Join(root, "go.mod")), declared)}
		}
		modPath = declared
	} else {
		root = dir
		if modPath == "" {
			modPath = name
		}
	}
	importPath := modPath
	if rel, err := filepath.Rel(root, dir); err == nil && rel != "." {
		importPath += "/" + filepath.ToSlash(rel)
	}
	importPath += "/" + pkg
	if bad := badImportPath(importPath); bad != "" {
		return usageError{fmt.Sprintf("the generated package would be %q, not a valid import path: %s; pick a directory (or -module) of letters, digits and - . _ ~", importPath, bad)}
	}

	schemaURL := specformat.SchemaID
	if *replace != "" {
		if *replace, err = filepath.Abs(*replace); err != nil {
			return err
		}
		// A checkout has the schema of its own version.
		if rel, err := filepath.Rel(dir, filepath.Join(*replace, "mcpgen.schema.json")); err == nil {
			schemaURL = filepath.ToSlash(rel)
		}
	} else if v := Version(); strings.HasPrefix(v, "v") {
		schemaURL = strings.Replace(schemaURL, "/main/", "/"+v+"/", 1)
	}
	version := Version()
	if !strings.HasPrefix(version, "v") {
		version = "latest"
	}
	scaffold := templates.Scaffold{Name: name, Package: pkg, Import: importPath, SchemaURL: schemaURL, Version: version}
	var files []templates.File
	var imported *openapi.Result
	if *openapiFile != "" {
		files, imported, err = openapiScaffold(*openapiFile, scaffold, sel, stderr)
	} else {
		files, err = templates.Init(scaffold)
	}
	if err != nil {
		return err
	}

	// Claude Code's files are written from the generated spec, below.
	claudePaths := []templates.File{{Path: ".mcp.json"}, {Path: filepath.FromSlash(".claude/settings.json")}}
	if err := initConflicts(dir, root, pkg, append(slices.Clone(files), claudePaths...)); err != nil {
		return err
	}

	// go.mod first: a failure there leaves nothing behind (not even the
	// directory init made), and init can simply run again.
	_, statErr := os.Stat(dir)
	madeDir := os.IsNotExist(statErr)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	goCmd := func(args ...string) error { return runGo(dir, stderr, args...) }
	if !haveMod {
		if err := goCmd("mod", "init", modPath); err != nil {
			return err
		}
	}
	if modPath != mcpgenModule {
		if err := requireMcpgen(dir, *replace, stderr); err != nil {
			if !haveMod {
				// Leave no stray go.mod: init can run again as it was.
				os.Remove(filepath.Join(dir, "go.mod"))
				os.Remove(filepath.Join(dir, "go.sum"))
			}
			if madeDir {
				os.Remove(dir) // only if empty
			}
			return err
		}
	}

	for _, f := range files {
		if err := writeNew(filepath.Join(dir, f.Path), f.Bytes); err != nil {
			return err
		}
	}
	if imported != nil {
		// The lock lets `mcpgen import openapi -o mcpgen.yaml NEWER` keep
		// the curation later.
		spec := filepath.Join(dir, "mcpgen.yaml")
		if err := writeSpecAndLock(spec, lockFile(spec), imported); err != nil {
			return err
		}
	}
	// Generate in-process, exactly as `mcpgen generate` does.
	specPath := relative(filepath.Join(dir, "mcpgen.yaml"))
	s, gen, err := load(specPath, stderr)
	if err != nil {
		return fmt.Errorf("generating from the scaffolded spec: %w", err)
	}
	if err := writeFiles(filepath.Join(dir, filepath.FromSlash(s.Go.Output)), gen, stderr); err != nil {
		return err
	}
	if err := writeClaudeFiles(dir, s); err != nil {
		return err
	}
	if err := goCmd("mod", "tidy"); err != nil {
		return fmt.Errorf("%w (the files are written; fix the cause and run go mod tidy in %s)", err, relative(dir))
	}
	printNext(stdout, dir, name, pkg, imported != nil)
	return nil
}

// writeClaudeFiles writes what `mcpgen config claude` writes for the
// scaffold: .mcp.json, which starts the built server (bin/NAME), and the
// permission rules of .claude/settings.json beside it.
func writeClaudeFiles(dir string, s *spec.Spec) error {
	files, err := clientconfig.Build(s, clientconfig.Claude, clientconfig.Options{Command: []string{"./" + scaffoldBinary(s.Server.Name)}})
	if err != nil {
		return err
	}
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := writeNew(path, f.Content); err != nil {
			return err
		}
	}
	return nil
}

// scaffoldBinary is where the scaffold's server is built, relative to its
// directory: what .mcp.json starts.
func scaffoldBinary(name string) string { return "bin/" + clientconfig.SafeName(name) }

// openapiScaffold imports the description at path for `init -openapi`:
// the spec, named after the scaffold, with its generated code in the
// scaffold's package directory, and the files around it.
func openapiScaffold(path string, sc templates.Scaffold, sel openapi.Options, stderr io.Writer) ([]templates.File, *openapi.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	sel.ServerName, sel.Package, sel.Output = sc.Name, sc.Package, sc.Package
	defer importMemoryLimit()()
	res, err := openapi.Import(data, sel)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(stderr, "note: %s\n", n)
	}
	s, diags := spec.Load("mcpgen.yaml", res.YAML)
	if len(diags) > 0 {
		return nil, nil, fmt.Errorf("the spec imported from %s does not load (please report it):\n%v", path, diags)
	}
	if s.Upstream != nil {
		sc.BaseURLEnv = s.Upstream.BaseURLEnv
	}
	files, err := templates.InitOpenAPI(sc, res.YAML)
	return files, res, err
}

// writeNew writes a file that must not exist yet: even a file created
// since initConflicts looked is never overwritten.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// initConflicts refuses a scaffold that would overwrite anything, or that
// would sit under another spec of the module (which discovery would find
// from the directories between). Every problem is listed at once.
func initConflicts(dir, root, pkg string, files []templates.File) error {
	var in []string
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(dir, f.Path)); err == nil {
			in = append(in, relative(filepath.Join(dir, f.Path)))
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "mcpgen.yml")); err == nil {
		in = append(in, relative(filepath.Join(dir, "mcpgen.yml")))
	}
	if entries, err := os.ReadDir(filepath.Join(dir, pkg)); err == nil && len(entries) > 0 {
		in = append(in, relative(filepath.Join(dir, pkg))+string(filepath.Separator)+" (not empty)")
	}
	if gofiles, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(gofiles) > 0 {
		for _, g := range gofiles {
			if !slices.Contains(in, relative(g)) {
				in = append(in, relative(g)+" (init writes package main here)")
			}
		}
	}
	var above []string
	for d := dir; d != root; {
		d = filepath.Dir(d)
		for _, n := range []string{"mcpgen.yaml", "mcpgen.yml"} {
			if isFile(filepath.Join(d, n)) {
				above = append(above, relative(filepath.Join(d, n)))
			}
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	if len(in) == 0 && len(above) == 0 {
		return nil
	}
	var msg strings.Builder
	msg.WriteString("init wrote nothing:")
	if len(in) > 0 {
		msg.WriteString(" these are in the way (move them, or pick a new directory):")
		for _, p := range in {
			msg.WriteString("\n  " + p)
		}
	}
	if len(above) > 0 {
		if len(in) > 0 {
			msg.WriteString("\nand")
		}
		msg.WriteString(" a parent directory in the module already holds a spec (edit it, or init outside it):")
		for _, p := range above {
			msg.WriteString("\n  " + p)
		}
	}
	return fmt.Errorf("%s", msg.String())
}

// requireMcpgen adds mcpgen to go.mod as a tool. A module that already
// requires mcpgen keeps its version (go mod edit -tool only). A -replace, or
// a replace already in go.mod, needs no module proxy: go mod edit alone.
// Otherwise go get -tool at this binary's version (the latest when it has
// none), and when that fails the error says how to use a local clone.
func requireMcpgen(dir, replace string, stderr io.Writer) error {
	tool := mcpgenModule + "/cmd/mcpgen"
	mod, err := readGoMod(dir)
	if err != nil {
		return err
	}
	edits := []string{"mod", "edit", "-tool=" + tool}
	switch {
	case replace != "":
		edits = append(edits, "-replace="+mcpgenModule+"="+replace)
		if !mod.requires(mcpgenModule) {
			edits = append(edits, "-require="+mcpgenModule+"@"+zeroVersion)
		}
	case mod.replaces(mcpgenModule):
		if !mod.requires(mcpgenModule) {
			edits = append(edits, "-require="+mcpgenModule+"@"+zeroVersion)
		}
	case !mod.requires(mcpgenModule):
		target := tool
		if v := Version(); strings.HasPrefix(v, "v") {
			target += "@" + v
		}
		if err := runGo(dir, stderr, "get", "-tool", target); err != nil {
			return fmt.Errorf("%w\n%s", err, localCloneHint())
		}
		return nil
	}
	return runGo(dir, stderr, edits...)
}

// localCloneHint says what to do when go get cannot fetch mcpgen: it is not
// on the module proxy yet, or the network is off. The clone this binary was
// built from is named when its source is still where it was compiled.
func localCloneHint() string {
	clone := "/path/to/mcpgen"
	if _, file, _, ok := goruntime.Caller(0); ok {
		// file is CLONE/internal/cli/init.go unless built with -trimpath.
		if root := filepath.Dir(filepath.Dir(filepath.Dir(file))); isFile(filepath.Join(root, "cmd", "mcpgen", "main.go")) {
			clone = root
		}
	}
	return fmt.Sprintf("mcpgen could not be fetched from the Go module proxy (not published there yet, or no network).\n"+
		"To build against a local clone of https://github.com/mcpgen/mcpgen instead, run init again with\n"+
		"  -replace %s\n"+
		"(or add `replace %s => %s` to go.mod yourself); see its README.md, \"Quick start from a clone\".",
		clone, mcpgenModule, clone)
}

// goMod is what init and registry read of a go.mod (go mod edit -json).
type goMod struct {
	Go      string
	Require []struct{ Path string }
	Replace []struct {
		Old, New struct{ Path, Version string }
	}
}

func (m goMod) requires(mod string) bool {
	return slices.ContainsFunc(m.Require, func(r struct{ Path string }) bool { return r.Path == mod })
}

func (m goMod) replaces(mod string) bool {
	for _, r := range m.Replace {
		if r.Old.Path == mod {
			return true
		}
	}
	return false
}

// readGoMod reads the go.mod of dir's module.
func readGoMod(dir string) (goMod, error) {
	cmd := exec.Command("go", "mod", "edit", "-json")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var mod goMod
	out, err := cmd.Output()
	if err != nil {
		return mod, fmt.Errorf("go mod edit -json: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	err = json.Unmarshal(out, &mod)
	return mod, err
}

// runGo runs the go command in dir, its output going to stderr (stdout is
// init's own report).
func runGo(dir string, stderr io.Writer, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

// importElemRE is what the go command accepts in an import path element
// (golang.org/x/mod/module.CheckImportPath, without its rarer characters).
var importElemRE = regexp.MustCompile(`^[A-Za-z0-9_~+-][A-Za-z0-9._~+-]*$`)

// badImportPath says what is wrong with an import path, or "".
func badImportPath(p string) string {
	for _, elem := range strings.Split(p, "/") {
		switch {
		case elem == "":
			return "an empty element"
		case !importElemRE.MatchString(elem) || strings.HasSuffix(elem, "."):
			return fmt.Sprintf("%q", elem)
		}
	}
	return ""
}

// modulePath reads the module path of a go.mod.
func modulePath(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '"') {
			rest, _, _ = strings.Cut(rest, "//")
			rest = strings.Trim(strings.TrimSpace(rest), "\"`")
			if rest != "" {
				return rest, nil
			}
		}
	}
	return "", fmt.Errorf("%s declares no module path", relative(gomod))
}

// serverName turns a directory name into a server name: lower case,
// letters, digits and '-'.
func serverName(base string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(base) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	name := strings.TrimLeft(b.String(), "._")
	if name == "" {
		return "server"
	}
	return name
}

// packageName is the Go package of a server: its letters and digits, then
// "mcp" (hello-world → helloworldmcp).
func packageName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	p := b.String()
	if p == "" || p[0] >= '0' && p[0] <= '9' {
		p = "server" + p
	}
	p += "mcp"
	if !token.IsIdentifier(p) {
		return "servermcp"
	}
	return p
}

func printNext(w io.Writer, dir, name, pkg string, fromOpenAPI bool) {
	rel := relative(dir)
	where := "in " + rel
	if rel == "." {
		where = "here"
	}
	fmt.Fprintf(w, "mcpgen: scaffolded the MCP server %q %s:\n", name, where)
	for _, l := range [][2]string{
		{"mcpgen.yaml", "the spec: edit it, then run go generate ./..."},
		{"mcpgen.openapi-lock.json", "what the import wrote, for re-imports"},
		{"handlers.go", "your implementation of " + pkg + ".Handler (never rewritten)"},
		{"main.go", "serves stdio, or Streamable HTTP with -http"},
		{"generate.go", "//go:generate go tool mcpgen generate"},
		{".mcp.json", "lets Claude Code start the built server (bin/" + clientconfig.SafeName(name) + ")"},
		{".claude/", "settings.json: Claude Code's permission per tool"},
		{pkg + "/", "the generated code"},
	} {
		if (l[0] == "handlers.go" && fromOpenAPI) || (l[0] == "mcpgen.openapi-lock.json" && !fromOpenAPI) {
			continue
		}
		width := 12
		if fromOpenAPI {
			width = len("mcpgen.openapi-lock.json")
		}
		fmt.Fprintf(w, "  %-*s  %s\n", width, l[0], l[1])
	}
	fmt.Fprintln(w, "\nRun it:")
	if rel != "." {
		fmt.Fprintf(w, "  cd %s\n", rel)
	}
	fmt.Fprintf(w, "  go build -o %-19s # the server .mcp.json starts (again after each change)\n", scaffoldBinary(name))
	fmt.Fprintln(w, "  go run .                        # MCP over stdio")
	fmt.Fprintln(w, "  go run . -http 127.0.0.1:8080   # Streamable HTTP at http://127.0.0.1:8080/mcp")
	if fromOpenAPI {
		fmt.Fprintln(w, "  go run . -base-url URL          # call the API at URL (default: mcpgen.yaml's upstream)")
	}
	fmt.Fprintln(w, "\nConnect a client:")
	fmt.Fprintf(w, "  Claude Code:    start claude %s (it reads .mcp.json), or: claude mcp add %s -- go -C %s run .\n", where, name, dir)
	fmt.Fprintf(w, "  MCP Inspector:  npx @modelcontextprotocol/inspector go -C %s run .\n", dir)
}
