package runtime_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// The runtime reads the first line of a header; a gateway may read
// another. Every MCP header sent on two lines is refused (400, -32020),
// whichever line agrees with the body (issue 22, item 3).

const repeatedPrefix = `{"jsonrpc":"2.0","id":null,"error":{"code":-32020,"message":"header mismatch: the `

func TestRepeatedModernHeaders(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(routeTool(routeSchema))
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	call := req(1, "tools/call", withMeta(`"name":"route","arguments":{"region":"eu-west","query":"x"}`))
	if status, _, body := modernPost(t, ts.URL, call, map[string]string{"Mcp-Param-Region": "eu-west"}); status != 200 {
		t.Fatalf("the call itself: %d %s", status, body)
	}
	for _, tc := range []struct{ header, right, wrong string }{
		{"Mcp-Name", "route", "other"},
		{"Mcp-Method", "tools/call", "tools/list"},
		{"Mcp-Protocol-Version", modernVersion, "2025-11-25"},
		{"Mcp-Param-Region", "eu-west", "us-east"},
	} {
		for _, order := range [][2]string{{tc.right, tc.wrong}, {tc.wrong, tc.right}, {tc.right, tc.right}} {
			hdr := map[string]string{"Mcp-Param-Region": "eu-west", tc.header: order[0] + "\n" + order[1]}
			status, _, body := modernPost(t, ts.URL, call, hdr)
			want := repeatedPrefix + tc.header + ` header is sent more than once; send it once"}}`
			if status != http.StatusBadRequest || strings.TrimSpace(body) != want {
				t.Errorf("%s: %s then %s: %d %s\nwant 400 %s", tc.header, order[0], order[1], status, body, want)
			}
		}
	}
}

func TestRepeatedSessionHeader(t *testing.T) {
	p := serveHTTP(t, runtime.NewServer(testInfo()))
	p.initialize(`{}`)
	for _, order := range [][2]string{{p.session, "other"}, {"other", p.session}} {
		resp, _ := p.call("ping", "", "Mcp-Session-Id", order[0]+"\n"+order[1])
		msgs := readAll(t, resp)
		want := repeatedPrefix + `Mcp-Session-Id header is sent more than once; send it once"}}`
		if resp.StatusCode != http.StatusBadRequest || len(msgs) != 1 || msgs[0].Data != want {
			t.Errorf("%s then %s: %d %v", order[0], order[1], resp.StatusCode, msgs)
		}
	}
}
