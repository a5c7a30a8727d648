package runtime_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// httpPeer is a Streamable HTTP client written for the tests: every request
// is spelled out, so that each status code and header can be checked.
type httpPeer struct {
	t       *testing.T
	url     string
	session string // Mcp-Session-Id, once initialized
	nextID  atomic.Int64
}

// serveHTTP serves srv with an httptest.Server at /mcp.
func serveHTTP(t *testing.T, srv *runtime.Server, opts ...runtime.HTTPOption) *httpPeer {
	t.Helper()
	return serveHTTPHandler(t, srv.HTTPHandler(opts...))
}

// serveHTTPHandler serves h at /mcp.
func serveHTTPHandler(t *testing.T, h http.Handler) *httpPeer {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return &httpPeer{t: t, url: ts.URL + "/mcp"}
}

// do sends a request with the headers a conforming client sends (Accept,
// Content-Type, the session and protocol version once known), then hdr
// ("Name", "value" pairs; an empty value removes the header, a value with
// newlines is sent on one line per line).
func (p *httpPeer) do(method, body string, hdr ...string) *http.Response {
	p.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, p.url, rd)
	if err != nil {
		p.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Content-Type", "application/json")
	} else if method == http.MethodGet {
		req.Header.Set("Accept", "text/event-stream")
	}
	if p.session != "" {
		req.Header.Set("Mcp-Session-Id", p.session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else if strings.EqualFold(hdr[i], "Host") {
			req.Host = hdr[i+1]
		} else {
			req.Header.Del(hdr[i])
			for line := range strings.SplitSeq(hdr[i+1], "\n") { // a value with newlines: one line each
				req.Header.Add(hdr[i], line)
			}
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	return resp
}

// initialize opens a session declaring the client capabilities caps.
func (p *httpPeer) initialize(caps string) {
	p.t.Helper()
	resp := p.do(http.MethodPost, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"http-test","version":"1"}}}`)
	msgs := readAll(p.t, resp)
	if resp.StatusCode != http.StatusOK || len(msgs) != 1 || !strings.Contains(msgs[0].Data, `"protocolVersion":"2025-11-25"`) {
		p.t.Fatalf("initialize: %d %v", resp.StatusCode, msgs)
	}
	p.session = resp.Header.Get("Mcp-Session-Id")
	if p.session == "" {
		p.t.Fatal("initialize: no Mcp-Session-Id")
	}
	resp = p.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		p.t.Fatalf("notifications/initialized: %d", resp.StatusCode)
	}
}

// call POSTs a request with a fresh id; it returns the response (unread)
// and the id.
func (p *httpPeer) call(method, params string, hdr ...string) (*http.Response, string) {
	p.t.Helper()
	id := strconv.FormatInt(p.nextID.Add(1), 10)
	body := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `"`
	if params != "" {
		body += `,"params":` + params
	}
	return p.do(http.MethodPost, body+"}", hdr...), id
}

// result POSTs a request and returns its result, failing on anything but a
// response without error.
func (p *httpPeer) result(method, params string) json.RawMessage {
	p.t.Helper()
	resp, id := p.call(method, params)
	msgs := readAll(p.t, resp)
	r := parse(p.t, msgs[len(msgs)-1].Data)
	if r.Error != nil || string(r.ID) != id {
		p.t.Fatalf("%s: %s", method, msgs[len(msgs)-1].Data)
	}
	return r.Result
}

// event is one message of a response: the JSON body, or an SSE event.
type event struct {
	ID, Event, Data, Retry string
}

// readAll reads a whole response: one event for a JSON body, the events of
// an SSE stream (priming and retry-only events included).
func readAll(t *testing.T, resp *http.Response) []event {
	t.Helper()
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			return nil
		}
		return []event{{Data: string(b)}}
	}
	var out []event
	sc := newSSE(resp.Body)
	for {
		ev, ok := sc.next()
		if !ok {
			return out
		}
		out = append(out, ev)
	}
}

// sse reads an SSE stream event by event.
type sse struct{ r *bufio.Reader }

func newSSE(r io.Reader) *sse { return &sse{bufio.NewReader(r)} }

func (s *sse) next() (event, bool) {
	var ev event
	seen := false
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return ev, false
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			if seen {
				return ev, true
			}
			continue
		}
		seen = true
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "id":
			ev.ID = value
		case "event":
			ev.Event = value
		case "data":
			ev.Data = value
		case "retry":
			ev.Retry = value
		}
	}
}

// nextEvent reads the next event of an open stream, failing after wait.
func nextEvent(t *testing.T, s *sse) event {
	t.Helper()
	got := make(chan event, 1)
	go func() {
		ev, ok := s.next()
		if !ok {
			ev = event{Event: "EOF"}
		}
		got <- ev
	}()
	select {
	case ev := <-got:
		return ev
	case <-time.After(wait):
		t.Fatal("no event on the stream")
	}
	return event{}
}

// datas returns the data of the events that carry a message.
func datas(evs []event) []string {
	var out []string
	for _, ev := range evs {
		if ev.Data != "" {
			out = append(out, ev.Data)
		}
	}
	return out
}

// blockingTool is a tool that waits for release (or its context) before
// answering; started receives once it runs.
func blockingTool(name string) (runtime.Tool, chan struct{}, chan struct{}) {
	started, release := make(chan struct{}, 16), make(chan struct{})
	return runtime.Tool{Name: name, Description: "Waits.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		started <- struct{}{}
		select {
		case <-release:
			return runtime.TextResult("released"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}, started, release
}
