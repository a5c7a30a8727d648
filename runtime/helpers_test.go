package runtime_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

// client drives a server over stdio through pipes, as a real client would.
type client struct {
	t      *testing.T
	w      *io.PipeWriter
	lines  chan string
	done   chan error
	cancel context.CancelFunc
	nextID int
}

// wait bounds how long a test waits for something that must happen; it is a
// guard against hangs, not a timing assertion.
const wait = 10 * time.Second

func serve(t *testing.T, srv *runtime.Server) *client {
	t.Helper()
	return serveCtx(t, context.Background(), srv)
}

func serveCtx(t *testing.T, ctx context.Context, srv *runtime.Server) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(ctx)
	c := &client{t: t, w: inW, lines: make(chan string, 1000), done: make(chan error, 1), cancel: cancel}
	go func() {
		err := srv.ServeStdio(ctx, inR, outW)
		outW.Close()
		c.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(wait):
			t.Error("ServeStdio did not return")
		}
	})
	return c
}

func (c *client) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *client) recv() string {
	c.t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			c.t.Fatal("server closed its output")
		}
		return l
	case <-time.After(wait):
		c.t.Fatal("no message from the server")
	}
	return ""
}

// closeInput ends the input (EOF) and returns what ServeStdio returned.
func (c *client) closeInput() error {
	c.t.Helper()
	c.w.Close()
	select {
	case err := <-c.done:
		c.done <- err // for Cleanup
		return err
	case <-time.After(wait):
		c.t.Fatal("ServeStdio did not return after EOF")
	}
	return nil
}

// rest returns the lines written after ServeStdio returned.
func (c *client) rest() []string {
	var out []string
	for l := range c.lines {
		out = append(out, l)
	}
	return out
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *rpcError       `json:"error"`
}

func parse(t *testing.T, line string) response {
	t.Helper()
	var r response
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, line)
	}
	if r.JSONRPC != "2.0" {
		t.Fatalf(`response without "jsonrpc":"2.0": %s`, line)
	}
	return r
}

// request sends a request with a fresh id and returns its response (other
// responses must not be pending).
func (c *client) request(method string, params any) response {
	c.t.Helper()
	c.nextID++
	msg := map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method}
	if params != nil {
		msg["params"] = params
	}
	b, _ := json.Marshal(msg)
	c.send(string(b))
	r := parse(c.t, c.recv())
	if string(r.ID) != fmt.Sprint(c.nextID) {
		c.t.Fatalf("response id %s, want %d", r.ID, c.nextID)
	}
	return r
}

func (c *client) result(method string, params any) json.RawMessage {
	c.t.Helper()
	r := c.request(method, params)
	if r.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, r.Error.Code, r.Error.Message)
	}
	return r.Result
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	b, _ := json.Marshal(msg)
	c.send(string(b))
}

func (c *client) initialize() json.RawMessage {
	c.t.Helper()
	res := c.result("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{"roots": map[string]any{}},
		"clientInfo":      map[string]any{"name": "test-client", "version": "1.0.0"},
	})
	c.notify("notifications/initialized", nil)
	return res
}

// callTool calls a tool and returns the result, failing on a protocol error.
func (c *client) callTool(name string, args any) json.RawMessage {
	c.t.Helper()
	p := map[string]any{"name": name}
	if args != nil {
		p["arguments"] = args
	}
	return c.result("tools/call", p)
}

// jsonEqual compares two JSON texts structurally; numbers compare exactly.
func jsonEqual(t *testing.T, want string, got []byte) {
	t.Helper()
	w, err := decode([]byte(want))
	if err != nil {
		t.Fatalf("bad want JSON: %v\n%s", err, want)
	}
	g, err := decode(got)
	if err != nil {
		t.Fatalf("got invalid JSON: %v\n%s", err, got)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("JSON mismatch (-want +got):\n%s\ngot: %s", diff, got)
	}
}

func decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// logBuffer is a logger writing into a buffer, for asserting what is logged
// (and keeping test output clean).
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func newLog() (*logBuffer, runtime.Option) {
	lb := &logBuffer{}
	return lb, runtime.WithLogger(slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug})))
}

func testInfo() runtime.Implementation {
	return runtime.Implementation{Name: "test-server", Version: "0.1.0"}
}

// echoTool is a raw tool that answers its arguments as text.
func echoTool(name string) runtime.Tool {
	return runtime.Tool{
		Name:        name,
		Description: "Echo the arguments.",
		Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult(string(req.Arguments)), nil
		},
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// errorJSON is a response's error as the server wrote it (no HTML
// escaping, no data when there was none), or "" without an error.
func errorJSON(r response) string {
	if r.Error == nil {
		return ""
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(r.Error.Message)
	s := fmt.Sprintf(`{"code":%d,"message":%s`, r.Error.Code, strings.TrimSuffix(b.String(), "\n"))
	if r.Error.Data != nil {
		s += `,"data":` + string(r.Error.Data)
	}
	return s + "}"
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
