package runtime_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	goruntime "runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// A client that reads slowly, or stops reading, holds up only the handlers
// that write to it: what waits for it is bounded (4 MiB on stdio, 1 MiB per
// HTTP stream), the handlers block, and memory stays flat. A client that
// disconnects mid-stream leaves nothing behind.

const (
	floodReports = 20000 // progress notifications of 1 KiB each: 20 MiB
	floodNote    = 1000
)

// floodTool sends floodReports progress notifications, counting them in
// sent, then answers.
func floodTool(sent *atomic.Int64) runtime.Tool {
	note := strings.Repeat("x", floodNote)
	return runtime.Tool{Name: "flood", Description: "Reports progress many times.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		for i := range floodReports {
			if err := runtime.Progress(ctx, float64(i+1), floodReports, note); err != nil {
				return nil, err
			}
			sent.Add(1)
		}
		return runtime.TextResult("flooded"), nil
	}}
}

// stalled waits until sent stops growing (the handler is blocked on the
// slow reader) and returns its value; it fails if the handler gets through
// everything instead.
func stalled(t *testing.T, sent *atomic.Int64, total int64) int64 {
	t.Helper()
	deadline := time.Now().Add(wait)
	last, still := int64(-1), 0
	for time.Now().Before(deadline) {
		n := sent.Load()
		if n == total {
			t.Fatalf("the handler sent all %d reports to a client that reads nothing: no back-pressure", n)
		}
		if n == last && n > 0 {
			if still++; still == 5 {
				return n
			}
		} else {
			still = 0
		}
		last = n
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the handler never stalled")
	return 0
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	goruntime.GC()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return m.HeapAlloc
}

const maxHeapGrowth = 16 << 20 // what the buffers may hold, with room; the flood is 20 MiB

func TestStdioSlowReaderMemoryBounded(t *testing.T) {
	base := heapInUse()
	var sent atomic.Int64
	srv := runtime.NewServer(testInfo())
	srv.AddTool(floodTool(&sent))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(ctx, inR, outW) }()
	// Two calls flood at once: one writes (and blocks on the pipe), the
	// other queues behind it up to the bound.
	go io.WriteString(inW, initLine+
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"flood","_meta":{"progressToken":1}}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"flood","_meta":{"progressToken":2}}}`+"\n")
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	// Each call's reports arrive in order, then its response.
	reports := map[string]int{"1": 0, "2": 0}
	responses := 0
	read := func() {
		if !sc.Scan() {
			t.Fatal("the output ended early")
		}
		line := sc.Text()
		if token, ok := strings.CutPrefix(line, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":`); ok {
			token = token[:1]
			reports[token]++
			if !strings.Contains(line, fmt.Sprintf(`"progress":%d,`, reports[token])) {
				t.Fatalf("report %d of call %s out of order: %.120s", reports[token], token, line)
			}
			return
		}
		if !strings.Contains(line, `"text":"flooded"`) && !strings.Contains(line, `"id":"init"`) {
			t.Errorf("unexpected line: %.200s", line)
		}
		if strings.Contains(line, `"text":"flooded"`) {
			responses++
		}
	}
	for range 11 { // initialize's response, and some reports
		read()
	}
	// Nothing more is read for now: the server's writes block on the pipe.
	n := stalled(t, &sent, 2*floodReports)
	grown := int64(heapInUse()) - int64(base)
	t.Logf("stdio: the handlers stalled after %d of %d reports (%d KiB); heap grew by %d KiB", n, 2*floodReports, n*floodNote>>10, grown>>10)
	if grown > maxHeapGrowth {
		t.Errorf("heap grew by %d bytes while the client read nothing", grown)
	}
	// Now read everything.
	for responses < 2 {
		read()
	}
	if reports["1"] != floodReports || reports["2"] != floodReports {
		t.Errorf("%v reports, want %d per call", reports, floodReports)
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-done; err != nil {
		t.Errorf("ServeStdio = %v", err)
	}
}

func TestHTTPSlowReaderMemoryBounded(t *testing.T) {
	base := heapInUse()
	var sent atomic.Int64
	srv := runtime.NewServer(testInfo())
	srv.AddTool(floodTool(&sent))
	p, _, _ := listenAndServe(t, srv)
	p.initialize(`{}`)
	resp, _ := p.call("tools/call", `{"name":"flood","_meta":{"progressToken":"p"}}`)
	defer resp.Body.Close()
	n := stalled(t, &sent, floodReports)
	grown := int64(heapInUse()) - int64(base)
	t.Logf("HTTP: the handler stalled after %d of %d reports (%d KiB, the rest in socket buffers); heap grew by %d KiB", n, floodReports, n*floodNote>>10, grown>>10)
	if grown > maxHeapGrowth {
		t.Errorf("heap grew by %d bytes while the client read nothing", grown)
	}
	reports, final := 0, false
	s := newSSE(resp.Body)
	for {
		ev, ok := s.next()
		if !ok {
			break
		}
		switch {
		case strings.Contains(ev.Data, `"method":"notifications/progress"`):
			reports++
		case strings.Contains(ev.Data, `"text":"flooded"`):
			final = true
		}
	}
	if reports != floodReports || !final {
		t.Errorf("%d reports (want %d), response: %v", reports, floodReports, final)
	}
}

// TestHTTPClientDisconnectsMidStream: a client that drops its connection
// while its call streams progress does not cancel the call (the runtime
// says so: a disconnect is not a cancellation); the handler finishes, what
// it sends goes nowhere, the session goes on serving, and no goroutine is
// left once it is deleted.
func TestHTTPClientDisconnectsMidStream(t *testing.T) {
	base := goruntime.NumGoroutine()
	g := newGatedTool(1)
	var finished atomic.Bool
	srv := runtime.NewServer(testInfo())
	srv.AddTool(runtime.Tool{Name: "stream", Description: "Reports, waits, reports again.", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		runtime.Progress(ctx, 1, 3, "first")
		g.started <- struct{}{}
		select {
		case <-g.gate:
		case <-ctx.Done():
			g.cancelled.Add(1)
			return nil, ctx.Err()
		}
		for i := 2; i <= 1000; i++ { // to a stream nobody reads any more
			runtime.Progress(ctx, float64(i), 1000, strings.Repeat("y", 1000))
		}
		finished.Store(true)
		return runtime.TextResult("streamed"), nil
	}})
	p, cancel, done := listenAndServe(t, srv)
	p.initialize(`{}`)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	req, _ := http.NewRequest(http.MethodPost, p.url, strings.NewReader(`{"jsonrpc":"2.0","id":"stream","method":"tools/call","params":{"name":"stream","_meta":{"progressToken":1}}}`))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Session-Id", p.session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ev := nextEvent(t, newSSE(resp.Body)); !strings.Contains(ev.Data, `"message":"first"`) {
		t.Fatalf("first event: %+v", ev)
	}
	<-g.started
	resp.Body.Close() // the client goes away mid-stream
	close(g.gate)
	deadline := time.Now().Add(wait)
	for !finished.Load() && g.cancelled.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the handler neither finished nor was cancelled")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if g.cancelled.Load() != 0 {
		t.Error("the disconnect cancelled the call")
	}
	// The call's id ("stream") differs from the peer's numbered ids: the
	// handler has returned, but its reply may still be on its way out, and
	// the ping must not wait for that.
	if res := string(p.result("ping", "")); res != "{}" {
		t.Errorf("ping after the disconnect: %s", res)
	}
	del := p.do(http.MethodDelete, "")
	del.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("ListenAndServe = %v", err)
	}
	done <- nil
	client.CloseIdleConnections()
	http.DefaultClient.CloseIdleConnections()
	settleGoroutines(t, base)
}
