package runtime_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

func TestStdioFraming(t *testing.T) {
	srv := runtime.NewServer(testInfo(), runtime.WithMaxMessageSize(1000))
	srv.AddTool(echoTool("echo"))
	c := serve(t, srv)
	c.initialize()

	tooLong := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5000) + `"}}`
	veryLong := strings.Repeat("y", 200<<10) // longer than the read buffer
	for _, tc := range []struct {
		name string
		in   string
		want []string
	}{
		{"CRLF", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\r", []string{`{"jsonrpc":"2.0","id":1,"result":{}}`}},
		{"blank lines are skipped", "\n  \r\n\t", nil},
		{"over the maximum size", tooLong,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: message exceeds the maximum size of 1000 bytes"}}`}},
		{"far over the read buffer", veryLong,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: message exceeds the maximum size of 1000 bytes"}}`}},
		{"exactly the maximum", `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"` + strings.Repeat("z", 1000-60) + `"}}`,
			[]string{`{"jsonrpc":"2.0","id":2,"result":{}}`}},
		{"one byte over the maximum", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("z", 1000-59) + `"}}`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: message exceeds the maximum size of 1000 bytes"}}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, c.linesUntilSentinel(tc.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestStdioLongMessageWithinLimit(t *testing.T) {
	srv := runtime.NewServer(testInfo()) // default 4 MiB
	srv.AddTool(echoTool("echo"))
	c := serve(t, srv)
	c.initialize()
	big := strings.Repeat("b", 1<<20)
	res := c.callTool("echo", map[string]any{"s": big})
	if !bytes.Contains(res, []byte(big)) {
		t.Errorf("a 1 MiB argument did not make the round trip (%d bytes back)", len(res))
	}
}

func TestStdioLastLineWithoutNewline(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	var out bytes.Buffer
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if err := srv.ServeStdio(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestStdioWriteError(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	inR, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), inR, failingWriter{}) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "broken pipe") {
			t.Errorf("ServeStdio = %v, want the write error", err)
		}
	case <-time.After(wait):
		t.Fatal("ServeStdio did not stop on a write error")
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("stdin exploded") }

func TestStdioReadError(t *testing.T) {
	err := runtime.NewServer(testInfo()).ServeStdio(context.Background(), errReader{}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "stdin exploded") {
		t.Errorf("ServeStdio = %v, want the read error", err)
	}
}

// TestSessionInProcess drives a Session directly, as HTTP and benchmarks do.
func TestSessionInProcess(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("echo"))
	var mu sync.Mutex
	var got []string
	ss := srv.NewSession(func(msg []byte) {
		mu.Lock()
		got = append(got, string(msg)) // msg must be copied: string() does
		mu.Unlock()
	})
	ctx := context.Background()
	ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`))
	ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"a":1}}}`))
	ss.Wait()
	ss.Close()
	ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)) // ignored after Close
	want := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"test-server","version":"0.1.0"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"a\":1}"}]}}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
