package streamhttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/streamhttp"
)

// TestHTTPSessionIDOnlyWhereItIsNew: Mcp-Session-Id goes out on the
// response that carries the InitializeResult and on the GET stream, not on
// the response to every later POST (a request, a notification), which
// names the session the client already sent. The transport asks the server
// to set it at initialization only (2025-11-25 transports, Session
// Management); the clients keep the id they have when a response has none.
func TestHTTPSessionIDOnlyWhereItIsNew(t *testing.T) {
	srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"})
	h, err := streamhttp.New(srv)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()

	post := func(body, sid string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}

	resp := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, "")
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: HTTP %d, Mcp-Session-Id %q; want 200 and an id", resp.StatusCode, sid)
	}
	for _, c := range []struct {
		what, body string
		status     int
	}{
		{"notifications/initialized (202)", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusAccepted},
		{"tools/list", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, http.StatusOK},
		{"ping", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, http.StatusOK},
	} {
		resp := post(c.body, sid)
		if resp.StatusCode != c.status {
			t.Errorf("%s: HTTP %d, want %d", c.what, resp.StatusCode, c.status)
		}
		if got, ok := resp.Header["Mcp-Session-Id"]; ok {
			t.Errorf("%s: the response carries Mcp-Session-Id %q, which the client sent; want none", c.what, got)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	get, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer get.Body.Close()
	if get.StatusCode != http.StatusOK || get.Header.Get("Mcp-Session-Id") != sid {
		t.Errorf("GET stream: HTTP %d, Mcp-Session-Id %q; want 200 and %q", get.StatusCode, get.Header.Get("Mcp-Session-Id"), sid)
	}
}
