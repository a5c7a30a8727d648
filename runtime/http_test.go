package runtime_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

// TestHTTPStatus checks every status code of the transport, and the
// JSON-RPC error body that comes with the 4xx.
func TestHTTPStatus(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("echo"))
	p := serveHTTP(t, srv, runtime.WithMaxBodyBytes(1000))
	p.initialize(`{}`)
	call := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, tc := range []struct {
		name   string
		method string
		body   string
		hdr    []string
		status int
		body4x string // the JSON-RPC error body, when there is one to check
	}{
		{"ping", "POST", call, nil, 200, ""},
		{"Accept without text/event-stream", "POST", call, []string{"Accept", "application/json"}, 406,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"not acceptable: the Accept header must list application/json and text/event-stream"}}`},
		{"Accept without application/json", "POST", call, []string{"Accept", "text/event-stream"}, 406, ""},
		{"Accept wildcard", "POST", call, []string{"Accept", "*/*"}, 200, ""},
		{"Accept reversed", "POST", call, []string{"Accept", "text/event-stream, application/json"}, 200, ""},
		{"Accept with parameters", "POST", call, []string{"Accept", "application/json;q=0.9,text/event-stream"}, 200, ""},
		{"Accept near the common value", "POST", call, []string{"Accept", "application/json, text/event-streams"}, 406, ""},
		{"Content-Type not JSON", "POST", call, []string{"Content-Type", "text/plain"}, 415, ""},
		{"body too large", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 1000) + `"}}`, nil, 413,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the body exceeds the maximum size of 1000 bytes"}}`},
		{"not JSON", "POST", `{"jsonrpc":`, nil, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: message is not valid JSON"}}`},
		{"batch", "POST", `[` + call + `]`, nil, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batches are not supported; POST one JSON-RPC message at a time"}}`},
		{"no jsonrpc", "POST", `{"id":7,"method":"ping"}`, nil, 400,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{"no session", "POST", call, []string{"Mcp-Session-Id", ""}, 400,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"bad request: Mcp-Session-Id header missing; initialize a session first"}}`},
		{"unknown session", "POST", call, []string{"Mcp-Session-Id", "nope"}, 404,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"session not found: it ended or expired; initialize a new one"}}`},
		{"unsupported protocol version", "POST", call, []string{"Mcp-Protocol-Version", "2099-01-01"}, 400,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"bad request: unsupported Mcp-Protocol-Version \"2099-01-01\"; this server speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05"}}`},
		{"older protocol version", "POST", call, []string{"Mcp-Protocol-Version", "2024-11-05"}, 200, ""},
		{"no protocol version", "POST", call, []string{"Mcp-Protocol-Version", ""}, 200, ""},
		{"notification", "POST", `{"jsonrpc":"2.0","method":"notifications/whatever"}`, nil, 202, ""},
		{"response to nothing", "POST", `{"jsonrpc":"2.0","id":99,"result":{}}`, nil, 202, ""},
		{"GET without Accept", "GET", "", []string{"Accept", "application/json"}, 406, ""},
		{"GET without session", "GET", "", []string{"Mcp-Session-Id", ""}, 400, ""},
		{"GET unknown session", "GET", "", []string{"Mcp-Session-Id", "nope"}, 404, ""},
		{"DELETE unknown session", "DELETE", "", []string{"Mcp-Session-Id", "nope"}, 404, ""},
		{"PUT", "PUT", call, nil, 405, ""},
		{"evil Host", "POST", call, []string{"Host", "evil.example.com"}, 403,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"forbidden: Host \"evil.example.com\" is not allowed"}}`},
		{"evil Origin", "POST", call, []string{"Origin", "http://evil.example.com"}, 403, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := p.do(tc.method, tc.body, tc.hdr...)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d; body %s", resp.StatusCode, tc.status, b)
			}
			if tc.body4x != "" && string(b) != tc.body4x {
				t.Errorf("body\n got %s\nwant %s", b, tc.body4x)
			}
			if resp.StatusCode >= 400 && resp.StatusCode != 405 && resp.Header.Get("Content-Type") != "application/json" {
				t.Errorf("error without a JSON body: Content-Type %q", resp.Header.Get("Content-Type"))
			}
		})
	}
}

// TestHTTPBodyLimitWithoutLength checks WithMaxBodyBytes when the
// Content-Length cannot bound the body: a chunked body (no length), and a
// body that middleware replaced with a longer one, keeping the length.
func TestHTTPBodyLimitWithoutLength(t *testing.T) {
	h := runtime.NewServer(testInfo()).HTTPHandler(runtime.WithMaxBodyBytes(1000))
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	long := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 1000) + `"}}`
	for _, tc := range []struct {
		name   string
		body   string
		length int64
		status int
	}{
		{"chunked, small", init, -1, 200},
		{"chunked, too large", long, -1, 413},
		{"longer than its Content-Length", long, int64(len(init)), 413},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(tc.body))
			req.ContentLength = tc.length
			req.Header["Accept"] = []string{"application/json, text/event-stream"}
			req.Header["Content-Type"] = []string{"application/json"}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != tc.status {
				t.Errorf("status %d, want %d; body %s", w.Code, tc.status, w.Body)
			}
		})
	}
}

func TestHTTPNestingLimit(t *testing.T) {
	p := serveHTTP(t, runtime.NewServer(testInfo()))
	p.initialize(`{}`)
	resp, _ := p.call("ping", strings.Repeat("[", 10001)+strings.Repeat("]", 10001))
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: JSON nested more than 10000 levels deep"}}`; resp.StatusCode != 400 || string(b) != want {
		t.Errorf("%d %s\nwant 400 %s", resp.StatusCode, b, want)
	}
}

func TestHTTPSessionLifecycle(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("echo"))
	p := serveHTTP(t, srv)

	// A failed initialize makes no session.
	resp, _ := p.call("initialize", `{"protocolVersion":5}`)
	readAll(t, resp)
	if resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("failed initialize: %d, session %q", resp.StatusCode, resp.Header.Get("Mcp-Session-Id"))
	}

	p.initialize(`{}`)
	for _, c := range p.session {
		if c < 0x21 || c > 0x7e {
			t.Fatalf("session id %q has a character outside 0x21–0x7E", p.session)
		}
	}
	if len(p.session) < 22 {
		t.Errorf("session id %q: want at least 128 random bits", p.session)
	}
	jsonEqual(t, `{"content":[{"type":"text","text":"{\"a\":1}"}]}`, p.result("tools/call", `{"name":"echo","arguments":{"a":1}}`))

	// initialize on a session is answered by that session.
	resp, _ = p.call("initialize", `{"protocolVersion":"2025-11-25"}`)
	if msgs := readAll(t, resp); !strings.Contains(msgs[0].Data, "already initialized") {
		t.Errorf("second initialize: %v", msgs)
	}

	resp = p.do(http.MethodDelete, "")
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %d", resp.StatusCode)
	}
	for _, m := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		resp := p.do(m, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s after DELETE: %d, want 404", m, resp.StatusCode)
		}
	}
}

// TestHTTPJSONOrSSE: a request is answered with application/json when its
// handler sends nothing before the result, with an SSE stream (the log
// message, then the result) when it does.
func TestHTTPJSONOrSSE(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("echo"))
	srv.AddTool(runtime.Tool{Name: "chatty", Description: "Logs, then answers.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		if err := runtime.Log(ctx, runtime.LevelWarning, "chatty", map[string]any{"note": "first"}); err != nil {
			return nil, err
		}
		return runtime.TextResult("done"), nil
	}})
	p := serveHTTP(t, srv)
	p.initialize(`{}`)

	resp, _ := p.call("tools/call", `{"name":"echo"}`)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("a quiet tool: Content-Type %q, want application/json", ct)
	}
	if got := readAll(t, resp); len(got) != 1 || got[0].Data != `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":""}]}}` {
		t.Errorf("a quiet tool: %v", got)
	}

	resp, _ = p.call("tools/call", `{"name":"chatty"}`)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("a tool that logs: Content-Type %q, want text/event-stream", ct)
	}
	want := []event{
		{Event: "message", Data: `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"chatty","data":{"note":"first"}}}`},
		{Event: "message", Data: `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"done"}]}}`},
	}
	if diff := cmp.Diff(want, readAll(t, resp)); diff != "" {
		t.Errorf("a tool that logs, without an event store (no ids) (-want +got):\n%s", diff)
	}
}

// TestHTTPProgress: progress goes on the request's stream, echoing the
// token exactly, string or integer; a value that does not increase is an
// error and is not sent.
func TestHTTPProgress(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	errs := make(chan error, 1)
	srv.AddTool(runtime.Tool{Name: "steps", Description: "Reports progress.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		runtime.Progress(ctx, 0, 100, "")
		runtime.Progress(ctx, 50, 100, "half way")
		errs <- runtime.Progress(ctx, 50, 100, "again")
		runtime.Progress(ctx, 100, 0, "")
		return runtime.TextResult("ok"), nil
	}})
	p := serveHTTP(t, srv)
	p.initialize(`{}`)
	for _, tc := range []struct{ name, token string }{
		{"integer", `12345678901234567890`},
		{"string", `"tok-\u00e9"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, id := p.call("tools/call", `{"name":"steps","_meta":{"progressToken":`+tc.token+`}}`)
			want := []string{
				`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + tc.token + `,"progress":0,"total":100}}`,
				`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + tc.token + `,"progress":50,"total":100,"message":"half way"}}`,
				`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + tc.token + `,"progress":100}}`,
				`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"ok"}]}}`,
			}
			if diff := cmp.Diff(want, datas(readAll(t, resp))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if err := <-errs; err == nil || !strings.Contains(err.Error(), "must increase") {
				t.Errorf("a repeated progress value: error %v", err)
			}
		})
	}
	// Without a token: no notification, a JSON answer.
	resp, _ := p.call("tools/call", `{"name":"steps"}`)
	if got := readAll(t, resp); resp.Header.Get("Content-Type") != "application/json" || len(got) != 1 {
		t.Errorf("without a progress token: %s %v", resp.Header.Get("Content-Type"), got)
	}
	<-errs
}

// TestHTTPConcurrentStreams: concurrent POSTs on one session each get their
// own stream, with their own messages.
func TestHTTPConcurrentStreams(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(runtime.Tool{Name: "count", Description: "Logs its argument three times.", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		for i := range 3 {
			runtime.Log(ctx, runtime.LevelInfo, "", fmt.Sprintf("%s-%d", req.Arguments, i))
			time.Sleep(time.Millisecond)
		}
		return runtime.TextResult(string(req.Arguments)), nil
	}})
	p := serveHTTP(t, srv)
	p.initialize(`{}`)
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			resp, id := p.call("tools/call", fmt.Sprintf(`{"name":"count","arguments":{"n":%d}}`, i))
			got := datas(readAll(t, resp))
			arg := fmt.Sprintf(`{\"n\":%d}`, i)
			want := []string{
				`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + arg + `-0"}}`,
				`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + arg + `-1"}}`,
				`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + arg + `-2"}}`,
				`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"` + arg + `"}]}}`,
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("stream %d (-want +got):\n%s", i, diff)
			}
		})
	}
	wg.Wait()
}

// TestHTTPGETStream: what belongs to no request (list_changed,
// resources/updated) goes on the session's GET stream; a second GET gets 409.
func TestHTTPGETStream(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("echo"))
	srv.AddResource(textResource("watched://r"))
	p := serveHTTP(t, srv)
	p.initialize(`{}`)
	p.result("resources/subscribe", `{"uri":"watched://r"}`)

	resp := p.do(http.MethodGet, "")
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	second := p.do(http.MethodGet, "")
	second.Body.Close()
	if second.StatusCode != http.StatusConflict {
		t.Errorf("second GET: %d, want 409", second.StatusCode)
	}
	s := newSSE(resp.Body)
	srv.AddTool(echoTool("echo2"))
	if ev := nextEvent(t, s); ev.Data != toolsChanged {
		t.Errorf("GET stream: %+v, want tools/list_changed", ev)
	}
	srv.NotifyResourceUpdated("watched://r")
	if ev := nextEvent(t, s); ev.Data != updated("watched://r") {
		t.Errorf("GET stream: %+v, want resources/updated", ev)
	}
	// Requests still get their own answers meanwhile.
	p.result("ping", "")
}

// TestHTTPDNSRebinding: by default only loopback names are served, as Host
// and as Origin; configured names replace them.
func TestHTTPDNSRebinding(t *testing.T) {
	for _, tc := range []struct {
		name         string
		opts         []runtime.HTTPOption
		host, origin string
		status       int
	}{
		{"evil host and origin", nil, "evil.example.com", "http://evil.example.com", 403},
		{"evil origin", nil, "localhost", "http://evil.example.com", 403},
		{"evil host", nil, "evil.example.com:80", "", 403},
		{"localhost", nil, "localhost:3000", "http://localhost:3000", 200},
		{"127.0.0.1", nil, "127.0.0.1:8080", "https://127.0.0.1", 200},
		{"[::1]", nil, "[::1]:8080", "http://[::1]:8080", 200},
		{"no origin", nil, "localhost", "", 200},
		{"origin null", nil, "localhost", "null", 403},
		{"localhost lookalike", nil, "localhost.evil.example.com", "", 403},
		{"configured host", []runtime.HTTPOption{runtime.WithAllowedHosts("mcp.example.com")}, "mcp.example.com:443", "", 200},
		{"configured host replaces localhost", []runtime.HTTPOption{runtime.WithAllowedHosts("mcp.example.com")}, "localhost", "", 403},
		{"configured host and port", []runtime.HTTPOption{runtime.WithAllowedHosts("mcp.example.com:8443")}, "mcp.example.com:9000", "", 403},
		{"configured origin", []runtime.HTTPOption{runtime.WithAllowedOrigins("https://app.example.com")}, "localhost", "https://app.example.com", 200},
		{"any host", []runtime.HTTPOption{runtime.WithAllowedHosts("*")}, "evil.example.com", "", 200},
		{"loopback origin, not a web scheme", nil, "localhost", "ws://localhost:3000", 403},
		{"loopback origin with a path", nil, "localhost", "http://localhost:3000/app", 403},
		{"configured origin with a slash", []runtime.HTTPOption{runtime.WithAllowedOrigins("https://app.example.com/")}, "localhost", "https://app.example.com", 200},
		{"configured origin replaces loopback", []runtime.HTTPOption{runtime.WithAllowedOrigins("https://app.example.com")}, "localhost", "http://localhost", 403},
		{"any origin", []runtime.HTTPOption{runtime.WithAllowedOrigins("*")}, "localhost", "https://anywhere.example", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := serveHTTP(t, runtime.NewServer(testInfo()), tc.opts...)
			resp := p.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
				"Host", tc.host, "Origin", tc.origin)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tc.status, b)
			}
		})
	}
}

// TestHTTPStateless: no session id, every POST served on its own, no
// requests to the client, GET and DELETE refused.
func TestHTTPStateless(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(runtime.Tool{Name: "ask", Description: "Samples.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		_, err := runtime.CreateMessage(ctx, &runtime.CreateMessageRequest{Messages: []runtime.SamplingMessage{{Role: "user", Content: runtime.Text("hi")}}, MaxTokens: 10})
		return nil, err
	}})
	srv.AddTool(runtime.Tool{Name: "version", Description: "Says the protocol version.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		runtime.Log(ctx, runtime.LevelInfo, "", "on the stream")
		return runtime.TextResult(runtime.ProtocolVersion(ctx) + " " + runtime.SessionID(ctx)), nil
	}})
	p := serveHTTP(t, srv, runtime.WithStateless())
	resp, _ := p.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"c","version":"1"}}`)
	readAll(t, resp)
	if resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, resp.Header.Get("Mcp-Session-Id"))
	}
	resp, id := p.call("tools/call", `{"name":"version"}`, "Mcp-Protocol-Version", "2025-06-18")
	want := []string{
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"on the stream"}}`,
		`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"2025-06-18 "}]}}`,
	}
	if diff := cmp.Diff(want, datas(readAll(t, resp))); diff != "" {
		t.Errorf("tools/call (-want +got):\n%s", diff)
	}
	resp, _ = p.call("tools/call", `{"name":"ask"}`)
	if got := datas(readAll(t, resp)); len(got) != 1 || !strings.Contains(got[0], "stateless HTTP server cannot send requests to the client") {
		t.Errorf("a request to the client: %v", got)
	}
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		resp := p.do(m, "")
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
			t.Errorf("%s: %d, Allow %q", m, resp.StatusCode, resp.Header.Get("Allow"))
		}
	}
}

// TestHTTPRequestContext: handlers see the session id, the HTTP header, and
// the values of the http.Request's context, but not its cancellation.
func TestHTTPRequestContext(t *testing.T) {
	type key struct{}
	srv := runtime.NewServer(testInfo())
	srv.AddTool(runtime.Tool{Name: "who", Description: "Context.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return runtime.TextResult(fmt.Sprint(runtime.SessionID(ctx) != "", " ", runtime.RequestHeader(ctx).Get("X-Tenant"), " ", ctx.Value(key{}))), nil
	}})
	h := srv.HTTPHandler()
	mw := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), key{}, "from middleware")))
	})
	p := serveHTTPHandler(t, mw)
	p.initialize(`{}`)
	resp, _ := p.call("tools/call", `{"name":"who"}`, "X-Tenant", "acme")
	if got := readAll(t, resp); len(got) != 1 || !strings.Contains(got[0].Data, `"text":"true acme from middleware"`) {
		t.Errorf("%v", got)
	}
}

func TestHTTPConcurrencyLimit(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	tool, started, release := blockingTool("block")
	srv.AddTool(tool)
	p := serveHTTP(t, srv, runtime.WithMaxConcurrentRequestsPerSession(2))
	p.initialize(`{}`)
	done := make(chan []event, 2)
	for range 2 {
		go func() {
			resp, _ := p.call("tools/call", `{"name":"block"}`)
			done <- readAll(t, resp)
		}()
		<-started
	}
	resp, id := p.call("ping", "")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"too many requests: this session already has 2 requests in progress"}}`
	if resp.StatusCode != http.StatusTooManyRequests || string(b) != want || resp.Header.Get("Retry-After") == "" {
		t.Errorf("third request: %d %s (Retry-After %q)", resp.StatusCode, b, resp.Header.Get("Retry-After"))
	}
	// Notifications and responses are not requests: never refused.
	resp = p.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Errorf("a notification at the limit: %d", resp.StatusCode)
	}
	close(release)
	<-done
	<-done
	p.result("ping", "")
}

// TestHTTPIdleExpiry: a session that serves nothing for the idle timeout
// ends, and its id gets 404.
func TestHTTPIdleExpiry(t *testing.T) {
	p := serveHTTP(t, runtime.NewServer(testInfo()), runtime.WithSessionIdleTimeout(50*time.Millisecond))
	p.initialize(`{}`)
	deadline := time.Now().Add(wait)
	for {
		resp, _ := p.call("ping", "")
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session did not expire: %d", resp.StatusCode)
		}
		time.Sleep(100 * time.Millisecond) // longer than the timeout: idle in between
	}
}

// TestHTTPCancel: notifications/cancelled POSTed for a request in progress
// cancels its handler, and its POST ends without a response.
func TestHTTPCancel(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	tool, started, _ := blockingTool("block")
	srv.AddTool(tool)
	p := serveHTTP(t, srv)
	p.initialize(`{}`)
	got := make(chan *http.Response, 1)
	go func() {
		resp, _ := p.call("tools/call", `{"name":"block"}`)
		got <- resp
	}()
	<-started
	resp := p.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	resp.Body.Close()
	select {
	case resp := <-got:
		if evs := readAll(t, resp); resp.StatusCode != http.StatusAccepted || len(evs) != 0 {
			t.Errorf("the cancelled request's POST: %d %v", resp.StatusCode, evs)
		}
	case <-time.After(wait):
		t.Fatal("the cancelled request's POST did not end")
	}
}

func TestHTTPDuplicateID(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	tool, started, release := blockingTool("block")
	srv.AddTool(tool)
	p := serveHTTP(t, srv)
	p.initialize(`{}`)
	done := make(chan struct{})
	go func() {
		resp := p.do(http.MethodPost, `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"block"}}`)
		readAll(t, resp)
		close(done)
	}()
	<-started
	resp := p.do(http.MethodPost, `{"jsonrpc":"2.0","id":"x","method":"ping"}`)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || string(b) != `{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"invalid request: id \"x\" is already used by a request in progress"}}` {
		t.Errorf("a request reusing an id in progress: %d %s", resp.StatusCode, b)
	}
	close(release)
	<-done
}

// TestHTTPSlowReader: a handler far ahead of a client that does not read
// its stream waits for it (the stream's buffer is bounded), loses nothing,
// and holds up none of the session's other requests.
func TestHTTPSlowReader(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	const n, size = 64, 64 << 10 // 4 MiB: more than the stream's buffer and the sockets'
	chunk := strings.Repeat("x", size)
	srv.AddTool(runtime.Tool{Name: "flood", Description: "Logs a lot.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		for i := range n {
			runtime.Log(ctx, runtime.LevelInfo, "", fmt.Sprint(i, chunk))
		}
		return runtime.TextResult("flooded"), nil
	}})
	p := serveHTTP(t, srv)
	p.initialize(`{}`)
	resp, id := p.call("tools/call", `{"name":"flood"}`) // headers only: the body is not read yet
	defer resp.Body.Close()
	time.Sleep(50 * time.Millisecond) // let the handler run into the bound
	for range 3 {
		p.result("ping", "")
	}
	got := datas(readAll(t, resp))
	if len(got) != n+1 || got[n] != `{"jsonrpc":"2.0","id":`+id+`,"result":{"content":[{"type":"text","text":"flooded"}]}}` {
		t.Fatalf("got %d messages, want %d and the result", len(got), n+1)
	}
	for i := range n {
		if !strings.Contains(got[i], `"data":"`+fmt.Sprint(i, chunk)+`"`) {
			t.Fatalf("message %d is not the %dth log", i, i)
		}
	}
}
