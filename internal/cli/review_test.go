package cli

// Tests of lint, diff and config through Run: exit codes, formats, flags
// and files. The rules themselves are tested in internal/lint,
// internal/breaking and internal/clientconfig.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const lintSpec = `mcpgen: 1
server: {name: shop, version: 1.0.0}
go: {package: shopmcp}
tools:
  lookup:
    description: Looks up.
    annotations: {readOnlyHint: true}
    input:
      properties:
        order_id: {type: string, description: The order to look up.}
      required: [order_id]
`

func TestLintExitAndFormats(t *testing.T) {
	dir := writeSpec(t, lintSpec)
	code, out, stderr := run(t, dir, "lint")
	if code != ExitFindings || !strings.Contains(out, "mcpgen.yaml:6:18: DESCRIPTION_TOO_SHORT: ") ||
		!strings.Contains(out, "STRING_UNBOUNDED_ID") || !strings.Contains(out, "Context budget") || !strings.Contains(stderr, "2 lint findings") {
		t.Errorf("lint: exit %d\n%s%s", code, out, stderr)
	}

	code, out, _ = run(t, dir, "lint", "--format", "json")
	var doc struct {
		Findings []struct{ Rule string }
		Budget   struct{ Tools struct{ Tokens int } }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != ExitFindings || len(doc.Findings) != 2 || doc.Budget.Tools.Tokens == 0 {
		t.Errorf("lint --format json: exit %d, %v\n%s", code, err, out)
	}

	code, out, _ = run(t, dir, "lint", "--format=github-actions")
	if code != ExitFindings || !strings.HasPrefix(out, "::warning file=mcpgen.yaml,line=6,col=18,title=DESCRIPTION_TOO_SHORT::") {
		t.Errorf("lint --format github-actions: exit %d\n%s", code, out)
	}

	// Disabled in the spec: clean, exit 0, the budget still printed.
	clean := writeSpec(t, lintSpec+"lint: {disable: [DESCRIPTION_TOO_SHORT, STRING_UNBOUNDED_ID]}\n")
	if code, out, stderr := run(t, clean, "lint"); code != ExitOK || !strings.HasPrefix(out, "Context budget") {
		t.Errorf("lint with rules disabled: exit %d\n%s%s", code, out, stderr)
	}
	if code, _, _ := run(t, dir, "lint", "--format", "xml"); code != ExitUsage {
		t.Errorf("lint --format xml: exit %d", code)
	}
	if code, out, _ := run(t, dir, "lint", "-h"); code != ExitOK || !strings.Contains(out, "usage: mcpgen lint") {
		t.Errorf("lint -h: exit %d\n%s", code, out)
	}
	// An unknown rule in lint.disable is a spec error.
	bad := writeSpec(t, lintSpec+"lint: {disable: [STRING_UNBOUNDED]}\n")
	if code, _, stderr := run(t, bad, "lint"); code != ExitFindings || !strings.Contains(stderr, `did you mean "STRING_UNBOUNDED_ID"?`) {
		t.Errorf("unknown rule: exit %d\n%s", code, stderr)
	}
}

const diffOld = `mcpgen: 1
server: {name: shop, version: 1.0.0}
go: {package: shopmcp}
tools:
  lookup:
    description: Look up an order by its id.
    input:
      properties:
        order_id: {type: string}
        verbose: {type: boolean}
      required: [order_id]
  cancel:
    description: Cancel an order that has not shipped.
`

const diffNew = `mcpgen: 1
server: {name: shop, version: 1.0.0}
go: {package: shopmcp}
tools:
  lookup:
    description: Look up an order by its id.
    input:
      properties:
        order_id: {type: string}
        verbose: {type: boolean}
`

func TestDiffFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "old.yaml"), []byte(diffOld), 0o644)
	os.WriteFile(filepath.Join(dir, "new.yaml"), []byte(diffNew), 0o644)

	code, out, stderr := run(t, dir, "diff", "old.yaml", "new.yaml")
	want := "new.yaml:9:9: GO_FIELD_SAME_TYPE: field LookupInput.OrderID changed type from string to runtime.Opt[string] (the property became optional); code that reads or sets it breaks\n" +
		"old.yaml:12:3: TOOL_NO_DELETE: tool \"cancel\" was deleted; clients that call it get an unknown-tool error\n"
	if code != ExitFindings || out != want || !strings.Contains(stderr, "2 breaking changes") {
		t.Errorf("diff: exit %d\n%s%s", code, out, stderr)
	}
	// Flags after the files; the WIRE level leaves the Go-only change out.
	code, out, _ = run(t, dir, "diff", "old.yaml", "new.yaml", "--level", "wire", "--format", "json")
	var doc struct{ Findings []struct{ Rule, File string } }
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != ExitFindings || len(doc.Findings) != 1 || doc.Findings[0].Rule != "TOOL_NO_DELETE" {
		t.Errorf("diff --level wire --format json: exit %d %v\n%s", code, err, out)
	}
	code, out, _ = run(t, dir, "diff", "--format", "github-actions", "old.yaml", "new.yaml")
	if code != ExitFindings || !strings.Contains(out, "\n::error file=old.yaml,line=12,col=3,title=TOOL_NO_DELETE::") {
		t.Errorf("diff --format github-actions: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, dir, "diff", "new.yaml", "new.yaml", "--format", "json"); code != ExitOK || strings.TrimSpace(out) != "{\n  \"findings\": []\n}" {
		t.Errorf("diff of a spec with itself: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"diff", "old.yaml"},
		{"diff", "old.yaml", "new.yaml", "--level", "file"},
		{"diff", "old.yaml", "new.yaml", "--against", "HEAD"},
	} {
		if code, _, _ := run(t, dir, args...); code != ExitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, ExitUsage)
		}
	}
}

// TestDiffAgainstGit compares the working copy of a spec with a commit of
// a real repository, from the spec's directory and from elsewhere.
func TestDiffAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	specDir := filepath.Join(repo, "server")
	os.MkdirAll(specDir, 0o755)
	specPath := filepath.Join(specDir, "mcpgen.yaml")
	os.WriteFile(specPath, []byte(diffOld), 0o644)
	git("add", ".")
	git("commit", "-q", "-m", "v1")
	os.WriteFile(specPath, []byte(diffNew), 0o644)

	code, out, stderr := run(t, specDir, "diff", "--against", "HEAD", "--level", "wire")
	if code != ExitFindings || out != "mcpgen.yaml@HEAD:12:3: TOOL_NO_DELETE: tool \"cancel\" was deleted; clients that call it get an unknown-tool error\n" {
		t.Errorf("diff --against HEAD in the spec's directory: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = run(t, repo, "diff", "--against", "HEAD", "-f", "server/mcpgen.yaml")
	if code != ExitFindings || !strings.Contains(out, "server/mcpgen.yaml@HEAD:12:3: TOOL_NO_DELETE") || !strings.Contains(out, "server/mcpgen.yaml:9:9: GO_FIELD_SAME_TYPE") {
		t.Errorf("diff --against HEAD -f from the root: exit %d\n%s%s", code, out, stderr)
	}
	git("commit", "-q", "-am", "v2")
	if code, out, stderr := run(t, specDir, "diff", "--against", "HEAD"); code != ExitOK || out != "" {
		t.Errorf("diff against the same content: exit %d\n%s%s", code, out, stderr)
	}
	if code, _, stderr := run(t, specDir, "diff", "--against", "no-such-branch"); code != ExitUsage || !strings.Contains(stderr, "not a revision") {
		t.Errorf("diff --against a bad ref: exit %d\n%s", code, stderr)
	}
	// A spec that did not exist at the revision breaks nothing.
	other := filepath.Join(repo, "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "mcpgen.yaml"), []byte(diffNew), 0o644)
	if code, _, stderr := run(t, other, "diff", "--against", "HEAD"); code != ExitOK || !strings.Contains(stderr, "did not exist at HEAD") {
		t.Errorf("diff --against a revision without the spec: exit %d\n%s", code, stderr)
	}
}

func TestConfig(t *testing.T) {
	dir := writeSpec(t, `mcpgen: 1
server: {name: shop, version: 1.0.0}
go: {package: shopmcp}
tools:
  lookup:
    description: Look up an order by its id.
    annotations: {readOnlyHint: true}
  refund:
    description: Refund an order; irreversible.
    annotations: {destructiveHint: true}
`)
	code, out, stderr := run(t, dir, "config", "claude")
	if code != ExitOK || !strings.Contains(out, `"command": "./bin/shop"`) || !strings.Contains(out, `"mcp__shop__refund"`) ||
		!strings.Contains(stderr, "no main package") {
		t.Errorf("config claude: exit %d\n%s%s", code, out, stderr)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	code, out, stderr = run(t, dir, "config", "codex", "--env", "SHOP_TOKEN", "--name", "shop-dev")
	if code != ExitOK || !strings.Contains(out, "[mcp_servers.shop-dev]") || !strings.Contains(out, `command = "./bin/shop-dev"`) ||
		!strings.Contains(out, `env_vars = ["SHOP_TOKEN"]`) || !strings.Contains(stderr, "go build -o bin/shop-dev .") {
		t.Errorf("config codex: exit %d\n%s%s", code, out, stderr)
	}
	// Why each tool got its permission, on stderr (stdout stays the files).
	wantReasons := "mcpgen: tool permissions:\n" +
		"  lookup  allow  readOnlyHint: true\n" +
		"  refund  deny   destructiveHint: true, without idempotency:\n"
	if !strings.HasSuffix(stderr, wantReasons) {
		t.Errorf("config codex: stderr\n%s\nwant\n%s", stderr, wantReasons)
	}
	// --out-dir writes the project files and merges into existing ones;
	// the per-user Cursor file is printed.
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, ".mcp.json"), []byte(`{"mcpServers": {"github": {"type": "http", "url": "https://example.com/mcp"}}}`), 0o644)
	code, _, stderr = run(t, dir, "config", "claude", "--out-dir", proj, "--command", "go run ./cmd/shop")
	data, _ := os.ReadFile(filepath.Join(proj, ".mcp.json"))
	settings, _ := os.ReadFile(filepath.Join(proj, ".claude", "settings.json"))
	if code != ExitOK || !strings.Contains(string(data), `"github"`) || !strings.Contains(string(data), `"./cmd/shop"`) ||
		!strings.Contains(string(settings), `"mcp__shop__lookup"`) || !strings.Contains(stderr, "updated") {
		t.Errorf("config claude --out-dir: exit %d\n%s\n%s\n%s", code, data, settings, stderr)
	}
	code, out, _ = run(t, dir, "config", "cursor", "--out-dir", proj, "--url", "http://127.0.0.1:8080/mcp")
	if code != ExitOK || !strings.Contains(out, "~/.cursor/permissions.json") || !strings.Contains(out, `"shop:lookup"`) {
		t.Errorf("config cursor --out-dir: exit %d\n%s", code, out)
	}
	if data, err := os.ReadFile(filepath.Join(proj, ".cursor", "mcp.json")); err != nil || !strings.Contains(string(data), `"url": "http://127.0.0.1:8080/mcp"`) {
		t.Errorf(".cursor/mcp.json: %v\n%s", err, data)
	}
	for _, args := range [][]string{
		{"config"},
		{"config", "vim"},
		{"config", "claude", "--url", "http://x", "--command", "x"},
		{"config", "claude", "--url", "http://x", "--env", "A"},
		{"config", "claude", "--command", "x 'y"},
	} {
		if code, _, _ := run(t, dir, args...); code != ExitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, ExitUsage)
		}
	}
}
