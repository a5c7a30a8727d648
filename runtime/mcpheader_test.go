package runtime_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// x-mcp-header: a modern HTTP tools/call mirrors the declared arguments
// into Mcp-Param-* headers, and the server refuses a disagreement (400,
// -32020).

const routeSchema = `{"type":"object","properties":{` +
	`"region":{"type":"string","x-mcp-header":"Region"},` +
	`"priority":{"type":"integer","x-mcp-header":"Priority"},` +
	`"verbose":{"type":"boolean","x-mcp-header":"Verbose"},` +
	`"query":{"type":"string"}},"required":["region","query"]}`

func routeTool(schema string) runtime.Tool {
	return runtime.Tool{Name: "route", Description: "Routes.", InputSchema: json.RawMessage(schema),
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult("routed"), nil
		}}
}

func TestParamHeaders(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(routeTool(routeSchema))
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	call := func(args string) string {
		return req(1, "tools/call", withMeta(`"name":"route","arguments":`+args))
	}
	const routed = `"text":"routed"`
	for _, tc := range []struct {
		name   string
		args   string
		hdr    map[string]string
		status int
		want   string
	}{
		{"mirrored", `{"region":"eu-west","priority":3,"verbose":true,"query":"x"}`,
			map[string]string{"Mcp-Param-Region": "eu-west", "Mcp-Param-Priority": "3", "Mcp-Param-Verbose": "true"}, 200, routed},
		{"header names are case-insensitive", `{"region":"eu-west","query":"x"}`,
			map[string]string{"mcp-param-region": "eu-west"}, 200, routed},
		{"base64", `{"region":"Zürich","query":"x"}`,
			map[string]string{"Mcp-Param-Region": "=?base64?WsO8cmljaA==?="}, 200, routed},
		{"same number", `{"region":"a","priority":3,"query":"x"}`,
			map[string]string{"Mcp-Param-Region": "a", "Mcp-Param-Priority": "3.0"}, 200, routed},
		{"literal without the whole wrapper", `{"region":"=?base64?SGVsbG8=","query":"x"}`,
			map[string]string{"Mcp-Param-Region": "=?base64?SGVsbG8="}, 200, routed},
		{"header missing", `{"region":"eu-west","query":"x"}`,
			nil, 400, `"code":-32020,"message":"header mismatch: the Mcp-Param-Region header is required: it mirrors arguments.region"`},
		{"header differs", `{"region":"eu-west","query":"x"}`,
			map[string]string{"Mcp-Param-Region": "us-east"}, 400, `header mismatch: Mcp-Param-Region is \"us-east\", but arguments.region is \"eu-west\"`},
		{"number differs", `{"region":"a","priority":3,"query":"x"}`,
			map[string]string{"Mcp-Param-Region": "a", "Mcp-Param-Priority": "4"}, 400, `Mcp-Param-Priority is \"4\"`},
		{"header without argument", `{"region":"a","verbose":null,"query":"x"}`,
			map[string]string{"Mcp-Param-Region": "a", "Mcp-Param-Verbose": "false"}, 400, `Mcp-Param-Verbose is sent, but arguments.verbose is absent`},
		{"bad padding", `{"region":"Hello","query":"x"}`,
			map[string]string{"Mcp-Param-Region": "=?base64?SGVsbG8?="}, 400, `is not valid =?base64?…?= text`},
		{"bad alphabet", `{"region":"Hello","query":"x"}`,
			map[string]string{"Mcp-Param-Region": "=?base64?SGVs!!!bG8=?="}, 400, `is not valid =?base64?…?= text`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, h, body := modernPost(t, ts.URL, call(tc.args), tc.hdr)
			got := strings.Join(sseData(h.Get("Content-Type"), body), "\n")
			if status != tc.status || !strings.Contains(got, tc.want) {
				t.Errorf("got %d %s\nwant %d with %s", status, got, tc.status, tc.want)
			}
		})
	}
	// stdio has no headers: nothing to check.
	p := newSessionPeer(t, srv)
	if got := p.exchange(call(`{"region":"eu-west","query":"x"}`)); !strings.Contains(got[0], routed) {
		t.Errorf("stdio: %s", got)
	}
}

func TestParamHeadersRegistration(t *testing.T) {
	for _, tc := range []struct{ name, schema, want string }{
		{"number", `{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}`, "string, integer or boolean"},
		{"space", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"My Region"}}}`, "HTTP header name"},
		{"empty", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":""}}}`, "HTTP header name"},
		{"duplicate", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"region"}}}`, "the same x-mcp-header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if v := recover(); v == nil || !strings.Contains(v.(string), tc.want) {
					t.Errorf("AddTool: panic %v, want one saying %q", v, tc.want)
				}
			}()
			runtime.NewServer(testInfo()).AddTool(routeTool(tc.schema))
		})
	}
}
