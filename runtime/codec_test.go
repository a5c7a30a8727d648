package runtime_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

// linesUntilSentinel sends in, then a ping with id "sentinel", and returns
// the lines written before the ping's answer. Errors for malformed input are
// answered as the line is read, so they all come before the sentinel.
func (c *client) linesUntilSentinel(in string) []string {
	c.t.Helper()
	c.send(in)
	c.send(`{"jsonrpc":"2.0","id":"sentinel","method":"ping"}`)
	var got []string
	for {
		l := c.recv()
		if l == `{"jsonrpc":"2.0","id":"sentinel","result":{}}` {
			return got
		}
		got = append(got, l)
	}
}

// TestJSONRPCErrors checks the answer to every kind of malformed or
// unexpected message, byte for byte, and that the server keeps serving.
func TestJSONRPCErrors(t *testing.T) {
	long := strings.Repeat("x", 500)
	for _, tc := range []struct {
		name string
		in   string
		want []string // exact lines; none for messages that get no answer
	}{
		{"garbage", `{not json`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: message is not valid JSON"}}`}},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"ping"`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: message is not valid JSON"}}`}},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"ping"} x`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: message is not valid JSON"}}`}},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batches are not supported; send one JSON-RPC message per line"}}`}},
		{"string", `"ping"`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a message must be a JSON object"}}`}},
		{"number", `42`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a message must be a JSON object"}}`}},
		{"null", `null`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a message must be a JSON object"}}`}},
		{"big integer id", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":9007199254740993,"result":{}}`}},
		{"huge integer id", `{"jsonrpc":"2.0","id":-123456789012345678901234567890,"method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":-123456789012345678901234567890,"result":{}}`}},
		{"string id with escapes", `{"jsonrpc":"2.0","id":"a\u0062\"c","method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":"a\u0062\"c","result":{}}`}},
		{"spaces around id", `{ "jsonrpc" : "2.0" , "id" :  7 , "method" : "ping" }`,
			[]string{`{"jsonrpc":"2.0","id":7,"result":{}}`}},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must be a string or an integer"}}`}},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must be a string or an integer"}}`}},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must be a string or an integer"}}`}},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must be a string or an integer"}}`}},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must be a string or an integer"}}`}},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must be a string or an integer"}}`}},
		{"missing jsonrpc", `{"id":3,"method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`}},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":"x","method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`}},
		{"jsonrpc as number", `{"jsonrpc":2.0,"id":4,"method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`}},
		{"missing jsonrpc and bad id", `{"id":null,"method":"ping"}`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`}},
		{"missing method", `{"jsonrpc":"2.0","id":5}`,
			[]string{`{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"invalid request: \"method\" is missing"}}`}},
		{"empty object", `{}`,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"method\" is missing"}}`}},
		{"method not a string", `{"jsonrpc":"2.0","id":6,"method":42}`,
			[]string{`{"jsonrpc":"2.0","id":6,"error":{"code":-32600,"message":"invalid request: \"method\" must be a string"}}`}},
		{"unknown method", `{"jsonrpc":"2.0","id":8,"method":"tools/frobnicate"}`,
			[]string{`{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"method \"tools/frobnicate\" not found"}}`}},
		{"unknown method, long and hostile name", `{"jsonrpc":"2.0","id":9,"method":"a\nb\u0000` + long + `"}`,
			[]string{`{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"method \"a\\nb\\u0000` + long[:96] + `…\" not found"}}`}},
		{"unknown notification is ignored", `{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}`, nil},
		{"initialized notification again", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil},
		{"cancel of an unknown request", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`, nil},
		{"malformed cancel", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}`, nil},
		{"client response is accepted", `{"jsonrpc":"2.0","id":10,"result":{}}`, nil},
		{"client error response is accepted", `{"jsonrpc":"2.0","id":"s1","error":{"code":-1,"message":"no"}}`, nil},
		{"invalid UTF-8 is tolerated", "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"x\xff\"}",
			[]string{`{"jsonrpc":"2.0","id":11,"error":{"code":-32601,"message":"method \"x\\ufffd\" not found"}}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := runtime.NewServer(testInfo())
			srv.AddTool(echoTool("echo"))
			c := serve(t, srv)
			c.initialize()
			got := c.linesUntilSentinel(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("answer to %s (-want +got):\n%s", tc.in, diff)
			}
			// The server keeps serving.
			c.result("tools/list", nil)
		})
	}
}
