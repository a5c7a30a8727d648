package clientconfig

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/spec"
)

var update = flag.Bool("update", false, "rewrite testdata/*.txt")

func loadSpec(t *testing.T) *spec.Spec {
	t.Helper()
	data, err := os.ReadFile("testdata/mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, diags := spec.Load("mcpgen.yaml", data)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return s
}

// TestGolden renders each client's files, stdio (with an environment
// variable) and HTTP, and compares them with testdata/<client>[-http].txt.
func TestGolden(t *testing.T) {
	s := loadSpec(t)
	stdio := Options{Command: []string{"./bin/orders"}, Env: []string{"ORDERS_TOKEN", "ORDERS_DB"}}
	http := Options{URL: "http://127.0.0.1:8080/mcp", Name: "orders-dev"}
	for _, c := range Clients {
		for suffix, o := range map[string]Options{"": stdio, "-http": http} {
			name := string(c) + suffix
			t.Run(name, func(t *testing.T) {
				files, err := Build(s, c, o)
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				Render(&buf, files)
				path := filepath.Join("testdata", name+".txt")
				if *update {
					os.WriteFile(path, buf.Bytes(), 0o644)
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./internal/clientconfig -update)", err)
				}
				if diff := cmp.Diff(string(want), buf.String()); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestPermissionOf(t *testing.T) {
	s := loadSpec(t)
	want := map[string]string{"lookup_order": Allow, "create_note": Ask, "refund_order": Deny, "export.csv": Ask, "purge_cache": Allow, "cancel_order": Ask}
	for _, tool := range s.Tools {
		if got := PermissionOf(tool); got != want[tool.Name] {
			t.Errorf("%s: %s, want %s (%s)", tool.Name, got, want[tool.Name], PermissionReason(tool))
		}
	}
}

func build(t *testing.T, c Client, o Options) []File {
	t.Helper()
	files, err := Build(loadSpec(t), c, o)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestMergeClaude: other servers, other rules and other settings survive;
// this server's old rules are replaced.
func TestMergeClaude(t *testing.T) {
	files := build(t, Claude, Options{Command: []string{"go", "run", "."}})
	servers, err := files[0].Merge([]byte(`{"mcpServers": {"github": {"type": "http", "url": "https://example.com/mcp"}, "orders": {"command": "old"}}, "other": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://example.com/mcp"
    },
    "orders": {
      "type": "stdio",
      "command": "go",
      "args": [
        "run",
        "."
      ]
    }
  },
  "other": 1
}
`
	if diff := cmp.Diff(want, string(servers)); diff != "" {
		t.Errorf(".mcp.json (-want +got):\n%s", diff)
	}
	settings, err := files[1].Merge([]byte(`{"model": "x", "permissions": {"allow": ["Bash(go test:*)", "mcp__orders__gone"], "deny": ["mcp__other__x"], "defaultMode": "default"}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"Bash(go test:*)"`, `"mcp__other__x"`, `"defaultMode": "default"`, `"model": "x"`, `"mcp__orders__refund_order"`, `"mcp__orders__export_csv"`} {
		if !strings.Contains(string(settings), s) {
			t.Errorf("merged settings.json lacks %s:\n%s", s, settings)
		}
	}
	if strings.Contains(string(settings), "mcp__orders__gone") {
		t.Errorf("a stale rule of this server survived:\n%s", settings)
	}
	if _, err := files[1].Merge([]byte(`[1]`)); err == nil {
		t.Error("a settings.json that is not an object was merged")
	}
}

// TestMergeCodex: the server's old tables go, the others stay.
func TestMergeCodex(t *testing.T) {
	files := build(t, Codex, Options{Command: []string{"go", "run", "."}})
	existing := `model = "o3"

[mcp_servers.github]
url = "https://example.com/mcp"

[mcp_servers.orders]
command = "old"

[mcp_servers.orders.tools.gone]
approval_mode = "approve"

[profiles.fast]
model = "o4-mini"
`
	got, err := files[0].Merge([]byte(existing))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"[mcp_servers.github]", "[profiles.fast]", `model = "o4-mini"`, `command = "go"`, `[mcp_servers.orders.tools."export.csv"]`} {
		if !strings.Contains(string(got), s) {
			t.Errorf("merged config.toml lacks %s:\n%s", s, got)
		}
	}
	for _, s := range []string{`command = "old"`, "tools.gone"} {
		if strings.Contains(string(got), s) {
			t.Errorf("merged config.toml keeps %s:\n%s", s, got)
		}
	}
}

func TestBuildRefuses(t *testing.T) {
	s := loadSpec(t)
	for name, o := range map[string]Options{
		"bad name":      {Name: "my server", Command: []string{"x"}},
		"env with url":  {URL: "http://x", Env: []string{"A"}},
		"env value":     {Command: []string{"x"}, Env: []string{"TOKEN=abc"}},
		"no command":    {},
		"unknown agent": {Command: []string{"x"}},
	} {
		c := Claude
		if name == "unknown agent" {
			c = "vim"
		}
		if _, err := Build(s, c, o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestSplitCommand(t *testing.T) {
	for in, want := range map[string][]string{
		`go run ./cmd/server`:         {"go", "run", "./cmd/server"},
		`  node 'my server.js' --x  `: {"node", "my server.js", "--x"},
		`sh -c "echo \"hi\" there"`:   {"sh", "-c", `echo "hi" there`},
		`a\ b c`:                      {"a b", "c"},
		`srv '' x`:                    {"srv", "", "x"},
		`srv "" x`:                    {"srv", "", "x"},
		`x "\$HOME" "a\b"`:            {"x", "$HOME", `a\b`},
	} {
		got, err := SplitCommand(in)
		if err != nil || !cmp.Equal(got, want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{``, `  `, `a 'b`, `a "b`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q) accepted", bad)
		}
	}
}

func TestDefaultCommand(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "servers", "orders")
	os.MkdirAll(dir, 0o755)
	cmd, build, ok := DefaultCommand(dir, root, "orders")
	if !cmp.Equal(cmd, []string{"./bin/orders"}) || !cmp.Equal(build, []string{"go", "build", "-o", "bin/orders", "./servers/orders"}) || ok {
		t.Errorf("without main.go: %q %q %v", cmd, build, ok)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	if cmd, build, ok := DefaultCommand(dir, dir, "my.orders"); !cmp.Equal(cmd, []string{"./bin/my_orders"}) || !cmp.Equal(build, []string{"go", "build", "-o", "bin/my_orders", "."}) || !ok {
		t.Errorf("in the spec's directory: %q %q %v", cmd, build, ok)
	}
}

// A command that runs go builds before the server answers: Codex gets the
// variables go's caches need and a startup timeout long enough for a
// build; a built binary gets neither.
func TestCodexGoRunTimeout(t *testing.T) {
	codex := func(cmd ...string) string {
		files, err := Build(loadSpec(t), Codex, Options{Command: cmd, Env: []string{"ORDERS_TOKEN"}})
		if err != nil {
			t.Fatal(err)
		}
		return string(files[0].Content)
	}
	goRun := codex("go", "run", "./cmd/orders")
	for _, want := range []string{"startup_timeout_sec = 300\n", `env_vars = ["GOCACHE", "GOFLAGS", "GOMODCACHE", "GOPATH", "GOPROXY", "HOME", "ORDERS_TOKEN", "PATH"]`} {
		if !strings.Contains(goRun, want) {
			t.Errorf("go run: no %q in\n%s", want, goRun)
		}
	}
	if bin := codex("./bin/orders"); strings.Contains(bin, "startup_timeout_sec") || !strings.Contains(bin, `env_vars = ["ORDERS_TOKEN"]`) {
		t.Errorf("built binary:\n%s", bin)
	}
}

// TestSafeName: letters, digits, _ and - stay; anything else becomes _.
func TestSafeName(t *testing.T) {
	if got := SafeName("Srv-09_z.é/"); got != "Srv-09_z___" {
		t.Errorf("SafeName = %q, want Srv-09_z___", got)
	}
}

// With exposure: search the client's model is offered search_tools,
// describe_tools and call_tool, never the hidden tools' names (Codex turned
// the server's tools off with an enabled_tools that named none of them).
// call_tool is asked about: it runs the hidden tools, some of which are.
func TestSearchExposureConfig(t *testing.T) {
	s := loadSpec(t)
	s.Server.Exposure = "search"
	o := Options{Command: []string{"./bin/orders"}}
	files, err := Build(s, Codex, o)
	if err != nil {
		t.Fatal(err)
	}
	codex := string(files[0].Content)
	if !strings.Contains(codex, `enabled_tools = ["search_tools", "describe_tools", "call_tool"]`) || !strings.Contains(codex, `disabled_tools = []`) {
		t.Errorf("codex:\n%s", codex)
	}
	if !strings.Contains(codex, "[mcp_servers.orders.tools.call_tool]\napproval_mode = \"prompt\"") {
		t.Errorf("codex does not ask before call_tool:\n%s", codex)
	}
	files, err = Build(s, Claude, o)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "permissions": {
    "allow": [
      "mcp__orders__search_tools",
      "mcp__orders__describe_tools"
    ],
    "ask": [
      "mcp__orders__call_tool"
    ],
    "deny": []
  }
}
`
	if diff := cmp.Diff(want, string(files[1].Content)); diff != "" {
		t.Errorf("claude settings (-want +got):\n%s", diff)
	}
}

// An app-only tool is listed only to hosts that show views: no client
// configuration names it.
func TestAppOnlyToolsLeftOut(t *testing.T) {
	s := loadSpec(t)
	s.Tools[0].UI = &spec.ToolUI{Visibility: []string{"app"}}
	files, err := Build(s, Codex, Options{Command: []string{"./bin/orders"}})
	if err != nil {
		t.Fatal(err)
	}
	if name := s.Tools[0].Name; strings.Contains(string(files[0].Content), `"`+name+`"`) {
		t.Errorf("the app-only tool %s is configured:\n%s", name, files[0].Content)
	}
}

// TestListedToolsBehindSearch: a tool is behind search only when every
// toolset it is in is search-exposed (in one plain toolset too, it is
// listed with its own permission), and call_tool, which runs every tool
// behind search, is asked about as soon as one of them is not allowed,
// even when none is denied.
func TestListedToolsBehindSearch(t *testing.T) {
	s, diags := spec.Load("mcpgen.yaml", []byte(`mcpgen: 1
server: {name: s, version: '1'}
go: {package: p}
toolsets:
  found: {description: d, exposure: search, tools: [lookup, note, both]}
  plain: {description: d, tools: [both]}
tools:
  lookup: {description: d, annotations: {readOnlyHint: true}}
  note: {description: d}
  both: {description: d, annotations: {readOnlyHint: true}}
  free: {description: d}
`))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	got := map[string]string{}
	var order []string
	for _, lt := range listedTools(s) {
		got[lt.name] = lt.permission
		order = append(order, lt.name)
	}
	want := map[string]string{"both": Allow, "free": Ask, "search_tools": Allow, "describe_tools": Allow, "call_tool": Ask}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("listed %v (%v), want %v: lookup and note are behind search, both is listed, call_tool asks (note is ask)", got, order, want)
	}
}
