package runtime_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/hostile"
	"github.com/mcpgen/mcpgen/runtime"
)

// The hostile suite in the 2026-07-28 era, and the four failures of the
// security audit (issue 22) on both eras: slow bodies, session floods,
// repeated MCP headers and wide JSON objects. Every reply goes through
// hostile's checks, and after each case the server must still serve.

const hostileModernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// modernHeaders are the headers a modern client sends for body.
func modernHeaders(body string) []string {
	var env struct {
		Method string
		Params struct{ Name, URI string }
	}
	_ = json.Unmarshal([]byte(body), &env)
	hdr := []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", env.Method}
	if n := env.Params.Name + env.Params.URI; n != "" {
		hdr = append(hdr, "Mcp-Name", n)
	}
	return hdr
}

func hostileModernCall(tool, args string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `,` + hostileModernMeta + `}}`
}

// modernServes checks that the server answers a modern tools/list.
func modernServes(t *testing.T, c *hostile.HTTP) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":"after","method":"tools/list","params":{` + hostileModernMeta + `}}`
	r, err := c.Post(context.Background(), []byte(body), modernHeaders(body)...)
	if err != nil || r.Status != http.StatusOK || len(r.Msgs) != 1 || r.Msgs[0].Error != nil {
		t.Fatalf("tools/list after the case: %v %v", err, r)
	}
}

func TestHostileModernHTTP(t *testing.T) {
	srv, _ := hostile.NewServer(hostile.Options{})
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	c := &hostile.HTTP{URL: ts.URL, Client: ts.Client()}
	echo := hostileModernCall(hostile.EchoTool, `{}`)
	wideResponses := func(n int) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + hostile.EchoTool + `","arguments":{},"inputResponses":` +
			wideObject(n) + `,` + hostileModernMeta + `}}`
	}
	for _, tc := range []struct {
		name   string
		body   string
		hdr    []string // after the modern headers
		status int
		code   int    // 0: a result
		text   string // in the error message or the result
		slow   bool
	}{
		{name: "echo", body: echo, status: 200, text: "2 bytes of arguments"},
		{name: "Mcp-Name twice, matching first", body: echo, hdr: []string{"+Mcp-Name", "other"}, status: 400, code: -32020, text: "Mcp-Name header is sent more than once"},
		{name: "Mcp-Name twice, matching second", body: echo, hdr: []string{"Mcp-Name", "other", "+Mcp-Name", hostile.EchoTool}, status: 400, code: -32020, text: "Mcp-Name header is sent more than once"},
		{name: "Mcp-Method twice, matching first", body: echo, hdr: []string{"+Mcp-Method", "tools/list"}, status: 400, code: -32020, text: "Mcp-Method header is sent more than once"},
		{name: "Mcp-Method twice, matching second", body: echo, hdr: []string{"Mcp-Method", "tools/list", "+Mcp-Method", "tools/call"}, status: 400, code: -32020, text: "Mcp-Method header is sent more than once"},
		{name: "MCP-Protocol-Version twice, matching first", body: echo, hdr: []string{"+MCP-Protocol-Version", "2025-11-25"}, status: 400, code: -32020, text: "Mcp-Protocol-Version header is sent more than once"},
		{name: "MCP-Protocol-Version twice, matching second", body: echo, hdr: []string{"MCP-Protocol-Version", "2025-11-25", "+MCP-Protocol-Version", "2026-07-28"}, status: 400, code: -32020, text: "Mcp-Protocol-Version header is sent more than once"},
		{name: "Mcp-Param twice", body: echo, hdr: []string{"+Mcp-Param-X", "a", "+Mcp-Param-X", "b"}, status: 400, code: -32020, text: "Mcp-Param-X header is sent more than once"},
		{name: "10,001 members in arguments", body: hostileModernCall(hostile.EchoTool, wideObject(10001)), status: 400, code: -32600, text: "more than 10000 members"},
		{name: "10,001 inputResponses", body: wideResponses(10001), status: 400, code: -32600, text: "more than 10000 members"},
		{name: "300k inputResponses", body: wideResponses(300000), status: 400, code: -32600, text: "more than 10000 members", slow: true},
		{name: "150k values in arguments", body: hostileModernCall(hostile.EchoTool, `{"k":[`+strings.Repeat("[],", 150000)+`1]}`), status: 400, code: -32600, text: "more than 100000 JSON values"},
	} {
		if tc.slow && testing.Short() {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Post(context.Background(), []byte(tc.body), append(modernHeaders(tc.body), tc.hdr...)...)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range r.Problems {
				t.Error(p)
			}
			if r.Status != tc.status || len(r.Msgs) != 1 {
				t.Fatalf("status %d, %d messages; want %d and one: %v", r.Status, len(r.Msgs), tc.status, r.Msgs)
			}
			m := r.Msgs[0]
			switch {
			case tc.code == 0 && m.Error != nil:
				t.Errorf("want a result, got %v", m)
			case tc.code != 0 && (m.Error == nil || m.Error.Code != tc.code):
				t.Errorf("want error %d, got %v", tc.code, m)
			case m.Error != nil && !strings.Contains(m.Error.Message, tc.text):
				t.Errorf("want %q in %q", tc.text, m.Error.Message)
			case m.Error == nil && !strings.Contains(string(m.Result), tc.text):
				t.Errorf("want %q in %.300s", tc.text, m.Result)
			}
			modernServes(t, c)
		})
	}
}

// TestHostileSlowBody: in both eras, a body announced with Content-Length
// 100000 that stops after "{" is answered 400 and its connection closed
// once WithBodyReadTimeout has passed, and the server goes on serving.
func TestHostileSlowBody(t *testing.T) {
	srv, _ := hostile.NewServer(hostile.Options{})
	ts := httptest.NewServer(srv.HTTPHandler(runtime.WithBodyReadTimeout(200 * time.Millisecond)))
	t.Cleanup(ts.Close)
	addr := strings.TrimPrefix(ts.URL, "http://")
	for _, era := range []struct{ name, headers string }{
		{"legacy", ""},
		{"modern", "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: " + hostile.EchoTool + "\r\n"},
	} {
		t.Run(era.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_, err = io.WriteString(conn, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"+
				"Content-Type: application/json\r\n"+era.headers+"Content-Length: 100000\r\n\r\n{")
			if err != nil {
				t.Fatal(err)
			}
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			got, err := io.ReadAll(conn)
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatalf("the connection is still open after 5 s; got %q", got)
			}
			if !strings.HasPrefix(string(got), "HTTP/1.1 400 ") || !strings.Contains(string(got), "the body did not arrive within 200ms") {
				t.Errorf("got %q", got)
			}
			modernServes(t, &hostile.HTTP{URL: ts.URL, Client: ts.Client()})
		})
	}
}

// TestHostileSessionFlood: 50 initializes without DELETE keep at most
// WithMaxSessions sessions; the newest are served, the oldest get 404.
func TestHostileSessionFlood(t *testing.T) {
	srv, _ := hostile.NewServer(hostile.Options{})
	ts := httptest.NewServer(srv.HTTPHandler(runtime.WithMaxSessions(10)))
	t.Cleanup(ts.Close)
	var clients []*hostile.HTTP
	for i := range 50 {
		c := &hostile.HTTP{URL: ts.URL, Client: ts.Client()}
		if err := c.Initialize(context.Background(), "flood-"+strconv.Itoa(i)); err != nil {
			t.Fatalf("initialize %d: %v", i, err)
		}
		clients = append(clients, c)
	}
	for i, c := range clients {
		r, err := c.Post(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range r.Problems {
			t.Error(p)
		}
		want := http.StatusNotFound
		if i >= 40 {
			want = http.StatusOK
		}
		if r.Status != want {
			t.Errorf("session %d: ping %d, want %d", i, r.Status, want)
		}
	}
}

// modernMethods are the methods of the hostile table's requests that the
// 2026-07-28 era serves too.
var modernMethods = map[string]bool{"tools/list": true, "tools/call": true, "resources/list": true, "resources/templates/list": true,
	"resources/read": true, "prompts/list": true, "prompts/get": true, "completion/complete": true}

// modernTargets are the params members that Mcp-Name mirrors.
var modernTargets = map[string]string{"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}

// asModern rewrites a request of the hostile table as a modern one: its
// params get the _meta declarations (beside any _meta members of its own);
// ok is false for a message that is not such a request.
func asModern(msg string) (body string, ok bool) {
	var env map[string]json.RawMessage
	if json.Unmarshal([]byte(msg), &env) != nil || env["id"] == nil {
		return "", false
	}
	var method string
	if json.Unmarshal(env["method"], &method) != nil || !modernMethods[method] {
		return "", false
	}
	params := map[string]json.RawMessage{}
	if raw := env["params"]; raw != nil && (json.Unmarshal(raw, &params) != nil || params == nil) {
		return "", false // not an object: no place for _meta
	}
	meta := map[string]json.RawMessage{}
	if raw := params["_meta"]; raw != nil && (json.Unmarshal(raw, &meta) != nil || meta == nil) {
		return "", false
	}
	meta["io.modelcontextprotocol/protocolVersion"] = json.RawMessage(`"2026-07-28"`)
	meta["io.modelcontextprotocol/clientCapabilities"] = json.RawMessage(`{}`)
	var err error
	if params["_meta"], err = marshalRaw(meta); err != nil {
		return "", false
	}
	if env["params"], err = marshalRaw(params); err != nil {
		return "", false
	}
	b, err := marshalRaw(env)
	return string(b), err == nil
}

// marshalRaw encodes v without escaping <, > and &, so that ids and names
// keep their bytes.
func marshalRaw(v any) (json.RawMessage, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return json.RawMessage(strings.TrimSuffix(b.String(), "\n")), err
}

// modernNameHeader is the Mcp-Name a modern client sends for name: as it
// is when it is printable ASCII, else (and when empty) =?base64?…?=.
func modernNameHeader(name string) string {
	for _, r := range name {
		if r < 0x20 || r > 0x7e {
			return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(name)) + "?="
		}
	}
	if name == "" || strings.TrimSpace(name) != name || strings.HasPrefix(name, "=?") {
		return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(name)) + "?="
	}
	return name
}

// TestHostileModernTable runs the requests of the hostile table that the
// 2026-07-28 era serves, rewritten as modern requests, each on its own:
// the outcome must be the legacy one (error code, isError, text) but for
// two differences of the era: a resource not found is -32602 (not
// -32002), and a request without a string name or uri to mirror in
// Mcp-Name is refused as a header mismatch (-32020) before it is read. The
// server must serve after each.
func TestHostileModernTable(t *testing.T) {
	srv, _ := hostile.NewServer(hostile.Options{})
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	c := &hostile.HTTP{URL: ts.URL, Client: ts.Client()}
	n := 0
	for _, tc := range hostile.Cases() {
		body, ok := asModern(tc.Send)
		if !ok || tc.Fresh || tc.Legacy || tc.Slow && testing.Short() {
			continue
		}
		n++
		t.Run(tc.Name, func(t *testing.T) {
			var env struct {
				Method string
				Params map[string]json.RawMessage
			}
			_ = json.Unmarshal([]byte(body), &env)
			hdr := []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", env.Method}
			w := tc.Want
			if tc.HTTP != nil {
				w = *tc.HTTP
			}
			if w.Code == hostile.ResourceNotFound {
				w.Code = hostile.InvalidParams
			}
			if target := modernTargets[env.Method]; target != "" {
				var name string
				if json.Unmarshal(env.Params[target], &name) == nil && env.Params[target] != nil && string(env.Params[target]) != "null" {
					hdr = append(hdr, "Mcp-Name", modernNameHeader(name))
				} else {
					w = hostile.Want{Code: -32020, ID: w.ID, Contains: "header mismatch"}
				}
			}
			r, err := c.Post(context.Background(), []byte(body), hdr...)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range r.Problems {
				t.Error(p)
			}
			checkOutcome(t, hostile.Case{Name: tc.Name, Send: body}, w, r.Msgs)
			modernServes(t, c)
		})
	}
	t.Logf("%d cases in the 2026-07-28 era", n)
}
