package runtime_test

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

// reconnectTool logs, closes its stream (CloseSSEStream), waits for
// proceed, logs again and answers: the conformance suite's
// test_reconnection, with a log on each side of the gap.
func reconnectTool(proceed chan struct{}) runtime.Tool {
	return runtime.Tool{Name: "test_reconnection", Description: "Closes its stream, then answers.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		runtime.Log(ctx, runtime.LevelInfo, "", "before")
		runtime.CloseSSEStream(ctx)
		<-proceed
		runtime.Log(ctx, runtime.LevelInfo, "", "after")
		return runtime.TextResult("Reconnection test completed successfully"), nil
	}}
}

func logEvent(id, data string) event {
	return event{ID: id, Event: "message", Data: `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + data + `"}}`}
}

// TestHTTPCloseSSEStream: the stream is primed (an id, no data), carries
// what went before the close, and ends with a retry field; a GET with the
// last id seen then gets the rest, the result included, whether it comes
// before (replayed from the store) or after (live) the reconnection.
func TestHTTPCloseSSEStream(t *testing.T) {
	for _, answerFirst := range []bool{true, false} {
		name := "reconnect, then the answer"
		if answerFirst {
			name = "the answer, then reconnect"
		}
		t.Run(name, func(t *testing.T) {
			srv := runtime.NewServer(testInfo())
			proceed := make(chan struct{})
			srv.AddTool(reconnectTool(proceed))
			p := serveHTTP(t, srv, runtime.WithEventStore(runtime.NewMemoryEventStore(100)), runtime.WithRetryInterval(500*time.Millisecond))
			p.initialize(`{}`)

			resp, id := p.call("tools/call", `{"name":"test_reconnection"}`)
			want := []event{{ID: "2_0"}, logEvent("2_1", "before"), {Retry: "500"}}
			if diff := cmp.Diff(want, readAll(t, resp)); diff != "" {
				t.Fatalf("the POST's stream (-want +got):\n%s", diff)
			}
			result := event{ID: "2_3", Event: "message", Data: `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"Reconnection test completed successfully"}]}}`}
			if answerFirst {
				close(proceed)
				waitStored(t, p, "2_2") // the answer is in the store, not on a connection
				resp = p.do(http.MethodGet, "", "Last-Event-ID", "2_1")
			} else {
				resp = p.do(http.MethodGet, "", "Last-Event-ID", "2_1")
				close(proceed)
			}
			if resp.StatusCode != 200 {
				t.Fatalf("GET with Last-Event-ID: %d", resp.StatusCode)
			}
			if diff := cmp.Diff([]event{logEvent("2_2", "after"), result}, readAll(t, resp)); diff != "" {
				t.Errorf("the resumed stream (-want +got):\n%s", diff)
			}
		})
	}
}

// waitStored waits until the stream's event after last is in the store
// (the handler finishes on its own time).
func waitStored(t *testing.T, p *httpPeer, last string) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		resp := p.do(http.MethodGet, "", "Last-Event-ID", last)
		evs := readAll(t, resp)
		if len(evs) > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the answer never reached the store")
}

// TestHTTPDisconnectDoesNotCancel: a client that drops its POST's stream
// does not cancel the request; the result is stored and a resumption gets
// it.
func TestHTTPDisconnectDoesNotCancel(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	proceed, cancelled := make(chan struct{}), make(chan bool, 1)
	srv.AddTool(runtime.Tool{Name: "slow", Description: "Logs, waits, answers.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		runtime.Log(ctx, runtime.LevelInfo, "", "started")
		<-proceed
		cancelled <- ctx.Err() != nil
		return runtime.TextResult("finished"), nil
	}})
	p := serveHTTP(t, srv, runtime.WithEventStore(runtime.NewMemoryEventStore(10)))
	p.initialize(`{}`)
	resp, id := p.call("tools/call", `{"name":"slow"}`)
	s := newSSE(resp.Body)
	if ev := nextEvent(t, s); ev.ID != "2_0" {
		t.Fatalf("want the priming event, got %+v", ev)
	}
	if ev := nextEvent(t, s); ev.ID != "2_1" {
		t.Fatalf("want the log, got %+v", ev)
	}
	resp.Body.Close() // the client goes away
	time.Sleep(20 * time.Millisecond)
	close(proceed)
	if <-cancelled {
		t.Error("the handler's context was cancelled by the disconnection")
	}
	waitStored(t, p, "2_1")
	resp = p.do(http.MethodGet, "", "Last-Event-ID", "2_1")
	want := []event{{ID: "2_2", Event: "message", Data: `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"finished"}]}}`}}
	if diff := cmp.Diff(want, readAll(t, resp)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestHTTPResumeGETStream: the standalone stream's events are stored too:
// what was sent while no GET was open is replayed to a GET that resumes,
// and only that stream's events.
func TestHTTPResumeGETStream(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("a"))
	p := serveHTTP(t, srv, runtime.WithEventStore(runtime.NewMemoryEventStore(10)))
	p.initialize(`{}`)
	resp := p.do(http.MethodGet, "")
	s := newSSE(resp.Body)
	if ev := nextEvent(t, s); ev != (event{ID: "0_0"}) {
		t.Fatalf("priming: %+v", ev)
	}
	srv.AddTool(echoTool("b"))
	if ev := nextEvent(t, s); ev != (event{ID: "0_1", Event: "message", Data: toolsChanged}) {
		t.Fatalf("%+v", ev)
	}
	resp.Body.Close()
	time.Sleep(20 * time.Millisecond) // the server notices the stream is gone
	srv.RemoveTool("b")
	// A request's own stream is not replayed on the GET stream.
	p.result("tools/call", `{"name":"a"}`)

	resp = p.do(http.MethodGet, "", "Last-Event-ID", "0_1")
	s = newSSE(resp.Body)
	if ev := nextEvent(t, s); ev != (event{ID: "0_2", Event: "message", Data: toolsChanged}) {
		t.Errorf("replayed: %+v", ev)
	}
	// The resumed stream goes on live, and it is the session's GET stream.
	second := p.do(http.MethodGet, "")
	second.Body.Close()
	if second.StatusCode != http.StatusConflict {
		t.Errorf("a second GET while the resumed one is open: %d", second.StatusCode)
	}
	srv.AddTool(echoTool("c"))
	if ev := nextEvent(t, s); ev != (event{ID: "0_3", Event: "message", Data: toolsChanged}) {
		t.Errorf("live: %+v", ev)
	}
	resp.Body.Close()

	for _, bad := range []string{"x", "1", "_3", "1_-2", "a_1"} {
		resp := p.do(http.MethodGet, "", "Last-Event-ID", bad)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("Last-Event-ID %q: %d %s", bad, resp.StatusCode, b)
		}
	}
}

// TestHTTPNoEventStore: without a store, streams carry no ids,
// CloseSSEStream does nothing, and Last-Event-ID is ignored.
func TestHTTPNoEventStore(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	proceed := make(chan struct{})
	close(proceed)
	srv.AddTool(reconnectTool(proceed))
	p := serveHTTP(t, srv)
	p.initialize(`{}`)
	resp, id := p.call("tools/call", `{"name":"test_reconnection"}`)
	want := []event{
		{Event: "message", Data: logEvent("", "before").Data},
		{Event: "message", Data: logEvent("", "after").Data},
		{Event: "message", Data: `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"Reconnection test completed successfully"}]}}`},
	}
	if diff := cmp.Diff(want, readAll(t, resp)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestHTTPJSONResponses: with WithJSONResponses every request is answered
// with JSON; what a handler sends meanwhile goes on the GET stream.
func TestHTTPJSONResponses(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(runtime.Tool{Name: "chatty", Description: "Logs, then answers.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		runtime.Log(ctx, runtime.LevelInfo, "", "hello")
		return runtime.TextResult("done"), nil
	}})
	p := serveHTTP(t, srv, runtime.WithJSONResponses())
	p.initialize(`{}`)
	get := p.do(http.MethodGet, "")
	defer get.Body.Close()
	resp, id := p.call("tools/call", `{"name":"chatty"}`)
	if got := readAll(t, resp); resp.Header.Get("Content-Type") != "application/json" || len(got) != 1 ||
		got[0].Data != `{"jsonrpc":"2.0","id":`+id+`,"result":{"content":[{"type":"text","text":"done"}]}}` {
		t.Errorf("POST: %s %v", resp.Header.Get("Content-Type"), got)
	}
	if ev := nextEvent(t, newSSE(get.Body)); ev.Data != logEvent("", "hello").Data {
		t.Errorf("GET stream: %+v", ev)
	}
}
