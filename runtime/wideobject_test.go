package runtime_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// A request of 300,000 "kN":{} members (3.5 MB), as legacy tools/call
// arguments and as modern inputResponses (issue 22, item 4): what one such
// request costs the server to refuse or serve.
//
//	go test ./runtime -run '^$' -bench WideObject -benchtime 20x

const wideMembers = 300000

func wideObject(n int) string {
	var b strings.Builder
	b.Grow(n*7 + 2)
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`":{}`)
	}
	b.WriteByte('}')
	return b.String()
}

// wideServer has a tool that takes any object.
func wideServer() *runtime.Server {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(runtime.Tool{Name: "any", Description: "Takes any object.", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("ok"), nil
		}})
	return srv
}

func wideRequests(n int) map[string]struct {
	body string
	hdr  map[string]string
} {
	obj := wideObject(n)
	return map[string]struct {
		body string
		hdr  map[string]string
	}{
		"legacy-arguments": {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"any","arguments":` + obj + `}}`,
			map[string]string{"Mcp-Protocol-Version": "2025-11-25"}},
		"modern-inputResponses": {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"any","inputResponses":` + obj +
			`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
			map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "any"}},
	}
}

// postRecorded serves one POST on h.
func postRecorded(h http.Handler, body string, hdr map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// initRecorded opens a legacy session on h and returns its id.
func initRecorded(tb testing.TB, h http.Handler) string {
	w := postRecorded(h, initializeV2, nil)
	sid := w.Header().Get("Mcp-Session-Id")
	if sid == "" {
		tb.Fatalf("initialize: %d %s", w.Code, w.Body)
	}
	postRecorded(h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"})
	return sid
}

func BenchmarkWideObject(b *testing.B) {
	for _, n := range []int{wideMembers, 10000} {
		for name, req := range wideRequests(n) {
			benchWide(b, name+"-"+strconv.Itoa(n), req.body, req.hdr)
		}
	}
}

func benchWide(b *testing.B, name, body string, hdr map[string]string) {
	b.Run(name, func(b *testing.B) {
		h := wideServer().HTTPHandler()
		if strings.HasPrefix(name, "legacy") {
			hdr["Mcp-Session-Id"] = initRecorded(b, h)
		}
		var peak uint64
		var ms goruntime.MemStats
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			goruntime.GC()
			goruntime.ReadMemStats(&ms)
			base := ms.HeapAlloc
			stop := sampleHeap(base, &peak)
			w := postRecorded(h, body, hdr)
			stop()
			if w.Code != http.StatusOK && w.Code != http.StatusBadRequest {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
		}
		b.ReportMetric(float64(len(body)), "request-B")
		b.ReportMetric(float64(peak), "peak-heap-B")
	})
}

// sampleHeap samples the heap above base every 100 µs until stop is called,
// keeping the highest in *peak.
func sampleHeap(base uint64, peak *uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var ms goruntime.MemStats
		for {
			goruntime.ReadMemStats(&ms)
			if ms.HeapAlloc > base && ms.HeapAlloc-base > *peak {
				*peak = ms.HeapAlloc - base
			}
			select {
			case <-done:
				return
			default:
			}
		}
	}()
	return func() { close(done); <-finished }
}
