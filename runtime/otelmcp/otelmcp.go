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
	"slices"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
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
	routes    routes
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
//
// What depends only on the method, the target, the protocol version and the
// transport (the span name, the attributes the span and the metric share,
// the metric's attribute set) is worked out once per combination (routes);
// a call adds only its own attributes (id, session, URI) to a pooled slice,
// which the SDK copies when the span starts.
func (in *Instrumentation) Interceptor(next runtime.Handler) runtime.Handler {
	return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) {
		start := time.Now()
		r := in.route(req)
		parent, link := in.parent(ctx, req)
		buf := attrPool.Get().(*[]attribute.KeyValue)
		attrs := spanAttributes(append((*buf)[:0], r.attrs...), req)
		var span trace.Span
		if link.IsValid() {
			ctx, span = in.tracer.Start(parent, r.name, serverKind, trace.WithAttributes(attrs...), trace.WithLinks(trace.Link{SpanContext: link}))
		} else {
			ctx, span = in.tracer.Start(parent, r.name, serverKind, trace.WithAttributes(attrs...))
		}
		clear(attrs) // the SDK copied them; drop the strings they hold
		*buf = attrs[:0]
		attrPool.Put(buf)
		defer span.End()

		res, err := next(ctx, req)

		record := r.ok
		if outcome := outcomeAttributes(ctx, req, res, err); len(outcome) > 0 {
			span.SetAttributes(outcome...)
			span.SetStatus(codes.Error, statusDescription(ctx, res, err))
			record = in.failed(r, outcome)
		}
		in.operation.Inst().Record(ctx, time.Since(start).Seconds(), record)
		return res, err
	}
}

// serverKind is the option every span starts with, made once.
var serverKind = trace.WithSpanKind(trace.SpanKindServer)

// attrPool holds the slices a call's span attributes are gathered in.
var attrPool = sync.Pool{New: func() any {
	s := make([]attribute.KeyValue, 0, 12)
	return &s
}}

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
// headers name different traces, the headers' is linked. Baggage in _meta
// without a traceparent is kept, on the parent the headers or ctx give.
func (in *Instrumentation) parent(ctx context.Context, req *runtime.Request) (context.Context, trace.SpanContext) {
	var fromHeader context.Context
	if req.Header != nil {
		fromHeader = in.props.Extract(ctx, propagation.HeaderCarrier(req.Header))
	}
	var metaBaggage baggage.Baggage
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
		if carrier["baggage"] != "" { // only _meta's: not ctx's, if the propagator refused it
			metaBaggage = baggage.FromContext(in.props.Extract(baggage.ContextWithoutBaggage(ctx), carrier))
		}
	}
	parent := ctx
	if fromHeader != nil {
		parent = fromHeader
	}
	if metaBaggage.Len() > 0 {
		parent = baggage.ContextWithBaggage(parent, metaBaggage)
	}
	return parent, trace.SpanContext{}
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
	return methodName(req)
}

// otherMethod names, as the OpenTelemetry RPC conventions do, a method the
// server does not know: a client may send any name, and names become span
// names and metric attributes.
const otherMethod = "_OTHER"

// methodName is mcp.method.name of req.
func methodName(req *runtime.Request) string {
	if req.Refused && !runtime.KnownMethod(req.Method) {
		return otherMethod
	}
	return req.Method
}

// commonAttributes appends to attrs those of both the span and the
// duration metric (low cardinality).
func commonAttributes(attrs []attribute.KeyValue, req *runtime.Request) []attribute.KeyValue {
	attrs = append(attrs, semconv.McpMethodNameKey.String(methodName(req)))
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

// A route is what the instrumentation derives from a request's method,
// target, protocol version and transport: the same for every call of one
// tool from one kind of client, so it is made once and cached. Making an
// attribute set sorts and copies its attributes, which costs more than
// recording a point.
type route struct {
	name  string               // of the span
	attrs []attribute.KeyValue // of both the span and the metric; not modified
	ok    metric.RecordOption  // the metric's attributes when the call succeeded
	// failures: outcome key → metric.RecordOption with the outcome's
	// attributes added.
	failures sync.Map
}

type routeKey struct {
	method, target, version, transport, httpVersion string
}

// routes caches the routes. The combinations are few (methods × tools and
// prompts × versions × transports, and a handful of outcomes), but targets
// come from clients, so the cache is bounded: past maxCached entries a
// route is made for the call and forgotten.
type routes struct {
	m    sync.Map // routeKey → *route
	n    sync.Mutex
	size int
}

const maxCached = 4096

// route returns the route of req.
func (in *Instrumentation) route(req *runtime.Request) *route {
	k := routeKey{methodName(req), req.Target, req.ProtocolVersion, req.Transport, req.HTTPVersion}
	if req.Method != "tools/call" && req.Method != "prompts/get" {
		k.target = "" // neither in the span name nor an attribute of the metric
	}
	if r, ok := in.routes.m.Load(k); ok {
		return r.(*route)
	}
	attrs := commonAttributes(nil, req)
	r := &route{name: spanName(req), attrs: attrs, ok: metric.WithAttributeSet(attribute.NewSet(attrs...))}
	if in.routes.reserve() {
		actual, _ := in.routes.m.LoadOrStore(k, r)
		return actual.(*route)
	}
	return r
}

// failed is the metric's record option of a call of route r whose outcome
// is outcome.
func (in *Instrumentation) failed(r *route, outcome []attribute.KeyValue) metric.RecordOption {
	var k string
	for _, kv := range outcome {
		k += string(kv.Key) + "=" + kv.Value.Emit() + "\x00"
	}
	if o, ok := r.failures.Load(k); ok {
		return o.(metric.RecordOption)
	}
	o := metric.WithAttributeSet(attribute.NewSet(append(slices.Clip(r.attrs), outcome...)...))
	if in.routes.reserve() {
		r.failures.Store(k, o)
	}
	return o
}

// reserve counts one more cached entry, if there is room for it.
func (rs *routes) reserve() bool {
	rs.n.Lock()
	defer rs.n.Unlock()
	if rs.size >= maxCached {
		return false
	}
	rs.size++
	return true
}
