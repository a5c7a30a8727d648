package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// The 2026-07-28 ("modern") era: requests carry their version and the
// client's capabilities in _meta and are served without initialize.

const (
	modernMeta    = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	modernInfo    = `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"0.1.0"}}`
	modernVersion = "2026-07-28"
)

// modernServer has a tool, a resource and a prompt; its tool "peer" answers
// what the handler's context says about the client, and "log" logs at
// every level.
func modernServer(opts ...runtime.Option) *runtime.Server {
	srv := runtime.NewServer(testInfo(), opts...)
	srv.AddTool(echoTool("echo"))
	srv.AddTool(runtime.Tool{Name: "peer", Description: "Who asks.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		info, _ := runtime.ClientInfo(ctx)
		return runtime.TextResult(runtime.ProtocolVersion(ctx) + " " + string(runtime.ClientCapabilities(ctx)) + " " + info.Name), nil
	}})
	srv.AddTool(runtime.Tool{Name: "meta", Description: "Has _meta.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		r := runtime.TextResult("m")
		r.Meta = json.RawMessage(`{"k":1}`)
		return r, nil
	}})
	srv.AddTool(runtime.Tool{Name: "log", Description: "Logs.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		for _, l := range []runtime.LogLevel{runtime.LevelDebug, runtime.LevelInfo, runtime.LevelError} {
			if err := runtime.Log(ctx, l, "", string(l)); err != nil {
				return nil, err
			}
		}
		return runtime.TextResult("logged"), nil
	}})
	srv.AddTool(runtime.Tool{Name: "elicit", Description: "Asks.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		_, err := runtime.ListRoots(ctx)
		if errors.Is(err, runtime.ErrCapabilityNotSupported) {
			return runtime.TextResult("no roots capability"), nil
		}
		return runtime.TextResult("error: " + err.Error()), nil
	}})
	srv.AddResource(runtime.Resource{URI: "test://a", Name: "a", MimeType: "text/plain", Handler: func(ctx context.Context, req *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return &runtime.ReadResourceResult{Contents: []runtime.ResourceContents{{URI: req.URI, MimeType: "text/plain", Text: "A"}}}, nil
	}})
	srv.AddResource(runtime.Resource{URI: "test://gone", Name: "gone", Handler: func(ctx context.Context, req *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return nil, runtime.ErrResourceNotFound
	}})
	return srv
}

// sessionPeer drives a Session in process: every message the server sends
// arrives on out, in order.
type sessionPeer struct {
	t   *testing.T
	ss  *runtime.Session
	out chan string
}

func newSessionPeer(t *testing.T, srv *runtime.Server) *sessionPeer {
	p := &sessionPeer{t: t, out: make(chan string, 100)}
	p.ss = srv.NewSession(func(msg []byte) { p.out <- string(msg) })
	t.Cleanup(p.ss.Close)
	return p
}

// exchange sends msg and returns what the server sends until the response
// to id, included.
func (p *sessionPeer) exchange(msg string) []string {
	p.t.Helper()
	p.ss.HandleMessage(context.Background(), []byte(msg))
	var got []string
	for {
		select {
		case m := <-p.out:
			got = append(got, m)
			var env struct{ Method string }
			if json.Unmarshal([]byte(m), &env) == nil && env.Method == "" {
				return got
			}
		case <-time.After(wait):
			p.t.Fatalf("no response to %s; got %q", msg, got)
		}
	}
}

func req(id int, method, params string) string {
	b, _ := json.Marshal(id)
	if params == "" {
		return `{"jsonrpc":"2.0","id":` + string(b) + `,"method":"` + method + `"}`
	}
	return `{"jsonrpc":"2.0","id":` + string(b) + `,"method":"` + method + `","params":` + params + `}`
}

func ok(id, result string) string { return `{"jsonrpc":"2.0","id":` + id + `,"result":` + result + `}` }
func fail(id, errObj string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"error":` + errObj + `}`
}
func withMeta(members string) string { return `{` + members + `,` + modernMeta + `}` }

var (
	toolsListJSON = `{"tools":[` +
		`{"name":"echo","description":"Echo the arguments.","inputSchema":{"type":"object","additionalProperties":false}},` +
		`{"name":"peer","description":"Who asks.","inputSchema":{"type":"object","additionalProperties":false}},` +
		`{"name":"meta","description":"Has _meta.","inputSchema":{"type":"object","additionalProperties":false}},` +
		`{"name":"log","description":"Logs.","inputSchema":{"type":"object","additionalProperties":false}},` +
		`{"name":"elicit","description":"Asks.","inputSchema":{"type":"object","additionalProperties":false}}]`
	unsupported = `{"code":-32022,"message":"unsupported protocol version \"2025-11-25\"; this server serves \"2026-07-28\" per request, and earlier revisions after initialize","data":{"supported":["2026-07-28"],"requested":"2025-11-25"}}`
	noMeta      = `{"code":-32602,"message":"invalid params: params._meta must carry \"io.modelcontextprotocol/protocolVersion\" and \"io.modelcontextprotocol/clientCapabilities\""}`
	noCaps      = `{"code":-32602,"message":"invalid params: _meta[\"io.modelcontextprotocol/clientCapabilities\"] is required: an object"}`
)

// modernCases are requests and the exact messages answering them, the same
// on every transport (HTTP adds a status).
var modernCases = []struct {
	name   string
	msg    string
	status int      // on HTTP
	want   []string // stdio / Session: every message, the response last
}{
	{"discover", req(1, "server/discover", `{`+modernMeta+`}`), 200,
		[]string{ok("1", `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"logging":{}},"resultType":"complete","ttlMs":0,"cacheScope":"private",`+modernInfo+`}`)}},
	{"discover without _meta", req(2, "server/discover", ""), 400, []string{fail("2", noMeta)}},
	{"tools/list", req(3, "tools/list", `{`+modernMeta+`}`), 200,
		[]string{ok("3", toolsListJSON+`,"resultType":"complete","ttlMs":0,"cacheScope":"private",`+modernInfo+`}`)}},
	{"resources/list", req(4, "resources/list", `{`+modernMeta+`}`), 200,
		[]string{ok("4", `{"resources":[{"uri":"test://a","name":"a","mimeType":"text/plain"},{"uri":"test://gone","name":"gone"}],"resultType":"complete","ttlMs":0,"cacheScope":"private",`+modernInfo+`}`)}},
	{"resources/read", req(5, "resources/read", withMeta(`"uri":"test://a"`)), 200,
		[]string{ok("5", `{"contents":[{"uri":"test://a","mimeType":"text/plain","text":"A"}],"resultType":"complete","ttlMs":0,"cacheScope":"private",`+modernInfo+`}`)}},
	{"resource not found", req(6, "resources/read", withMeta(`"uri":"test://gone"`)), 200,
		[]string{fail("6", `{"code":-32602,"message":"resource not found: \"test://gone\"","data":{"uri":"test://gone"}}`)}},
	{"tools/call", req(7, "tools/call", withMeta(`"name":"echo","arguments":{"a":1}`)), 200,
		[]string{ok("7", `{"content":[{"type":"text","text":"{\"a\":1}"}],"resultType":"complete",`+modernInfo+`}`)}},
	{"tools/call merges _meta", req(8, "tools/call", withMeta(`"name":"meta"`)), 200,
		[]string{ok("8", `{"content":[{"type":"text","text":"m"}],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"0.1.0"},"k":1},"resultType":"complete"}`)}},
	{"client from _meta", req(9, "tools/call", `{"name":"peer","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}`), 200,
		[]string{ok("9", `{"content":[{"type":"text","text":"2026-07-28 {\"sampling\":{}} c"}],"resultType":"complete",`+modernInfo+`}`)}},
	{"no logs without logLevel", req(10, "tools/call", withMeta(`"name":"log"`)), 200,
		[]string{ok("10", `{"content":[{"type":"text","text":"logged"}],"resultType":"complete",`+modernInfo+`}`)}},
	{"logs from logLevel", req(11, "tools/call", `{"name":"log","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"}}`), 200,
		[]string{
			`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"info"}}`,
			`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"error"}}`,
			ok("11", `{"content":[{"type":"text","text":"logged"}],"resultType":"complete",`+modernInfo+`}`)}},
	{"requests to the client need the capability", req(12, "tools/call", withMeta(`"name":"elicit"`)), 200,
		[]string{ok("12", `{"content":[{"type":"text","text":"no roots capability"}],"resultType":"complete",`+modernInfo+`}`)}},
	{"unsupported version", req(13, "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}`), 400, []string{fail("13", unsupported)}},
	{"missing capabilities", req(14, "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`), 400, []string{fail("14", noCaps)}},
	{"bad logLevel", req(15, "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}`), 400,
		[]string{fail("15", `{"code":-32602,"message":"invalid params: _meta[\"io.modelcontextprotocol/logLevel\"] must be one of debug, info, notice, warning, error, critical, alert, emergency"}`)}},
	{"initialize removed", req(16, "initialize", withMeta(`"protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"c","version":"1"}`)), 404,
		[]string{fail("16", `{"code":-32601,"message":"method \"initialize\" not found: it does not exist in protocol revision 2026-07-28"}`)}},
	{"ping removed", req(17, "ping", `{`+modernMeta+`}`), 404,
		[]string{fail("17", `{"code":-32601,"message":"method \"ping\" not found: it does not exist in protocol revision 2026-07-28"}`)}},
	{"logging/setLevel removed", req(18, "logging/setLevel", withMeta(`"level":"debug"`)), 404,
		[]string{fail("18", `{"code":-32601,"message":"method \"logging/setLevel\" not found: it does not exist in protocol revision 2026-07-28"}`)}},
	{"resources/subscribe removed", req(19, "resources/subscribe", withMeta(`"uri":"test://a"`)), 404,
		[]string{fail("19", `{"code":-32601,"message":"method \"resources/subscribe\" not found: it does not exist in protocol revision 2026-07-28"}`)}},
	{"unknown method", req(20, "nope/nope", `{`+modernMeta+`}`), 404, []string{fail("20", `{"code":-32601,"message":"method \"nope/nope\" not found"}`)}},
}

func TestModernSession(t *testing.T) {
	p := newSessionPeer(t, modernServer())
	for _, tc := range modernCases {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			got := p.exchange(tc.msg)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// On stdio, modern requests and a legacy initialize share one connection:
// initialize selects the legacy era for what has no modern _meta, and
// modern requests are served the same before and after it.
func TestModernStdioDualEra(t *testing.T) {
	c := serve(t, modernServer())
	list := req(1, "tools/list", `{`+modernMeta+`}`)
	wantModern := ok("1", toolsListJSON+`,"resultType":"complete","ttlMs":0,"cacheScope":"private",`+modernInfo+`}`)
	c.send(list)
	if got := c.recv(); got != wantModern {
		t.Fatalf("modern before initialize:\n got %s\nwant %s", got, wantModern)
	}
	c.send(req(2, "tools/list", `{}`))
	if got := c.recv(); !strings.Contains(got, "not initialized") {
		t.Fatalf("legacy before initialize: %s", got)
	}
	c.initialize()
	c.send(req(3, "tools/list", `{}`))
	if got, want := c.recv(), ok("3", toolsListJSON+`}`); got != want {
		t.Fatalf("legacy after initialize:\n got %s\nwant %s", got, want)
	}
	c.send(list)
	if got := c.recv(); got != wantModern {
		t.Fatalf("modern after initialize:\n got %s\nwant %s", got, wantModern)
	}
	// Legacy resource not found is still -32002.
	c.send(req(4, "resources/read", `{"uri":"test://gone"}`))
	if got, want := c.recv(), fail("4", `{"code":-32002,"message":"resource not found: \"test://gone\"","data":{"uri":"test://gone"}}`); got != want {
		t.Fatalf("legacy not found:\n got %s\nwant %s", got, want)
	}
}

func TestModernCaching(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opt   runtime.Option
		cache string
	}{
		{"public", runtime.WithCaching(90*time.Second, "public"), `"ttlMs":90000,"cacheScope":"public"`},
		{"private", runtime.WithCaching(1500*time.Millisecond, "private"), `"ttlMs":1500,"cacheScope":"private"`},
		{"negative and unknown", runtime.WithCaching(-time.Second, "shared"), `"ttlMs":0,"cacheScope":"private"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newSessionPeer(t, modernServer(tc.opt, runtime.WithInstructions("Be nice.")))
			for _, m := range []string{
				req(1, "server/discover", `{`+modernMeta+`}`),
				req(2, "tools/list", `{`+modernMeta+`}`),
				req(3, "resources/list", `{`+modernMeta+`}`),
				req(4, "resources/templates/list", `{`+modernMeta+`}`),
				req(5, "resources/read", withMeta(`"uri":"test://a"`)),
			} {
				got := p.exchange(m)[0]
				if !strings.Contains(got, `"resultType":"complete",`+tc.cache+`,`+modernInfo+`}}`) {
					t.Errorf("%s: %s", m, got)
				}
			}
			got := p.exchange(req(6, "server/discover", `{`+modernMeta+`}`))[0]
			if !strings.Contains(got, `"instructions":"Be nice."`) {
				t.Errorf("discover without instructions: %s", got)
			}
			got = p.exchange(req(7, "tools/call", withMeta(`"name":"echo"`)))[0]
			if strings.Contains(got, "ttlMs") {
				t.Errorf("tools/call is not cacheable: %s", got)
			}
		})
	}
}

// modernPost POSTs msg with the headers a modern client sends (as hdr
// overrides: a value "" removes the header; a value with newlines is sent
// as one header line per line).
func modernPost(t *testing.T, url, msg string, hdr map[string]string) (int, http.Header, string) {
	t.Helper()
	r, err := http.NewRequest(http.MethodPost, url, strings.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", modernVersion)
	var env struct {
		Method string
		Params struct {
			Name, URI string
			Meta      map[string]json.RawMessage `json:"_meta"`
		}
	}
	_ = json.Unmarshal([]byte(msg), &env)
	var v string
	if json.Unmarshal(env.Params.Meta["io.modelcontextprotocol/protocolVersion"], &v) == nil {
		r.Header.Set("MCP-Protocol-Version", v) // what a client sends: the body's version
	}
	r.Header.Set("Mcp-Method", env.Method)
	if n := env.Params.Name + env.Params.URI; n != "" {
		r.Header.Set("Mcp-Name", n)
	}
	for k, v := range hdr {
		r.Header.Del(k)
		for line := range strings.SplitSeq(v, "\n") {
			if line != "" {
				r.Header.Add(k, line)
			}
		}
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// sseData is the data of the events of an SSE body, or the body itself
// when it is JSON.
func sseData(ct, body string) []string {
	if !strings.HasPrefix(ct, "text/event-stream") {
		return []string{body}
	}
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if d, ok := strings.CutPrefix(line, "data: "); ok && d != "" {
			out = append(out, d)
		}
	}
	return out
}

func TestModernHTTP(t *testing.T) {
	ts := httptest.NewServer(modernServer().HTTPHandler())
	t.Cleanup(ts.Close)
	for _, tc := range modernCases {
		t.Run(tc.name, func(t *testing.T) {
			status, h, body := modernPost(t, ts.URL, tc.msg, nil)
			if status != tc.status {
				t.Errorf("status %d, want %d", status, tc.status)
			}
			if h.Get("Mcp-Session-Id") != "" {
				t.Errorf("a modern request got a session: %s", h.Get("Mcp-Session-Id"))
			}
			got := sseData(h.Get("Content-Type"), body)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if strings.HasPrefix(h.Get("Content-Type"), "text/event-stream") && h.Get("X-Accel-Buffering") != "no" {
				t.Errorf("SSE without X-Accel-Buffering: no")
			}
		})
	}
}

func TestModernHTTPHeaders(t *testing.T) {
	ts := httptest.NewServer(modernServer().HTTPHandler())
	t.Cleanup(ts.Close)
	call := req(1, "tools/call", withMeta(`"name":"echo"`))
	read := req(2, "resources/read", withMeta(`"uri":"test://a"`))
	mismatch := func(id, msg string) string {
		return fail(id, `{"code":-32020,"message":`+strings.ReplaceAll(jsonString(msg), `\u0026`, "&")+`}`)
	}
	for _, tc := range []struct {
		name   string
		msg    string
		hdr    map[string]string
		status int
		want   string
	}{
		{"all headers", call, nil, 200, ok("1", `{"content":[{"type":"text","text":""}],"resultType":"complete",`+modernInfo+`}`)},
		{"base64 name", call, map[string]string{"Mcp-Name": "=?base64?ZWNobw==?="}, 200, ok("1", `{"content":[{"type":"text","text":""}],"resultType":"complete",`+modernInfo+`}`)},
		{"base64 padded", read, map[string]string{"Mcp-Name": "=?base64?dGVzdDovL2E=?="}, 200, ok("2", `{"contents":[{"uri":"test://a","mimeType":"text/plain","text":"A"}],"resultType":"complete","ttlMs":0,"cacheScope":"private",`+modernInfo+`}`)},
		// SEP-2243: invalid padding is refused, and a value without the
		// whole wrapper is literal.
		{"base64 unpadded", read, map[string]string{"Mcp-Name": "=?base64?dGVzdDovL2E?="}, 400,
			mismatch("2", `header mismatch: Mcp-Name "=?base64?dGVzdDovL2E?=" is not valid =?base64?…?= text`)},
		{"base64 prefix only", read, map[string]string{"Mcp-Name": "=?base64?dGVzdDovL2E="}, 400,
			mismatch("2", `header mismatch: Mcp-Name is "=?base64?dGVzdDovL2E=", but params.uri is "test://a"`)},
		{"version header missing", call, map[string]string{"MCP-Protocol-Version": ""}, 400,
			mismatch("1", `header mismatch: the Mcp-Protocol-Version header is required and must be "2026-07-28" (the protocol version in _meta)`)},
		{"version header differs", call, map[string]string{"MCP-Protocol-Version": "2025-11-25"}, 400,
			mismatch("1", `header mismatch: Mcp-Protocol-Version is "2025-11-25", but the protocol version in _meta is "2026-07-28"`)},
		{"method header missing", call, map[string]string{"Mcp-Method": ""}, 400,
			mismatch("1", `header mismatch: the Mcp-Method header is required and must be "tools/call" (the method in the body)`)},
		{"method header differs", call, map[string]string{"Mcp-Method": "tools/list"}, 400,
			mismatch("1", `header mismatch: Mcp-Method is "tools/list", but the method in the body is "tools/call"`)},
		{"name header missing", call, map[string]string{"Mcp-Name": ""}, 400,
			mismatch("1", `header mismatch: the Mcp-Name header is required and must be "echo" (params.name)`)},
		{"name header differs", call, map[string]string{"Mcp-Name": "peer"}, 400,
			mismatch("1", `header mismatch: Mcp-Name is "peer", but params.name is "echo"`)},
		{"uri header differs", read, map[string]string{"Mcp-Name": "=?base64?dGVzdDovL2I=?="}, 400,
			mismatch("2", `header mismatch: Mcp-Name is "test://b", but params.uri is "test://a"`)},
		{"bad base64", read, map[string]string{"Mcp-Name": "=?base64?***?="}, 400,
			mismatch("2", `header mismatch: Mcp-Name "=?base64?***?=" is not valid =?base64?…?= text`)},
		// The version header is compared with the body's before the
		// version is checked.
		{"unsupported version, same header", req(3, "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}`),
			map[string]string{"MCP-Protocol-Version": "2025-11-25"}, 400, fail("3", unsupported)},
		{"unsupported version, other header", req(3, "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999","io.modelcontextprotocol/clientCapabilities":{}}}`),
			map[string]string{"MCP-Protocol-Version": "2026-07-28"}, 400, mismatch("3", `header mismatch: Mcp-Protocol-Version is "2026-07-28", but the protocol version in _meta is "v999"`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := modernPost(t, ts.URL, tc.msg, tc.hdr)
			if status != tc.status || body != tc.want {
				t.Errorf("got %d %s\nwant %d %s", status, body, tc.status, tc.want)
			}
		})
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// GET and DELETE are not part of the modern era; legacy ones are unchanged.
func TestModernHTTPGetDelete(t *testing.T) {
	ts := httptest.NewServer(modernServer().HTTPHandler())
	t.Cleanup(ts.Close)
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		r, _ := http.NewRequest(method, ts.URL, nil)
		r.Header.Set("Accept", "text/event-stream")
		r.Header.Set("MCP-Protocol-Version", modernVersion)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("modern %s: %d, want 405", method, resp.StatusCode)
		}
		r.Header.Set("MCP-Protocol-Version", "2025-11-25")
		if resp, err = http.DefaultClient.Do(r); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest { // no Mcp-Session-Id
			t.Errorf("legacy %s: %d, want 400", method, resp.StatusCode)
		}
	}
	// A modern notification is accepted without a session.
	status, _, _ := modernPost(t, ts.URL, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, nil)
	if status != http.StatusAccepted {
		t.Errorf("modern notification: %d, want 202", status)
	}
}

// Closing a modern response stream cancels its request.
func TestModernHTTPCancelOnClose(t *testing.T) {
	srv := modernServer()
	tool, started, _ := blockingTool("block")
	done := make(chan error, 1)
	inner := tool.Handler
	tool.Handler = func(ctx context.Context, r *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		res, err := inner(ctx, r)
		done <- err
		return res, err
	}
	srv.AddTool(tool)
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithCancel(context.Background())
	r, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL, strings.NewReader(req(1, "tools/call", withMeta(`"name":"block"`))))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", modernVersion)
	r.Header.Set("Mcp-Method", "tools/call")
	r.Header.Set("Mcp-Name", "block")
	go func() {
		if resp, err := http.DefaultClient.Do(r); err == nil {
			resp.Body.Close()
		}
	}()
	select {
	case <-started:
	case <-time.After(wait):
		t.Fatal("the tool did not start")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("handler returned %v, want context.Canceled", err)
		}
	case <-time.After(wait):
		t.Fatal("closing the stream did not cancel the request")
	}
}

// The modern era is served by default; WithModernEra is a no-op kept for
// code written when it was not, and WithoutModernEra serves the legacy era
// only (server/discover is then an error, so that dual-era clients fall
// back to initialize).
func TestModernEraOptions(t *testing.T) {
	discover := req(1, "server/discover", withMeta(`"x":0`))
	for _, tc := range []struct {
		name   string
		opts   []runtime.Option
		modern bool
	}{
		{"default", nil, true},
		{"WithModernEra", []runtime.Option{runtime.WithModernEra()}, true},
		{"WithoutModernEra", []runtime.Option{runtime.WithoutModernEra()}, false},
		{"WithoutModernEra then WithModernEra", []runtime.Option{runtime.WithoutModernEra(), runtime.WithModernEra()}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := newSessionPeer(t, modernServer(tc.opts...)).exchange(discover)
			served := len(got) == 1 && strings.Contains(got[0], `"supportedVersions":["2026-07-28"]`)
			refused := len(got) == 1 && strings.Contains(got[0], `"error":`)
			if served != tc.modern || refused == tc.modern {
				t.Errorf("server/discover: %q; modern era served: %v, want %v", got, served, tc.modern)
			}
		})
	}
}

// Caching hints per method and per resource: a resource's own Cache wins
// for its reads, then WithMethodCaching, then WithCaching.
func TestModernCachingPerPrimitive(t *testing.T) {
	srv := modernServer(
		runtime.WithCaching(time.Second, "private"),
		runtime.WithMethodCaching("tools/list", runtime.CacheHint{TTL: time.Minute, Scope: "public"}),
		runtime.WithMethodCaching("resources/read", runtime.CacheHint{TTL: 2 * time.Second, Scope: "public"}),
		runtime.WithMethodCaching("tools/call", runtime.CacheHint{TTL: time.Hour}), // not cacheable: ignored
	)
	read := func(context.Context, *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return &runtime.ReadResourceResult{Contents: []runtime.ResourceContents{{URI: "test://x", Text: "x"}}}, nil
	}
	srv.AddResource(runtime.Resource{URI: "test://own", Cache: &runtime.CacheHint{TTL: time.Hour, Scope: "public"}, Handler: read})
	srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "test://t/{id}", Cache: &runtime.CacheHint{TTL: -1, Scope: "x"}, Handler: read})
	p := newSessionPeer(t, srv)
	for _, tc := range []struct{ msg, cache string }{
		{req(1, "server/discover", `{`+modernMeta+`}`), `"ttlMs":1000,"cacheScope":"private"`},
		{req(2, "tools/list", `{`+modernMeta+`}`), `"ttlMs":60000,"cacheScope":"public"`},
		{req(3, "resources/templates/list", `{`+modernMeta+`}`), `"ttlMs":1000,"cacheScope":"private"`},
		{req(4, "resources/read", withMeta(`"uri":"test://a"`)), `"ttlMs":2000,"cacheScope":"public"`},
		{req(5, "resources/read", withMeta(`"uri":"test://own"`)), `"ttlMs":3600000,"cacheScope":"public"`},
		{req(6, "resources/read", withMeta(`"uri":"test://t/1"`)), `"ttlMs":0,"cacheScope":"private"`},
	} {
		if got := p.exchange(tc.msg)[0]; !strings.Contains(got, `"resultType":"complete",`+tc.cache+`,`) {
			t.Errorf("%s:\n got %s\nwant %s", tc.msg, got, tc.cache)
		}
	}
	if got := p.exchange(req(7, "tools/call", withMeta(`"name":"echo"`)))[0]; strings.Contains(got, "ttlMs") {
		t.Errorf("tools/call is not cacheable: %s", got)
	}
}
