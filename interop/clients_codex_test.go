package interop

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// codexConfig is the [mcp_servers.NAME] table `mcpgen config codex` writes
// for the example over transport (so that its enabled_tools are checked
// against what Codex really lists: issue 28.3).
func codexConfig(t *testing.T, mcpgen, example, transport, target string) string {
	t.Helper()
	args := []string{"config", "codex", "-f", "../examples/" + example + "/mcpgen.yaml", "--name", example}
	if transport == "http" {
		args = append(args, "--url", target)
	} else {
		args = append(args, "--command", target)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, mcpgen, args...).Output()
	if err != nil {
		t.Fatalf("mcpgen config codex: %v", err)
	}
	// Render prints a "# path: note" line first.
	_, toml, _ := strings.Cut(string(out), "\n")
	return toml
}

// codexAppServer runs `codex app-server` (JSON-RPC over stdio), initializes
// it and returns mcpServerStatus/list's entry for server: the tools Codex
// has from it, by name.
func codexAppServer(t *testing.T, codex string, env []string, dir, server string) map[string]json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "app-server")
	cmd.Dir, cmd.Env, cmd.WaitDelay = dir, env, 5*time.Second
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	send := func(msg string) { io.WriteString(stdin, msg+"\n") }
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 16<<20)
	await := func(id int) json.RawMessage {
		for lines.Scan() {
			var m struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(lines.Bytes(), &m) == nil && m.ID != nil && *m.ID == id {
				if m.Error != nil {
					t.Fatalf("codex app-server: request %d: %s", id, m.Error)
				}
				return m.Result
			}
		}
		t.Fatalf("codex app-server ended before answering %d (%v)\n%s", id, ctx.Err(), errOut.String())
		return nil
	}
	send(`{"method":"initialize","id":0,"params":{"clientInfo":{"name":"mcpgen-interop","title":"mcpgen interop","version":"1"}}}`)
	await(0)
	send(`{"method":"initialized"}`)
	send(`{"method":"mcpServerStatus/list","id":1,"params":{}}`)
	var res struct {
		Data []struct {
			Name  string                     `json:"name"`
			Tools map[string]json.RawMessage `json:"tools"`
		} `json:"data"`
	}
	if err := json.Unmarshal(await(1), &res); err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Data {
		if d.Name == server {
			return d.Tools
		}
	}
	t.Fatalf("mcpServerStatus/list has no %s: %+v\n%s", server, res, errOut.String())
	return nil
}

// TestCodex: Codex 0.171, configured by `mcpgen config codex`, connects to
// each example over both transports and lists every tool the server lists
// to a client without MCP Apps (enabled_tools names what the server lists),
// none of the app-only ones.
func TestCodex(t *testing.T) {
	codex := needClient(t, "codex")
	mcpgen := buildMcpgen(t, t.TempDir())
	for _, c := range clientCases {
		for _, transport := range transports {
			t.Run(c.example+"/"+transport, func(t *testing.T) {
				home, err := os.MkdirTemp("/var/tmp", "codex-home-") // Codex refuses helper binaries under /tmp
				if err != nil {
					home = t.TempDir()
				}
				t.Cleanup(func() { os.RemoveAll(home) })
				proj := filepath.Join(home, "proj")
				os.MkdirAll(proj, 0o755)
				target := exampleTarget(t, c.example, transport)
				env := clientEnv(t, home, "OPENAI_API_KEY=sk-placeholder")
				config := codexConfig(t, mcpgen, c.example, transport, target)
				if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(config), 0o644); err != nil {
					t.Fatal(err)
				}
				server := c.example
				tools := codexAppServer(t, codex, env, proj, server)
				var got []string
				for name := range tools {
					got = append(got, name)
				}
				slices.Sort(got)
				want := listTools(t, c)
				want = slices.DeleteFunc(want, func(n string) bool { return slices.Contains(c.dropped["codex"], n) })
				if !slices.Equal(got, want) {
					t.Errorf("codex lists %q of %s's tools, want %q\nconfig:\n%s", got, c.example, want, config)
				}
				for _, n := range c.never {
					if slices.Contains(got, n) {
						t.Errorf("codex lists the app-only tool %s", n)
					}
				}
			})
		}
	}
}
