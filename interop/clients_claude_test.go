package interop

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// anthropicStub answers the Anthropic Messages API as Claude Code calls it
// (ANTHROPIC_BASE_URL): the tools of each request are recorded, and the
// first request that offers the tool to call gets a tool_use of it.
func anthropicStub(t *testing.T, server string, c clientCase) *modelStub {
	want := "mcp__" + server + "__" + c.call
	return newModelStub(t, func(offered []string) (string, bool) {
		return want, c.call != "" && slices.Contains(offered, want)
	}, c.input, func(m *modelStub, w http.ResponseWriter, r *http.Request, body []byte) {
		if strings.HasSuffix(r.URL.Path, "/count_tokens") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"input_tokens":10}`)
			return
		}
		if !strings.HasSuffix(r.URL.Path, "/v1/messages") {
			http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"stub"}}`, 404)
			return
		}
		var req struct {
			Model  string `json:"model"`
			Stream bool   `json:"stream"`
			Tools  []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"input_schema"`
			} `json:"tools"`
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		jsonBody(t, body, &req)
		var names []string
		schemas := map[string]json.RawMessage{}
		for _, tool := range req.Tools {
			names = append(names, tool.Name)
			schemas[tool.Name] = tool.InputSchema
		}
		result := ""
		for _, msg := range req.Messages {
			var blocks []struct {
				Type    string          `json:"type"`
				Content json.RawMessage `json:"content"`
			}
			if json.Unmarshal(msg.Content, &blocks) == nil {
				for _, b := range blocks {
					if b.Type == "tool_result" {
						result = string(b.Content)
					}
				}
			}
		}
		// The real API refuses a request whose tools' input_schema has a
		// union at the top level (lint's CLIENT_DROPS_TOOL): so does the
		// stub, with the API's error, and records nothing.
		for i, tool := range req.Tools {
			var root map[string]json.RawMessage
			json.Unmarshal(tool.InputSchema, &root)
			for _, k := range []string{"allOf", "oneOf", "anyOf"} {
				if root[k] != nil {
					m.mu.Lock()
					m.refused = append(m.refused, tool.Name)
					m.mu.Unlock()
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(400)
					fmt.Fprintf(w, `{"type":"error","error":{"type":"invalid_request_error","message":"tools.%d.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"}}`, i)
					return
				}
			}
		}
		call := m.offered(names, schemas, result)
		msgStart := map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_stub", "type": "message", "role": "assistant", "model": req.Model,
			"content": []any{}, "stop_reason": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}}
		var block, delta map[string]any
		stop := "end_turn"
		if call != "" {
			input, _ := json.Marshal(m.input)
			block = map[string]any{"type": "tool_use", "id": "toolu_stub1", "name": call, "input": map[string]any{}}
			delta = map[string]any{"type": "input_json_delta", "partial_json": string(input)}
			stop = "tool_use"
		} else {
			block = map[string]any{"type": "text", "text": ""}
			delta = map[string]any{"type": "text_delta", "text": "Done."}
		}
		if !req.Stream {
			full := map[string]any{"id": "msg_stub", "type": "message", "role": "assistant", "model": req.Model, "stop_reason": stop,
				"usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}
			if call != "" {
				full["content"] = []any{map[string]any{"type": "tool_use", "id": "toolu_stub1", "name": call, "input": m.input}}
			} else {
				full["content"] = []any{map[string]any{"type": "text", "text": "Done."}}
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(full)
			return
		}
		sse(w,
			[2]any{"message_start", msgStart},
			[2]any{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block}},
			[2]any{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta}},
			[2]any{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
			[2]any{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": map[string]any{"output_tokens": 1}}},
			[2]any{"message_stop", map[string]any{"type": "message_stop"}},
		)
	})
}

// claudeConfig is an --mcp-config file for the example over transport.
func claudeConfig(t *testing.T, dir, server, transport, target string) string {
	entry := map[string]any{"type": "stdio", "command": target}
	if transport == "http" {
		entry = map[string]any{"type": "http", "url": target}
	}
	data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{server: entry}})
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// claudePermissions writes the .claude/settings.json `mcpgen config claude`
// writes for the case into the project dir proj (its permission rules: a
// read-only tool allowed, the others asked, which claude -p refuses), and
// marks proj trusted in HOME's .claude.json, as accepting Claude Code's
// trust dialog once does (it ignores a project's allow rules before).
func claudePermissions(t *testing.T, mcpgen string, c clientCase, home, proj string) {
	t.Helper()
	out, err := exec.Command(mcpgen, "config", "claude", "-f", c.spec(t), "--name", c.example, "--out-dir", proj).CombinedOutput()
	if err != nil {
		t.Fatalf("mcpgen config claude: %v\n%s", err, out)
	}
	os.Remove(filepath.Join(proj, ".mcp.json")) // the server comes from --mcp-config
	path := filepath.Join(home, ".claude.json")
	state := map[string]any{}
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &state); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	projects, _ := state["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
	}
	entry, _ := projects[proj].(map[string]any)
	if entry == nil {
		entry = map[string]any{}
	}
	entry["hasTrustDialogAccepted"] = true
	projects[proj], state["projects"] = entry, projects
	data, _ := json.MarshalIndent(state, "", "  ")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestClaudeCode: Claude Code 2.1 connects to each example over both
// transports (claude mcp list / get), hands its model every tool the server
// lists to a client without MCP Apps, none of the app-only ones, and one
// call goes through. Claude Code 2.1 strips a top-level allOf/oneOf/anyOf
// (which the Anthropic API refuses, and the stub refuses too) from a
// tool's schema before sending it: the tool stays, its constraints are
// not told to the model (lint's CLIENT_DROPS_TOOL).
func TestClaudeCode(t *testing.T) {
	claude := needClient(t, "claude")
	mcpgen := sync.OnceValue(func() string { return buildMcpgen(t, t.TempDir()) })
	for _, c := range clientCases {
		for _, transport := range transports {
			t.Run(c.example+"/"+transport, func(t *testing.T) {
				home := t.TempDir()
				proj := filepath.Join(home, "proj")
				os.MkdirAll(proj, 0o755)
				target := exampleTarget(t, c.example, transport)
				server := c.example
				stub := anthropicStub(t, server, c)
				env := clientEnv(t, home, "ANTHROPIC_BASE_URL="+stub.srv.URL, "ANTHROPIC_API_KEY=sk-ant-placeholder", "MCP_TIMEOUT=60000",
					"ENABLE_TOOL_SEARCH=false") // every tool in the request, not behind its ToolSearch

				entry, _ := json.Marshal(map[string]any{"type": "stdio", "command": target})
				if transport == "http" {
					entry, _ = json.Marshal(map[string]any{"type": "http", "url": target})
				}
				if out, errOut, code := runClient(t, 2*time.Minute, proj, env, "", claude, "mcp", "add-json", "-s", "user", server, string(entry)); code != 0 {
					t.Fatalf("claude mcp add-json: %d\n%s%s", code, out, errOut)
				}
				out, errOut, code := runClient(t, 2*time.Minute, proj, env, "", claude, "mcp", "list")
				if code != 0 || !strings.Contains(out, server+":") || !strings.Contains(out, "Connected") {
					t.Errorf("claude mcp list: %d\n%s%s", code, out, errOut)
				}
				out, errOut, code = runClient(t, 2*time.Minute, proj, env, "", claude, "mcp", "get", server)
				if code != 0 || !strings.Contains(out, "Connected") {
					t.Errorf("claude mcp get: %d\n%s%s", code, out, errOut)
				}

				if !modelRun(c, transport) {
					return
				}
				cfg := claudeConfig(t, home, server, transport, target)
				args := []string{"-p", "Use the " + server + " tools.", "--mcp-config", cfg, "--strict-mcp-config",
					"--model", "claude-sonnet-4-5", "--output-format", "json", "--max-turns", "3"}
				if c.configAllows {
					claudePermissions(t, mcpgen(), c, home, proj)
				} else {
					args = append(args, "--allowedTools", "mcp__"+server)
				}
				out, errOut, code = runClient(t, 3*time.Minute, proj, env, "", claude, args...)
				checkModelRun(t, "claude", c, server, stub, out, errOut, code, func() {
					for _, tool := range c.rewritten["claude"] {
						var root map[string]json.RawMessage
						json.Unmarshal(stub.schema["mcp__"+server+"__"+tool], &root)
						if root == nil || root["allOf"] != nil || root["oneOf"] != nil || root["anyOf"] != nil {
							t.Errorf("claude sent %s's schema with a top-level union (or none): %s; it stripped them before", tool, stub.schema["mcp__"+server+"__"+tool])
						}
					}
				})
			})
		}
	}
}
