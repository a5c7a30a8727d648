package runtime_test

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// lineWriter hands each Write to a channel, so a test can wait for it.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) { w <- string(p); return len(p), nil }

// TestServeStartLine: Serve says, in one line, which server serves over
// which transport and where, with the port it really listens on; and the
// URL it prints answers MCP.
func TestServeStartLine(t *testing.T) {
	lines := make(lineWriter, 4)
	srv := runtime.NewServer(testInfo(), runtime.WithStartLine(lines))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runtime.Serve(ctx, srv, "127.0.0.1:0") }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()
	var line string
	select {
	case line = <-lines:
	case <-time.After(wait):
		t.Fatal("Serve printed no start line")
	}
	m := regexp.MustCompile(`^test-server 0\.1\.0: serving MCP over Streamable HTTP at (http://127\.0\.0\.1:\d+/mcp)\n$`).FindStringSubmatch(line)
	if m == nil || strings.HasSuffix(m[1], ":0/mcp") {
		t.Fatalf("start line %q", line)
	}
	req, _ := http.NewRequest("POST", m[1], strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("the printed URL does not answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("initialize at the printed URL: %s", resp.Status)
	}
}

// TestServeQuiet: WithStartLine(nil) prints nothing.
func TestServeQuiet(t *testing.T) {
	var buf bytes.Buffer
	loud := runtime.NewServer(testInfo(), runtime.WithStartLine(&buf))
	quiet := runtime.NewServer(testInfo(), runtime.WithStartLine(nil))
	for _, srv := range []*runtime.Server{quiet, loud} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // Serve listens, prints, sees ctx done and returns
		if err := runtime.Serve(ctx, srv, "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		if srv == quiet && buf.Len() > 0 {
			t.Errorf("a quiet server printed %q", buf.String())
		}
	}
	if !strings.Contains(buf.String(), "serving MCP over Streamable HTTP") {
		t.Errorf("a server with a start-line writer printed %q", buf.String())
	}
}
