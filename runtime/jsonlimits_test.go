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

// Bounds on the shape of a message (issue 22, item 4): too wide an object
// or too many values is refused before any map is built from it, in tool
// arguments and in inputResponses alike; large messages are served a few at
// a time.

func TestWideObjectRefused(t *testing.T) {
	srv := wideServer()
	h := srv.HTTPHandler()
	sid := initRecorded(t, h)
	const wide = `"an object in the message has more than 10000 members, the most this server accepts (WithMaxObjectMembers)"`
	for name, req := range wideRequests(10001) {
		hdr := req.hdr
		if strings.HasPrefix(name, "legacy") {
			hdr["Mcp-Session-Id"] = sid
		}
		w := postRecorded(h, req.body, hdr)
		want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: ` + wide[1:] + `}}`
		if w.Code != http.StatusBadRequest || w.Body.String() != want {
			t.Errorf("%s, 10,001 members: %d %s", name, w.Code, w.Body)
		}
	}
	for name, req := range wideRequests(10000) { // at the limit: served
		if strings.HasPrefix(name, "legacy") {
			req.hdr["Mcp-Session-Id"] = sid
		}
		if w := postRecorded(h, req.body, req.hdr); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"text":"ok"`) {
			t.Errorf("%s, 10,000 members: %d %.300s", name, w.Code, w.Body)
		}
	}
}

func TestTooManyValuesRefused(t *testing.T) {
	srv := runtime.NewServer(testInfo(), runtime.WithMaxJSONValues(1000))
	srv.AddTool(runtime.Tool{Name: "any", Description: "Takes any object.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("ok"), nil
		}})
	p := serveHTTP(t, srv)
	p.initialize(`{}`)
	items := strings.Repeat("1,", 999) + "1" // 1,000 numbers: with the envelope, more than 1,000 values
	resp, id := p.call("tools/call", `{"name":"any","arguments":{"list":[`+items+`]}}`)
	msgs := readAll(t, resp)
	want := `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"invalid request: the message holds more than 1000 JSON values, the most this server accepts (WithMaxJSONValues)"}}`
	if resp.StatusCode != http.StatusBadRequest || len(msgs) != 1 || msgs[0].Data != want {
		t.Errorf("%d %v", resp.StatusCode, msgs)
	}
	if s := pingStatus(p); s != 200 {
		t.Errorf("ping after the refusal: %d", s)
	}
}

// WithMaxObjectMembers lowers the cap on the members of one object.
func TestMaxObjectMembersOption(t *testing.T) {
	srv := runtime.NewServer(testInfo(), runtime.WithMaxObjectMembers(5)) // initialize and the envelope fit in 5
	srv.AddTool(runtime.Tool{Name: "any", Description: "Takes any object.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("ok"), nil
		}})
	p := serveHTTP(t, srv)
	p.initialize(`{}`)
	resp, _ := p.call("tools/call", `{"name":"any","arguments":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}}`)
	msgs := readAll(t, resp)
	if resp.StatusCode != http.StatusBadRequest || len(msgs) != 1 || !strings.Contains(msgs[0].Data, "more than 5 members") {
		t.Errorf("6 members with a cap of 5: %d %v", resp.StatusCode, msgs)
	}
	resp, _ = p.call("tools/call", `{"name":"any","arguments":{"a":1,"b":2}}`)
	if msgs := readAll(t, resp); resp.StatusCode != http.StatusOK || len(msgs) != 1 || !strings.Contains(msgs[0].Data, `"text":"ok"`) {
		t.Errorf("2 members with a cap of 5: %d %v", resp.StatusCode, msgs)
	}
}

func TestLargeRequestsInFlight(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	srv.AddTool(runtime.Tool{Name: "hold", Description: "Holds until released.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			started <- struct{}{}
			select {
			case <-release:
			case <-time.After(5 * time.Second): // the test fails rather than hangs when a second one runs
			}
			return runtime.TextResult("ok"), nil
		}})
	ts := httptest.NewServer(srv.HTTPHandler(runtime.WithMaxLargeRequests(1)))
	t.Cleanup(ts.Close)
	large := req(1, "tools/call", withMeta(`"name":"hold","arguments":{"list":[`+strings.Repeat("1,", 10000)+`1]}`))
	first := make(chan int, 1)
	go func() {
		status, _, _ := modernPost(t, ts.URL, large, nil)
		first <- status
	}()
	<-started
	status, hdr, body := modernPost(t, ts.URL, large, nil)
	want := `"message":"server busy: 1 messages of more than 10000 JSON values are being served, the most at once; retry later"`
	if status != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" || !strings.Contains(body, want) {
		t.Errorf("a second large message: %d %s", status, body)
	}
	if status, _, body := modernPost(t, ts.URL, req(2, "tools/list", withMeta(`"cursor":null`)), nil); status != http.StatusOK {
		t.Errorf("a small message meanwhile: %d %s", status, body)
	}
	close(release)
	if s := <-first; s != http.StatusOK {
		t.Errorf("the first large message: %d", s)
	}
	if status, _, body := modernPost(t, ts.URL, large, nil); status != http.StatusOK {
		t.Errorf("a large message once the slot is free: %d %s", status, body)
	}
}
