package otelmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime"
)

// pointKey writes a data point's attributes as sorted k=v text.
func pointKey(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, " ")
}

// histogramPoints is name's data points: attribute text → count.
func histogramPoints(t *testing.T, reader *sdkmetric.ManualReader, name string) map[string]uint64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != ScopeName {
			continue
		}
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok {
				t.Fatalf("%s is a %T", name, m.Data)
			}
			if m.Unit != "s" {
				t.Errorf("%s: unit %q, want s", name, m.Unit)
			}
			for _, dp := range h.DataPoints {
				kv := map[string]string{}
				for _, a := range dp.Attributes.ToSlice() {
					kv[string(a.Key)] = a.Value.Emit()
				}
				out[pointKey(kv)] += dp.Count
				// The conventions' boundaries, written out.
				if !slices.Equal(dp.Bounds, []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}) {
					t.Errorf("%s: bounds %v", name, dp.Bounds)
				}
			}
		}
	}
	return out
}

// TestInterceptorExact: through the interceptor, each kind of request's
// one SERVER span (exact name, attributes, status) and the operation
// duration's data point (exactly the shared attributes and the outcome:
// never an id, session or URI), on stdio, HTTP/1.1 and HTTP/2 alike, one
// route after another.
func TestInterceptorExact(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	in := New(WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))), WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	const v = "2025-11-25"
	http11 := func(r runtime.Request) runtime.Request {
		r.Transport, r.HTTPVersion, r.ProtocolVersion, r.SessionID = runtime.TransportHTTP, "1.1", v, "sess-1"
		return r
	}
	http2 := func(r runtime.Request) runtime.Request {
		r = http11(r)
		r.HTTPVersion = "2"
		return r
	}
	stdio := func(r runtime.Request) runtime.Request {
		r.Transport, r.ProtocolVersion = runtime.TransportStdio, v
		return r
	}
	ok := func(context.Context) (runtime.Result, error) { return &runtime.CallToolResult{}, nil }
	http11Attrs := map[string]string{"mcp.protocol.version": v, "network.transport": "tcp", "network.protocol.name": "http", "network.protocol.version": "1.1"}
	http2Attrs := map[string]string{"mcp.protocol.version": v, "network.transport": "tcp", "network.protocol.name": "http", "network.protocol.version": "2"}
	stdioAttrs := map[string]string{"mcp.protocol.version": v, "network.transport": "pipe"}
	with := func(a map[string]string, more ...string) map[string]string {
		out := maps.Clone(a)
		for i := 0; i < len(more); i += 2 {
			out[more[i]] = more[i+1]
		}
		return out
	}
	for i, tc := range []struct {
		req    runtime.Request
		next   func(context.Context) (runtime.Result, error)
		name   string
		span   map[string]string
		metric map[string]string
		status codes.Code
		desc   string
	}{
		{http11(runtime.Request{Method: "tools/call", Target: "echo", ID: json.RawMessage(`"r-1"`)}), ok, "tools/call echo",
			with(http11Attrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "echo", "gen_ai.operation.name", "execute_tool", "jsonrpc.request.id", "r-1", "mcp.session.id", "sess-1"),
			with(http11Attrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "echo", "gen_ai.operation.name", "execute_tool"), codes.Unset, ""},
		{http2(runtime.Request{Method: "tools/call", Target: "echo", ID: json.RawMessage(`2`)}), ok, "tools/call echo",
			with(http2Attrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "echo", "gen_ai.operation.name", "execute_tool", "jsonrpc.request.id", "2", "mcp.session.id", "sess-1"),
			with(http2Attrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "echo", "gen_ai.operation.name", "execute_tool"), codes.Unset, ""},
		{stdio(runtime.Request{Method: "tools/call", Target: "echo", ID: json.RawMessage(`3`)}), ok, "tools/call echo",
			with(stdioAttrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "echo", "gen_ai.operation.name", "execute_tool", "jsonrpc.request.id", "3"),
			with(stdioAttrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "echo", "gen_ai.operation.name", "execute_tool"), codes.Unset, ""},
		{http11(runtime.Request{Method: "resources/read", Target: "test://r/1?a=b", ID: json.RawMessage(`4`)}), ok, "resources/read",
			with(http11Attrs, "mcp.method.name", "resources/read", "mcp.resource.uri", "test://r/1?a=b", "jsonrpc.request.id", "4", "mcp.session.id", "sess-1"),
			with(http11Attrs, "mcp.method.name", "resources/read"), codes.Unset, ""},
		{http2(runtime.Request{Method: "prompts/get", Target: "greet", ID: json.RawMessage(`5`)}), ok, "prompts/get greet",
			with(http2Attrs, "mcp.method.name", "prompts/get", "gen_ai.prompt.name", "greet", "jsonrpc.request.id", "5", "mcp.session.id", "sess-1"),
			with(http2Attrs, "mcp.method.name", "prompts/get", "gen_ai.prompt.name", "greet"), codes.Unset, ""},
		{stdio(runtime.Request{Method: "notifications/initialized"}), func(context.Context) (runtime.Result, error) { return nil, nil }, "notifications/initialized",
			with(stdioAttrs, "mcp.method.name", "notifications/initialized"),
			with(stdioAttrs, "mcp.method.name", "notifications/initialized"), codes.Unset, ""},
		{http11(runtime.Request{Method: "tools/call", Target: "fails", ID: json.RawMessage(`6`)}), func(context.Context) (runtime.Result, error) {
			return &runtime.CallToolResult{IsError: true, Content: []runtime.Content{runtime.TextContent{Text: "the ledger is closed"}}}, nil
		}, "tools/call fails",
			with(http11Attrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "fails", "gen_ai.operation.name", "execute_tool", "jsonrpc.request.id", "6", "mcp.session.id", "sess-1", "error.type", "tool_error"),
			with(http11Attrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "fails", "gen_ai.operation.name", "execute_tool", "error.type", "tool_error"), codes.Error, "the ledger is closed"},
		{http2(runtime.Request{Method: "tools/call", Target: "nope", ID: json.RawMessage(`7`)}), func(context.Context) (runtime.Result, error) {
			return nil, &runtime.Error{Code: -32602, Message: "unknown tool"}
		}, "tools/call nope",
			with(http2Attrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "nope", "gen_ai.operation.name", "execute_tool", "jsonrpc.request.id", "7", "mcp.session.id", "sess-1", "error.type", "-32602", "rpc.response.status_code", "-32602"),
			with(http2Attrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "nope", "gen_ai.operation.name", "execute_tool", "error.type", "-32602", "rpc.response.status_code", "-32602"), codes.Error, (&runtime.Error{Code: -32602, Message: "unknown tool"}).Error()},
		// The same route failing with another code: a point of its own.
		{http2(runtime.Request{Method: "tools/call", Target: "nope", ID: json.RawMessage(`10`)}), func(context.Context) (runtime.Result, error) {
			return nil, &runtime.Error{Code: -32603, Message: "internal"}
		}, "tools/call nope",
			with(http2Attrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "nope", "gen_ai.operation.name", "execute_tool", "jsonrpc.request.id", "10", "mcp.session.id", "sess-1", "error.type", "-32603", "rpc.response.status_code", "-32603"),
			with(http2Attrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "nope", "gen_ai.operation.name", "execute_tool", "error.type", "-32603", "rpc.response.status_code", "-32603"), codes.Error, ""},
		{stdio(runtime.Request{Method: "no/such", ID: json.RawMessage(`8`), Refused: true}), func(context.Context) (runtime.Result, error) {
			return nil, &runtime.Error{Code: -32601, Message: "method not found"}
		}, "_OTHER",
			with(stdioAttrs, "mcp.method.name", "_OTHER", "jsonrpc.request.id", "8", "error.type", "-32601", "rpc.response.status_code", "-32601"),
			with(stdioAttrs, "mcp.method.name", "_OTHER", "error.type", "-32601", "rpc.response.status_code", "-32601"), codes.Error, ""},
		{http11(runtime.Request{Method: "resources/subscribe", ID: json.RawMessage(`9`), Params: json.RawMessage(`{"uri":"test://s"}`)}), func(context.Context) (runtime.Result, error) {
			return nil, errors.New("store down")
		}, "resources/subscribe",
			with(http11Attrs, "mcp.method.name", "resources/subscribe", "mcp.resource.uri", "test://s", "jsonrpc.request.id", "9", "mcp.session.id", "sess-1", "error.type", "_OTHER"),
			with(http11Attrs, "mcp.method.name", "resources/subscribe", "error.type", "_OTHER"), codes.Error, "store down"},
	} {
		before := len(spans.Ended())
		pointsBefore := histogramPoints(t, reader, "mcp.server.operation.duration")
		req := tc.req
		handler := in.Interceptor(func(ctx context.Context, _ *runtime.Request) (runtime.Result, error) { return tc.next(ctx) })
		handler(context.Background(), &req)
		ended := spans.Ended()
		if len(ended) != before+1 {
			t.Fatalf("%d: %d spans ended, want 1", i, len(ended)-before)
		}
		s := ended[len(ended)-1]
		got := attrMap(s.Attributes())
		if s.Name() != tc.name || s.SpanKind() != trace.SpanKindServer || !sameMap(got, tc.span) || s.Status().Code != tc.status || tc.desc != "" && s.Status().Description != tc.desc {
			t.Errorf("%d: span %q kind %v %v status %v %q\nwant %q %v status %v %q", i, s.Name(), s.SpanKind(), got, s.Status().Code, s.Status().Description, tc.name, tc.span, tc.status, tc.desc)
		}
		if s.InstrumentationScope().Name != ScopeName {
			t.Errorf("%d: scope %q", i, s.InstrumentationScope().Name)
		}
		points := histogramPoints(t, reader, "mcp.server.operation.duration")
		key := pointKey(tc.metric)
		if points[key] != pointsBefore[key]+1 {
			t.Errorf("%d: no new point at %s; points %v", i, key, points)
		}
		var total, totalBefore uint64
		for _, n := range points {
			total += n
		}
		for _, n := range pointsBefore {
			totalBefore += n
		}
		if total != totalBefore+1 {
			t.Errorf("%d: %d points recorded, want 1", i, total-totalBefore)
		}
	}
	// Ten calls of one route: one data point, counting ten.
	for n := range 10 {
		req := http2(runtime.Request{Method: "tools/call", Target: "many", ID: json.RawMessage(fmt.Sprint(n))})
		in.Interceptor(func(context.Context, *runtime.Request) (runtime.Result, error) { return &runtime.CallToolResult{}, nil })(context.Background(), &req)
	}
	key := pointKey(with(http2Attrs, "mcp.method.name", "tools/call", "gen_ai.tool.name", "many", "gen_ai.operation.name", "execute_tool"))
	if got := histogramPoints(t, reader, "mcp.server.operation.duration")[key]; got != 10 {
		t.Errorf("ten calls of one route: count %d at %s", got, key)
	}
}

// TestSessionHookExact: a session's duration point has exactly its
// protocol version and transport attributes.
func TestSessionHookExact(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	in := New(WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	in.SessionHook(runtime.SessionInfo{ID: "s", ProtocolVersion: "2025-06-18", Transport: runtime.TransportHTTP, HTTPVersion: "2"})()
	in.SessionHook(runtime.SessionInfo{ID: "s2", ProtocolVersion: "2025-06-18", Transport: runtime.TransportHTTP, HTTPVersion: "1.1"})()
	in.SessionHook(runtime.SessionInfo{ProtocolVersion: "2025-11-25", Transport: runtime.TransportStdio})()
	in.SessionHook(runtime.SessionInfo{ProtocolVersion: "2025-11-25", Transport: runtime.TransportStdio})()
	want := map[string]uint64{
		"mcp.protocol.version=2025-06-18 network.protocol.name=http network.protocol.version=2 network.transport=tcp":   1,
		"mcp.protocol.version=2025-06-18 network.protocol.name=http network.protocol.version=1.1 network.transport=tcp": 1,
		"mcp.protocol.version=2025-11-25 network.transport=pipe":                                                        2,
	}
	if got := histogramPoints(t, reader, "mcp.server.session.duration"); !maps.Equal(got, want) {
		t.Errorf("session points %v, want %v", got, want)
	}
}
