package runtime_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

// TestHTTPPrimingByVersion: an SSE stream opens with the priming event (an
// id, empty data) only for a client that negotiated 2025-11-25 or later, as
// the official SDKs do; an older client's SDK may parse the empty data as a
// message (Gemini CLI: "Unexpected end of JSON input"). Events keep their
// ids either way, so an older client still resumes from the last it saw.
func TestHTTPPrimingByVersion(t *testing.T) {
	for _, c := range []struct {
		version string
		primed  bool
	}{{"2024-11-05", false}, {"2025-03-26", false}, {"2025-06-18", false}, {"2025-11-25", true}} {
		t.Run(c.version, func(t *testing.T) {
			srv := runtime.NewServer(testInfo())
			srv.AddTool(echoTool("a"))
			proceed := make(chan struct{})
			srv.AddTool(reconnectTool(proceed))
			p := serveHTTP(t, srv, runtime.WithEventStore(runtime.NewMemoryEventStore(100)), runtime.WithRetryInterval(500*time.Millisecond))
			initializeVersion(t, p, c.version)
			v := []string{"Mcp-Protocol-Version", c.version}

			// The GET stream.
			get := p.do(http.MethodGet, "", v...)
			defer get.Body.Close() // before the server's Close, which waits for it
			s := newSSE(get.Body)
			if c.primed {
				if ev := nextEvent(t, s); ev != (event{ID: "0_0"}) {
					t.Fatalf("GET stream priming: %+v", ev)
				}
			}
			srv.AddTool(echoTool("b"))
			if ev := nextEvent(t, s); ev != (event{ID: "0_1", Event: "message", Data: toolsChanged}) {
				t.Fatalf("GET stream's first event: %+v", ev)
			}
			get.Body.Close()

			// A POST stream, closed by the handler, then resumed.
			resp, id := p.call("tools/call", `{"name":"test_reconnection"}`, v...)
			want := []event{logEvent("2_1", "before"), {Retry: "500"}}
			if c.primed {
				want = append([]event{{ID: "2_0"}}, want...)
			}
			if diff := cmp.Diff(want, readAll(t, resp)); diff != "" {
				t.Fatalf("the POST's stream (-want +got):\n%s", diff)
			}
			resp = p.do(http.MethodGet, "", append(v, "Last-Event-ID", "2_1")...)
			close(proceed)
			result := event{ID: "2_3", Event: "message", Data: `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"Reconnection test completed successfully"}]}}`}
			if diff := cmp.Diff([]event{logEvent("2_2", "after"), result}, readAll(t, resp)); diff != "" {
				t.Errorf("the resumed stream (-want +got):\n%s", diff)
			}
		})
	}
}

// initializeVersion opens a session at protocol revision version.
func initializeVersion(t *testing.T, p *httpPeer, version string) {
	t.Helper()
	resp := p.do(http.MethodPost, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"http-test","version":"1"}}}`)
	msgs := readAll(t, resp)
	if resp.StatusCode != http.StatusOK || len(msgs) != 1 || !strings.Contains(msgs[0].Data, `"protocolVersion":"`+version+`"`) {
		t.Fatalf("initialize: %d %v", resp.StatusCode, msgs)
	}
	p.session = resp.Header.Get("Mcp-Session-Id")
	resp = p.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "Mcp-Protocol-Version", version)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d", resp.StatusCode)
	}
}
