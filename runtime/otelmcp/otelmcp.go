// Package otelmcp instruments an MCP server of package runtime with
// OpenTelemetry, as the semantic conventions for MCP say (semantic
// conventions v1.41.0, docs/gen-ai/mcp.md, status Development; attribute
// keys from go.opentelemetry.io/otel/semconv/v1.41.0):
//
//   - a SERVER span per request and notification, named
//     "{mcp.method.name} {target}" (the tool or prompt name; the method
//     alone otherwise: a resource URI is no low-cardinality name), its
//     parent taken from params._meta (traceparent, tracestate, baggage:
//     SEP-414), else from the HTTP request's headers, else from the context;
//   - the histograms mcp.server.operation.duration and
//     mcp.server.session.duration, with the conventions' bucket boundaries;
//   - log records correlated with the span (LogHandler).
//
// It is an interceptor and a session hook of the runtime: the core runtime
// does not import OpenTelemetry.
//
//	srv := mymcp.NewServer(h, otelmcp.Options()...)
//
// uses the global tracer and meter providers and propagator (otel.Set…);
// package otelenv sets them from the standard OTEL_* environment variables.
package otelmcp

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime"
)

// ScopeName is the instrumentation scope of the spans and metrics.
const ScopeName = "github.com/mcpgen/mcpgen/runtime/otelmcp"

// durationBuckets are the explicit bucket boundaries, in seconds, the
// conventions give both duration histograms.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// errorTypeToolError is error.type for a tools/call answered with an
// isError result (the conventions' value).
const errorTypeToolError = "tool_error"

// errorTypeCancelled is error.type for a request the client cancelled: the
// conventions name no value; this one says what happened.
const errorTypeCancelled = "cancelled"

// Option configures the instrumentation.
type Option func(*config)

type config struct {
	tp    trace.TracerProvider
	mp    metric.MeterProvider
	props propagation.TextMapPropagator
}

// WithTracerProvider sets where spans go (default: otel.GetTracerProvider()).
func WithTracerProvider(tp trace.TracerProvider) Option { return func(c *config) { c.tp = tp } }

// WithMeterProvider sets where metrics go (default: otel.GetMeterProvider()).
func WithMeterProvider(mp metric.MeterProvider) Option { return func(c *config) { c.mp = mp } }

// WithPropagator sets how trace context is read from _meta and headers
// (default: otel.GetTextMapPropagator()).
func WithPropagator(p propagation.TextMapPropagator) Option { return func(c *config) { c.props = p } }

// Options returns the runtime options that instrument a server: the
// interceptor (spans, operation durations) and the session hook (session
// durations). Give them to runtime.NewServer or a generated NewServer.
func Options(opts ...Option) []runtime.Option {
	in := New(opts...)
	return []runtime.Option{runtime.WithInterceptors(in.Interceptor), runtime.WithSessionHook(in.SessionHook)}
}

// Instrumentation holds the tracer and instruments; its Interceptor and
// SessionHook are what Options installs.
type Instrumentation struct {
	sets      attributeSets // of the operation metric
	tracer    trace.Tracer
	props     propagation.TextMapPropagator
	operation mcpconv.ServerOperationDuration
	session   mcpconv.ServerSessionDuration
}

// New makes the tracer and the instruments.
func New(opts ...Option) *Instrumentation {
	c := config{}
	for _, o := range opts {
		o(&c)
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = otel.GetMeterProvider()
	}
	if c.props == nil {
		c.props = otel.GetTextMapPropagator()
	}
	meter := c.mp.Meter(ScopeName, metric.WithSchemaURL(semconv.SchemaURL))
	in := &Instrumentation{
		tracer: c.tp.Tracer(ScopeName, trace.WithSchemaURL(semconv.SchemaURL)),
		props:  c.props,
	}
	var err error
	buckets := metric.WithExplicitBucketBoundaries(durationBuckets...)
	if in.operation, err = mcpconv.NewServerOperationDuration(meter, buckets); err != nil {
		otel.Handle(err)
	}
	if in.session, err = mcpconv.NewServerSessionDuration(meter, buckets); err != nil {
		otel.Handle(err)
	}
	return in
}

// Interceptor traces and times every request and notification.
func (in *Instrumentation) Interceptor(next runtime.Handler) runtime.Handler {
	return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) {
		start := time.Now()
		parent, link := in.parent(ctx, req)
		attrs := spanAttributes(commonAttributes(make([]attribute.KeyValue, 0, 12), req), req)
		opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...)}
		if link.IsValid() {
			opts = append(opts, trace.WithLinks(trace.Link{SpanContext: link}))
		}
		ctx, span := in.tracer.Start(parent, spanName(req), opts...)
		defer span.End()

		res, err := next(ctx, req)

		outcome := outcomeAttributes(ctx, req, res, err)
		if len(outcome) > 0 {
			span.SetAttributes(outcome...)
			span.SetStatus(codes.Error, statusDescription(ctx, res, err))
		}
		in.operation.Inst().Record(ctx, time.Since(start).Seconds(), metric.WithAttributeSet(in.metricSet(req, outcome)))
		return res, err
	}
}

// SessionHook records mcp.server.session.duration when a session ends.
func (in *Instrumentation) SessionHook(info runtime.SessionInfo) func() {
	start := time.Now()
	attrs := []attribute.KeyValue{semconv.McpProtocolVersion(info.ProtocolVersion)}
	attrs = append(attrs, transportAttributes(info.Transport, info.HTTPVersion)...)
	return func() {
		in.session.Inst().Record(context.Background(), time.Since(start).Seconds(), metric.WithAttributes(attrs...))
	}
}

// parent is the context the span starts under: the trace context of
// params._meta when it has one (the MCP way, which crosses every
// transport), else that of the HTTP headers, else ctx's. When _meta and the
// headers name different traces, the headers' is linked.
func (in *Instrumentation) parent(ctx context.Context, req *runtime.Request) (context.Context, trace.SpanContext) {
	var fromHeader context.Context
	if req.Header != nil {
		fromHeader = in.props.Extract(ctx, propagation.HeaderCarrier(req.Header))
	}
	if carrier := metaCarrier(req.Meta()); carrier != nil {
		fromMeta := in.props.Extract(ctx, carrier)
		if sc := trace.SpanContextFromContext(fromMeta); sc.IsValid() {
			var link trace.SpanContext
			if fromHeader != nil {
				if hc := trace.SpanContextFromContext(fromHeader); hc.IsValid() && hc.TraceID() != sc.TraceID() {
					link = hc
				}
			}
			return fromMeta, link
		}
	}
	if fromHeader != nil {
		return fromHeader, trace.SpanContext{}
	}
	return ctx, trace.SpanContext{}
}

// metaCarrier reads the trace context keys of a _meta object (SEP-414:
// unprefixed traceparent, tracestate, baggage); nil when it has none.
func metaCarrier(meta json.RawMessage) propagation.MapCarrier {
	if meta == nil {
		return nil
	}
	var m struct {
		Traceparent string `json:"traceparent"`
		Tracestate  string `json:"tracestate"`
		Baggage     string `json:"baggage"`
	}
	if json.Unmarshal(meta, &m) != nil || m.Traceparent == "" && m.Baggage == "" {
		return nil
	}
	c := propagation.MapCarrier{}
	for k, v := range map[string]string{"traceparent": m.Traceparent, "tracestate": m.Tracestate, "baggage": m.Baggage} {
		if v != "" {
			c[k] = v
		}
	}
	return c
}

// spanName is "{mcp.method.name} {target}" for a tool or prompt, the
// method alone otherwise.
func spanName(req *runtime.Request) string {
	if req.Target != "" && (req.Method == "tools/call" || req.Method == "prompts/get") {
		return req.Method + " " + req.Target
	}
	return req.Method
}

// commonAttributes appends to attrs those of both the span and the
// duration metric (low cardinality).
func commonAttributes(attrs []attribute.KeyValue, req *runtime.Request) []attribute.KeyValue {
	attrs = append(attrs, semconv.McpMethodNameKey.String(req.Method))
	switch req.Method {
	case "tools/call":
		if req.Target != "" {
			attrs = append(attrs, semconv.GenAIToolName(req.Target))
		}
		attrs = append(attrs, semconv.GenAIOperationNameExecuteTool)
	case "prompts/get":
		if req.Target != "" {
			attrs = append(attrs, semconv.GenAIPromptName(req.Target))
		}
	}
	if req.ProtocolVersion != "" {
		attrs = append(attrs, semconv.McpProtocolVersion(req.ProtocolVersion))
	}
	return append(attrs, transportAttributes(req.Transport, req.HTTPVersion)...)
}

// transportAttributes: network.transport is pipe for stdio, tcp for HTTP;
// network.protocol.* name HTTP and its version.
func transportAttributes(transport, httpVersion string) []attribute.KeyValue {
	switch transport {
	case runtime.TransportStdio:
		return []attribute.KeyValue{semconv.NetworkTransportPipe}
	case runtime.TransportHTTP:
		attrs := []attribute.KeyValue{semconv.NetworkTransportTCP, semconv.NetworkProtocolName("http")}
		if httpVersion != "" {
			attrs = append(attrs, semconv.NetworkProtocolVersion(httpVersion))
		}
		return attrs
	}
	return nil
}

// spanAttributes appends to attrs those too varied for a metric: ids and
// URIs.
func spanAttributes(attrs []attribute.KeyValue, req *runtime.Request) []attribute.KeyValue {
	if req.ID != nil {
		attrs = append(attrs, semconv.JSONRPCRequestID(requestID(req.ID)))
	}
	if uri := resourceURI(req); uri != "" {
		attrs = append(attrs, semconv.McpResourceURI(uri))
	}
	if req.SessionID != "" {
		attrs = append(attrs, semconv.McpSessionID(req.SessionID))
	}
	return attrs
}

// requestID is the id as the conventions write it: a string id unquoted.
func requestID(id json.RawMessage) string {
	if len(id) > 0 && id[0] == '"' {
		if s, err := strconv.Unquote(string(id)); err == nil {
			return s
		}
		var s string
		if json.Unmarshal(id, &s) == nil { // JSON escapes Go does not read (\/)
			return s
		}
	}
	return string(id)
}

// resourceURI is the URI a resources/* request acts on, or "".
func resourceURI(req *runtime.Request) string {
	switch req.Method {
	case "resources/read":
		return req.Target
	case "resources/subscribe", "resources/unsubscribe":
		var p struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			return p.URI
		}
	}
	return ""
}

// outcomeAttributes says how the request failed, if it did:
// rpc.response.status_code and error.type are the JSON-RPC error code,
// error.type is tool_error for an isError result and cancelled for a
// request the client cancelled. nil: it succeeded.
func outcomeAttributes(ctx context.Context, req *runtime.Request, res runtime.Result, err error) []attribute.KeyValue {
	if err != nil {
		if e, ok := errors.AsType[*runtime.Error](err); ok {
			code := strconv.Itoa(e.Code)
			return []attribute.KeyValue{semconv.RPCResponseStatusCode(code), semconv.ErrorTypeKey.String(code)}
		}
		return []attribute.KeyValue{semconv.ErrorTypeOther}
	}
	if ctx.Err() != nil && req.ID != nil {
		return []attribute.KeyValue{semconv.ErrorTypeKey.String(errorTypeCancelled)}
	}
	if r, ok := res.(*runtime.CallToolResult); ok && r.IsError {
		return []attribute.KeyValue{semconv.ErrorTypeKey.String(errorTypeToolError)}
	}
	return nil
}

// statusDescription is the span status message of a failed request.
func statusDescription(ctx context.Context, res runtime.Result, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case ctx.Err() != nil:
		return "cancelled: " + ctx.Err().Error()
	}
	if r, ok := res.(*runtime.CallToolResult); ok {
		for _, c := range r.Content {
			if t, ok := c.(runtime.TextContent); ok {
				return t.Text
			}
		}
	}
	return errorTypeToolError
}

// attributeSets caches the attribute sets of the operation metric: making
// one sorts and copies its attributes, which costs more than recording. The
// combinations are few (methods × tools and prompts × outcomes), but
// targets come from clients, so the cache is bounded.
type attributeSets struct {
	m    sync.Map // setKey → attribute.Set
	n    sync.Mutex
	size int
}

const maxCachedSets = 4096

type setKey struct {
	method, target, version, transport, httpVersion, outcome string
}

// metricSet is the attribute set of the operation metric of req, whose
// outcome is outcome.
func (in *Instrumentation) metricSet(req *runtime.Request, outcome []attribute.KeyValue) attribute.Set {
	k := setKey{req.Method, req.Target, req.ProtocolVersion, req.Transport, req.HTTPVersion, ""}
	if req.Method != "tools/call" && req.Method != "prompts/get" {
		k.target = "" // not an attribute of the metric
	}
	for _, kv := range outcome {
		k.outcome += kv.Value.Emit() + "\x00"
	}
	if s, ok := in.sets.m.Load(k); ok {
		return s.(attribute.Set)
	}
	set := attribute.NewSet(append(commonAttributes(nil, req), outcome...)...)
	in.sets.n.Lock()
	if in.sets.size < maxCachedSets {
		in.sets.size++
		in.sets.m.Store(k, set)
	}
	in.sets.n.Unlock()
	return set
}
