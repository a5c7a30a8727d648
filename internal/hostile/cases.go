package hostile

import (
	"strconv"
	"strings"
)

// JSON-RPC error codes (schema 2025-11-25).
const (
	ParseError       = -32700
	InvalidRequest   = -32600
	MethodNotFound   = -32601
	InvalidParams    = -32602
	ResourceNotFound = -32002
)

// Case is one hostile or malformed input and what must come of it. Every
// case runs on one connection (stdio) or session (HTTP) shared with the
// cases before it, and is followed by a ping that must be answered.
type Case struct {
	Name string
	// Send is the message: one line on stdio, one POST body on HTTP.
	Send string
	// Want is the outcome on stdio, and on HTTP unless HTTP is set.
	Want Want
	// HTTP, when set, is the outcome on HTTP where the transport answers
	// differently (a malformed message is refused with 400 before any
	// session sees it, a notification is accepted with 202…).
	HTTP *Want
	// Fresh runs the case on a new connection that has not initialized
	// (stdio), or without a session (HTTP).
	Fresh bool
	// Slow cases are left out of -short runs.
	Slow bool
	// Legacy cases mean something in the 2025-11-25 era only (params.task
	// is not read in 2026-07-28): the modern table leaves them out.
	Legacy bool
}

// Want is the expected outcome of a case.
type Want struct {
	// None: no response at all (the message is ignored, or is a
	// notification or a response).
	None bool
	// Code is the JSON-RPC error code of the response; 0 is a result.
	Code int
	// Or is another error code accepted in place of Code.
	Or int
	// IsError: the result is a tool result with isError: true.
	IsError bool
	// ID is the id the response carries, raw: "" means the id of the
	// request, byte for byte; "null" when the id could not be read.
	ID string
	// Contains, when set, must appear in the error message, the isError
	// text or the result.
	Contains string
	// Status is the HTTP status (HTTP only); 0 means 200 for a response,
	// 202 for none.
	Status int
}

func result() Want               { return Want{} }
func rpcError(code int) Want     { return Want{Code: code} }
func nullError(code int) Want    { return Want{Code: code, ID: "null"} }
func ignored() Want              { return Want{None: true} }
func toolError(text string) Want { return Want{IsError: true, Contains: text} }

// refused is the HTTP outcome of a message refused before dispatch: 400
// and the error, with id (raw) or null.
func refused(code int, id string) *Want { return &Want{Code: code, ID: id, Status: 400} }

// req builds a request with id 1 and params (raw JSON, "" for none).
func req(method, params string) string { return reqID("1", method, params) }

func reqID(id, method, params string) string {
	s := `{"jsonrpc":"2.0","id":` + id + `,"method":` + strconv.Quote(method)
	if params != "" {
		s += `,"params":` + params
	}
	return s + "}"
}

func notif(method, params string) string {
	s := `{"jsonrpc":"2.0","method":` + strconv.Quote(method)
	if params != "" {
		s += `,"params":` + params
	}
	return s + "}"
}

// rawReq builds a request whose method is the raw JSON text m (escapes,
// invalid UTF-8… left as they are).
func rawReq(m string) string { return `{"jsonrpc":"2.0","id":1,"method":` + m + `}` }

func call(tool, args string) string {
	return req("tools/call", `{"name":`+strconv.Quote(tool)+`,"arguments":`+args+`}`)
}

func read(uriJSON string) string { return req("resources/read", `{"uri":`+uriJSON+`}`) }

func nest(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

// deepTree is a walk_tree argument n nodes deep; bottom is the raw JSON of
// the last node.
func deepTree(n int, bottom string) string {
	var b strings.Builder
	b.WriteString(`{"root":`)
	for range n {
		b.WriteString(`{"name":"n","children":[`)
	}
	b.WriteString(bottom)
	for range n {
		b.WriteString(`]}`)
	}
	b.WriteString(`}`)
	return b.String()
}

var (
	mb        = strings.Repeat("x", 1<<20)
	controls  = `"a\u0000b\u0007c\u001b[31md\ne\r\tf\u2028g\u007f"`
	validArgs = `{"id":"T-1001","body":"Thanks.","idempotency_key":"6f1c1d2e-8d9b-4f7a-9c1e-2b3a4c5d6e7f"}`
)

// methodsWithParams are the methods whose params the runtime reads.
var methodsWithParams = []string{
	"initialize", "tools/list", "tools/call", "resources/list", "resources/templates/list",
	"resources/read", "resources/subscribe", "resources/unsubscribe", "prompts/list",
	"prompts/get", "completion/complete", "logging/setLevel",
}

// Cases returns the table, in the order it runs. Cases are built fresh on
// each call (some are large).
func Cases() []Case {
	cs := []Case{
		// Framing: text that is not one JSON value.
		{Name: "garbage", Send: `hello`, Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "truncated object", Send: `{"jsonrpc":"2.0","id":1,"method":"ping"`, Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "truncated string", Send: `{"jsonrpc":"2.0","id":1,"method":"pi`, Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "truncated after colon", Send: `{"jsonrpc":"2.0","id":`, Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "trailing garbage", Send: `{"jsonrpc":"2.0","id":1,"method":"ping"}x`, Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "two objects on one line", Send: `{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`, Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "single quotes", Send: `{'jsonrpc':'2.0','id':1,'method':'ping'}`, Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "trailing comma", Send: `{"jsonrpc":"2.0","id":1,"method":"ping",}`, Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "invalid escape", Send: `{"jsonrpc":"2.0","id":1,"method":"p\ing"}`, Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "raw control byte in a string", Send: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\x01ng\"}", Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "raw NUL byte in a string", Send: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\x00ng\"}", Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "byte order mark", Send: "\xef\xbb\xbf" + req("ping", ""), Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "NUL bytes only", Send: "\x00\x00\x00", Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "id with leading zeros", Send: `{"jsonrpc":"2.0","id":007,"method":"ping"}`, Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "NaN id", Send: `{"jsonrpc":"2.0","id":NaN,"method":"ping"}`, Want: nullError(ParseError), HTTP: refused(ParseError, "null")},
		{Name: "100k unclosed brackets", Send: strings.Repeat("[", 100000), Want: nullError(ParseError), HTTP: refused(ParseError, "null")},

		// JSON that is not one message object.
		{Name: "number", Send: `42`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "string", Send: `"ping"`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "null", Send: `null`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "boolean", Send: `true`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "batch", Send: `[` + req("ping", "") + `]`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "batch of two", Send: `[` + reqID("1", "ping", "") + `,` + reqID("2", "tools/list", "") + `]`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "empty batch", Send: `[]`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "batch of notifications", Send: `[` + notif("notifications/initialized", "") + `]`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "empty object", Send: `{}`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "keys in upper case", Send: `{"JSONRPC":"2.0","ID":1,"METHOD":"ping"}`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},

		// The envelope's members.
		{Name: "jsonrpc missing", Send: `{"id":1,"method":"ping"}`, Want: rpcError(InvalidRequest), HTTP: refused(InvalidRequest, "1")},
		{Name: "jsonrpc 1.0", Send: `{"jsonrpc":"1.0","id":1,"method":"ping"}`, Want: rpcError(InvalidRequest), HTTP: refused(InvalidRequest, "1")},
		{Name: "jsonrpc as a number", Send: `{"jsonrpc":2.0,"id":1,"method":"ping"}`, Want: rpcError(InvalidRequest), HTTP: refused(InvalidRequest, "1")},
		{Name: "jsonrpc null", Send: `{"jsonrpc":null,"id":1,"method":"ping"}`, Want: rpcError(InvalidRequest), HTTP: refused(InvalidRequest, "1")},
		// "2\u002e0" is the string "2.0": JSON does not care how it is spelled.
		{Name: "jsonrpc spelled with an escape", Send: `{"jsonrpc":"2\u002e0","id":1,"method":"ping"}`, Want: result()},
		{Name: "method missing", Send: `{"jsonrpc":"2.0","id":1}`, Want: rpcError(InvalidRequest), HTTP: refused(InvalidRequest, "1")},
		{Name: "method as a number", Send: rawReq(`5`), Want: rpcError(InvalidRequest), HTTP: refused(InvalidRequest, "1")},
		{Name: "method null", Send: rawReq(`null`), Want: rpcError(InvalidRequest), HTTP: refused(InvalidRequest, "1")},
		{Name: "method as an object", Send: rawReq(`{"name":"ping"}`), Want: rpcError(InvalidRequest), HTTP: refused(InvalidRequest, "1")},
		{Name: "method as an array", Send: rawReq(`["ping"]`), Want: rpcError(InvalidRequest), HTTP: refused(InvalidRequest, "1")},
		{Name: "method spelled with escapes", Send: rawReq(`"p\u0069ng"`), Want: result()},
		{Name: "duplicate id member (last wins)", Send: `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, Want: Want{ID: "2"}},
		{Name: "unknown members", Send: `{"jsonrpc":"2.0","id":1,"method":"ping","extra":{"a":[1,{"b":null}]},"x-y":7}`, Want: result()},
		{Name: "whitespace around", Send: " \t " + req("ping", "") + " \t ", Want: result()},
		{Name: "method and result both", Send: `{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}`, Want: result()},

		// Ids.
		{Name: "id null", Send: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "id object", Send: `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "id array", Send: `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "id true", Send: `{"jsonrpc":"2.0","id":true,"method":"ping"}`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "id false", Send: `{"jsonrpc":"2.0","id":false,"method":"ping"}`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "id fractional 1.5", Send: `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "id 1.0", Send: `{"jsonrpc":"2.0","id":1.0,"method":"ping"}`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "id exponent 1e3", Send: `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "id negative", Send: reqID("-7", "ping", ""), Want: result()},
		{Name: "id negative zero", Send: reqID("-0", "ping", ""), Want: result()},
		{Name: "id 2^53+1", Send: reqID("9007199254740993", "ping", ""), Want: result()},
		{Name: "id 2^64+1", Send: reqID("18446744073709551617", "ping", ""), Want: result()},
		{Name: "id -2^63-1", Send: reqID("-9223372036854775809", "ping", ""), Want: result()},
		{Name: "id of 400 digits", Send: reqID("1"+strings.Repeat("0", 399), "ping", ""), Want: result()},
		{Name: "id string with escapes", Send: reqID(`"a\u0041\n\"\\\/"`, "ping", ""), Want: result()},
		{Name: "id string with a lone surrogate", Send: reqID(`"\ud800"`, "ping", ""), Want: result()},
		{Name: "id empty string", Send: reqID(`""`, "ping", ""), Want: result()},
		{Name: "id string of 64 KiB", Send: reqID(`"`+strings.Repeat("i", 64<<10)+`"`, "ping", ""), Want: result()},
		// A message must be UTF-8: such an id cannot be echoed byte for byte in
		// a valid response, so the message is refused.
		{Name: "id with raw invalid UTF-8", Send: reqID("\"\xff\xfe\"", "ping", ""), Want: Want{Code: InvalidRequest, Or: ParseError, ID: "null"}, HTTP: &Want{Code: InvalidRequest, Or: ParseError, ID: "null", Status: 400}},

		// Methods.
		{Name: "unknown method", Send: req("foo/bar", ""), Want: rpcError(MethodNotFound)},
		{Name: "empty method", Send: req("", ""), Want: rpcError(MethodNotFound)},
		{Name: "method in upper case", Send: req("PING", ""), Want: rpcError(MethodNotFound)},
		{Name: "method with a trailing space", Send: req("ping ", ""), Want: rpcError(MethodNotFound)},
		{Name: "method with NUL and control bytes", Send: rawReq(controls), Want: rpcError(MethodNotFound)},
		{Name: "method of 1 MB", Send: req(mb, ""), Want: rpcError(MethodNotFound)},
		{Name: "method with a lone surrogate", Send: rawReq(`"\ud800"`), Want: rpcError(MethodNotFound)},
		{Name: "method with raw invalid UTF-8", Send: rawReq("\"pi\xffng\""), Want: rpcError(MethodNotFound)},
		{Name: "server-only method", Send: req("sampling/createMessage", `{}`), Want: rpcError(MethodNotFound)},
		{Name: "reserved rpc. method", Send: req("rpc.discover", ""), Want: rpcError(MethodNotFound)},

		// Size and depth.
		{Name: "10 MB message", Send: call(EchoTool, `{"blob":"`+strings.Repeat("y", 10<<20)+`"}`), Want: nullError(InvalidRequest), HTTP: &Want{Code: InvalidRequest, ID: "null", Status: 413}, Slow: true},
		{Name: "100k-deep arrays in params", Send: `{"jsonrpc":"2.0","id":1,"method":"ping","params":` + nest("[", "]", 100000) + `}`, Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		{Name: "100k-deep objects in arguments", Send: call(EchoTool, `{"a":`+nest(`{"a":`, `}`, 100000)+`1}`), Want: nullError(InvalidRequest), HTTP: refused(InvalidRequest, "null")},
		// A batch, and too deep: either error will do.
		{Name: "100k-deep arrays as the message", Send: nest("[", "]", 100000), Want: Want{Code: InvalidRequest, Or: ParseError, ID: "null"}, HTTP: &Want{Code: InvalidRequest, Or: ParseError, ID: "null", Status: 400}},
		{Name: "9000-deep arguments", Send: call(EchoTool, `{"a":`+nest("[", "]", 9000)+`}`), Want: result()},
		// Tool arguments nest at most 1000 levels (a tree node is two: an
		// object and its children array), since the validator's cost for an
		// error n levels down grows with n².
		{Name: "499-deep tree", Send: call("walk_tree", deepTree(499, `{"name":"leaf"}`)), Want: result()},
		{Name: "499-deep tree, invalid at the bottom", Send: call("walk_tree", deepTree(499, `{"name":5}`)), Want: toolError("/root/children/…/children/0/children/0/name: must be a string")},
		{Name: "3000-deep tree", Send: call("walk_tree", deepTree(3000, `{"name":"leaf"}`)), Want: toolError("nests too deeply")},
		{Name: "3000-deep tree, invalid at the bottom", Send: call("walk_tree", deepTree(3000, `{"name":5}`)), Want: toolError("nests too deeply")},
	}

	// Params of the wrong shape, for each method that reads them.
	for _, m := range methodsWithParams {
		cs = append(cs,
			Case{Name: m + " with array params", Send: req(m, `["x"]`), Want: rpcError(InvalidParams)},
			Case{Name: m + " with string params", Send: req(m, `"x"`), Want: rpcError(InvalidParams)},
		)
	}
	cs = append(cs,
		Case{Name: "tools/call with number params", Send: req("tools/call", `5`), Want: rpcError(InvalidParams)},
		Case{Name: "tools/call with null params", Send: req("tools/call", `null`), Want: rpcError(InvalidParams)},
		Case{Name: "tools/call without params", Send: req("tools/call", ""), Want: rpcError(InvalidParams)},
		Case{Name: "resources/read without params", Send: req("resources/read", ""), Want: rpcError(InvalidParams)},
		Case{Name: "prompts/get without params", Send: req("prompts/get", ""), Want: rpcError(InvalidParams)},
		Case{Name: "completion/complete without params", Send: req("completion/complete", ""), Want: rpcError(InvalidParams)},
		// ping takes no params: whatever is there is ignored.
		Case{Name: "ping with array params", Send: req("ping", `[1]`), Want: result()},
		Case{Name: "ping with string params", Send: req("ping", `"x"`), Want: result()},
		Case{Name: "tools/list with null params", Send: req("tools/list", `null`), Want: result()},
		Case{Name: "tools/list with unknown params", Send: req("tools/list", `{"foo":[1,2],"_meta":{"x":1}}`), Want: result()},
	)

	cs = append(cs, []Case{
		// tools/call.
		{Name: "unknown tool", Send: call("no_such_tool", `{}`), Want: rpcError(InvalidParams)},
		{Name: "tool name with NUL and control bytes", Send: req("tools/call", `{"name":`+controls+`,"arguments":{}}`), Want: rpcError(InvalidParams)},
		{Name: "tool name of 1 MB", Send: call(mb, `{}`), Want: rpcError(InvalidParams)},
		{Name: "tool name with raw invalid UTF-8", Send: req("tools/call", "{\"name\":\"reply\xff\",\"arguments\":{}}"), Want: rpcError(InvalidParams)},
		{Name: "tool name missing", Send: req("tools/call", `{"arguments":{}}`), Want: rpcError(InvalidParams)},
		{Name: "tool name as a number", Send: req("tools/call", `{"name":5}`), Want: rpcError(InvalidParams)},
		{Name: "tool name null", Send: req("tools/call", `{"name":null}`), Want: rpcError(InvalidParams)},
		{Name: "arguments as an array", Send: call("reply_to_ticket", `[1,2]`), Want: rpcError(InvalidParams)},
		{Name: "arguments as a string", Send: call("reply_to_ticket", `"id=T-1001"`), Want: rpcError(InvalidParams)},
		{Name: "arguments as a number", Send: call("reply_to_ticket", `1`), Want: rpcError(InvalidParams)},
		{Name: "arguments null", Send: call("reply_to_ticket", `null`), Want: toolError("is required but missing")},
		{Name: "arguments missing", Send: req("tools/call", `{"name":"reply_to_ticket"}`), Want: toolError("is required but missing")},
		{Name: "arguments of the wrong types", Send: call("reply_to_ticket", `{"id":1001,"body":["x"],"idempotency_key":{}}`), Want: toolError("must be a string")},
		{Name: "arguments with an unknown field", Send: call("reply_to_ticket", `{"id":"T-1001","body":"Thanks.","idempotency_key":"6f1c1d2e-8d9b-4f7a-9c1e-2b3a4c5d6e7f","cc":"boss"}`), Want: toolError("unknown property")},
		{Name: "9k unknown fields in arguments", Send: call("reply_to_ticket", manyMembers(9000, `1`)), Want: toolError("more")},
		// Wider objects are refused before any map is built (WithMaxObjectMembers).
		{Name: "10,001 members in arguments", Send: call("reply_to_ticket", manyMembers(10001, `{}`)), Want: Want{Code: InvalidRequest, Contains: "more than 10000 members"}, HTTP: &Want{Code: InvalidRequest, Contains: "more than 10000 members", Status: 400}},
		{Name: "300k members in arguments", Send: call("reply_to_ticket", manyMembers(300000, `{}`)), Want: Want{Code: InvalidRequest, Contains: "more than 10000 members"}, HTTP: &Want{Code: InvalidRequest, Contains: "more than 10000 members", Status: 400}, Slow: true},
		{Name: "150k values in arguments", Send: call("reply_to_ticket", `{"k":[`+strings.Repeat("[],", 150000)+`1]}`), Want: Want{Code: InvalidRequest, Contains: "more than 100000 JSON values"}, HTTP: &Want{Code: InvalidRequest, Contains: "more than 100000 JSON values", Status: 400}},
		{Name: "unknown field beside arguments", Send: req("tools/call", `{"name":"escalate_ticket","arguments":{"id":"T-1002","level":"tier2","reason":"steps to reproduce"},"extra":true}`), Want: result()},
		{Name: "_meta as an array", Send: req("tools/call", `{"name":"reply_to_ticket","arguments":`+validArgs+`,"_meta":[1]}`), Want: rpcError(InvalidParams)},
		{Name: "progressToken as an object", Send: req("tools/call", `{"name":"escalate_ticket","arguments":{"id":"T-1002","level":"tier2","reason":"steps to reproduce"},"_meta":{"progressToken":{"a":1}}}`), Want: result()},
		// A progress token is echoed exactly in every progress notification.
		{Name: "progressToken of 64 KiB", Send: req("tools/call", `{"name":"`+EchoTool+`","arguments":{},"_meta":{"progressToken":"`+strings.Repeat("p", 64<<10)+`"}}`), Want: result()},
		{Name: "progressToken with escapes", Send: req("tools/call", `{"name":"`+EchoTool+`","arguments":{},"_meta":{"progressToken":"a\u0000\ud800\n"}}`), Want: result()},
		{Name: "progressToken of 400 digits", Send: req("tools/call", `{"name":"`+EchoTool+`","arguments":{},"_meta":{"progressToken":1`+strings.Repeat("0", 399)+`}}`), Want: result()},
		{Name: "progressToken 1.5", Send: req("tools/call", `{"name":"`+EchoTool+`","arguments":{},"_meta":{"progressToken":1.5}}`), Want: result()},
		// Raw invalid UTF-8 cannot be echoed in a valid message: no progress
		// notification may carry it (the call itself is answered).
		{Name: "progressToken with raw invalid UTF-8", Send: req("tools/call", "{\"name\":\""+EchoTool+"\",\"arguments\":{},\"_meta\":{\"progressToken\":\"\xff\"}}"), Want: result()},
		{Name: "NUL and controls in a string argument", Send: call("reply_to_ticket", `{"id":`+controls+`,"body":"x","idempotency_key":"6f1c1d2e-8d9b-4f7a-9c1e-2b3a4c5d6e7f"}`), Want: toolError("must match pattern")},
		{Name: "1 MB string argument over maxLength", Send: call("reply_to_ticket", `{"id":"T-1001","body":"`+mb+`","idempotency_key":"6f1c1d2e-8d9b-4f7a-9c1e-2b3a4c5d6e7f"}`), Want: toolError("at most 5000 characters")},
		{Name: "1 MB property name", Send: call("reply_to_ticket", `{"`+mb+`":1}`), Want: toolError("unknown property")},
		{Name: "lone surrogate in a string argument", Send: call("reply_to_ticket", `{"id":"T-1001","body":"\ud800","idempotency_key":"6f1c1d2e-8d9b-4f7a-9c1e-2b3a4c5d6e7f"}`), Want: result()},
		{Name: "integer of 400 digits", Send: call("compute", `{"count":1`+strings.Repeat("0", 399)+`,"percent":5}`), Want: toolError("less than or equal to 1000")},
		{Name: "integer beyond int64 under the maximum", Send: call("compute", `{"count":5,"percent":5,"big":-9223372036854775809}`), Want: toolError("out of range")},
		{Name: "2^53+1 at the maximum", Send: call("compute", `{"count":5,"percent":5,"big":9007199254740993}`), Want: result()},
		{Name: "2^53+2 over the maximum", Send: call("compute", `{"count":5,"percent":5,"big":9007199254740994}`), Want: toolError("less than or equal to 9007199254740993")},
		// Numbers with a fraction or an exponent must fit a float64 (the
		// handler gets one); integral ones are integers (JSON Schema).
		{Name: "number 1e400", Send: call("compute", `{"count":5,"percent":1e400}`), Want: toolError("/percent: is out of range")},
		{Name: "integer written 1e2", Send: call("compute", `{"count":1e2,"percent":5}`), Want: result()},
		{Name: "integer written 5.0", Send: call("compute", `{"count":5.0,"percent":5}`), Want: result()},
		{Name: "number -0", Send: call("compute", `{"count":5,"percent":-0}`), Want: result()},
		{Name: "tiny positive ratio 1e-400", Send: call("compute", `{"count":5,"percent":5,"ratio":1e-400}`), Want: toolError("ratio")},
		{Name: "huge exponent 1e999999", Send: call("compute", `{"count":1e999999,"percent":5}`), Want: toolError("/count: is out of range")},
		{Name: "integer written 0.15e2", Send: call("compute", `{"count":0.15e2,"percent":5}`), Want: result()},
		{Name: "integer written 1500e-2", Send: call("compute", `{"count":1500e-2,"percent":5}`), Want: result()},
		{Name: "integer written 1.5", Send: call("compute", `{"count":1.5,"percent":5}`), Want: toolError("must be an integer")},
		{Name: "tiny negative ratio -1e-400", Send: call("compute", `{"count":5,"percent":5,"ratio":-1e-400}`), Want: toolError("/ratio: is out of range")},
		{Name: "number of 1001 characters", Send: call("compute", `{"count":5,"percent":1.`+strings.Repeat("1", 999)+`}`), Want: toolError("at most 1000 characters")},
		{Name: "integer of 1000 digits", Send: call("compute", `{"count":1`+strings.Repeat("0", 999)+`,"percent":5}`), Want: toolError("less than or equal to 1000")},

		// resources/read, subscribe, unsubscribe.
		{Name: "unknown ticket", Send: read(`"ticket://T-9999"`), Want: Want{Code: ResourceNotFound, Contains: "T-9999"}},
		{Name: "unknown scheme", Send: read(`"nope://x"`), Want: rpcError(ResourceNotFound)},
		{Name: "template variable against its pattern", Send: read(`"ticket://X-1"`), Want: rpcError(ResourceNotFound)},
		{Name: "percent-encoded NUL in a variable", Send: read(`"ticket://T-1%00"`), Want: rpcError(ResourceNotFound)},
		{Name: "percent-encoded invalid UTF-8 in a variable", Send: read(`"ticket://T-1%FF%FE"`), Want: rpcError(ResourceNotFound)},
		{Name: "malformed percent escape", Send: read(`"ticket://T-1%zz"`), Want: rpcError(InvalidParams)},
		{Name: "URI with NUL and control bytes", Send: read(`"customer://ac\u0000me\u001b\n"`), Want: rpcError(InvalidParams)},
		{Name: "URI with raw invalid UTF-8", Send: read("\"customer://\xffacme\""), Want: rpcError(InvalidParams)},
		{Name: "URI with a lone surrogate", Send: read(`"customer://\ud800"`), Want: rpcError(ResourceNotFound)},
		{Name: "relative URI", Send: read(`"acme"`), Want: rpcError(InvalidParams)},
		{Name: "empty URI", Send: read(`""`), Want: rpcError(InvalidParams)},
		{Name: "URI of 1 MB", Send: read(`"ticket://T-` + strings.Repeat("1", 1<<20) + `"`), Want: rpcError(InvalidParams)},
		// URIs matched against templates are bounded (1 KiB, 32 list
		// separators): the template matcher's cost grows with their product.
		{Name: "URI of 1000 bytes", Send: read(`"ticket://T-` + strings.Repeat("1", 1000) + `"`), Want: rpcError(ResourceNotFound)},
		{Name: "URI of 8000 bytes", Send: read(`"ticket://T-` + strings.Repeat("1", 8000) + `"`), Want: Want{Code: InvalidParams, Contains: "at most 1024 bytes"}},
		{Name: "URI with 32 commas", Send: read(`"ticket://T-1` + strings.Repeat(",", 32) + `"`), Want: Want{Code: ResourceNotFound, Contains: "must match pattern"}},
		{Name: "URI with 33 commas", Send: read(`"ticket://T-1` + strings.Repeat(",", 33) + `"`), Want: Want{Code: ResourceNotFound, Contains: "resource not found"}},
		{Name: "URI as a number", Send: read(`5`), Want: rpcError(InvalidParams)},
		{Name: "URI missing", Send: req("resources/read", `{}`), Want: rpcError(InvalidParams)},
		{Name: "resources/read _meta as a string", Send: req("resources/read", `{"uri":"customer://acme","_meta":"x"}`), Want: rpcError(InvalidParams)},
		{Name: "static resource by exact URI", Send: read(`"customer://acme"`), Want: result()},
		{Name: "static resource, other case", Send: read(`"CUSTOMER://ACME"`), Want: rpcError(ResourceNotFound)},
		{Name: "subscribe to an unknown ticket", Send: req("resources/subscribe", `{"uri":"nope://x"}`), Want: rpcError(ResourceNotFound)},
		{Name: "subscribe with NUL in the URI", Send: req("resources/subscribe", `{"uri":"ticket://T-1\u0000"}`), Want: rpcError(InvalidParams)},
		{Name: "subscribe twice", Send: req("resources/subscribe", `{"uri":"ticket://T-1003"}`), Want: result()},
		{Name: "subscribe twice, again", Send: req("resources/subscribe", `{"uri":"ticket://T-1003"}`), Want: result()},
		{Name: "unsubscribe from what was never subscribed", Send: req("resources/unsubscribe", `{"uri":"ticket://T-1016"}`), Want: result()},

		// prompts/get.
		{Name: "unknown prompt", Send: req("prompts/get", `{"name":"nope"}`), Want: rpcError(InvalidParams)},
		{Name: "prompt name with NUL and control bytes", Send: req("prompts/get", `{"name":`+controls+`}`), Want: rpcError(InvalidParams)},
		{Name: "prompt name of 1 MB", Send: req("prompts/get", `{"name":"`+mb+`"}`), Want: rpcError(InvalidParams)},
		{Name: "prompt name as a number", Send: req("prompts/get", `{"name":7}`), Want: rpcError(InvalidParams)},
		{Name: "prompt missing a required argument", Send: req("prompts/get", `{"name":"triage_ticket","arguments":{"ticket_id":"T-1001"}}`), Want: Want{Code: InvalidParams, Contains: "customer"}},
		{Name: "prompt argument as a number", Send: req("prompts/get", `{"name":"draft_reply","arguments":{"ticket_id":1001}}`), Want: rpcError(InvalidParams)},
		{Name: "prompt arguments as an array", Send: req("prompts/get", `{"name":"draft_reply","arguments":["T-1001"]}`), Want: rpcError(InvalidParams)},
		{Name: "prompt argument outside its enum", Send: req("prompts/get", `{"name":"draft_reply","arguments":{"ticket_id":"T-1001","tone":"rude"}}`), Want: rpcError(InvalidParams)},
		{Name: "prompt argument name of 1 MB", Send: req("prompts/get", `{"name":"draft_reply","arguments":{"ticket_id":"T-1001","`+mb+`":"x"}}`), Want: rpcError(InvalidParams)},
		{Name: "9k unknown prompt arguments", Send: req("prompts/get", `{"name":"draft_reply","arguments":`+manyMembers(9000, `"v"`)+`}`), Want: rpcError(InvalidParams)},
		{Name: "prompt argument with NUL and controls", Send: req("prompts/get", `{"name":"draft_reply","arguments":{"ticket_id":`+controls+`}}`), Want: rpcError(InvalidParams)},
		{Name: "declarative prompt embedding a URI built from hostile text", Send: req("prompts/get", `{"name":"triage_ticket","arguments":{"ticket_id":"T-1001/../../etc/passwd","customer":"acme"}}`), Want: rpcError(ResourceNotFound)},
		{Name: "declarative prompt with template syntax in an argument", Send: req("prompts/get", `{"name":"triage_ticket","arguments":{"ticket_id":"{{.customer}}","customer":"{{printf \"%s\" 1}}"}}`), Want: rpcError(ResourceNotFound)},
		{Name: "declarative prompt with a 1 MB argument", Send: req("prompts/get", `{"name":"triage_ticket","arguments":{"ticket_id":"T-`+strings.Repeat("1", 1<<20)+`","customer":"acme"}}`), Want: rpcError(InvalidParams)},

		// completion/complete.
		{Name: "completion with an unknown ref type", Send: req("completion/complete", `{"ref":{"type":"ref/tool","name":"x"},"argument":{"name":"a","value":""}}`), Want: rpcError(InvalidParams)},
		{Name: "completion of an unknown prompt", Send: req("completion/complete", `{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"a","value":""}}`), Want: rpcError(InvalidParams)},
		{Name: "completion of an unknown template", Send: req("completion/complete", `{"ref":{"type":"ref/resource","uri":"nope://{x}"},"argument":{"name":"x","value":""}}`), Want: rpcError(InvalidParams)},
		{Name: "completion without argument", Send: req("completion/complete", `{"ref":{"type":"ref/prompt","name":"draft_reply"}}`), Want: rpcError(InvalidParams)},
		{Name: "completion with ref as a string", Send: req("completion/complete", `{"ref":"ref/prompt","argument":{"name":"tone","value":""}}`), Want: rpcError(InvalidParams)},
		{Name: "completion context with a number", Send: req("completion/complete", `{"ref":{"type":"ref/prompt","name":"triage_ticket"},"argument":{"name":"customer","value":""},"context":{"arguments":{"ticket_id":5}}}`), Want: rpcError(InvalidParams)},
		{Name: "completion of a 1 MB value", Send: req("completion/complete", `{"ref":{"type":"ref/resource","uri":"ticket://{id}"},"argument":{"name":"id","value":"`+mb+`"}}`), Want: result()},
		{Name: "completion of an argument name with controls", Send: req("completion/complete", `{"ref":{"type":"ref/prompt","name":"draft_reply"},"argument":{"name":`+controls+`,"value":""}}`), Want: rpcError(InvalidParams)},

		// logging/setLevel and pagination.
		{Name: "unknown log level", Send: req("logging/setLevel", `{"level":"verbose"}`), Want: rpcError(InvalidParams)},
		{Name: "log level as a number", Send: req("logging/setLevel", `{"level":7}`), Want: rpcError(InvalidParams)},
		{Name: "garbage cursor", Send: req("tools/list", `{"cursor":"not-a-cursor"}`), Want: rpcError(InvalidParams)},
		{Name: "cursor of 1 MB", Send: req("prompts/list", `{"cursor":"`+mb+`"}`), Want: rpcError(InvalidParams)},
		{Name: "cursor as a number", Send: req("resources/list", `{"cursor":5}`), Want: rpcError(InvalidParams)},

		// The lifecycle, on an initialized connection.
		{Name: "second initialize", Send: req("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"again","version":"1"}}`), Want: rpcError(InvalidRequest)},
		{Name: "notifications/initialized again", Send: notif("notifications/initialized", ""), Want: ignored()},
		{Name: "notification with an id", Send: req("notifications/initialized", ""), Want: rpcError(MethodNotFound)},
		{Name: "notifications/cancelled with an id", Send: req("notifications/cancelled", `{"requestId":1}`), Want: rpcError(MethodNotFound)},
		{Name: "unknown notification", Send: notif("notifications/whatever", `{"x":1}`), Want: ignored()},
		{Name: "ping as a notification", Send: notif("ping", ""), Want: ignored()},
		{Name: "tools/call as a notification", Send: `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"reply_to_ticket","arguments":` + validArgs + `}}`, Want: ignored()},
		{Name: "notification with a 1 MB method", Send: notif(mb, ""), Want: ignored()},
		{Name: "notification with array params", Send: notif("notifications/initialized", `[1]`), Want: ignored()},
		{Name: "cancel an unknown request", Send: notif("notifications/cancelled", `{"requestId":424242,"reason":"x"}`), Want: ignored()},
		{Name: "cancel a finished request", Send: notif("notifications/cancelled", `{"requestId":1}`), Want: ignored()},
		{Name: "cancel with a null requestId", Send: notif("notifications/cancelled", `{"requestId":null}`), Want: ignored()},
		{Name: "cancel with an object requestId", Send: notif("notifications/cancelled", `{"requestId":{"id":1}}`), Want: ignored()},
		{Name: "cancel without params", Send: notif("notifications/cancelled", ""), Want: ignored()},
		{Name: "cancel with string params", Send: notif("notifications/cancelled", `"1"`), Want: ignored()},
		{Name: "stray result", Send: `{"jsonrpc":"2.0","id":99,"result":{}}`, Want: ignored()},
		{Name: "stray error", Send: `{"jsonrpc":"2.0","id":"srv-1","error":{"code":-1,"message":"no"}}`, Want: ignored()},
		{Name: "stray response with a null id", Send: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, Want: ignored()},
		{Name: "stray response with an object id", Send: `{"jsonrpc":"2.0","id":{},"result":{}}`, Want: ignored()},
		{Name: "stray response with result and error", Send: `{"jsonrpc":"2.0","id":5,"result":{},"error":{"code":1,"message":"x"}}`, Want: ignored()},
		{Name: "stray response without jsonrpc", Send: `{"id":5,"result":{}}`, Want: ignored()},
		{Name: "stray response with a 1 MB result", Send: `{"jsonrpc":"2.0","id":5,"result":{"x":"` + mb + `"}}`, Want: ignored()},

		// A connection that has not initialized.
		{Name: "tools/list before initialize", Send: req("tools/list", ""), Fresh: true, Want: rpcError(InvalidRequest), HTTP: refused(InvalidRequest, "1")},
		{Name: "tools/call before initialize", Send: call("reply_to_ticket", validArgs), Fresh: true, Want: rpcError(InvalidRequest), HTTP: refused(InvalidRequest, "1")},
		{Name: "ping before initialize", Send: req("ping", ""), Fresh: true, Want: result(), HTTP: refused(InvalidRequest, "1")},
		{Name: "initialize without protocolVersion", Send: req("initialize", `{"capabilities":{},"clientInfo":{"name":"x","version":"1"}}`), Fresh: true, Want: rpcError(InvalidParams)},
		{Name: "initialize with protocolVersion as a number", Send: req("initialize", `{"protocolVersion":20251125}`), Fresh: true, Want: rpcError(InvalidParams)},
		{Name: "initialize with an unknown version", Send: req("initialize", `{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`), Fresh: true, Want: Want{Contains: `"protocolVersion":"2025-11-25"`}},
		{Name: "initialize with hostile clientInfo", Send: req("initialize", `{"protocolVersion":"2025-11-25","capabilities":[1],"clientInfo":{"name":`+controls+`,"version":5}}`), Fresh: true, Want: result()},
		{Name: "initialize with a 1 MB version", Send: req("initialize", `{"protocolVersion":"`+mb+`","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`), Fresh: true, Want: Want{Contains: `"protocolVersion":"2025-11-25"`}},
		{Name: "stray response before initialize", Send: `{"jsonrpc":"2.0","id":1,"result":{}}`, Fresh: true, Want: ignored(), HTTP: &Want{Code: InvalidRequest, ID: "null", Status: 400}},
		{Name: "notification before initialize", Send: notif("notifications/cancelled", `{"requestId":1}`), Fresh: true, Want: ignored(), HTTP: &Want{Code: InvalidRequest, ID: "null", Status: 400}},
	}...)
	return append(cs, taskCases()...)
}

// taskCases are hostile uses of tasks (2025-11-25): forged, foreign and
// malformed task ids, a huge ttl, task params on a tool that forbids them.
// A task another caller owns looks exactly like one that does not exist,
// so a forged id stands for both. build_report takes tasks; echo does not.
func taskCases() []Case {
	get := func(id string) string { return req("tasks/get", `{"taskId":`+id+`}`) }
	return []Case{
		{Name: "tasks/get of a forged id", Send: get(`"../../etc/passwd"`), Want: Want{Code: InvalidParams, Contains: "unknown task"}},
		{Name: "tasks/get of a 1 MB id", Send: get(`"` + mb + `"`), Want: rpcError(InvalidParams)},
		{Name: "tasks/get of an id with control bytes", Send: get(controls), Want: rpcError(InvalidParams)},
		{Name: "tasks/get of a number id", Send: get(`12`), Want: rpcError(InvalidParams)},
		{Name: "tasks/get of a null id", Send: get(`null`), Want: rpcError(InvalidParams)},
		{Name: "tasks/get without params", Send: req("tasks/get", ""), Want: rpcError(InvalidParams)},
		{Name: "tasks/get with array params", Send: req("tasks/get", `["x"]`), Want: rpcError(InvalidParams)},
		{Name: "tasks/cancel of a forged id", Send: req("tasks/cancel", `{"taskId":"AAAAAAAAAAAAAAAAAAAAAAAAAA"}`), Want: rpcError(InvalidParams)},
		{Name: "tasks/result of a forged id", Send: req("tasks/result", `{"taskId":"AAAAAAAAAAAAAAAAAAAAAAAAAA"}`), Want: rpcError(InvalidParams)},
		{Name: "tasks/list with a forged cursor", Send: req("tasks/list", `{"cursor":"../../etc"}`), Want: Want{Code: InvalidParams, Contains: "invalid cursor"}},
		{Name: "tasks/list with a number cursor", Send: req("tasks/list", `{"cursor":5}`), Want: rpcError(InvalidParams)},
		{Name: "tools/call with a huge task ttl", Send: req("tools/call", `{"name":"build_report","arguments":{},"task":{"ttl":9007199254740991}}`), Want: Want{Contains: `"ttl":86400000`}, Legacy: true},
		{Name: "tools/call with a negative task ttl", Send: req("tools/call", `{"name":"build_report","arguments":{},"task":{"ttl":-1}}`), Want: rpcError(InvalidParams), Legacy: true},
		{Name: "tools/call with a string task", Send: req("tools/call", `{"name":"build_report","arguments":{},"task":"now"}`), Want: rpcError(InvalidParams), Legacy: true},
		{Name: "tools/call with a task on a tool that forbids them", Send: req("tools/call", `{"name":"`+EchoTool+`","arguments":{},"task":{}}`), Want: rpcError(MethodNotFound), Legacy: true},
	}
}

// manyMembers is an object of n members "k0"…, each with value v.
func manyMembers(n int, v string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":` + v)
	}
	b.WriteByte('}')
	return b.String()
}
