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
	post := func(body, session string) (int, http.Header, string) {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
		setLegacyHeaders(r.Header, session)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, w.Header(), w.Body.String()
	}
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	g0 := goruntime.NumGoroutine()
	b.ResetTimer()
	for range b.N {
		openLegacySession(b, post)
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

// setLegacyHeaders sets what a legacy (2025-11-25) Streamable HTTP POST
// carries: the accepted types and, past initialize (session ""), the
// session id and protocol version.
func setLegacyHeaders(h http.Header, session string) {
	h.Set("Accept", "application/json, text/event-stream")
	h.Set("Content-Type", "application/json")
	if session != "" {
		h.Set("Mcp-Session-Id", session)
		h.Set("Mcp-Protocol-Version", "2025-11-25")
	}
}

// openLegacySession initializes a legacy session through post (which sends
// body in session, "" for none, and returns the status, headers and body)
// and returns its id.
func openLegacySession(b *testing.B, post func(body, session string) (int, http.Header, string)) string {
	code, header, body := post(initLine, "")
	sid := header.Get("Mcp-Session-Id")
	if code != http.StatusOK || sid == "" {
		b.Fatalf("initialize: %d %s", code, body)
	}
	if code, _, body := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid); code != http.StatusAccepted {
		b.Fatalf("initialized: %d %s", code, body)
	}
	return sid
}
