package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/interop/internal/testproc"
)

// prismDir holds Stoplight Prism, installed by setup.sh as
// prism/package-lock.json pins it.
const prismDir = "prism"

// petstoreDescription is the OpenAPI description both sides use: the
// server is imported from it, and Prism serves it.
const petstoreDescription = "../internal/openapi/testdata/petstore-3.0.json"

// upstreamRequest is what the recording proxy saw of one request the
// server made to the API.
type upstreamRequest struct {
	Method, Path, Query, Body string
	Header                    http.Header
	Status                    int // Prism's answer
}

// recordingProxy forwards to target and keeps every request and Prism's
// status.
type recordingProxy struct {
	mu   sync.Mutex
	seen []upstreamRequest
	drop string // a header not forwarded
}

func (p *recordingProxy) dropHeader(name string) {
	p.mu.Lock()
	p.drop = name
	p.mu.Unlock()
}

func (p *recordingProxy) last(t *testing.T) upstreamRequest {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.seen) == 0 {
		t.Fatal("the server sent the API no request")
	}
	r := p.seen[len(p.seen)-1]
	p.seen = nil
	return r
}

func (p *recordingProxy) handler(target *url.URL) http.Handler {
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		p.mu.Lock()
		p.seen[len(p.seen)-1].Status = resp.StatusCode
		p.mu.Unlock()
		return nil
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		p.mu.Lock()
		p.seen = append(p.seen, upstreamRequest{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery, Body: string(body), Header: r.Header.Clone()})
		if p.drop != "" {
			r.Header.Del(p.drop)
		}
		p.mu.Unlock()
		proxy.ServeHTTP(w, r)
	})
}

// TestPetstoreThroughPrism is the OpenAPI path end to end, as a user takes
// it: mcpgen init -openapi scaffolds a server from Petstore's description
// (tags store and user, and getPetById), the scaffold builds with no
// handler written, and the official Go SDK's client calls its tools over
// stdio while the server calls Stoplight Prism serving the same
// description, with --errors so that a request the description does not
// allow fails. A recording proxy between the two checks the method, path,
// query, headers and body of each request; the client checks the typed
// output.
func TestPetstoreThroughPrism(t *testing.T) {
	node, lookErr := exec.LookPath("node") // Prism 5.14 runs on Node 18 and later
	if lookErr != nil {
		testproc.Unavailable(t, "no node on PATH for Stoplight Prism", "Node.js")
	}
	prismJS, _ := filepath.Abs(filepath.Join(prismDir, "node_modules", "@stoplight", "prism-cli", "dist", "index.js"))
	if _, err := os.Stat(prismJS); err != nil {
		testproc.Unavailable(t, "interop/prism/node_modules has no @stoplight/prism-cli", "interop/setup.sh (needs npm)")
	}
	root, _ := filepath.Abs("..")
	desc, _ := filepath.Abs(petstoreDescription)

	// Prism first: it takes seconds to start, while the scaffold builds.
	prismAddr := testproc.FreeAddr(t)
	host, port, _ := strings.Cut(prismAddr, ":")
	prismOut := &testproc.Buffer{}
	prism := exec.Command(node, prismJS, "mock", "--errors", "-h", host, "-p", port, desc)
	prism.Stdout, prism.Stderr = prismOut, prismOut
	if err := prism.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		prism.Process.Kill()
		prism.Wait()
		if t.Failed() {
			t.Logf("prism output:\n%s", prismOut)
		}
	})

	dir := filepath.Join(t.TempDir(), "petstore")
	initCmd := exec.Command("go", "run", "./cmd/mcpgen", "init", dir, "-openapi", desc,
		"-tag", "store,user", "-operation", "getPetById", "-module", "example.com/petstore", "-replace", root)
	initCmd.Dir = root
	if out, err := initCmd.CombinedOutput(); err != nil {
		t.Fatalf("mcpgen init -openapi: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "handlers.go")); err == nil {
		t.Fatal("init -openapi wrote a handlers.go")
	}
	bin := filepath.Join(t.TempDir(), "petstore-server")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build in the scaffold: %v\n%s", err, out)
	}
	// Prism takes seconds to start (more on a busy machine).
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", prismAddr, time.Second); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("prism mock is not listening on %s after 60s", prismAddr)
		}
	}

	rec := &recordingProxy{}
	proxy := httptest.NewServer(rec.handler(&url.URL{Scheme: "http", Host: prismAddr}))
	defer proxy.Close()

	server := exec.Command(bin, "-base-url", proxy.URL)
	server.Env = append(os.Environ(), "PETSTORE_API_KEY=special-key")
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "interop-prism", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: server}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()

	call := func(tool string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if res.IsError {
			t.Fatalf("%s answered an error: %s\nprism:\n%s", tool, textOf(res), prismOut)
		}
		return res
	}
	jsonBody := func(t *testing.T, got upstreamRequest, want string) {
		t.Helper()
		var g any
		if err := json.Unmarshal([]byte(got.Body), &g); err != nil {
			t.Errorf("%s %s body is not JSON: %q", got.Method, got.Path, got.Body)
			return
		}
		if gb, _ := json.Marshal(g); string(gb) != mustCompact(want) {
			t.Errorf("%s %s body = %s, want %s", got.Method, got.Path, gb, want)
		}
		if ct := got.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s Content-Type = %q", got.Method, got.Path, ct)
		}
	}

	// A path parameter, the API key header, a typed output.
	res := call("get_pet_by_id", map[string]any{"petId": 7})
	got := rec.last(t)
	if got.Method != "GET" || got.Path != "/pet/7" || got.Header.Get("api_key") != "special-key" || got.Status != 200 {
		t.Errorf("get_pet_by_id sent %s %s (api_key %q), Prism answered %d", got.Method, got.Path, got.Header.Get("api_key"), got.Status)
	}
	if pet := asMap(t, res.StructuredContent); pet["name"] != "doggie" || pet["status"] != "available" {
		t.Errorf("get_pet_by_id output = %v, want the description's example (doggie, available)", pet)
	}

	// A JSON body from the input's properties.
	res = call("place_order", map[string]any{"petId": 7, "quantity": 2, "status": "placed", "complete": false})
	got = rec.last(t)
	if got.Method != "POST" || got.Path != "/store/order" || got.Status != 200 {
		t.Errorf("place_order sent %s %s, Prism answered %d", got.Method, got.Path, got.Status)
	}
	jsonBody(t, got, `{"complete":false,"petId":7,"quantity":2,"status":"placed"}`)
	if order := asMap(t, res.StructuredContent); order["status"] == nil || order["petId"] == nil {
		t.Errorf("place_order output = %v, want an Order", order)
	}

	// Query parameters, escaped; a string output.
	res = call("login_user", map[string]any{"username": "ann", "password": "p&w d"})
	got = rec.last(t)
	if got.Method != "GET" || got.Path != "/user/login" || got.Query != "username=ann&password=p%26w%20d" || got.Status != 200 {
		t.Errorf("login_user sent %s %s?%s, Prism answered %d", got.Method, got.Path, got.Query, got.Status)
	}
	if text := textOf(res); text == "" {
		t.Error("login_user returned no text")
	}

	// A path parameter that needs escaping, and a body beside it. The
	// description gives updateUser no 2xx answer, only 400 and 404: Prism
	// answers 400 to a valid request, and the tool an isError result.
	upd, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "update_user", Arguments: map[string]any{"username": "ann lee", "email": "ann@example.com", "userStatus": 1}})
	if err != nil {
		t.Fatal(err)
	}
	got = rec.last(t)
	if got.Method != "PUT" || got.Path != "/user/ann%20lee" || got.Status != 400 {
		t.Errorf("update_user sent %s %s, Prism answered %d", got.Method, got.Path, got.Status)
	}
	jsonBody(t, got, `{"email":"ann@example.com","userStatus":1}`)
	if text := textOf(upd); !upd.IsError || !strings.Contains(text, "upstream PUT /user/{username} answered 400 Bad Request") {
		t.Errorf("update_user answered %q (isError %v), want the API's 400", text, upd.IsError)
	}

	// The whole body is one property (an array of users).
	call("create_users_with_array_input", map[string]any{"body": []any{map[string]any{"username": "bo"}}})
	got = rec.last(t)
	if got.Method != "POST" || got.Path != "/user/createWithArray" || got.Status != 200 {
		t.Errorf("create_users_with_array_input sent %s %s, Prism answered %d", got.Method, got.Path, got.Status)
	}
	jsonBody(t, got, `[{"username":"bo"}]`)

	// A map output.
	res = call("get_inventory", nil)
	got = rec.last(t)
	if got.Method != "GET" || got.Path != "/store/inventory" || got.Header.Get("api_key") != "special-key" || got.Status != 200 {
		t.Errorf("get_inventory sent %s %s (api_key %q), Prism answered %d", got.Method, got.Path, got.Header.Get("api_key"), got.Status)
	}
	if _, ok := res.StructuredContent.(map[string]any); !ok {
		t.Errorf("get_inventory output = %v, want a map", res.StructuredContent)
	}

	// A request the description refuses: the proxy drops the API key, so
	// Prism answers 401 (with --errors, an empty body and the violation in
	// its sl-violations header); the tool answers an isError result with
	// the status.
	rec.dropHeader("api_key")
	errRes, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_pet_by_id", Arguments: map[string]any{"petId": 7}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.last(t); got.Status != 401 {
		t.Errorf("without its key, Prism answered %d, want 401", got.Status)
	}
	if text := textOf(errRes); !errRes.IsError || !strings.Contains(text, "upstream GET /pet/{petId} answered 401 Unauthorized") {
		t.Errorf("get_pet_by_id refused by the API answered %q (isError %v)", text, errRes.IsError)
	}
}

// mustCompact is a JSON text with object keys sorted, as json.Marshal of
// its decoded value writes it.
func mustCompact(s string) string {
	var v any
	json.Unmarshal([]byte(s), &v)
	b, _ := json.Marshal(v)
	return string(b)
}
