package otelmcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime"
)

func attrMap(kvs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestSpanNamesAndAttributes: the span name is "{method} {target}" for a
// tool or prompt only, _OTHER for a refused unknown method (never for a
// known one, never when not refused); the attributes the span and the
// metric share are exactly the conventions' for each method, version and
// transport.
func TestSpanNamesAndAttributes(t *testing.T) {
	for _, tc := range []struct {
		req   runtime.Request
		name  string
		attrs map[string]string
	}{
		{runtime.Request{Method: "tools/call", Target: "search", ProtocolVersion: "2025-11-25", Transport: runtime.TransportStdio}, "tools/call search",
			map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "search", "gen_ai.operation.name": "execute_tool", "mcp.protocol.version": "2025-11-25", "network.transport": "pipe"}},
		{runtime.Request{Method: "tools/call", Transport: runtime.TransportHTTP}, "tools/call",
			map[string]string{"mcp.method.name": "tools/call", "gen_ai.operation.name": "execute_tool", "network.transport": "tcp", "network.protocol.name": "http"}},
		{runtime.Request{Method: "prompts/get", Target: "p", Transport: runtime.TransportHTTP, HTTPVersion: "2"}, "prompts/get p",
			map[string]string{"mcp.method.name": "prompts/get", "gen_ai.prompt.name": "p", "network.transport": "tcp", "network.protocol.name": "http", "network.protocol.version": "2"}},
		{runtime.Request{Method: "prompts/get"}, "prompts/get", map[string]string{"mcp.method.name": "prompts/get"}},
		{runtime.Request{Method: "resources/read", Target: "test://r/1", HTTPVersion: "1.1"}, "resources/read", map[string]string{"mcp.method.name": "resources/read"}},
		{runtime.Request{Method: "completion/complete", Target: "x"}, "completion/complete", map[string]string{"mcp.method.name": "completion/complete"}},
		{runtime.Request{Method: "no/such", Refused: true}, "_OTHER", map[string]string{"mcp.method.name": "_OTHER"}},
		{runtime.Request{Method: "tools/list", Refused: true}, "tools/list", map[string]string{"mcp.method.name": "tools/list"}},
		{runtime.Request{Method: "no/such"}, "no/such", map[string]string{"mcp.method.name": "no/such"}},
	} {
		if got := spanName(&tc.req); got != tc.name {
			t.Errorf("%+v: span name %q, want %q", tc.req, got, tc.name)
		}
		if got := attrMap(commonAttributes(nil, &tc.req)); !sameMap(got, tc.attrs) {
			t.Errorf("%+v: attributes %v, want %v", tc.req, got, tc.attrs)
		}
		in := New()
		if r := in.route(&tc.req); r.name != tc.name || !sameMap(attrMap(r.attrs), tc.attrs) {
			t.Errorf("%+v: route %q %v", tc.req, r.name, attrMap(r.attrs))
		}
	}
}

// TestRoutesApart: calls that differ in method, target (of a tool or
// prompt), protocol version, transport or HTTP version get routes of their
// own attributes, whatever was cached before.
func TestRoutesApart(t *testing.T) {
	in := New()
	reqs := []runtime.Request{
		{Method: "tools/call", Target: "a", ProtocolVersion: "v1", Transport: runtime.TransportHTTP, HTTPVersion: "1.1"},
		{Method: "tools/call", Target: "b", ProtocolVersion: "v1", Transport: runtime.TransportHTTP, HTTPVersion: "1.1"},
		{Method: "prompts/get", Target: "a", ProtocolVersion: "v1", Transport: runtime.TransportHTTP, HTTPVersion: "1.1"},
		{Method: "tools/call", Target: "a", ProtocolVersion: "v2", Transport: runtime.TransportHTTP, HTTPVersion: "1.1"},
		{Method: "tools/call", Target: "a", ProtocolVersion: "v1", Transport: runtime.TransportStdio},
		{Method: "tools/call", Target: "a", ProtocolVersion: "v1", Transport: runtime.TransportHTTP, HTTPVersion: "2"},
	}
	for round := range 2 {
		for _, req := range reqs {
			r := in.route(&req)
			if want := attrMap(commonAttributes(nil, &req)); r.name != spanName(&req) || !sameMap(attrMap(r.attrs), want) {
				t.Errorf("round %d, %+v: route %q %v, want %q %v", round, req, r.name, attrMap(r.attrs), spanName(&req), want)
			}
		}
	}
	r := in.route(&reqs[0])
	a := in.failed(r, []attribute.KeyValue{attribute.String("error.type", "tool_error")})
	b := in.failed(r, []attribute.KeyValue{attribute.String("error.type", "-32602")})
	if a == b {
		t.Error("two outcomes share one record option")
	}
}

// TestOutcomes: what a failure records, in order of precedence: a
// JSON-RPC error (its code, as status and type), any other error (_OTHER),
// a cancelled request, an isError result (tool_error); and its status
// description.
func TestOutcomes(t *testing.T) {
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	live := context.Background()
	call := &runtime.Request{Method: "tools/call", ID: json.RawMessage(`1`)}
	rpcErr := &runtime.Error{Code: -32602, Message: "bad params"}
	toolErr := &runtime.CallToolResult{IsError: true, Content: []runtime.Content{runtime.ImageContent{MimeType: "image/png"}, runtime.TextContent{Text: "no such order"}, runtime.TextContent{Text: "second"}}}
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		res    runtime.Result
		err    error
		attrs  map[string]string
		status string
	}{
		{"a JSON-RPC error", live, nil, rpcErr, map[string]string{"rpc.response.status_code": "-32602", "error.type": "-32602"}, rpcErr.Error()},
		{"a wrapped JSON-RPC error, cancelled too", ended, nil, errors.Join(errors.New("x"), rpcErr), map[string]string{"rpc.response.status_code": "-32602", "error.type": "-32602"}, ""},
		{"another error", live, nil, errors.New("boom"), map[string]string{"error.type": "_OTHER"}, "boom"},
		{"cancelled, with a tool error", ended, toolErr, nil, map[string]string{"error.type": "cancelled"}, "cancelled: context canceled"},
		{"a tool error", live, toolErr, nil, map[string]string{"error.type": "tool_error"}, "no such order"},
		{"a tool error without text", live, &runtime.CallToolResult{IsError: true}, nil, map[string]string{"error.type": "tool_error"}, "tool_error"},
		{"a success", live, &runtime.CallToolResult{}, nil, map[string]string{}, ""},
	} {
		got := outcomeAttributes(tc.ctx, call, tc.res, tc.err)
		if !sameMap(attrMap(got), tc.attrs) {
			t.Errorf("%s: %v, want %v", tc.name, attrMap(got), tc.attrs)
		}
		if tc.status != "" {
			if s := statusDescription(tc.ctx, tc.res, tc.err); s != tc.status {
				t.Errorf("%s: status %q, want %q", tc.name, s, tc.status)
			}
		}
	}
}

// TestRequestIDs: a string id unquoted (also with JSON's own escapes), a
// number as written.
func TestRequestIDs(t *testing.T) {
	for id, want := range map[string]string{`7`: "7", `-1.5`: "-1.5", `"abc"`: "abc", `"a\/b"`: "a/b", `"\u00e9"`: "é", `""`: "", `"a\"b"`: `a"b`} {
		if got := requestID(json.RawMessage(id)); got != want {
			t.Errorf("requestID(%s) = %q, want %q", id, got, want)
		}
	}
	attrs := attrMap(spanAttributes(nil, &runtime.Request{Method: "resources/subscribe", ID: json.RawMessage(`"x"`), SessionID: "s1", Params: json.RawMessage(`{"uri":"test://u"}`)}))
	if !sameMap(attrs, map[string]string{"jsonrpc.request.id": "x", "mcp.session.id": "s1", "mcp.resource.uri": "test://u"}) {
		t.Errorf("span attributes %v", attrs)
	}
	if attrs := attrMap(spanAttributes(nil, &runtime.Request{Method: "notifications/initialized"})); len(attrs) != 0 {
		t.Errorf("a notification without a session: %v", attrs)
	}
}

// TestParentPrecedence: _meta's trace context wins over the headers' (and
// links them when they name another trace, not when the same), the
// headers' over the context's; a _meta without traceparent (or with a bad
// one) is no parent.
func TestParentPrecedence(t *testing.T) {
	in := New(WithPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})))
	const (
		metaTrace   = "0af7651916cd43dd8448eb211c80319c"
		headerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
		ctxTrace    = "11111111111111111111111111111111"
	)
	tp := func(trace string) string { return "00-" + trace + "-b7ad6b7169203331-01" }
	tid, _ := trace.TraceIDFromHex(ctxTrace)
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	base := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: 1}))
	header := http.Header{"Traceparent": {tp(headerTrace)}}
	for _, tc := range []struct {
		name   string
		params string
		header http.Header
		parent string
		link   string
	}{
		{"meta over headers", `{"_meta":{"traceparent":"` + tp(metaTrace) + `"}}`, header, metaTrace, headerTrace},
		{"meta and headers alike", `{"_meta":{"traceparent":"` + tp(metaTrace) + `"}}`, http.Header{"Traceparent": {tp(metaTrace)}}, metaTrace, ""},
		{"meta alone", `{"_meta":{"traceparent":"` + tp(metaTrace) + `"}}`, nil, metaTrace, ""},
		{"a bad traceparent in meta", `{"_meta":{"traceparent":"00-zz-yy-01"}}`, header, headerTrace, ""},
		{"baggage alone in meta", `{"_meta":{"baggage":"k=v"}}`, header, headerTrace, ""},
		{"baggage alone in meta, no headers", `{"_meta":{"baggage":"k=v"}}`, nil, ctxTrace, ""},
		{"meta without traceparent", `{"_meta":{"tracestate":"a=b"}}`, header, headerTrace, ""},
		{"no meta", `{}`, header, headerTrace, ""},
		{"nothing", `{}`, nil, ctxTrace, ""},
	} {
		req := &runtime.Request{Method: "tools/call", Params: json.RawMessage(tc.params), Header: tc.header}
		ctx, link := in.parent(base, req)
		if got := trace.SpanContextFromContext(ctx).TraceID().String(); got != tc.parent {
			t.Errorf("%s: parent trace %s, want %s", tc.name, got, tc.parent)
		}
		if got := link.TraceID().String(); (tc.link == "" && link.IsValid()) || (tc.link != "" && got != tc.link) {
			t.Errorf("%s: link %s (valid %v), want %q", tc.name, got, link.IsValid(), tc.link)
		}
	}
	for meta, want := range map[string]map[string]string{
		`{"traceparent":"tp","tracestate":"ts","baggage":"b"}`: {"traceparent": "tp", "tracestate": "ts", "baggage": "b"},
		`{"baggage":"b"}`:     {"baggage": "b"},
		`{"tracestate":"ts"}`: nil,
		`{"x":1}`:             nil,
		`[1]`:                 nil,
	} {
		got := metaCarrier(json.RawMessage(meta))
		if (want == nil) != (got == nil) || !sameMap(map[string]string(got), want) {
			t.Errorf("metaCarrier(%s) = %v, want %v", meta, got, want)
		}
	}
}
