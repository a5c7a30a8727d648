package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/runtime"
)

// TestInitScaffoldBuilds scaffolds a server in a fresh module outside the
// repository (built against this checkout through -replace), builds and
// vets it, starts it, and calls its tool, reads its template and gets its
// prompt over stdio as a client would. It needs the go command and the
// main module's dependencies in the module cache (no network).
func TestInitScaffoldBuilds(t *testing.T) {
	testenv.BuildsModules(t)
	checkout, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))

	tmp := t.TempDir()
	code, stdout, stderr := run(t, tmp, "init", "hello", "-module", "example.com/hello", "-replace", checkout)
	if code != ExitOK {
		t.Fatalf("init: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	dir := filepath.Join(tmp, "hello")
	for _, want := range []string{"cd hello", "go run .", "-http 127.0.0.1:8080", "claude mcp add hello"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the next steps do not say %q:\n%s", want, stdout)
		}
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if spec := read("mcpgen.yaml"); !strings.HasPrefix(spec, "# yaml-language-server: $schema=") ||
		!strings.Contains(strings.SplitN(spec, "\n", 2)[0], "mcpgen.schema.json") {
		t.Errorf("mcpgen.yaml does not start with the schema modeline:\n%s", strings.SplitN(spec, "\n", 2)[0])
	}
	if g := read("generate.go"); !strings.Contains(g, "\n//go:generate go tool mcpgen generate\n") ||
		!strings.Contains(g, "go run github.com/mcpgen/mcpgen/cmd/mcpgen@") {
		t.Errorf("generate.go:\n%s", g)
	}
	if h := read("handlers.go"); strings.Contains(h, "DO NOT EDIT") {
		t.Error("handlers.go is the user's, yet says DO NOT EDIT")
	}
	if m := read("main.go"); !strings.Contains(m, "runtime.Serve(ctx, srv, *httpAddr)") || !strings.Contains(m, "syscall.SIGTERM") {
		t.Errorf("main.go:\n%s", m)
	}
	var mcpJSON struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	// The built server starts at once, where go run would compile first
	// and can miss a client's startup timeout.
	if err := json.Unmarshal([]byte(read(".mcp.json")), &mcpJSON); err != nil || mcpJSON.MCPServers["hello"].Command != "./bin/hello" {
		t.Errorf(".mcp.json: %v\n%s", err, read(".mcp.json"))
	}
	var settings struct {
		Permissions struct{ Allow, Ask, Deny []string }
	}
	if err := json.Unmarshal([]byte(read(".claude/settings.json")), &settings); err != nil ||
		len(settings.Permissions.Allow)+len(settings.Permissions.Ask)+len(settings.Permissions.Deny) == 0 ||
		!strings.HasPrefix(append(append(settings.Permissions.Allow, settings.Permissions.Ask...), settings.Permissions.Deny...)[0], "mcp__hello__") {
		t.Errorf(".claude/settings.json: %v\n%s", err, read(".claude/settings.json"))
	}
	gomod := read("go.mod")
	for _, want := range []string{"module example.com/hello", "tool github.com/mcpgen/mcpgen/cmd/mcpgen", "replace github.com/mcpgen/mcpgen => " + checkout} {
		if !strings.Contains(gomod, want) {
			t.Errorf("go.mod lacks %q:\n%s", want, gomod)
		}
	}

	goCmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	goCmd("build", "./...")
	goCmd("vet", "./...")
	// go generate runs the pinned tool and leaves the user's files alone.
	handlers := read("handlers.go")
	goCmd("generate", "./...")
	if read("handlers.go") != handlers {
		t.Error("go generate changed handlers.go")
	}
	bin := filepath.Join(tmp, "hello-server")
	goCmd("build", "-o", bin, ".")

	// A real MCP exchange over stdio, written by hand.
	srv := exec.Command(bin)
	srv.Stderr = os.Stderr
	in, err := srv.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	defer func() {
		in.Close()
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("the server did not exit cleanly at the end of input: %v", err)
			}
		case <-time.After(10 * time.Second):
			srv.Process.Kill()
			t.Error("the server did not exit when its input closed")
		}
	}()
	lines := bufio.NewScanner(out)
	lines.Buffer(nil, 1<<20)
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(in, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	// response reads lines until the response with this id (skipping
	// notifications) and returns its result.
	response := func(id int) map[string]any {
		t.Helper()
		for lines.Scan() {
			var msg struct {
				ID     *int            `json:"id"`
				Result map[string]any  `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(lines.Bytes(), &msg); err != nil {
				t.Fatalf("not JSON on stdout: %q", lines.Text())
			}
			if msg.ID == nil || *msg.ID != id {
				continue
			}
			if msg.Error != nil {
				t.Fatalf("request %d failed: %s", id, msg.Error)
			}
			return msg.Result
		}
		t.Fatalf("no response to request %d: %v", id, lines.Err())
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"init-test","version":"1.0.0"}}}`)
	if info, _ := response(1)["serverInfo"].(map[string]any); info["name"] != "hello" {
		t.Errorf("serverInfo: %v", info)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada","language":"fr"}}}`)
	res := response(2)
	if sc, _ := res["structuredContent"].(map[string]any); sc["message"] != "Bonjour, Ada!" || res["isError"] == true {
		t.Errorf("tools/call greet: %v", res)
	}
	// language left out: the handler gets the spec's default, en.
	send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`)
	if sc, _ := response(6)["structuredContent"].(map[string]any); sc["message"] != "Hello, Ada!" {
		t.Errorf("tools/call greet without a language: %v, want the default language (en)", sc)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{"name":""}}}`)
	if res := response(3); res["isError"] != true {
		t.Errorf("tools/call greet with an empty name is not an error: %v", res)
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"greeting://es/Ada"}}`)
	if got, _ := json.Marshal(response(4)); !strings.Contains(string(got), "Hola, Ada!") {
		t.Errorf("resources/read: %s", got)
	}
	send(`{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"welcome","arguments":{"name":"Ada"}}}`)
	if got, _ := json.Marshal(response(5)); !strings.Contains(string(got), "Ada") {
		t.Errorf("prompts/get: %s", got)
	}

	// The same binary serves Streamable HTTP at /mcp with -http, and stops
	// cleanly on SIGTERM.
	serveHTTP(t, bin)

	// A second init refuses, naming every file in the way.
	code, _, stderr = run(t, tmp, "init", "hello")
	if code != ExitInternal {
		t.Errorf("init over a scaffold: exit %d, want %d", code, ExitInternal)
	}
	for _, f := range []string{"mcpgen.yaml", "generate.go", "main.go", "handlers.go", ".mcp.json", filepath.Join(".claude", "settings.json"), "hellomcp"} {
		if !strings.Contains(stderr, filepath.Join("hello", f)) {
			t.Errorf("the refusal does not name %s:\n%s", f, stderr)
		}
	}
}

// serveHTTP starts bin with -http on a free port, initializes a session
// over HTTP, and stops it with SIGTERM.
func serveHTTP(t *testing.T, bin string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(bin, "-http", addr)
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"init-test","version":"1.0.0"}}}`
	var body []byte
	for deadline := time.Now().Add(20 * time.Second); ; {
		req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			body, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("POST /mcp initialize: %s\n%s", resp.Status, body)
			}
			break
		}
		if time.Now().After(deadline) {
			srv.Process.Kill()
			t.Fatalf("the server never listened on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(string(body), `"serverInfo"`) || !strings.Contains(string(body), `"hello"`) {
		t.Errorf("initialize over HTTP: %s", body)
	}
	if goruntime.GOOS == "windows" {
		srv.Process.Kill() // no SIGTERM to send
		<-exited
		return
	}
	srv.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the HTTP server did not exit cleanly on SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		srv.Process.Kill()
		t.Error("the HTTP server did not stop on SIGTERM")
	}
}

// scaffoldServes is the call the scaffolded main.go makes
// (templates/init/main.go.tmpl): should runtime.Serve go or change its
// shape, this package no longer compiles, even under -short, and
// TestInitScaffoldBuilds fails to build the scaffold (it never skips for it).
func scaffoldServes(ctx context.Context, srv *runtime.Server, httpAddr *string) error {
	return runtime.Serve(ctx, srv, *httpAddr)
}

var _ = scaffoldServes

func TestInitRefuses(t *testing.T) {
	// Files in the way: all listed, nothing written (not even go.mod).
	dir := t.TempDir()
	for _, f := range []string{"mcpgen.yaml", "main.go", "tool.go"} {
		os.WriteFile(filepath.Join(dir, f), []byte("package main\n"), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, "appmcp"), 0o755)
	os.WriteFile(filepath.Join(dir, "appmcp", "x.go"), []byte("package appmcp\n"), 0o644)
	code, _, stderr := run(t, dir, "init", "-name", "app")
	if code != ExitInternal {
		t.Errorf("exit %d, want %d", code, ExitInternal)
	}
	for _, want := range []string{"mcpgen.yaml", "main.go", "tool.go (init writes package main here)", "appmcp" + string(filepath.Separator) + " (not empty)", "init wrote nothing"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); !os.IsNotExist(err) {
		t.Error("a refused init created go.mod")
	}

	// A spec in a parent directory of the module.
	mod := t.TempDir()
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/m\n\ngo 1.24\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "mcpgen.yaml"), []byte(goodSpec), 0o644)
	os.MkdirAll(filepath.Join(mod, "sub"), 0o755)
	code, _, stderr = run(t, filepath.Join(mod, "sub"), "init", "deeper")
	if code != ExitInternal || !strings.Contains(stderr, "a parent directory in the module already holds a spec") ||
		!strings.Contains(stderr, "mcpgen.yaml") {
		t.Errorf("a spec above: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(mod, "sub", "deeper")); !os.IsNotExist(err) {
		t.Error("a refused init created its directory")
	}

	// Usage errors.
	for _, args := range [][]string{
		{"init", "-name", "has space"},
		{"init", "-module", "example.com/other"}, // go.mod says example.com/m
		{"init", "a", "b"},
		{"init", "-nope"},
		{"init", "has space"}, // not an import path element
	} {
		if code, _, stderr := run(t, mod, args...); code != ExitUsage {
			t.Errorf("%q: exit %d, want %d\n%s", args, code, ExitUsage, stderr)
		}
	}
}

func TestServerAndPackageNames(t *testing.T) {
	for _, c := range []struct{ dir, name, pkg string }{
		{"hello", "hello", "hellomcp"},
		{"Hello World", "hello-world", "helloworldmcp"},
		{"my_server.v2", "my_server.v2", "myserverv2mcp"},
		{"2fa", "2fa", "server2famcp"},
		{"---", "server", "servermcp"},
		{"café", "caf", "cafmcp"},
	} {
		if got := serverName(c.dir); got != c.name {
			t.Errorf("serverName(%q) = %q, want %q", c.dir, got, c.name)
		}
		if got := packageName(c.name); got != c.pkg {
			t.Errorf("packageName(%q) = %q, want %q", c.name, got, c.pkg)
		}
	}
}

func TestModulePath(t *testing.T) {
	dir := t.TempDir()
	for content, want := range map[string]string{
		"module example.com/a\n\ngo 1.24\n":           "example.com/a",
		"// comment\nmodule \"example.com/b\" // x\n": "example.com/b",
		"module\texample.com/c\n":                     "example.com/c",
	} {
		p := filepath.Join(dir, "go.mod")
		os.WriteFile(p, []byte(content), 0o644)
		if got, err := modulePath(p); err != nil || got != want {
			t.Errorf("modulePath(%q) = %q, %v; want %q", content, got, err, want)
		}
	}
}
