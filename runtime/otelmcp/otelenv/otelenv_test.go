package otelenv_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/contrib/bridges/otelslog"
	colllogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	collmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	colltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp/otelenv"
)

// receiver is an OTLP/HTTP receiver: it decodes what exporters POST.
type receiver struct {
	mu      sync.Mutex
	traces  []*colltrace.ExportTraceServiceRequest
	metrics []*collmetrics.ExportMetricsServiceRequest
	logs    []*colllogs.ExportLogsServiceRequest
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if ct := r.Header.Get("Content-Type"); ct != "application/x-protobuf" {
		http.Error(w, "content type "+ct, http.StatusUnsupportedMediaType)
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var req, resp proto.Message
	switch r.URL.Path {
	case "/v1/traces":
		t := &colltrace.ExportTraceServiceRequest{}
		rc.traces = append(rc.traces, t)
		req, resp = t, &colltrace.ExportTraceServiceResponse{}
	case "/v1/metrics":
		m := &collmetrics.ExportMetricsServiceRequest{}
		rc.metrics = append(rc.metrics, m)
		req, resp = m, &collmetrics.ExportMetricsServiceResponse{}
	case "/v1/logs":
		l := &colllogs.ExportLogsServiceRequest{}
		rc.logs = append(rc.logs, l)
		req, resp = l, &colllogs.ExportLogsServiceResponse{}
	default:
		http.NotFound(w, r)
		return
	}
	if err := proto.Unmarshal(body, req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	b, _ := proto.Marshal(resp)
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(b)
}

func clearEnv(t *testing.T) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OTEL_") {
			t.Setenv(k, "")
		}
	}
}

func echoServer(opts []runtime.Option) *runtime.Server {
	srv := runtime.NewServer(runtime.Implementation{Name: "otelenv-test", Version: "1"}, opts...)
	srv.AddTool(runtime.Tool{Name: "echo", Handler: func(_ context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return runtime.TextResult("ok"), nil
	}})
	return srv
}

// callEcho initializes a session and calls echo through it, in process.
func callEcho(t *testing.T, srv *runtime.Server) {
	out := make(chan string, 10)
	ss := srv.NewSession(func(msg []byte) { out <- string(msg) })
	defer ss.Close()
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}}`,
	} {
		ss.HandleMessage(context.Background(), []byte(msg))
		select {
		case <-out:
		case <-time.After(10 * time.Second):
			t.Fatal("no response")
		}
	}
}

// With no OTEL_* variable, nothing is set up.
func TestUnconfigured(t *testing.T) {
	clearEnv(t)
	opts, shutdown, err := otelenv.Options(context.Background(), "svc")
	if err != nil || opts != nil || shutdown(context.Background()) != nil {
		t.Fatalf("opts %v, err %v", opts, err)
	}
}

// End to end: spans and metrics exported over OTLP/HTTP, as configured by
// the environment, reach a receiver that decodes them.
func TestOTLPHTTPExport(t *testing.T) {
	clearEnv(t)
	rc := &receiver{}
	ts := httptest.NewServer(rc)
	t.Cleanup(ts.Close)
	t.Setenv("OTEL_TRACES_EXPORTER", "otlp")
	t.Setenv("OTEL_METRICS_EXPORTER", "otlp")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", ts.URL)
	t.Setenv("OTEL_SERVICE_NAME", "orders-test")
	opts, shutdown, err := otelenv.Options(context.Background(), "svc")
	if err != nil || len(opts) == 0 {
		t.Fatalf("opts %v, err %v", opts, err)
	}
	callEcho(t, echoServer(opts))
	if err := shutdown(context.Background()); err != nil { // flushes both
		t.Fatal(err)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var found bool
	for _, req := range rc.traces {
		for _, rs := range req.ResourceSpans {
			var service string
			for _, kv := range rs.Resource.Attributes {
				if kv.Key == "service.name" {
					service = kv.Value.GetStringValue()
				}
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					if s.Name != "tools/call echo" {
						continue
					}
					found = true
					if service != "orders-test" {
						t.Errorf("service.name %q", service)
					}
					got := map[string]string{}
					for _, kv := range s.Attributes {
						got[kv.Key] = kv.Value.GetStringValue()
					}
					if got["mcp.method.name"] != "tools/call" || got["gen_ai.tool.name"] != "echo" || got["jsonrpc.request.id"] != "1" {
						t.Errorf("attributes %v", got)
					}
					if s.Kind.String() != "SPAN_KIND_SERVER" {
						t.Errorf("kind %v", s.Kind)
					}
					if string(s.ParentSpanId) != "\xb7\xad\x6b\x71\x69\x20\x33\x31" {
						t.Errorf("parent span id %x", s.ParentSpanId)
					}
				}
			}
		}
	}
	if !found {
		t.Errorf("no tools/call span received (%d trace exports)", len(rc.traces))
	}
	metrics := map[string]bool{}
	for _, req := range rc.metrics {
		for _, rm := range req.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					metrics[m.Name] = true
				}
			}
		}
	}
	if !metrics["mcp.server.operation.duration"] || !metrics["mcp.server.session.duration"] {
		t.Errorf("metrics received: %v", metrics)
	}
}

// Log records, exported over OTLP/HTTP as OTEL_LOGS_EXPORTER says, carry
// the trace and span id of the request's span: a handler's, logged through
// the otelslog bridge (global provider) with the handler's context, and the
// server's own (a tool's panic, through the logger otelenv gives the
// server).
func TestOTLPLogsCorrelated(t *testing.T) {
	clearEnv(t)
	rc := &receiver{}
	ts := httptest.NewServer(rc)
	t.Cleanup(ts.Close)
	t.Setenv("OTEL_TRACES_EXPORTER", "otlp")
	t.Setenv("OTEL_METRICS_EXPORTER", "none")
	t.Setenv("OTEL_LOGS_EXPORTER", "otlp")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", ts.URL)
	opts, shutdown, err := otelenv.Options(context.Background(), "svc")
	if err != nil || len(opts) == 0 {
		t.Fatalf("opts %v, err %v", opts, err)
	}
	srv := runtime.NewServer(runtime.Implementation{Name: "otelenv-test", Version: "1"}, opts...)
	log := otelslog.NewLogger("orders-handler")
	srv.AddTool(runtime.Tool{Name: "echo", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		log.InfoContext(ctx, "echo called", "who", "test")
		panic("boom") // the runtime logs it, with ctx
	}})
	callEcho(t, srv)
	if err := shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var spanID []byte
	for _, req := range rc.traces {
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					if s.Name == "tools/call echo" {
						spanID = s.SpanId
					}
				}
			}
		}
	}
	if spanID == nil {
		t.Fatalf("no tools/call span received (%d trace exports)", len(rc.traces))
	}
	const traceID = "\x0a\xf7\x65\x19\x16\xcd\x43\xdd\x84\x48\xeb\x21\x1c\x80\x31\x9c" // callEcho's traceparent
	got := map[string]bool{}
	for _, req := range rc.logs {
		for _, rl := range req.ResourceLogs {
			for _, sl := range rl.ScopeLogs {
				for _, r := range sl.LogRecords {
					body := r.Body.GetStringValue()
					got[body] = true
					if string(r.TraceId) != traceID || string(r.SpanId) != string(spanID) {
						t.Errorf("record %q: trace %x span %x, want trace %x span %x", body, r.TraceId, r.SpanId, traceID, spanID)
					}
					if body == "echo called" && sl.Scope.GetName() != "orders-handler" {
						t.Errorf("record %q: scope %q", body, sl.Scope.GetName())
					}
				}
			}
		}
	}
	if !got["echo called"] || !got["runtime: tool handler panicked"] {
		t.Errorf("log records received: %v", got)
	}
}
