package runtime_test

import (
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// BenchmarkIdleSessionMemory opens b.N idle legacy sessions (initialize
// and notifications/initialized, never deleted) on one handler and reports
// the heap they hold, per session, after a collection:
//
//	go test ./runtime -run '^$' -bench IdleSessionMemory -benchtime 10000x
func BenchmarkIdleSessionMemory(b *testing.B) {
	srv := runtime.NewServer(testInfo())
	h := srv.HTTPHandler(runtime.WithMaxSessions(b.N + 1))
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
	b.ResetTimer()
	for range b.N {
		w := post(initializeV2, "")
		sid := w.Header().Get("Mcp-Session-Id")
		if w.Code != http.StatusOK || sid == "" {
			b.Fatalf("initialize: %d %s", w.Code, w.Body)
		}
		if w := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid); w.Code != http.StatusAccepted {
			b.Fatalf("initialized: %d", w.Code)
		}
	}
	b.StopTimer()
	goruntime.GC()
	goruntime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(b.N), "heap-B/session")
	goruntime.KeepAlive(h)
}
