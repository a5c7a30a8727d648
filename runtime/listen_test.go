package runtime_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// subscriptions/listen: acknowledgement first, then the notifications asked
// for, each tagged with the subscription id; the subscription ends with its
// request.

const listenAck = `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{"toolsListChanged":true,"resourceSubscriptions":["test://a"]}}}`

// listenParams listens to tools/list_changed and to two resources, one of
// which the server does not have (it is left out of the acknowledgement).
var listenParams = withMeta(`"notifications":{"toolsListChanged":true,"resourceSubscriptions":["test://a","test://nowhere","test://a"]}`)

// nextMessage returns the next message on out.
func nextMessage(t *testing.T, out <-chan string) string {
	t.Helper()
	select {
	case m := <-out:
		return m
	case <-time.After(wait):
		t.Fatal("no message from the server")
		return ""
	}
}

// waitClosed waits until srv serves no subscription.
func waitClosed(t *testing.T, srv *runtime.Server) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for runtime.OpenSubscriptions(srv) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d subscriptions still open after their request ended", runtime.OpenSubscriptions(srv))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// postListen opens a 2026-07-28 listen stream over HTTP at url (with
// listenParams, request id 7); ctx ends it from the client's side.
func postListen(t *testing.T, ctx context.Context, url string) *http.Response {
	t.Helper()
	r, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(req(7, "subscriptions/listen", listenParams)))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", modernVersion)
	r.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// listenResult is the result that ends subscription id: the listen
// request answered, complete.
func listenResult(id string) string {
	return ok(id, `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"0.1.0"},"io.modelcontextprotocol/subscriptionId":`+id+`},"resultType":"complete"}`)
}

// exerciseListen checks what a listen stream carries: next returns the
// next message the server sent on it.
func exerciseListen(t *testing.T, srv *runtime.Server, next func() string) {
	t.Helper()
	if got := next(); got != listenAck {
		t.Fatalf("first message\n%s\nwant the acknowledgement\n%s", got, listenAck)
	}
	// A prompt change is not asked for: it must not come before the tool change.
	srv.AddPrompt(runtime.Prompt{Name: "p", Description: "P.", Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		return &runtime.GetPromptResult{}, nil
	}})
	srv.AddTool(echoTool("added"))
	want := `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}}`
	if got := next(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	srv.NotifyResourceUpdated("test://gone") // not listened to
	srv.NotifyResourceUpdated("test://a")
	want = `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://a","_meta":{"io.modelcontextprotocol/subscriptionId":7}}}`
	if got := next(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestListenSession(t *testing.T) {
	srv := modernServer()
	p := newSessionPeer(t, srv)
	p.ss.HandleMessage(context.Background(), []byte(req(7, "subscriptions/listen", listenParams)))
	exerciseListen(t, srv, func() string { return nextMessage(t, p.out) })
	// notifications/cancelled ends it (stdio has no stream to close), and
	// a cancelled request is not answered.
	p.ss.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`))
	waitClosed(t, srv)
	srv.AddTool(echoTool("after"))
	got := p.exchange(req(8, "tools/list", withMeta(`"cursor":"x"`)))
	for _, m := range got {
		if strings.Contains(m, "list_changed") || strings.Contains(m, `"id":7`) {
			t.Errorf("the ended subscription still got %s", m)
		}
	}
}

func TestListenStdio(t *testing.T) {
	srv := modernServer()
	c := serve(t, srv)
	c.send(req(7, "subscriptions/listen", listenParams))
	exerciseListen(t, srv, c.recv)
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	waitClosed(t, srv)

	// At end of input, a subscription ends with its result, and ServeStdio
	// returns instead of waiting for it.
	c.send(req(8, "subscriptions/listen", withMeta(`"notifications":{"promptsListChanged":true}`)))
	if ack := c.recv(); !strings.Contains(ack, `"method":"notifications/subscriptions/acknowledged"`) {
		t.Fatalf("no acknowledgement: %s", ack)
	}
	if err := c.closeInput(); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	want := listenResult("8")
	if rest := c.rest(); len(rest) != 1 || rest[0] != want {
		t.Errorf("after end of input: %q, want %s", rest, want)
	}
	waitClosed(t, srv)
}

func TestListenHTTP(t *testing.T) {
	srv := modernServer()
	ts := httptest.NewServer(srv.HTTPHandler(runtime.WithJSONResponses()))
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := postListen(t, ctx, ts.URL)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" || resp.Header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("Content-Type %q, X-Accel-Buffering %q: want an SSE stream that proxies do not buffer", ct, resp.Header.Get("X-Accel-Buffering"))
	}
	// Every read has its own deadline (nextEvent): a notification that
	// never comes fails the test in seconds, not at go test's timeout.
	events := newSSE(resp.Body)
	exerciseListen(t, srv, func() string {
		for {
			switch ev := nextEvent(t, events); {
			case ev.Event == "EOF":
				t.Fatal("the stream ended")
			case ev.Data != "":
				return ev.Data
			}
		}
	})
	cancel() // the client closes the stream: the subscription ends
	waitClosed(t, srv)
}

func TestListenErrors(t *testing.T) {
	srv := modernServer()
	p := newSessionPeer(t, srv)
	for _, tc := range []struct{ params, want string }{
		{withMeta(`"x":1`), `"code":-32602`},
		{withMeta(`"notifications":{"toolsListChanged":"yes"}`), `toolsListChanged`},
		{withMeta(`"notifications":{"resourceSubscriptions":"test://a"}`), `resourceSubscriptions`},
	} {
		got := p.exchange(req(1, "subscriptions/listen", tc.params))
		if len(got) != 1 || !strings.Contains(got[0], `"code":-32602`) || !strings.Contains(got[0], tc.want) {
			t.Errorf("listen %s: got %q, want a -32602 error mentioning %s", tc.params, got, tc.want)
		}
	}
	// A connection may hold so many subscriptions at once.
	for i := range 64 {
		p.ss.HandleMessage(context.Background(), []byte(req(100+i, "subscriptions/listen", withMeta(`"notifications":{"toolsListChanged":true}`))))
		if ack := nextMessage(t, p.out); !strings.Contains(ack, "acknowledged") {
			t.Fatalf("listen %d: %s", i, ack)
		}
	}
	if got := p.exchange(req(200, "subscriptions/listen", withMeta(`"notifications":{"toolsListChanged":true}`))); !strings.Contains(got[0], "64 subscriptions are open on this connection") {
		t.Errorf("the 65th listen: %s", got)
	}
	p.ss.Close()
	waitClosed(t, srv)

	// The legacy era has no subscriptions/listen.
	c := serve(t, srv)
	c.initialize()
	if r := c.request("subscriptions/listen", json.RawMessage(`{"notifications":{}}`)); !strings.Contains(errorJSON(r), "-32601") {
		t.Errorf("legacy listen: %s, want method not found", errorJSON(r))
	}
	if runtime.OpenSubscriptions(srv) != 0 {
		t.Errorf("refused listens left %d subscriptions", runtime.OpenSubscriptions(srv))
	}
}

// A server shutting down ends its subscriptions gracefully: the listen
// request is answered, which closes its stream.
func TestListenHTTPShutdown(t *testing.T) {
	srv := modernServer()
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	events := newSSE(postListen(t, context.Background(), ts.URL).Body)
	if ev := nextEvent(t, events); ev.Data != listenAck {
		t.Fatalf("first event %q, want the acknowledgement", ev.Data)
	}
	shutdown := make(chan error, 1)
	go func() { shutdown <- ts.Config.Shutdown(context.Background()) }()
	want := listenResult("7")
	if ev := nextEvent(t, events); ev.Data != want {
		t.Fatalf("at shutdown: %q\nwant %q", ev.Data, want)
	}
	if _, more := events.next(); more {
		t.Error("the stream goes on after the subscription's result")
	}
	if err := <-shutdown; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	waitClosed(t, srv)
}

// TestListenFalseIsNotAsked: a kind set to false is not listened to: the
// acknowledgement leaves it out and its change sends nothing, while the
// kind set to true is heard.
func TestListenFalseIsNotAsked(t *testing.T) {
	srv := modernServer()
	p := newSessionPeer(t, srv)
	p.ss.HandleMessage(context.Background(), []byte(req(7, "subscriptions/listen",
		withMeta(`"notifications":{"toolsListChanged":false,"resourcesListChanged":false,"promptsListChanged":true}`))))
	want := `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{"promptsListChanged":true}}}`
	if got := nextMessage(t, p.out); got != want {
		t.Fatalf("acknowledgement\n%s\nwant\n%s", got, want)
	}
	srv.AddTool(echoTool("added")) // not listened to: must not come before the prompt change
	srv.AddPrompt(runtime.Prompt{Name: "p", Description: "P.", Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		return &runtime.GetPromptResult{}, nil
	}})
	want = `{"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}}`
	if got := nextMessage(t, p.out); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
