package runtime_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/stdio"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Graceful shutdown: once the context is done, calls in flight finish and
// their responses are written, new calls are refused, and a handler that
// does not return is cancelled when the grace period is over. Each test
// checks that the goroutines it started are gone afterwards.

// gatedTool counts the calls in flight and holds them until gate closes;
// cancelled counts the calls whose context ended first.
type gatedTool struct {
	started   chan struct{}
	gate      chan struct{}
	cancelled atomic.Int64
}

func newGatedTool(capacity int) *gatedTool {
	return &gatedTool{started: make(chan struct{}, capacity), gate: make(chan struct{})}
}

func (g *gatedTool) tool(name string) runtime.Tool {
	return runtime.Tool{Name: name, Description: "Waits for the gate.", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		g.started <- struct{}{}
		select {
		case <-g.gate:
			return runtime.TextResult("done " + string(req.Arguments)), nil
		case <-ctx.Done():
			g.cancelled.Add(1)
			return nil, ctx.Err()
		}
	}}
}

// settleGoroutines waits (up to wait) for the goroutine count to come back
// to base, as the stress test does; the runtime keeps idle request workers
// for a few seconds.
func settleGoroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(3 * wait / 2)
	for {
		n := goruntime.NumGoroutine()
		if n <= base {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Errorf("%d goroutines, %d before:\n%s", n, base, buf[:goruntime.Stack(buf, true)])
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// servePipes runs ServeStdio on pipes; lines receives every line written,
// done what ServeStdio returned.
func servePipes(ctx context.Context, srv *runtime.Server) (in *io.PipeWriter, lines chan string, done chan error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	lines, done = make(chan string, 4096), make(chan error, 1)
	go func() {
		err := srv.ServeStdio(ctx, inR, outW)
		outW.Close()
		inR.Close()
		done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return inW, lines, done
}

const initLine = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

// TestStdioGracefulShutdownUnderLoad: 32 calls in flight when the context
// is cancelled all get their response; a call sent afterwards is refused.
func TestStdioGracefulShutdownUnderLoad(t *testing.T) {
	base := goruntime.NumGoroutine()
	const calls = 32
	g := newGatedTool(calls)
	srv := runtime.NewServer(testInfo(), runtime.WithStdioShutdownTimeout(wait))
	srv.AddTool(g.tool("work"))
	ctx, cancel := context.WithCancel(context.Background())
	in, lines, done := servePipes(ctx, srv)
	var msgs strings.Builder
	msgs.WriteString(initLine)
	for i := range calls {
		fmt.Fprintf(&msgs, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"work","arguments":{"n":%d}}}`+"\n", i, i)
	}
	go io.WriteString(in, msgs.String())
	for range calls {
		<-g.started
	}
	cancel()
	// A call sent during the shutdown is refused, a ping still answered.
	go io.WriteString(in, `{"jsonrpc":"2.0","id":"late","method":"tools/call","params":{"name":"work","arguments":{}}}`+"\n"+
		`{"jsonrpc":"2.0","id":"ping","method":"ping"}`+"\n")
	var got []string
	for len(got) < 3 { // initialize, then the two answers above (the calls wait for the gate)
		got = append(got, <-lines)
	}
	if !strings.Contains(got[1]+got[2], `"id":"late","error":{"code":-32000,"message":"the server is shutting down`) ||
		!strings.Contains(got[1]+got[2], `{"jsonrpc":"2.0","id":"ping","result":{}}`) {
		t.Errorf("during the shutdown: %q", got[1:])
	}
	close(g.gate)
	answered := map[string]bool{}
	for line := range lines {
		if strings.Contains(line, `"text":"done {\"n\":`) {
			answered[line[strings.Index(line, `"id":`):strings.Index(line, `,"result"`)]] = true
		} else {
			t.Errorf("unexpected line: %s", line)
		}
	}
	if len(answered) != calls || g.cancelled.Load() != 0 {
		t.Errorf("%d of %d calls answered, %d cancelled", len(answered), calls, g.cancelled.Load())
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("ServeStdio = %v, want context.Canceled", err)
	}
	in.Close()
	settleGoroutines(t, base)
}

// TestStdioShutdownCancelsStuckHandler: a handler that waits forever is
// cancelled once the grace period is over, and ServeStdio returns.
func TestStdioShutdownCancelsStuckHandler(t *testing.T) {
	base := goruntime.NumGoroutine()
	g := newGatedTool(1)
	srv := runtime.NewServer(testInfo(), runtime.WithStdioShutdownTimeout(50*time.Millisecond))
	srv.AddTool(g.tool("stuck"))
	ctx, cancel := context.WithCancel(context.Background())
	in, lines, done := servePipes(ctx, srv)
	go io.WriteString(in, initLine+`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stuck"}}`+"\n")
	<-g.started
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeStdio = %v", err)
		}
	case <-time.After(wait):
		t.Fatal("ServeStdio did not return")
	}
	for line := range lines {
		if !strings.Contains(line, `"id":"init"`) {
			t.Errorf("unexpected line: %s", line) // the cancelled call is not answered
		}
	}
	in.Close()
	// ServeStdio returns once the handler's context is cancelled, not once
	// the handler returned: wait for it to see the cancellation.
	for deadline := time.Now().Add(wait); g.cancelled.Load() != 1 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if g.cancelled.Load() != 1 {
		t.Errorf("the stuck handler's context was not cancelled")
	}
	settleGoroutines(t, base)
}

// TestHTTPGracefulShutdownUnderLoad: 32 calls in flight over Streamable
// HTTP, each on its own connection, all get their result after the
// shutdown began; a new connection is refused.
func TestHTTPGracefulShutdownUnderLoad(t *testing.T) {
	base := goruntime.NumGoroutine()
	const calls = 32
	g := newGatedTool(calls)
	srv := runtime.NewServer(testInfo())
	srv.AddTool(g.tool("work"))
	p, cancel, done := listenAndServe(t, srv, runtime.WithMaxConcurrentRequestsPerSession(calls))
	p.initialize(`{}`)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	results := make([]string, calls)
	var wg sync.WaitGroup
	for i := range calls {
		wg.Go(func() {
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"work","arguments":{"n":%d}}}`, i, i)
			req, _ := http.NewRequest(http.MethodPost, p.url, strings.NewReader(body))
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Mcp-Session-Id", p.session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
			resp, err := client.Do(req)
			if err != nil {
				results[i] = err.Error()
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			results[i] = string(b)
		})
	}
	for range calls {
		<-g.started
	}
	cancel()
	// The listener closes as the shutdown begins: new connections fail.
	addr := strings.TrimSuffix(strings.TrimPrefix(p.url, "http://"), "/mcp")
	deadline := time.Now().Add(wait)
	for {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the server still accepts connections during its shutdown")
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(g.gate)
	wg.Wait()
	for i, r := range results {
		if want := fmt.Sprintf(`"id":%d,"result":{"content":[{"type":"text","text":"done {\"n\":%d}"}]}`, i, i); !strings.Contains(r, want) {
			t.Errorf("call %d: %q, want %s", i, r, want)
		}
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ListenAndServe = %v", err)
		}
		done <- err // for the cleanup of listenAndServe
	case <-time.After(wait):
		t.Fatal("ListenAndServe did not return")
	}
	client.CloseIdleConnections()
	http.DefaultClient.CloseIdleConnections()
	settleGoroutines(t, base)
}

// TestHTTPShutdownCancelsStuckHandler: a handler still running when the
// shutdown timeout is over has its context cancelled.
func TestHTTPShutdownCancelsStuckHandler(t *testing.T) {
	g := newGatedTool(1)
	srv := runtime.NewServer(testInfo())
	srv.AddTool(g.tool("stuck"))
	p, cancel, done := listenAndServe(t, srv, runtime.WithShutdownTimeout(50*time.Millisecond))
	p.initialize(`{}`)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, p.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stuck"}}`))
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Mcp-Session-Id", p.session)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	<-g.started
	cancel()
	select {
	case err := <-done:
		done <- err
	case <-time.After(wait):
		t.Fatal("ListenAndServe did not return")
	}
	deadline := time.Now().Add(wait)
	for g.cancelled.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the stuck handler's context was not cancelled")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestHTTPShutdownWithSilentConnection: a client that connected and sent
// nothing does not hold up the shutdown. net/http's Shutdown gives such
// connections 5 s; the runtime closes them when the shutdown begins, so
// ListenAndServe returns well within that.
func TestHTTPShutdownWithSilentConnection(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	p, cancel, done := listenAndServe(t, srv)
	addr := strings.TrimSuffix(strings.TrimPrefix(p.url, "http://"), "/mcp")
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	// Make sure the server has accepted it before shutting down.
	p.initialize(`{}`)
	cancel()
	select {
	case err := <-done:
		done <- err
	case <-time.After(4 * time.Second): // under net/http's 5 s for new connections
		t.Fatal("ListenAndServe waited for a connection that never sent a request")
	}
	silent.SetReadDeadline(time.Now().Add(wait))
	if n, err := silent.Read(make([]byte, 1)); err == nil || n != 0 {
		t.Errorf("the silent connection is still open: %d, %v", n, err)
	}
}

// slowDrainServer is the runtime seen through the transport seam, with each
// session's Drain held until release closes: ServeGracefully, slow to be
// scheduled after ctx ends, has not drained the session yet while the
// reader goes on reading. draining closes as ServeGracefully asks to drain.
type slowDrainServer struct {
	*runtime.Server
	draining, release chan struct{}
}

func (s *slowDrainServer) OpenSession(sink transport.Sink, o transport.Options) transport.Session {
	return &slowDrainSession{Session: s.Server.OpenSession(sink, o), s: s}
}

type slowDrainSession struct {
	transport.Session
	s *slowDrainServer
}

func (ss *slowDrainSession) Drain() <-chan struct{} {
	close(ss.s.draining)
	<-ss.s.release
	return ss.Session.Drain()
}

// TestStdioCallAfterShutdownBeganIsRefused: a call read once ctx is done is
// refused with -32000 and not run, even before ServeGracefully drains the
// session (the reader checks ctx for each line); the calls in flight are
// answered, each line once.
func TestStdioCallAfterShutdownBeganIsRefused(t *testing.T) {
	const calls = 3
	g := newGatedTool(calls)
	var lateRuns atomic.Int64
	srv := runtime.NewServer(testInfo())
	srv.AddTool(g.tool("work"))
	srv.AddTool(runtime.Tool{Name: "late", Description: "Counts its runs.", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		lateRuns.Add(1)
		return runtime.TextResult("ran"), nil
	}})
	seam := &slowDrainServer{Server: srv, draining: make(chan struct{}), release: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inR, in := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		// The grace is a ceiling only: the drain ends as the calls do.
		err := stdio.ServeGracefully(ctx, seam, inR, outW, time.Hour)
		outW.Close()
		inR.Close()
		done <- err
	}()
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(what string) string {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("output closed, want %s", what)
			}
			return l
		case <-time.After(wait): // a safety net only: never reached when the code is right
			t.Fatalf("nothing written, want %s", what)
		}
		return ""
	}
	var msgs strings.Builder
	msgs.WriteString(initLine)
	for i := range calls {
		fmt.Fprintf(&msgs, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"work","arguments":{"n":%d}}}`+"\n", i, i)
	}
	go io.WriteString(in, msgs.String())
	if l := next("the initialize result"); !strings.Contains(l, `"id":"init","result"`) {
		t.Fatalf("first line %s", l)
	}
	for range calls {
		<-g.started
	}
	cancel()
	<-seam.draining // the shutdown began; the session is not drained yet
	go io.WriteString(in, `{"jsonrpc":"2.0","id":"late","method":"tools/call","params":{"name":"late","arguments":{}}}`+"\n"+
		`{"jsonrpc":"2.0","id":"ping","method":"ping"}`+"\n")
	late, ping := next("the late call's answer"), next("the ping's answer")
	if want := `{"jsonrpc":"2.0","id":"late","error":{"code":-32000,"message":"the server is shutting down and starts no new calls; retry on a new connection"}}`; late != want {
		t.Errorf("late call answered\n%s\nwant\n%s", late, want)
	}
	if want := `{"jsonrpc":"2.0","id":"ping","result":{}}`; ping != want {
		t.Errorf("ping answered %s, want %s", ping, want)
	}
	close(seam.release)
	close(g.gate)
	answered := map[string]int{}
	for line := range lines {
		var id int
		if _, err := fmt.Sscanf(line, `{"jsonrpc":"2.0","id":%d,"result":`, &id); err != nil || !strings.Contains(line, fmt.Sprintf(`"text":"done {\"n\":%d}"`, id)) {
			t.Errorf("unexpected line: %s", line)
			continue
		}
		answered[fmt.Sprint(id)]++
	}
	if len(answered) != calls || g.cancelled.Load() != 0 {
		t.Errorf("answered %v, want each of the %d calls in flight once; %d cancelled", answered, calls, g.cancelled.Load())
	}
	for id, n := range answered {
		if n != 1 {
			t.Errorf("call %s answered %d times", id, n)
		}
	}
	if n := lateRuns.Load(); n != 0 {
		t.Errorf("the late call ran %d times, want refused", n)
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("ServeGracefully = %v, want context.Canceled", err)
	}
	in.Close()
}
