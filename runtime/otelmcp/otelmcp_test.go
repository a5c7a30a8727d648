package otelmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
)

const wait = 10 * time.Second // a guard against hangs, not a timing assertion

// telemetry is an instrumented server's in-memory exporters.
type telemetry struct {
	spans   *tracetest.SpanRecorder
	metrics *sdkmetric.ManualReader
}

func newTelemetry() (*telemetry, []runtime.Option) {
	tel := &telemetry{spans: tracetest.NewSpanRecorder(), metrics: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tel.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(tel.metrics))
	props := propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	return tel, otelmcp.Options(otelmcp.WithTracerProvider(tp), otelmcp.WithMeterProvider(mp), otelmcp.WithPropagator(props))
}

// span returns the one ended span named name, failing unless there is
// exactly one.
func (tel *telemetry) span(t *testing.T, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	var found []sdktrace.ReadOnlySpan
	deadline := time.Now().Add(wait)
	for len(found) == 0 && time.Now().Before(deadline) {
		for _, s := range tel.spans.Ended() {
			if s.Name() == name {
				found = append(found, s)
			}
		}
		if len(found) == 0 {
			time.Sleep(time.Millisecond) // a notification's span ends after the client moved on
		}
	}
	if len(found) != 1 {
		var names []string
		for _, s := range tel.spans.Ended() {
			names = append(names, s.Name())
		}
		t.Fatalf("%d spans named %q; ended: %q", len(found), name, names)
	}
	return found[0]
}

// attrs checks a span's attributes: exactly want (as strings).
func attrs(t *testing.T, s sdktrace.ReadOnlySpan, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, kv := range s.Attributes() {
		got[string(kv.Key)] = kv.Value.Emit()
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("span %q: %s = %q, want %q", s.Name(), k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("span %q: unexpected attribute %s = %q", s.Name(), k, v)
		}
	}
	if s.SpanKind() != trace.SpanKindServer {
		t.Errorf("span %q: kind %v", s.Name(), s.SpanKind())
	}
}

func testServer(opts ...runtime.Option) *runtime.Server {
	srv := runtime.NewServer(runtime.Implementation{Name: "otel-test", Version: "1"}, opts...)
	srv.AddTool(runtime.Tool{Name: "echo", Handler: func(_ context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return runtime.TextResult(string(req.Arguments)), nil
	}})
	srv.AddTool(runtime.Tool{Name: "fails", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return nil, fmt.Errorf("the ledger is closed")
	}})
	srv.AddTool(runtime.Tool{Name: "slow", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}})
	srv.AddTool(runtime.Tool{Name: "span", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		sc := trace.SpanContextFromContext(ctx)
		return runtime.TextResult(sc.TraceID().String() + " " + sc.SpanID().String()), nil
	}})
	srv.AddResource(runtime.Resource{URI: "test://a", Name: "a", Handler: func(_ context.Context, req *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return &runtime.ReadResourceResult{Contents: []runtime.ResourceContents{{URI: req.URI, Text: "A"}}}, nil
	}})
	srv.AddPrompt(runtime.Prompt{Name: "greet", Arguments: []runtime.PromptArgument{{Name: "who", Enum: []string{"world", "you"}}},
		Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
			return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{{Role: "user", Content: runtime.TextContent{Text: "hi"}}}}, nil
		}})
	return srv
}

// stdioPeer drives ServeStdio through pipes.
type stdioPeer struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
}

func serveStdio(t *testing.T, srv *runtime.Server) *stdioPeer {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		srv.ServeStdio(ctx, inR, outW)
		outW.Close()
		close(done)
	}()
	p := &stdioPeer{t: t, in: inW, lines: make(chan string, 100)}
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		<-done
	})
	return p
}

func (p *stdioPeer) send(msg string) {
	if _, err := io.WriteString(p.in, msg+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// call sends a request and returns its response.
func (p *stdioPeer) call(msg string) string {
	p.t.Helper()
	p.send(msg)
	select {
	case l := <-p.lines:
		return l
	case <-time.After(wait):
		p.t.Fatalf("no response to %s", msg)
	}
	return ""
}

const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// Every method family over stdio: span names, attributes and outcomes.
func TestStdioSpans(t *testing.T) {
	tel, opts := newTelemetry()
	p := serveStdio(t, testServer(opts...))
	p.call(initialize)
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	p.call(`{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"echo","arguments":{"a":1}}}`)
	p.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fails"}}`)
	p.call(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope"}}`)
	p.call(`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"test://a"}}`)
	p.call(`{"jsonrpc":"2.0","id":6,"method":"resources/subscribe","params":{"uri":"test://a"}}`)
	p.call(`{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":"greet","arguments":{"who":"you"}}}`)
	p.call(`{"jsonrpc":"2.0","id":8,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":"w"}}}`)

	base := func(method string, more map[string]string) map[string]string {
		m := map[string]string{"mcp.method.name": method, "mcp.protocol.version": "2025-11-25", "network.transport": "pipe"}
		for k, v := range more {
			m[k] = v
		}
		return m
	}
	attrs(t, tel.span(t, "initialize"), map[string]string{"mcp.method.name": "initialize", "network.transport": "pipe", "jsonrpc.request.id": "0"})
	attrs(t, tel.span(t, "notifications/initialized"), base("notifications/initialized", nil))
	attrs(t, tel.span(t, "tools/list"), base("tools/list", map[string]string{"jsonrpc.request.id": "1"}))
	echo := tel.span(t, "tools/call echo")
	attrs(t, echo, base("tools/call", map[string]string{"jsonrpc.request.id": "two", "gen_ai.tool.name": "echo", "gen_ai.operation.name": "execute_tool"}))
	if echo.Status().Code != codes.Unset {
		t.Errorf("echo: status %v", echo.Status())
	}
	fails := tel.span(t, "tools/call fails")
	attrs(t, fails, base("tools/call", map[string]string{"jsonrpc.request.id": "3", "gen_ai.tool.name": "fails",
		"gen_ai.operation.name": "execute_tool", "error.type": "tool_error"}))
	if fails.Status().Code != codes.Error || fails.Status().Description != "the ledger is closed" {
		t.Errorf("fails: status %v", fails.Status())
	}
	nope := tel.span(t, "tools/call nope")
	attrs(t, nope, base("tools/call", map[string]string{"jsonrpc.request.id": "4", "gen_ai.tool.name": "nope",
		"gen_ai.operation.name": "execute_tool", "error.type": "-32602", "rpc.response.status_code": "-32602"}))
	if nope.Status().Code != codes.Error || !strings.Contains(nope.Status().Description, `unknown tool "nope"`) {
		t.Errorf("nope: status %v", nope.Status())
	}
	attrs(t, tel.span(t, "resources/read"), base("resources/read", map[string]string{"jsonrpc.request.id": "5", "mcp.resource.uri": "test://a"}))
	attrs(t, tel.span(t, "resources/subscribe"), base("resources/subscribe", map[string]string{"jsonrpc.request.id": "6", "mcp.resource.uri": "test://a"}))
	attrs(t, tel.span(t, "prompts/get greet"), base("prompts/get", map[string]string{"jsonrpc.request.id": "7", "gen_ai.prompt.name": "greet"}))
	attrs(t, tel.span(t, "completion/complete"), base("completion/complete", map[string]string{"jsonrpc.request.id": "8"}))

	// The metric has the low-cardinality attributes only, in the
	// conventions' buckets.
	var rm metricdata.ResourceMetrics
	if err := tel.metrics.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	h := histogram(t, rm, "mcp.server.operation.duration")
	var sawToolError bool
	for _, dp := range h.DataPoints {
		if _, ok := dp.Attributes.Value("jsonrpc.request.id"); ok {
			t.Errorf("the request id is a metric attribute: %v", dp.Attributes)
		}
		if _, ok := dp.Attributes.Value("mcp.resource.uri"); ok {
			t.Errorf("the resource URI is a metric attribute: %v", dp.Attributes)
		}
		if v, _ := dp.Attributes.Value("error.type"); v.AsString() == "tool_error" {
			sawToolError = true
			if tn, _ := dp.Attributes.Value("gen_ai.tool.name"); tn.AsString() != "fails" || dp.Count != 1 {
				t.Errorf("tool_error point: %v, count %d", dp.Attributes, dp.Count)
			}
		}
		want := []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}
		if fmt.Sprint(dp.Bounds) != fmt.Sprint(want) {
			t.Errorf("bounds %v, want %v", dp.Bounds, want)
		}
	}
	if !sawToolError {
		t.Error("no tool_error data point")
	}
	if h := findMetric(rm, "mcp.server.operation.duration"); h.Unit != "s" {
		t.Errorf("unit %q", h.Unit)
	}
}

func findMetric(rm metricdata.ResourceMetrics, name string) metricdata.Metrics {
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				return m
			}
		}
	}
	return metricdata.Metrics{}
}

func histogram(t *testing.T, rm metricdata.ResourceMetrics, name string) metricdata.Histogram[float64] {
	t.Helper()
	h, ok := findMetric(rm, name).Data.(metricdata.Histogram[float64])
	if !ok || len(h.DataPoints) == 0 {
		t.Fatalf("no histogram %s", name)
	}
	return h
}

// The span of a request whose _meta carries a traceparent is its child,
// and the handler's context holds the span; baggage travels too.
func TestParentFromMeta(t *testing.T) {
	tel, opts := newTelemetry()
	p := serveStdio(t, testServer(opts...))
	p.call(initialize)
	const parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	resp := p.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"span","_meta":{"traceparent":"` + parent + `","tracestate":"k=v"}}}`)
	s := tel.span(t, "tools/call span")
	if s.Parent().TraceID().String() != "0af7651916cd43dd8448eb211c80319c" || s.Parent().SpanID().String() != "b7ad6b7169203331" || !s.Parent().IsRemote() {
		t.Errorf("parent %v", s.Parent())
	}
	if s.SpanContext().TraceState().Get("k") != "v" {
		t.Errorf("tracestate %q", s.SpanContext().TraceState())
	}
	if want := s.SpanContext().TraceID().String() + " " + s.SpanContext().SpanID().String(); !strings.Contains(resp, want) {
		t.Errorf("the handler's context holds another span: %s, want %s", resp, want)
	}
}

// baggageServer is testServer with a tool that answers the baggage of its
// context and the trace its span belongs to.
func baggageServer(opts ...runtime.Option) *runtime.Server {
	srv := testServer(opts...)
	srv.AddTool(runtime.Tool{Name: "baggage", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return runtime.TextResult("baggage " + baggage.FromContext(ctx).String() + " trace " + trace.SpanContextFromContext(ctx).TraceID().String()), nil
	}})
	return srv
}

// Baggage in params._meta reaches the handler's context, with or without a
// traceparent beside it (SEP-414 carries each key on its own); without one,
// the span's parent is the HTTP headers' (or none), and the baggage still
// the one of _meta.
func TestBaggageFromMeta(t *testing.T) {
	_, opts := newTelemetry()
	const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	p := serveStdio(t, baggageServer(opts...))
	p.call(initialize)
	for _, meta := range []string{
		`{"traceparent":"` + traceparent + `","baggage":"tenant=acme"}`,
		`{"baggage":"tenant=acme"}`,
	} {
		resp := p.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"baggage","_meta":` + meta + `}}`)
		if !strings.Contains(resp, "baggage tenant=acme trace") {
			t.Errorf("_meta %s: the handler got %s, want the baggage tenant=acme", meta, resp)
		}
	}

	ts := httptest.NewServer(baggageServer(opts...).HTTPHandler())
	t.Cleanup(ts.Close)
	resp, _ := httpPost(t, ts.URL, initialize, nil)
	hdr := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-11-25",
		"traceparent": "00-11111111111111111111111111111111-2222222222222222-01", "baggage": "tenant=header"}
	_, body := httpPost(t, ts.URL, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"baggage","_meta":{"baggage":"tenant=acme"}}}`, hdr)
	if !strings.Contains(body, "baggage tenant=acme trace 11111111111111111111111111111111") {
		t.Errorf("over HTTP with a traceparent header: the handler got %s, want the baggage of _meta in the header's trace", body)
	}
}

// A cancelled call's span says so.
func TestCancelledCall(t *testing.T) {
	tel, opts := newTelemetry()
	p := serveStdio(t, testServer(opts...))
	p.call(initialize)
	p.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"slow"}}`)
	time.Sleep(20 * time.Millisecond) // let it start; cancelling earlier is fine too (the span then says so all the same)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`)
	s := tel.span(t, "tools/call slow")
	got := map[attribute.Key]string{}
	for _, kv := range s.Attributes() {
		got[kv.Key] = kv.Value.Emit()
	}
	if got["error.type"] == "" || s.Status().Code != codes.Error {
		t.Errorf("cancelled call: error.type %q, status %v", got["error.type"], s.Status())
	}
}

// httpPost POSTs body with hdr and returns the response body.
func httpPost(t *testing.T, url, body string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	r, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

// Over HTTP, in a legacy session: the span's parent is the traceparent
// header's, and the attributes say tcp, http 1.1 and the session.
func TestHTTPLegacySpans(t *testing.T) {
	tel, opts := newTelemetry()
	ts := httptest.NewServer(testServer(opts...).HTTPHandler())
	t.Cleanup(ts.Close)
	resp, _ := httpPost(t, ts.URL, initialize, nil)
	sid := resp.Header.Get("Mcp-Session-Id")
	hdr := map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25",
		"traceparent": "00-11111111111111111111111111111111-2222222222222222-01"}
	httpPost(t, ts.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`, hdr)
	s := tel.span(t, "tools/call echo")
	attrs(t, s, map[string]string{"mcp.method.name": "tools/call", "mcp.protocol.version": "2025-11-25", "network.transport": "tcp",
		"network.protocol.name": "http", "network.protocol.version": "1.1", "jsonrpc.request.id": "1", "gen_ai.tool.name": "echo",
		"gen_ai.operation.name": "execute_tool", "mcp.session.id": sid})
	if s.Parent().TraceID().String() != "11111111111111111111111111111111" {
		t.Errorf("parent %v", s.Parent())
	}

	// The session's duration is recorded when it ends.
	r, _ := http.NewRequest(http.MethodDelete, ts.URL, nil)
	r.Header.Set("Mcp-Session-Id", sid)
	r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if resp, err := http.DefaultClient.Do(r); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	var rm metricdata.ResourceMetrics
	tel.metrics.Collect(context.Background(), &rm)
	h := histogram(t, rm, "mcp.server.session.duration")
	dp := h.DataPoints[0]
	if dp.Count != 1 {
		t.Errorf("sessions: %d", dp.Count)
	}
	for k, want := range map[attribute.Key]string{"network.transport": "tcp", "network.protocol.name": "http", "network.protocol.version": "1.1",
		"mcp.protocol.version": "2025-11-25"} {
		if v, _ := dp.Attributes.Value(k); v.Emit() != want {
			t.Errorf("session duration: %s = %q, want %q", k, v.Emit(), want)
		}
	}
}

const modernMeta = `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}`

// A modern request over HTTP: no session; the _meta trace context wins
// over the header's, which is linked.
func TestHTTPModernSpans(t *testing.T) {
	tel, opts := newTelemetry()
	ts := httptest.NewServer(testServer(opts...).HTTPHandler())
	t.Cleanup(ts.Close)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":{` + modernMeta +
		`,"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}}`
	resp, out := httpPost(t, ts.URL, body, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo",
		"traceparent": "00-11111111111111111111111111111111-2222222222222222-01"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, out)
	}
	s := tel.span(t, "tools/call echo")
	attrs(t, s, map[string]string{"mcp.method.name": "tools/call", "mcp.protocol.version": "2026-07-28", "network.transport": "tcp",
		"network.protocol.name": "http", "network.protocol.version": "1.1", "jsonrpc.request.id": "1", "gen_ai.tool.name": "echo",
		"gen_ai.operation.name": "execute_tool"})
	if s.Parent().TraceID().String() != "0af7651916cd43dd8448eb211c80319c" {
		t.Errorf("parent %v", s.Parent())
	}
	if len(s.Links()) != 1 || s.Links()[0].SpanContext.TraceID().String() != "11111111111111111111111111111111" {
		t.Errorf("links %v", s.Links())
	}
}

// Records logged with the handler's context carry its trace and span ids.
func TestLogHandlerCorrelates(t *testing.T) {
	tel, opts := newTelemetry()
	var buf strings.Builder
	logger := slogJSON(&buf)
	srv := testServer(opts...)
	srv.AddTool(runtime.Tool{Name: "logs", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		logger.InfoContext(ctx, "working")
		return runtime.TextResult("ok"), nil
	}})
	p := serveStdio(t, srv)
	p.call(initialize)
	p.call(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"logs"}}`)
	s := tel.span(t, "tools/call logs")
	var rec struct{ Msg, TraceID, SpanID string }
	if err := json.Unmarshal([]byte(strings.ReplaceAll(strings.ReplaceAll(buf.String(), "trace_id", "TraceID"), "span_id", "SpanID")), &rec); err != nil {
		t.Fatalf("%v: %s", err, buf.String())
	}
	if rec.TraceID != s.SpanContext().TraceID().String() || rec.SpanID != s.SpanContext().SpanID().String() {
		t.Errorf("log record %s; span %v", buf.String(), s.SpanContext())
	}
}

// A modern request over stdio: no session, no initialize; its own version.
func TestStdioModernSpans(t *testing.T) {
	tel, opts := newTelemetry()
	p := serveStdio(t, testServer(opts...))
	resp := p.call(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"greet","arguments":{"who":"you"},"_meta":{` + modernMeta + `}}}`)
	if !strings.Contains(resp, `"result"`) {
		t.Fatal(resp)
	}
	attrs(t, tel.span(t, "prompts/get greet"), map[string]string{"mcp.method.name": "prompts/get", "mcp.protocol.version": "2026-07-28",
		"network.transport": "pipe", "jsonrpc.request.id": "1", "gen_ai.prompt.name": "greet"})
}

// Requests the runtime refuses before any method runs get a span too: a
// request before initialize (named by its method), an unknown method and a
// malformed message (named _OTHER: a client may send any name), each with
// the JSON-RPC code of the refusal.
func TestRefusalSpans(t *testing.T) {
	tel, opts := newTelemetry()
	p := serveStdio(t, testServer(opts...))
	p.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	p.call(initialize)
	p.call(`{"jsonrpc":"2.0","id":2,"method":"no/such-method"}`)
	p.call(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":[1]]`)

	refused := func(method, code string, more map[string]string) map[string]string {
		m := map[string]string{"mcp.method.name": method, "network.transport": "pipe", "rpc.response.status_code": code, "error.type": code}
		for k, v := range more {
			m[k] = v
		}
		return m
	}
	early := tel.span(t, "tools/list")
	attrs(t, early, refused("tools/list", "-32600", map[string]string{"jsonrpc.request.id": "1"}))
	if early.Status().Code != codes.Error || !strings.Contains(early.Status().Description, "not initialized") {
		t.Errorf("tools/list before initialize: status %v", early.Status())
	}
	var other []sdktrace.ReadOnlySpan
	for _, s := range tel.spans.Ended() {
		if s.Name() == "_OTHER" {
			other = append(other, s)
		}
	}
	if len(other) != 2 {
		t.Fatalf("%d spans named _OTHER, want 2 (unknown method, malformed)", len(other))
	}
	for _, s := range other {
		switch {
		case strings.Contains(s.Status().Description, "no/such-method"):
			attrs(t, s, refused("_OTHER", "-32601", map[string]string{"jsonrpc.request.id": "2", "mcp.protocol.version": "2025-11-25"}))
		default:
			attrs(t, s, refused("_OTHER", "-32700", map[string]string{"mcp.protocol.version": "2025-11-25"}))
		}
	}
}
