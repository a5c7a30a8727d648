package mcpimport

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// protocols are the revisions initialize offers, newest first: a server
// that answers with an error (rather than with the revision it speaks)
// gets the next one.
var protocols = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// conn sends JSON-RPC requests to one server and returns their results.
type conn interface {
	call(ctx context.Context, method string, params any) (json.RawMessage, error)
	// strayLines are the lines of output that were not messages.
	strayLines() []string
	notify(ctx context.Context, method string) error
	close() error
}

// methodNotFound is JSON-RPC's code for a method the server lacks.
const methodNotFound = -32601

// rpcError is a JSON-RPC error the server answered with.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// message is any JSON-RPC message read from the server.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

func request(id int, method string, params any) ([]byte, error) {
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	return json.Marshal(m)
}

// clip shortens what a server sent for an error message.
func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// stdioConn speaks to a child process over its standard input and output,
// one JSON message per line (MCP's stdio transport).
type stdioConn struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	lines   chan []byte
	readErr error         // set before lines is closed
	waited  chan struct{} // closed once the child has exited and been waited for
	stderr  *tailBuffer
	stray   []string // lines of standard output that are not JSON
	nextID  int
	wmu     sync.Mutex
}

// tailBuffer keeps the last bytes a child wrote to its standard error, to
// show when it misbehaves.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 2000 {
		t.b = t.b[len(t.b)-2000:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}

func startStdio(argv []string, env []string) (*stdioConn, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	c := &stdioConn{cmd: cmd, lines: make(chan []byte, 64), waited: make(chan struct{}), stderr: &tailBuffer{}}
	cmd.Stderr = c.stderr
	ownGroup(cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	c.in = in
	go func() {
		defer func() {
			close(c.lines)
			cmd.Wait() // the output is at its end: the child has closed it
			close(c.waited)
		}()
		br := bufio.NewReaderSize(out, 1<<16)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				c.lines <- line
			}
			if err != nil {
				if err != io.EOF {
					c.readErr = err
				}
				return
			}
		}
	}()
	return c, nil
}

func (c *stdioConn) strayLines() []string { return c.stray }

func (c *stdioConn) write(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.in.Write(append(b, '\n'))
	return err
}

func (c *stdioConn) notify(ctx context.Context, method string) error {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method})
	return c.write(b)
}

func (c *stdioConn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.nextID++
	id := c.nextID
	b, err := request(id, method, params)
	if err != nil {
		return nil, err
	}
	if err := c.write(b); err != nil {
		return nil, fmt.Errorf("writing to the server: %w%s", err, c.exited())
	}
	want := fmt.Sprint(id)
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no answer: %w%s", ctx.Err(), c.exited())
		case line, ok := <-c.lines:
			if !ok {
				return nil, fmt.Errorf("the server closed its output without answering%s", c.exited())
			}
			if t := bytes.TrimSpace(line); t[0] != '{' && t[0] != '[' {
				// A banner or a log line on standard output: MCP allows
				// none, but servers in the field print them; kept to
				// show, the answer may still come.
				c.stray = append(c.stray, clip(t))
				continue
			}
			var m message
			if err := json.Unmarshal(line, &m); err != nil {
				return nil, fmt.Errorf("the server wrote a line that is not JSON-RPC (%v): %s", err, clip(line))
			}
			switch {
			case m.Method != "" && len(m.ID) > 0:
				// A request of the server's own (roots/list, ping…): the
				// importer declared no capabilities, so it answers none.
				reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID,
					"error": map[string]any{"code": -32601, "message": "mcpgen import answers no requests"}})
				if m.Method == "ping" {
					reply, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{}})
				}
				if err := c.write(reply); err != nil {
					return nil, err
				}
			case m.Method != "":
				// A notification (logging, list changed): nothing to do.
			case string(m.ID) == want:
				if m.Error != nil {
					return nil, m.Error
				}
				if m.Result == nil {
					return nil, fmt.Errorf("the answer has neither result nor error: %s", clip(line))
				}
				return m.Result, nil
			}
		}
	}
}

// exited says how the child ended, with the end of its standard error, if
// it has.
func (c *stdioConn) exited() string {
	var b strings.Builder
	if len(c.stray) > 0 {
		fmt.Fprintf(&b, "; it wrote %d lines that are not JSON-RPC, the first: %s", len(c.stray), c.stray[0])
	}
	select {
	case <-c.waited:
		fmt.Fprintf(&b, "; the server exited (%s)", c.cmd.ProcessState)
	case <-time.After(100 * time.Millisecond):
	}
	if c.readErr != nil {
		fmt.Fprintf(&b, "; reading its output: %v", c.readErr)
	}
	if s := c.stderr.String(); s != "" {
		fmt.Fprintf(&b, "; its standard error ends with:\n%s", s)
	}
	return b.String()
}

func (c *stdioConn) close() error {
	// MCP's stdio shutdown: close the input and wait; then SIGTERM; then
	// SIGKILL.
	c.in.Close()
	go func() {
		for range c.lines { // what the child still writes is not read
		}
	}()
	for _, step := range []func(){func() {}, func() { signalGroup(c.cmd, syscall.SIGTERM) }, func() { signalGroup(c.cmd, syscall.SIGKILL) }} {
		step()
		select {
		case <-c.waited:
			return nil
		case <-time.After(500 * time.Millisecond):
		}
	}
	<-c.waited
	return nil
}

// httpConn speaks Streamable HTTP to one endpoint.
type httpConn struct {
	url      string
	headers  http.Header
	client   *http.Client
	session  string
	protocol string // set after initialize
	nextID   int
}

func (c *httpConn) post(ctx context.Context, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, vs := range c.headers {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.protocol != "" {
		req.Header.Set("MCP-Protocol-Version", c.protocol)
	}
	return c.client.Do(req)
}

func (c *httpConn) notify(ctx context.Context, method string) error {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method})
	resp, err := c.post(ctx, b)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("HTTP %s", resp.Status)
	}
	return nil
}

func (c *httpConn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.nextID++
	b, err := request(c.nextID, method, params)
	if err != nil {
		return nil, err
	}
	resp, err := c.post(ctx, b)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" && c.session == "" {
		c.session = s
	}
	if resp.StatusCode/100 != 2 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		var m message
		if json.Unmarshal(body, &m) == nil && m.Error != nil {
			return nil, fmt.Errorf("HTTP %s: %w", resp.Status, m.Error)
		}
		hint := ""
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			hint = " (the server wants credentials: pass them with -H 'Authorization: Bearer …')"
		}
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed {
			hint = " (is this the MCP endpoint? a Streamable HTTP server takes POSTs there; a server of the older HTTP+SSE transport, 2024-11-05, is not supported: import it over stdio)"
		}
		return nil, fmt.Errorf("HTTP %s: %s%s", resp.Status, clip(body), hint)
	}
	want := fmt.Sprint(c.nextID)
	answer := func(data []byte) (json.RawMessage, bool, error) {
		var m message
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, false, fmt.Errorf("the server sent something that is not JSON-RPC (%v): %s", err, clip(data))
		}
		if m.Method != "" || string(m.ID) != want {
			return nil, false, nil // a notification or a request of the server's: not the answer
		}
		if m.Error != nil {
			return nil, true, m.Error
		}
		if m.Result == nil {
			return nil, true, fmt.Errorf("the answer has neither result nor error: %s", clip(data))
		}
		return m.Result, true, nil
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		if err != nil {
			return nil, err
		}
		r, ok, err := answer(body)
		if err == nil && !ok {
			err = fmt.Errorf("the JSON reply is not the answer to request %s: %s", want, clip(body))
		}
		return r, err
	case "text/event-stream":
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 1<<16), 64<<20)
		var data []byte
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "data:"):
				data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")...)
				data = append(data, '\n')
			case line == "" && len(data) > 0:
				r, ok, err := answer(data)
				if ok || err != nil {
					return r, err
				}
				data = nil
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("reading the event stream: %w", err)
		}
		return nil, errors.New("the event stream ended without the answer")
	}
	return nil, fmt.Errorf("HTTP %s with Content-Type %q: a Streamable HTTP server answers with application/json or text/event-stream", resp.Status, resp.Header.Get("Content-Type"))
}

func (c *httpConn) strayLines() []string { return nil }

func (c *httpConn) close() error {
	if c.session == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.url, nil)
	if err != nil {
		return err
	}
	for k, vs := range c.headers {
		req.Header[k] = vs
	}
	req.Header.Set("Mcp-Session-Id", c.session)
	if resp, err := c.client.Do(req); err == nil {
		resp.Body.Close()
	}
	return nil
}
