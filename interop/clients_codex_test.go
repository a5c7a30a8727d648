package interop

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
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
func codexConfig(t *testing.T, mcpgen string, c clientCase, transport, target string) string {
	t.Helper()
	args := []string{"config", "codex", "-f", c.spec(t), "--name", c.example}
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

// openaiStub answers the OpenAI Responses API as Codex calls it (POST
// /v1/responses at the base_url of the model provider codexModel
// configures), streamed. Codex hands its model each MCP server's tools
// inside a namespace tool (mcp__SERVER) and expects a call by namespace
// and name; the stub records them as mcp__SERVER__TOOL, the other CLIs'
// form, and asks for one call the first time the tool is offered.
func openaiStub(t *testing.T, server string, c clientCase) *modelStub {
	want := "mcp__" + server + "__" + c.call
	return newModelStub(t, func(offered []string) (string, bool) {
		return want, c.call != "" && slices.Contains(offered, want)
	}, c.input, func(m *modelStub, w http.ResponseWriter, r *http.Request, body []byte) {
		if !strings.HasSuffix(r.URL.Path, "/v1/responses") {
			http.Error(w, `{"error":{"message":"stub: no such endpoint","type":"invalid_request_error"}}`, 404)
			return
		}
		type function struct {
			Type       string          `json:"type"`
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		}
		var req struct {
			Stream bool `json:"stream"`
			Tools  []struct {
				function
				Tools []function `json:"tools"` // a namespace's
			} `json:"tools"`
			Input []struct {
				Type   string          `json:"type"`
				Output json.RawMessage `json:"output"`
			} `json:"input"`
		}
		jsonBody(t, body, &req)
		if !req.Stream {
			t.Errorf("codex asked the Responses API for an unstreamed response; the stub streams only")
		}
		var names []string
		schemas := map[string]json.RawMessage{}
		for _, tool := range req.Tools {
			if tool.Type == "namespace" {
				for _, f := range tool.Tools {
					names = append(names, tool.Name+"__"+f.Name)
					schemas[tool.Name+"__"+f.Name] = f.Parameters
				}
				continue
			}
			names = append(names, tool.Name)
			schemas[tool.Name] = tool.Parameters
		}
		result := ""
		for _, in := range req.Input {
			if in.Type == "function_call_output" {
				var text string
				if json.Unmarshal(in.Output, &text) != nil {
					text = string(in.Output) // content items, not a string
				}
				result = text
			}
		}
		call := m.offered(names, schemas, result)
		item := map[string]any{"type": "message", "id": "msg_stub", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": "Done.", "annotations": []any{}}}}
		if tool, ok := strings.CutPrefix(call, "mcp__"+server+"__"); ok {
			args, _ := json.Marshal(m.input)
			item = map[string]any{"type": "function_call", "id": "fc_stub", "call_id": "call_stub1", "status": "completed",
				"namespace": "mcp__" + server, "name": tool, "arguments": string(args)}
		}
		usage := map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 1, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 11}
		sse(w,
			[2]any{"response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_stub"}}},
			[2]any{"response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item}},
			[2]any{"response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": "resp_stub", "usage": usage}}},
		)
	})
}

// codexModel is the top of a config.toml that points Codex at the stub
// (a model provider whose base_url is on loopback, the placeholder key in
// OPENAI_API_KEY), runs tool calls without asking, checks for no update,
// and turns off what else reaches the network: analytics (its metrics go
// to ab.chatgpt.com) and plugins (their catalogue comes from chatgpt.com
// and api.github.com). The [mcp_servers] table mcpgen config writes
// follows it.
func codexModel(stub *modelStub) string {
	return `model = "gpt-5"
model_provider = "stub"
approval_policy = "never"
check_for_update_on_startup = false

[model_providers.stub]
name = "model stub on loopback"
base_url = "` + stub.srv.URL + `/v1"
wire_api = "responses"
env_key = "OPENAI_API_KEY"

[analytics]
enabled = false

[features]
plugins = false

`
}

// TestCodex: Codex 0.171, configured by `mcpgen config codex`, connects to
// each example over both transports and lists every tool the server lists
// to a client without MCP Apps (enabled_tools names what the server lists),
// none of the app-only ones (codex app-server's mcpServerStatus/list); and
// `codex exec` hands its model, the stub, the same tools, and one call goes
// through.
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
				server := c.example
				stub := openaiStub(t, server, c)
				env := clientEnv(t, home, "OPENAI_API_KEY=sk-placeholder")
				config := codexModel(stub) + codexConfig(t, mcpgen, c, transport, target)
				if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(config), 0o644); err != nil {
					t.Fatal(err)
				}
				tools := codexAppServer(t, codex, env, proj, server)
				var got []string
				for name := range tools {
					got = append(got, name)
				}
				slices.Sort(got)
				checkToolSet(t, "codex", "lists", c, got)
				if t.Failed() {
					t.Logf("config.toml:\n%s", config)
				}

				if !modelRun(c, transport) {
					return
				}
				// The call runs unasked, as Claude Code's --allowedTools and
				// Gemini CLI's yolo let it: mcpgen config gives a tool without
				// readOnlyHint approval_mode "prompt", which codex exec (no
				// one to ask) refuses. A configAllows case runs with the
				// config's own approval modes.
				args := []string{"exec", "--skip-git-repo-check", "Use the " + server + " tools."}
				if c.call != "" && !c.configAllows {
					args = append(args, "-c", "mcp_servers."+server+".tools."+c.call+`.approval_mode="approve"`)
				}
				out, errOut, code := runClient(t, 3*time.Minute, proj, env, "", codex, args...)
				checkModelRun(t, "codex", c, server, stub, out, errOut, code, nil)
			})
		}
	}
}
