package bench

import (
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"testing"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/mcpgen/mcpgen/bench/servers"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkIdleSessions opens b.N idle legacy Streamable HTTP sessions
// (initialize, then notifications/initialized, never deleted) on each
// server's HTTP handler, in process, and reports what they hold per session
// after a collection: heap, goroutine stacks (a session that keeps a
// goroutine holds its stack, which the heap figure does not show), and both. BENCHMARKS.md's row uses 10,000:
//
//	go test -run '^$' -bench IdleSessions -benchtime 10000x -count 5 .
func BenchmarkIdleSessions(b *testing.B) {
	handlers := []struct {
		name string
		new  func(n int) http.Handler
	}{
		{"mcpgen", func(n int) http.Handler {
			return servers.NewMcpgen().HTTPHandler(runtime.WithMaxSessions(n + 1))
		}},
		{"gosdk", func(int) http.Handler {
			s := servers.NewGoSDK(nil)
			return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
		}},
		{"mcpgo", func(int) http.Handler {
			return mcpgoserver.NewStreamableHTTPServer(servers.NewMcpgo(true))
		}},
	}
	for _, h := range handlers {
		b.Run(h.name, func(b *testing.B) { idleSessions(b, h.new(b.N)) })
	}
}

func idleSessions(b *testing.B, h http.Handler) {
	post := func(body, session string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Content-Type", "application/json")
		if session != "" {
			r.Header.Set("Mcp-Session-Id", session)
			r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	g0 := goruntime.NumGoroutine()
	b.ResetTimer()
	for range b.N {
		w := post(initLine, "")
		sid := w.Header().Get("Mcp-Session-Id")
		if w.Code != http.StatusOK || sid == "" {
			b.Fatalf("initialize: %d %s", w.Code, w.Body)
		}
		if w := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid); w.Code != http.StatusAccepted {
			b.Fatalf("initialized: %d %s", w.Code, w.Body)
		}
	}
	b.StopTimer()
	goruntime.GC()
	goruntime.ReadMemStats(&after)
	n := float64(b.N)
	perSession := func(after, before uint64) float64 { return float64(int64(after)-int64(before)) / n }
	heap := perSession(after.HeapAlloc, before.HeapAlloc)
	stack := perSession(after.StackInuse, before.StackInuse)
	b.ReportMetric(heap, "heap-B/session")
	b.ReportMetric(stack, "stack-B/session")
	b.ReportMetric(heap+stack, "B/session")
	b.ReportMetric(float64(goruntime.NumGoroutine()-g0)/float64(b.N), "goroutines/session")
	goruntime.KeepAlive(h)
}
