package mcpimport

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeServer is a Streamable HTTP endpoint written by hand, to play the
// servers in the field that the golden servers do not: one that refuses
// revisions it does not speak, one whose paging repeats. answer gets each
// request's method, params and MCP-Protocol-Version header, and returns
// its result or error (both nil: a notification, 202).
type fakeServer struct {
	mu     sync.Mutex
	seen   []string // method protocolVersion-header, per request
	answer func(method string, params json.RawMessage, header string) (result any, rpcErr map[string]any)
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	body, _ := io.ReadAll(r.Body)
	if json.Unmarshal(body, &msg) != nil {
		http.Error(w, "bad JSON", http.StatusBadRequest)
		return
	}
	header := r.Header.Get("MCP-Protocol-Version")
	f.mu.Lock()
	f.seen = append(f.seen, strings.TrimSpace(msg.Method+" "+header))
	f.mu.Unlock()
	if msg.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	result, rpcErr := f.answer(msg.Method, msg.Params, header)
	reply := map[string]any{"jsonrpc": "2.0", "id": msg.ID}
	if rpcErr != nil {
		reply["error"] = rpcErr
	} else {
		reply["result"] = result
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(reply)
}

func (f *fakeServer) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.seen)
}

func initResult(version string) map[string]any {
	return map[string]any{"protocolVersion": version, "capabilities": map[string]any{"tools": map[string]any{}},
		"serverInfo": map[string]any{"name": "old-server", "version": "1"}}
}

var oneTool = map[string]any{"tools": []any{map[string]any{"name": "ping", "description": "Pings.", "inputSchema": map[string]any{"type": "object"}}}}

// TestProtocolFallback: a server that refuses the newest revisions with an
// error (rather than answering with its own, as the protocol says) is
// offered the older ones, newest first, and the import then speaks the one
// it accepted (MCP-Protocol-Version on every later request).
func TestProtocolFallback(t *testing.T) {
	for _, speaks := range []string{"2025-06-18", "2025-03-26", "2024-11-05"} {
		f := &fakeServer{answer: func(method string, params json.RawMessage, _ string) (any, map[string]any) {
			switch method {
			case "initialize":
				var p struct{ ProtocolVersion string }
				json.Unmarshal(params, &p)
				if p.ProtocolVersion != speaks {
					return nil, map[string]any{"code": -32602, "message": "Unsupported protocol version", "data": map[string]any{"supported": []string{speaks}}}
				}
				return initResult(speaks), nil
			case "tools/list":
				return oneTool, nil
			}
			return nil, map[string]any{"code": -32601, "message": "Method not found"}
		}}
		ts := httptest.NewServer(f)
		defer ts.Close()
		lists, err := List(context.Background(), Options{URL: ts.URL, Timeout: 5 * time.Second})
		if err != nil {
			t.Errorf("%s: %v", speaks, err)
			continue
		}
		if lists.Protocol != speaks || len(lists.Tools) != 1 {
			t.Errorf("%s: protocol %s, %d tools", speaks, lists.Protocol, len(lists.Tools))
		}
		var want []string
		for _, v := range protocols {
			want = append(want, "initialize")
			if v == speaks {
				break
			}
		}
		want = append(want, "notifications/initialized "+speaks, "tools/list "+speaks)
		if got := f.requests(); !slices.Equal(got, want) {
			t.Errorf("%s: requests %q, want %q", speaks, got, want)
		}
		// And the whole import (which lists twice, Probe) writes the tool.
		res, err := Import(context.Background(), Options{URL: ts.URL, Timeout: 5 * time.Second})
		if err != nil || !strings.Contains(string(res.YAML), "ping:") {
			t.Errorf("%s: Import: %v", speaks, err)
		}
	}
}

// TestProtocolFallbackStops: a server that refuses every revision is
// offered each once, and the error is its answer to the newest; an error
// that is not JSON-RPC's (HTTP 500) is not retried with older revisions.
func TestProtocolFallbackStops(t *testing.T) {
	f := &fakeServer{answer: func(method string, params json.RawMessage, _ string) (any, map[string]any) {
		var p struct{ ProtocolVersion string }
		json.Unmarshal(params, &p)
		return nil, map[string]any{"code": -32602, "message": "no revision " + p.ProtocolVersion + " here"}
	}}
	ts := httptest.NewServer(f)
	defer ts.Close()
	_, err := List(context.Background(), Options{URL: ts.URL, Timeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "no revision "+protocols[0]+" here") {
		t.Errorf("error %v, want the refusal of %s", err, protocols[0])
	}
	if got := f.requests(); len(got) != len(protocols) {
		t.Errorf("requests %q, want one initialize per revision", got)
	}

	var calls int
	var mu sync.Mutex
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		mu.Unlock()
		http.Error(w, "internal error", http.StatusInternalServerError)
	}))
	defer broken.Close()
	if _, err := List(context.Background(), Options{URL: broken.URL, Timeout: 5 * time.Second}); err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("HTTP 500: error %v", err)
	}
	if calls != 1 {
		t.Errorf("HTTP 500: %d requests, want 1 (not a revision's refusal)", calls)
	}
}

// TestRepeatedCursor: a server whose nextCursor comes back is refused at
// once, by the second page, not after thousands.
func TestRepeatedCursor(t *testing.T) {
	f := &fakeServer{answer: func(method string, _ json.RawMessage, _ string) (any, map[string]any) {
		switch method {
		case "initialize":
			return initResult("2025-11-25"), nil
		case "tools/list":
			return map[string]any{"tools": oneTool["tools"], "nextCursor": "again"}, nil
		}
		return nil, map[string]any{"code": -32601, "message": "Method not found"}
	}}
	ts := httptest.NewServer(f)
	defer ts.Close()
	_, err := List(context.Background(), Options{URL: ts.URL, Timeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), `repeats nextCursor "again"`) {
		t.Fatalf("error %v", err)
	}
	var lists int
	for _, r := range f.requests() {
		if strings.HasPrefix(r, "tools/list") {
			lists++
		}
	}
	if lists != 2 {
		t.Errorf("%d tools/list requests, want 2 (the second repeats the cursor)", lists)
	}
}

// An initialize result without protocolVersion is refused, saying so: the
// import cannot know which revision to speak.
func TestInitializeWithoutVersion(t *testing.T) {
	f := &fakeServer{answer: func(method string, _ json.RawMessage, _ string) (any, map[string]any) {
		if method == "initialize" {
			return map[string]any{"capabilities": map[string]any{}, "serverInfo": map[string]any{"name": "s", "version": "1"}}, nil
		}
		return map[string]any{"tools": []any{}}, nil
	}}
	ts := httptest.NewServer(f)
	defer ts.Close()
	if _, err := List(context.Background(), Options{URL: ts.URL, Timeout: 5 * time.Second}); err == nil || !strings.Contains(err.Error(), "initialize: the result has no protocolVersion") {
		t.Errorf("error %v", err)
	}
}

// TestEventStreamNotificationsBeforeTheAnswer: a Streamable HTTP server may
// answer a request with an event stream that carries notifications (a log
// message, progress) before the answer: each event is read on its own, and
// the answer is the event with the request's id.
func TestEventStreamNotificationsBeforeTheAnswer(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"listing\"}}\n\n")
		io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n")
		io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n\n")
	}))
	t.Cleanup(ts.Close)
	c := &httpConn{url: ts.URL, client: ts.Client()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.call(ctx, "tools/list", nil)
	if err != nil || string(res) != `{"tools":[]}` {
		t.Errorf("the answer after two notifications: %s, %v", res, err)
	}
}

// TestListErrorFails: a declared list the server does not implement
// (method not found) is imported as empty, with a note; any other error
// answering a list fails the import, which would otherwise leave out
// what the server serves.
func TestListErrorFails(t *testing.T) {
	answer := func(toolsErr map[string]any) func(string, json.RawMessage, string) (any, map[string]any) {
		return func(method string, _ json.RawMessage, _ string) (any, map[string]any) {
			switch method {
			case "initialize":
				r := initResult("2025-11-25")
				r["capabilities"] = map[string]any{"tools": map[string]any{}, "resources": map[string]any{}}
				return r, nil
			case "tools/list":
				if toolsErr != nil {
					return nil, toolsErr
				}
				return oneTool, nil
			case "resources/list":
				return map[string]any{"resources": []any{}}, nil
			}
			return nil, map[string]any{"code": -32601, "message": "Method not found"}
		}
	}
	ts := httptest.NewServer(&fakeServer{answer: answer(nil)})
	defer ts.Close()
	lists, err := List(context.Background(), Options{URL: ts.URL, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(lists.Tools) != 1 || len(lists.Templates) != 0 || !strings.Contains(strings.Join(lists.Notes, "\n"), "resources/templates/list") {
		t.Errorf("%d tools, %d templates, notes %q; want 1 tool and a note on resources/templates/list", len(lists.Tools), len(lists.Templates), lists.Notes)
	}

	for _, code := range []int{-32603, -32602, -32000} {
		ts := httptest.NewServer(&fakeServer{answer: answer(map[string]any{"code": code, "message": "the tool index is down"})})
		defer ts.Close()
		_, err := List(context.Background(), Options{URL: ts.URL, Timeout: 5 * time.Second})
		if err == nil || !strings.Contains(err.Error(), "tools/list") || !strings.Contains(err.Error(), "the tool index is down") {
			t.Errorf("tools/list answering error %d: %v, want an error naming tools/list", code, err)
		}
	}
}
