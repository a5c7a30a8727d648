package main

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/support/supportmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// legacyWire is a raw JSON-RPC client on an in-process 2025-11-25 session
// of the generated server: what it sends is what a client writes on
// stdio, what it reads is every message the server sent.
type legacyWire struct {
	t  *testing.T
	ss *runtime.Session

	mu   sync.Mutex
	sent []string
}

// newLegacyWire serves d with the generated server and initializes a
// 2025-11-25 session with capabilities (a JSON object).
func newLegacyWire(t *testing.T, d *desk, capabilities string) *legacyWire {
	srv := supportmcp.NewServer(d)
	d.srv = srv
	w := &legacyWire{t: t}
	w.ss = srv.NewSession(func(msg []byte) {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.sent = append(w.sent, string(msg))
	})
	t.Cleanup(w.ss.Close)
	w.call(1, `"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+capabilities+`,"clientInfo":{"name":"t","version":"1"}}`)
	w.ss.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return w
}

// call sends request id (body: the members after "id") and waits for its
// response, which it returns without its `{"jsonrpc":"2.0","id":N,` prefix
// (the tools run in their own goroutine).
func (w *legacyWire) call(id int, body string) string {
	w.t.Helper()
	w.ss.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":`+strconv.Itoa(id)+`,`+body+`}`))
	prefix := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,`
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		for _, m := range w.messages() {
			if strings.HasPrefix(m, prefix) {
				return strings.TrimPrefix(m, prefix)
			}
		}
	}
	w.t.Fatalf("no response to %s", body)
	return ""
}

// messages returns what the server has sent so far.
func (w *legacyWire) messages() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.sent...)
}

// notifications returns the notifications of method sent so far.
func (w *legacyWire) notifications(method string) []string {
	var out []string
	for _, m := range w.messages() {
		if strings.Contains(m, `"method":"`+method+`"`) && !strings.Contains(m, `"id":`) {
			out = append(out, m)
		}
	}
	return out
}
