package interop

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// geminiStub answers the Gemini API as Gemini CLI calls it
// (GOOGLE_GEMINI_BASE_URL): generateContent and streamGenerateContent. The
// first request that offers the tool to call gets a functionCall of it,
// with wait_for_previous set as Gemini CLI's own schema invites (issue 28.2:
// the server must not refuse it).
func geminiStub(t *testing.T, server string, c clientCase) *modelStub {
	return newModelStub(t, func(offered []string) (string, bool) {
		for _, n := range offered {
			if tool, ok := mcpSuffix(server, n); ok && tool == c.call || n == c.call {
				return n, c.call != ""
			}
		}
		return "", false
	}, c.input, func(m *modelStub, w http.ResponseWriter, r *http.Request, body []byte) {
		if strings.Contains(r.URL.Path, ":countTokens") {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"totalTokens":10}`))
			return
		}
		var req struct {
			Contents []struct {
				Parts []struct {
					FunctionResponse *struct {
						Name     string          `json:"name"`
						Response json.RawMessage `json:"response"`
					} `json:"functionResponse"`
				} `json:"parts"`
			} `json:"contents"`
			Tools []struct {
				FunctionDeclarations []struct {
					Name                 string          `json:"name"`
					ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
					Parameters           json.RawMessage `json:"parameters"`
				} `json:"functionDeclarations"`
			} `json:"tools"`
		}
		jsonBody(t, body, &req)
		var names []string
		schemas := map[string]json.RawMessage{}
		for _, tl := range req.Tools {
			for _, fd := range tl.FunctionDeclarations {
				names = append(names, fd.Name)
				schemas[fd.Name] = fd.ParametersJSONSchema
				if fd.ParametersJSONSchema == nil {
					schemas[fd.Name] = fd.Parameters
				}
			}
		}
		result := ""
		for _, ct := range req.Contents {
			for _, p := range ct.Parts {
				if p.FunctionResponse != nil {
					result = string(p.FunctionResponse.Response)
				}
			}
		}
		call := m.offered(names, schemas, result)
		part := map[string]any{"text": "Done."}
		if call != "" {
			args := map[string]any{"wait_for_previous": false}
			for k, v := range m.input {
				args[k] = v
			}
			part = map[string]any{"functionCall": map[string]any{"name": call, "args": args}}
		}
		resp := map[string]any{
			"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 1, "totalTokenCount": 11},
			"modelVersion":  "gemini-2.5-pro",
		}
		if strings.Contains(r.URL.Path, ":streamGenerateContent") {
			sse(w, [2]any{"", resp})
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
	})
}

// geminiSettings writes ~/.gemini/settings.json with the server over
// transport: an API key login, and nothing that reaches the network.
func geminiSettings(t *testing.T, home, server, transport, target string) {
	entry := map[string]any{"command": target, "trust": true}
	if transport == "http" {
		entry = map[string]any{"httpUrl": target, "trust": true}
	}
	settings := map[string]any{
		"mcpServers": map[string]any{server: entry},
		"security":   map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"general":    map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
		"privacy":    map[string]any{"usageStatisticsEnabled": false},
		"telemetry":  map[string]any{"enabled": false},
	}
	data, _ := json.MarshalIndent(settings, "", "  ")
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGeminiCLI: Gemini CLI 0.61 connects to each example over both
// transports (gemini mcp list), hands its model every tool the server
// lists to a client without MCP Apps and none of the app-only ones, and a
// call with the wait_for_previous argument it adds to every tool goes
// through (the server drops it: issue 28.2).
func TestGeminiCLI(t *testing.T) {
	gemini := needClient(t, "gemini")
	for _, c := range clientCases {
		for _, transport := range transports {
			t.Run(c.example+"/"+transport, func(t *testing.T) {
				home := t.TempDir()
				proj := filepath.Join(home, "proj")
				os.MkdirAll(proj, 0o755)
				target := exampleTarget(t, c.example, transport)
				server := c.example
				stub := geminiStub(t, server, c)
				env := clientEnv(t, home, "GOOGLE_GEMINI_BASE_URL="+stub.srv.URL, "GEMINI_API_KEY=placeholder-key", "GEMINI_CLI_TRUST_WORKSPACE=true")
				geminiSettings(t, home, server, transport, target)

				out, errOut, code := runClient(t, 2*time.Minute, proj, env, "", gemini, "mcp", "list")
				if code != 0 || !strings.Contains(out+errOut, server) || !strings.Contains(out+errOut, "Connected") {
					t.Errorf("gemini mcp list: %d\n%s%s", code, out, errOut)
				}
				if !modelRun(c, transport) {
					return
				}
				out, errOut, code = runClient(t, 3*time.Minute, proj, env, "", gemini, "-p", "Use the "+server+" tools.", "--approval-mode", "yolo", "-m", "gemini-2.5-pro", "--output-format", "json")
				checkModelRun(t, "gemini", c, server, stub, out, errOut, code, func() {
					if res := stub.toolResult(); strings.Contains(res, "wait_for_previous") {
						t.Errorf("the server refused the wait_for_previous Gemini CLI adds: %s", res)
					}
				})
			})
		}
	}
}
