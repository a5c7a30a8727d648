package runtime_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// routedSink records what a session sends with the request each message
// belongs to, as a transport that routes by request (Streamable HTTP's
// streams, say) sees it.
type routedSink struct {
	mu   sync.Mutex
	sent []string
}

func (s *routedSink) Send(rel string, final bool, msg []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	kind := "during"
	if final {
		kind = "final"
	}
	s.sent = append(s.sent, rel+" "+kind+" "+string(msg))
	return true
}
func (s *routedSink) Abandon(string)     {}
func (s *routedSink) CloseStream(string) {}
func (s *routedSink) Close()             {}

// TestOpenSessionRoutes: a transport of the user's gets each message with
// the request it belongs to, as the built-in HTTP transport does, and
// names itself to interceptors.
func TestOpenSessionRoutes(t *testing.T) {
	var transportSeen string
	srv := runtime.NewServer(testInfo(), runtime.WithInterceptors(func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) {
			if req.Method == "tools/call" {
				transportSeen = req.Transport
			}
			return next(ctx, req)
		}
	}))
	srv.AddTool(runtime.Tool{Name: "chatty", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		if err := runtime.Log(ctx, runtime.LevelWarning, "chatty", "working"); err != nil {
			return nil, err
		}
		return runtime.TextResult("done"), nil
	}})
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	sink := &routedSink{}
	ss := srv.OpenSession(sink, transport.Options{Name: "mine"})
	defer ss.Close()
	ctx := context.Background()
	ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"chatty","arguments":{}}}`))
	ss.Wait()

	sink.mu.Lock()
	defer sink.mu.Unlock()
	if len(sink.sent) != 3 {
		t.Fatalf("sent %d messages, want 3:\n%s", len(sink.sent), strings.Join(sink.sent, "\n"))
	}
	for i, want := range []string{`1 final {"jsonrpc":"2.0","id":1,"result":`, `"a" during {"jsonrpc":"2.0","method":"notifications/message"`, `"a" final {"jsonrpc":"2.0","id":"a","result":`} {
		if !strings.HasPrefix(sink.sent[i], want) {
			t.Errorf("message %d: %s\nwant it to begin %s", i, sink.sent[i], want)
		}
	}
	if transportSeen != "mine" {
		t.Errorf("Request.Transport = %q, want %q", transportSeen, "mine")
	}
}
