package interop

// The MCP clients people run — Claude Code, Gemini CLI and Codex, from npm
// (interop/clients-npm, pinned by its package-lock.json, installed by
// setup.sh) — against generated servers on loopback, fully offline: each
// CLI runs with a HOME of its own (a temporary directory), telemetry and
// auto-update off, a placeholder API key, and its model API pointed at a
// stub on 127.0.0.1 (modelStub) that records the tools the CLI hands its
// model and asks for one tool call. No traffic leaves the machine.
//
// The servers are the examples' binaries, generated packages without a
// main (golden/search_exposure) served by the test binary itself as a
// child (selfserve_test.go), and what mcpgen init scaffolds, built in a
// temporary module (scaffold_test.go).
//
// Without the npm install the tests skip, saying so; with
// MCPGEN_REQUIRE_CLIENTS=1 (test.sh sets it) or CI set they fail instead.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/interop/internal/testproc"
)

const clientsDir = "clients-npm"

// needClient returns the path of the npm-installed CLI bin (claude, gemini,
// codex), or skips (fails under MCPGEN_REQUIRE_CLIENTS=1 or CI).
func needClient(t *testing.T, bin string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join(clientsDir, "node_modules", ".bin", bin))
	if err == nil {
		_, err = os.Stat(path)
	}
	if err != nil {
		clientMissing(t, "interop/clients-npm has no "+bin+" (npm ci there installs Claude Code, Gemini CLI and Codex)", "interop/setup.sh (needs npm)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		clientMissing(t, "no node on PATH for "+bin, "Node.js")
	}
	return path
}

// clientMissing skips the test for want of a CLI, or fails it under
// MCPGEN_REQUIRE_CLIENTS (test.sh sets it) or CI, where the client tests
// must run.
func clientMissing(t *testing.T, why, setup string) {
	t.Helper()
	if os.Getenv("MCPGEN_REQUIRE_CLIENTS") != "" {
		t.Fatalf("%s, and MCPGEN_REQUIRE_CLIENTS is set: run %s", why, setup)
	}
	testproc.Unavailable(t, why, setup)
}

// clientEnv is the environment of one CLI run: HOME (and the XDG
// directories) in a fresh temporary directory, so nothing of the machine's
// own configuration is read or written, no telemetry, no update checks, and
// extra on top.
func clientEnv(t *testing.T, home string, extra ...string) []string {
	env := []string{
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1", "CI=1",
		"TMPDIR=" + filepath.Join(home, "tmp"),
		// Claude Code
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_NON_ESSENTIAL_MODEL_CALLS=1", "DISABLE_COST_WARNINGS=1",
		// Gemini CLI
		"GEMINI_CLI_DISABLE_AUTO_UPDATE=1", "GEMINI_TELEMETRY_ENABLED=false", "GEMINI_CLI_NO_RELAUNCH=true",
		// Codex
		"CODEX_HOME=" + filepath.Join(home, ".codex"), "CODEX_DISABLE_UPDATE_CHECK=1",
	}
	for _, d := range []string{"tmp", ".config", ".cache", ".codex", ".gemini"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return append(env, extra...)
}

// runClient runs a CLI in dir with env, time-bounded, and returns its
// outputs; it fails the test when the CLI cannot start or outlives timeout.
func runClient(t *testing.T, timeout time.Duration, dir string, env []string, stdin string, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(stdin)
	cmd.WaitDelay = 5 * time.Second
	var out, errOut testproc.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %s: timed out after %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(bin), strings.Join(args, " "), timeout, out.String(), errOut.String())
	}
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	return out.String(), errOut.String(), code
}

// clientCase is one example served to the CLIs: the tools a client without
// MCP Apps must be offered (every tool the server lists to it), the ones it
// must never be offered, and one call to make.
type clientCase struct {
	example string
	args    []string // after -http ADDR, or for stdio
	want    []string // tools the model must be offered
	never   []string // tools it must not be offered (app-only)
	call    string   // the tool the stub model calls
	input   map[string]any
	reply   string // a fragment of the call's result (not of an error's)
	// dropped are tools a CLI leaves out although the server lists them
	// (lint's CLIENT_DROPS_TOOL warns about each), by CLI.
	dropped map[string][]string
	// rewritten are tools whose schema a CLI strips of its top-level
	// allOf/oneOf/anyOf before its model API sees it (lint's
	// CLIENT_DROPS_TOOL warns: the model is not told what the server
	// enforces), by CLI.
	rewritten map[string][]string
	// bothTransports runs the model over both transports on every run
	// (see modelRun), not only with MCPGEN_CLIENTS_FULL.
	bothTransports bool
	// configAllows: the call runs with the permissions mcpgen config
	// writes (Claude Code's .claude/settings.json, Codex's approval_mode),
	// not with an allowance of the test's own.
	configAllows bool
}

// spec is the path of the case's mcpgen.yaml, from interop/ (the init
// scaffold's is in its temporary module, generated on first use).
func (c clientCase) spec(t *testing.T) string {
	if c.example == scaffoldCase {
		return scaffoldSpec(t)
	}
	if s, ok := selfServed[c.example]; ok {
		return s.spec
	}
	return "../examples/" + c.example + "/mcpgen.yaml"
}

var clientCases = []clientCase{
	{example: "orders", call: "lookup_order", input: map[string]any{"order_id": "A-1042"}, reply: "ada@example.com"},
	{example: "expenses", never: []string{"expense_detail", "approve_expense"}, call: "explore_expenses", input: map[string]any{"month": "2026-10"}, reply: "EXP-0022"},
	{example: "books", call: "find_books", input: map[string]any{"query": "Go"}, reply: "Alan Donovan"},
	{example: "support"},
	// conformance serves HTTP with an event store: Gemini CLI lost every
	// tool of such a server to the priming event of its GET stream (issue
	// 28.1) while gemini mcp list still said Connected, which only a model
	// run over HTTP shows: its model runs go over both transports always.
	{example: "conformance", call: "test_simple_text", input: map[string]any{}, reply: "a simple text response", rewritten: map[string][]string{"claude": {"json_schema_2020_12_tool"}}, bothTransports: true},
	// A server with exposure: search (served by this test binary): the
	// CLIs see search_tools, describe_tools and call_tool, and search_tools
	// runs with the permissions mcpgen config writes for them (issue 28.3:
	// Codex's enabled_tools named a tool the server never lists, Claude
	// Code's allow list left search_tools to be asked about).
	{example: "search_exposure", call: "search_tools", input: map[string]any{"query": "lend a book to a reader"}, reply: "lend_book", configAllows: true},
	// What mcpgen init scaffolds (scaffold_test.go): the first server a
	// new user connects, with its one tool; a small server, so its model
	// runs go over both transports always (seconds each).
	{example: scaffoldCase, call: "greet", input: map[string]any{"name": "Ada"}, reply: "Hello, Ada!", bothTransports: true},
}

// modelStub is a model API on 127.0.0.1 that answers every request of the
// CLI under test: it records the tools each request offers the model, asks
// for one call of a tool (call, with input) the first time that tool is
// offered, and answers with plain text otherwise. The wire formats are the
// providers': Anthropic Messages, Gemini generateContent, OpenAI Responses,
// streamed or not as the request asks.
type modelStub struct {
	t       *testing.T
	srv     *httptest.Server
	call    func(offered []string) (name string, ok bool) // which offered tool to call
	input   map[string]any
	mu      sync.Mutex
	offers  [][]string                 // tools offered, per request that offered any
	schema  map[string]json.RawMessage // each offered tool's schema, as the CLI sent it
	called  bool
	refused []string // tools whose schema made the stub refuse a request, as the real API does
	result  string   // what the tool result the CLI sent back said
}

func newModelStub(t *testing.T, call func([]string) (string, bool), input map[string]any, handler func(*modelStub, http.ResponseWriter, *http.Request, []byte)) *modelStub {
	m := &modelStub{t: t, call: call, input: input, schema: map[string]json.RawMessage{}}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		handler(m, w, r, body)
	}))
	t.Cleanup(m.srv.Close)
	return m
}

// offered records one request's tools and says which one to call, if any.
func (m *modelStub) offered(tools []string, schemas map[string]json.RawMessage, sawResult string) (call string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if sawResult != "" {
		m.result = sawResult
	}
	if len(tools) == 0 {
		return ""
	}
	m.offers = append(m.offers, tools)
	for k, v := range schemas {
		m.schema[k] = v
	}
	if m.called || sawResult != "" {
		return ""
	}
	if name, ok := m.call(tools); ok {
		m.called = true
		return name
	}
	return ""
}

// lastOffer is the largest set of tools one request offered.
func (m *modelStub) lastOffer() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var best []string
	for _, o := range m.offers {
		if len(o) > len(best) {
			best = o
		}
	}
	return best
}

func (m *modelStub) toolResult() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.result
}

// sse writes server-sent events, one data line each (with an event line
// when event is not "").
func sse(w http.ResponseWriter, events ...[2]any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(200)
	for _, e := range events {
		data, _ := json.Marshal(e[1])
		if name, _ := e[0].(string); name != "" {
			io.WriteString(w, "event: "+name+"\n")
		}
		io.WriteString(w, "data: "+string(data)+"\n\n")
	}
}

// mcpSuffix strips a CLI's prefix from an MCP tool's name as offered to
// the model: mcp__SERVER__TOOL (Claude Code, Codex), SERVER__TOOL or
// mcp_SERVER_TOOL (Gemini CLI); names without one stay.
func mcpSuffix(server, name string) (string, bool) {
	for _, p := range []string{"mcp__" + server + "__", server + "__", "mcp_" + server + "_"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			return rest, true
		}
	}
	return name, false
}

// serverTools are the MCP tools of server among offered, by their own names.
func serverTools(server string, offered []string) []string {
	var out []string
	for _, n := range offered {
		if tool, ok := mcpSuffix(server, n); ok {
			out = append(out, tool)
		}
	}
	slices.Sort(out)
	return out
}

// listTools is what the example lists to a client without MCP Apps: the
// ground truth the CLIs are checked against (every tool they should offer).
func listTools(t *testing.T, c clientCase) []string {
	t.Helper()
	session := connectGoSDK(t, "stdio", exampleBin(t, c.example), eraLegacy, nil, nil)
	res, err := session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// checkOffered compares the tools a CLI offered its model with what the
// server lists, and checks the call's result.
func checkOffered(t *testing.T, who string, c clientCase, server string, m *modelStub) {
	t.Helper()
	checkToolSet(t, who, "offered its model", c, serverTools(server, m.lastOffer()))
	if c.call != "" && c.reply == "" {
		t.Fatalf("case %s calls %s but names no fragment of its result to expect", c.example, c.call)
	}
	if res := m.toolResult(); c.call != "" && !strings.Contains(res, c.reply) {
		t.Errorf("%s: the call of %s returned %q, want it to contain %q", who, c.call, res, c.reply)
	}
}

// checkToolSet compares the tools a CLI has from the example (got, by
// their own names) with what the server lists to a client without MCP
// Apps, less those the CLI is known to drop, and rules out the app-only
// ones. did says what the CLI did with them, for the messages.
func checkToolSet(t *testing.T, who, did string, c clientCase, got []string) {
	t.Helper()
	want := slices.DeleteFunc(listTools(t, c), func(n string) bool { return slices.Contains(c.dropped[who], n) })
	if !slices.Equal(got, want) {
		t.Errorf("%s %s %q of %s's tools, want %q (what tools/list shows it)", who, did, got, c.example, want)
	}
	for _, n := range c.never {
		if slices.Contains(got, n) {
			t.Errorf("%s %s the app-only tool %s", who, did, n)
		}
	}
}

// checkModelRun checks a CLI's run against the model stub: the tools it
// offered and the call's result (checkOffered), then the CLI's own checks
// (extra, may be nil). A non-zero exit is logged, not failed: what counts
// is what reached the stub and the server. The run's output and the tools
// of each request are logged when a check failed.
func checkModelRun(t *testing.T, who string, c clientCase, server string, m *modelStub, out, errOut string, code int, extra func()) {
	t.Helper()
	if code != 0 {
		t.Logf("%s: exit %d\n%s%s", who, code, out, errOut)
	}
	checkOffered(t, who, c, server, m)
	if extra != nil {
		extra()
	}
	if t.Failed() {
		m.mu.Lock()
		offers := m.offers
		m.mu.Unlock()
		t.Logf("%s output:\n%s%s\ntools offered per request: %q", who, out, errOut, offers)
	}
}

// jsonBody decodes a request body, failing the test on garbage.
func jsonBody(t *testing.T, body []byte, v any) {
	if err := json.Unmarshal(bytes.TrimSpace(body), v); err != nil {
		t.Errorf("model stub: undecodable request %q: %v", body, err)
	}
}

// transports are what every CLI is run over.
var transports = []string{"stdio", "http"}

// modelRun reports whether the CLI is run against the model stub for c
// over transport (a minute or more per run on a small machine): with
// MCPGEN_CLIENTS_FULL=1 always; else each example over one transport,
// alternating, so that a run covers every example and both transports.
// A case with bothTransports runs over both always. Listing (claude mcp
// list, gemini mcp list, codex app-server) runs always.
func modelRun(c clientCase, transport string) bool {
	if c.bothTransports || os.Getenv("MCPGEN_CLIENTS_FULL") != "" {
		return true
	}
	i := slices.IndexFunc(clientCases, func(o clientCase) bool { return o.example == c.example })
	return transports[i%len(transports)] == transport
}
