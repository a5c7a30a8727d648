package runtime

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// listenSlowLimits serves s with ListenAndServe's http.Server and short
// limits on slow clients; it returns the address and stops at cleanup.
func listenSlowLimits(t *testing.T, s *Server, opts ...HTTPOption) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	opts = append([]HTTPOption{WithBodyReadTimeout(200 * time.Millisecond), WithReadHeaderTimeout(200 * time.Millisecond)}, opts...)
	go func() { done <- serveListener(ctx, s, ln, opts) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return ln.Addr().String()
}

// readUntilClosed reads what the server sends on c until it closes the
// connection; a connection still open after 5 s (25 times the limits under
// test) fails the test: the server is holding it.
func readUntilClosed(t *testing.T, c net.Conn) string {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	got, err := io.ReadAll(c)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the server still holds the connection after 5 s; it sent %q", got)
	}
	return string(got)
}

// TestSlowBodyIsBounded: a POST announcing Content-Length 100000 that sends
// "{" and then nothing (or a chunked body that stops) is answered and its
// connection closed once WithBodyReadTimeout has passed, whether the
// handler reads the body (400: the read times out) or refuses the request
// first (415: net/http then drains the body after the handler returns,
// under the same deadline). Before the deadline was kept in place for the
// drain, neither connection was ever closed (issue 22, item 1).
func TestSlowBodyIsBounded(t *testing.T) {
	addr := listenSlowLimits(t, NewServer(Implementation{Name: "x", Version: "1"}))
	for _, tc := range []struct{ name, contentType, framing, want string }{
		{"read by the handler", "application/json", "Content-Length: 100000\r\n\r\n{", "HTTP/1.1 400 "},
		{"refused before reading", "text/plain", "Content-Length: 100000\r\n\r\n{", "HTTP/1.1 415 "},
		{"chunked", "application/json", "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"jso", "HTTP/1.1 400 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_, err = io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"+
				"Content-Type: "+tc.contentType+"\r\n"+tc.framing)
			if err != nil {
				t.Fatal(err)
			}
			got := readUntilClosed(t, c)
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("got %q, want %q…", got, tc.want)
			}
		})
	}
}

// TestSlowHeadersAreBounded: a connection that sends a request line and
// part of its headers, then nothing, is closed once WithReadHeaderTimeout
// has passed.
func TestSlowHeadersAreBounded(t *testing.T) {
	addr := listenSlowLimits(t, NewServer(Implementation{Name: "x", Version: "1"}))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"); err != nil {
		t.Fatal(err)
	}
	readUntilClosed(t, c)
}

// TestBodyDeadlineLiftedForResponse: once a body is read, its deadline no
// longer applies to the connection: a call whose handler runs past it is
// answered (a read deadline left on the connection would end its request).
func TestBodyDeadlineLiftedForResponse(t *testing.T) {
	s := NewServer(Implementation{Name: "x", Version: "1"})
	s.AddTool(Tool{Name: "wait", Description: "Waits 400 ms.", Handler: func(ctx context.Context, _ *CallToolRequest) (*CallToolResult, error) {
		select {
		case <-ctx.Done():
			return TextResult("cancelled"), nil
		case <-time.After(400 * time.Millisecond):
			return TextResult("waited"), nil
		}
	}})
	addr := listenSlowLimits(t, s)
	const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(body))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "wait")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(got), `"waited"`) {
		t.Errorf("%s %s, want 200 with the text waited", resp.Status, got)
	}
}
