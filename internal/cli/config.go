package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/clientconfig"
)

const configHelp = `usage: mcpgen config claude|codex|cursor|gemini|vscode [-f spec] [--command CMD | --url URL] [--name NAME] [--env KEY]... [--out-dir DIR]

Prints the configuration a coding agent needs to use the server: how to
start it (stdio) or reach it (--url, Streamable HTTP), and a permission per
tool derived from its annotations: readOnlyHint: true is allowed,
destructiveHint: true is denied (asked about when the tool declares
idempotency:, as a retry cannot act twice), any other tool is asked about.
A tool's permission: allow|ask|deny in the spec overrides that. Each tool's
permission, and why, is printed to stderr.

  claude  .mcp.json, and the permissions of .claude/settings.json
          (rules name tools mcp__NAME__TOOL)
  codex   the [mcp_servers.NAME] table of .codex/config.toml: enabled_tools
          (allowed and asked tools), disabled_tools (denied ones), and
          approval_mode per tool: approve (allow) or prompt (ask)
  cursor  .cursor/mcp.json, and the mcpAllowlist (NAME:TOOL) of
          ~/.cursor/permissions.json; Cursor asks about every other tool
  gemini  the mcpServers entry of .gemini/settings.json: includeTools
          (allowed and asked tools) and excludeTools (denied ones); Gemini
          CLI asks before each call
  vscode  the servers entry of .vscode/mcp.json (VS Code asks before each
          call and keeps the answers in its own settings)

The tools configured are those the client lists: with exposure: search,
search_tools, describe_tools and call_tool (asked about unless every tool
behind it is allowed); never app-only tools (ui visibility [app]), which
the server lists only to hosts that show MCP Apps views.

The stdio command defaults to the built server, ./bin/NAME under the
output directory (or the current one), built with
"go build -o bin/NAME ./DIR" (DIR: the spec's directory, a main package as
mcpgen init scaffolds it), which config prints: a built binary starts at
once, where "go run" compiles first and can miss a client's startup
timeout. A --command that runs go gets, for Codex, startup_timeout_sec and
the variables go's caches need. Secrets never go in these files: --env KEY
passes the variable by reference (${KEY} for Claude Code and Gemini CLI,
${env:KEY} for Cursor and VS Code, env_vars for Codex).

--out-dir writes the project files under DIR, merging into existing ones:
only this server's entry and rules are replaced. Per-user files
(~/.cursor/permissions.json) are printed, never written.
` + discoveryHelp + `
Examples:
  mcpgen config claude --out-dir .
  mcpgen config codex --command "go run ./cmd/server" --env ORDERS_API_TOKEN
  mcpgen config cursor --url http://127.0.0.1:8080/mcp
`

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// runConfig is `mcpgen config`.
func runConfig(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("config")
	specPath := fs.String("f", "", "the spec file")
	command := fs.String("command", "", "the command that starts the server over stdio")
	url := fs.String("url", "", "the URL of a Streamable HTTP server")
	name := fs.String("name", "", "the server's name in the client (default: server.name)")
	outDir := fs.String("out-dir", "", "write the project files under this directory")
	var env listFlag
	fs.Var(&env, "env", "an environment variable the server needs (repeatable)")
	rest, err := parseInterspersed(fs, args, configHelp, stdout)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usageError{fmt.Sprintf("config needs one client: claude, codex, cursor, gemini or vscode; got %q", rest)}
	}
	client := clientconfig.Client(rest[0])
	if !slices.Contains(clientconfig.Clients, client) {
		return usageError{fmt.Sprintf("unknown client %q; use claude, codex, cursor, gemini or vscode", rest[0])}
	}
	if *command != "" && *url != "" {
		return usageError{"--command starts a stdio server and --url reaches an HTTP one; give one"}
	}
	path, err := findSpec(*specPath)
	if err != nil {
		return err
	}
	s, err := loadSpec(path, stderr)
	if err != nil {
		return err
	}
	opts := clientconfig.Options{Name: *name, URL: *url, Env: env}
	switch {
	case *command != "":
		if opts.Command, err = clientconfig.SplitCommand(*command); err != nil {
			return usageError{"--command: " + err.Error()}
		}
	case *url == "":
		base := *outDir
		if base == "" {
			base = "."
		}
		serverName := *name
		if serverName == "" {
			serverName = s.Server.Name
		}
		var build []string
		var ok bool
		opts.Command, build, ok = clientconfig.DefaultCommand(filepath.Dir(path), base, serverName)
		if !ok {
			fmt.Fprintf(stderr, "mcpgen: no main package in %s, so %q will not build a server; pass --command\n",
				relative(filepath.Dir(path)), strings.Join(build, " "))
		} else {
			fmt.Fprintf(stderr, "mcpgen: the client starts the built server %s: build it from %s with\n  %s\nand again after each change (or pass --command)\n",
				opts.Command[0], relative(base), strings.Join(build, " "))
		}
	}
	files, err := clientconfig.Build(s, client, opts)
	if err != nil {
		return usageError{err.Error()}
	}
	printReasons(stderr, clientconfig.Reasons(s))
	if *outDir == "" {
		clientconfig.Render(stdout, files)
		return nil
	}
	var printed []clientconfig.File
	for _, f := range files {
		if strings.HasPrefix(f.Path, "~/") {
			printed = append(printed, f)
			continue
		}
		target := filepath.Join(*outDir, filepath.FromSlash(f.Path))
		content, verb := f.Content, "wrote"
		if old, err := os.ReadFile(target); err == nil {
			if content, err = f.Merge(old); err != nil {
				return err
			}
			verb = "updated"
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, content, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "mcpgen: %s %s (%s)\n", verb, relative(target), f.Note)
	}
	clientconfig.Render(stdout, printed)
	return nil
}

// printReasons tells the user why each tool got its permission, so that a
// surprising deny can be traced to the annotation (or missing idempotency:)
// behind it.
func printReasons(w io.Writer, rows [][3]string) {
	if len(rows) == 0 {
		return
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r[0]))
	}
	fmt.Fprintln(w, "mcpgen: tool permissions:")
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %-5s  %s\n", width, r[0], r[1], r[2])
	}
}
