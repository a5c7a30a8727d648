package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// TestInitOpenAPIBuilds scaffolds a server from Petstore's description, builds
// it, and runs it over stdio against a test API: the tool call reaches the
// API at the -base-url given, with the key from the environment, and its
// answer comes back as the tool's structured output. No handler is written.
func TestInitOpenAPIBuilds(t *testing.T) {
	testenv.BuildsModules(t)
	checkout := needGo(t)
	t.Setenv("GOPROXY", scaffoldProxy(t))
	t.Setenv("GOFLAGS", "-mod=mod")
	dir := filepath.Join(t.TempDir(), "petstore")
	desc, _ := filepath.Abs("../openapi/testdata/petstore-3.0.json")
	code, stdout, stderr := run(t, ".", "init", dir, "-openapi", desc, "-tag", "pet", "-module", "example.com/petstore", "-replace", checkout)
	if code != ExitOK {
		t.Fatalf("init -openapi: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, f := range []string{"mcpgen.yaml", "mcpgen.openapi-lock.json", "main.go", "generate.go", ".mcp.json", "petstoremcp/upstream_mcpgen.go"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("init -openapi wrote no %s", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "handlers.go")); err == nil {
		t.Error("init -openapi wrote a handlers.go: there should be no handler to write")
	}
	if !strings.Contains(stdout, "-base-url URL") {
		t.Errorf("init's report does not say how to point the server elsewhere:\n%s", stdout)
	}
	bin := filepath.Join(t.TempDir(), "petstore")
	for _, args := range [][]string{{"build", "-o", bin, "."}, {"vet", "./..."}, {"tool", "mcpgen", "check"}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the scaffold: %v\n%s", strings.Join(args, " "), err, out)
		}
	}

	var gotPath, gotKey string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotKey = r.URL.Path, r.Header.Get("api_key")
		io.WriteString(w, `{"id":1,"name":"doggie","photoUrls":[],"status":"available"}`)
	}))
	defer api.Close()
	srv := exec.Command(bin, "-base-url", api.URL+"/v2")
	srv.Env = append(os.Environ(), "PETSTORE_API_KEY=k-1")
	in, _ := srv.StdinPipe()
	out, _ := srv.StdoutPipe()
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_pet_by_id","arguments":{"petId":1}}}`+"\n")
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the server closed stdout before answering the call")
			}
			var msg struct {
				ID     int `json:"id"`
				Result struct {
					IsError           bool           `json:"isError"`
					StructuredContent map[string]any `json:"structuredContent"`
				} `json:"result"`
			}
			if json.Unmarshal([]byte(l), &msg) != nil || msg.ID != 2 {
				continue
			}
			if msg.Result.IsError || msg.Result.StructuredContent["name"] != "doggie" {
				t.Errorf("get_pet_by_id answered %s", l)
			}
			if gotPath != "/v2/pet/1" || gotKey != "k-1" {
				t.Errorf("the API got %s with api_key %q, want /v2/pet/1 with k-1", gotPath, gotKey)
			}
			return
		case <-timeout:
			t.Fatal("no answer to tools/call within 30s")
		}
	}
}
