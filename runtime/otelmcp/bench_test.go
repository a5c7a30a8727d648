package otelmcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
)

// The overhead benchmarks run the same tools/call with and without the
// instrumentation, which has a real tracer provider (every span sampled,
// batched to an exporter that drops them) and a real meter provider (the
// histograms aggregated). cpu-ns/op is the process's CPU time (user +
// system, every goroutine: the batcher's too) per call: the figure to
// compare, since the wall time hides work done on the other core.

type benchIn struct {
	Text string `json:"text"`
}

func benchServer(opts ...runtime.Option) *runtime.Server {
	srv := runtime.NewServer(runtime.Implementation{Name: "bench", Version: "1"}, opts...)
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "echo"}, func(_ context.Context, in *benchIn) (*benchIn, error) { return in, nil }))
	return srv
}

func instrumented(b *testing.B, opts ...sdktrace.TracerProviderOption) []runtime.Option {
	tp, mp := benchProviders(b, opts...)
	return otelmcp.Options(otelmcp.WithTracerProvider(tp), otelmcp.WithMeterProvider(mp))
}

// benchProviders are the real SDK providers the benchmarks use: spans
// batched to an exporter that drops them, histograms aggregated.
func benchProviders(b *testing.B, opts ...sdktrace.TracerProviderOption) (*sdktrace.TracerProvider, *sdkmetric.MeterProvider) {
	tp := sdktrace.NewTracerProvider(append([]sdktrace.TracerProviderOption{sdktrace.WithBatcher(tracetest.NewNoopExporter())}, opts...)...)
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() {
		tp.Shutdown(context.Background())
		mp.Shutdown(context.Background())
	})
	return tp, mp
}

// BenchmarkSDKFloor is what the OpenTelemetry SDK itself costs per call,
// with nothing of mcpgen: start and end a server span with the attributes
// of a tools/call over HTTP (given at start), record one histogram point
// with a ready attribute set. No instrumentation can cost less per traced
// call; the overhead benchmarks above are this plus mcpgen's share.
func BenchmarkSDKFloor(b *testing.B) {
	tp, mp := benchProviders(b)
	tracer := tp.Tracer("floor")
	hist, err := mp.Meter("floor").Float64Histogram("mcp.server.operation.duration")
	if err != nil {
		b.Fatal(err)
	}
	common := []attribute.KeyValue{
		attribute.String("mcp.method.name", "tools/call"), attribute.String("gen_ai.tool.name", "echo"),
		attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("mcp.protocol.version", "2025-11-25"),
		attribute.String("network.transport", "tcp"), attribute.String("network.protocol.name", "http"),
		attribute.String("network.protocol.version", "1.1"),
	}
	attrs := append(slices.Clip(common), attribute.String("jsonrpc.request.id", "1"), attribute.String("mcp.session.id", "0123456789abcdef0123456789abcdef"))
	set := metric.WithAttributeSet(attribute.NewSet(common...))
	kind := trace.WithSpanKind(trace.SpanKindServer)
	ctx := context.Background()
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		t0 := time.Now()
		_, span := tracer.Start(ctx, "tools/call echo", kind, trace.WithAttributes(attrs...))
		span.End()
		hist.Record(ctx, time.Since(t0).Seconds(), set)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

const (
	benchInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`
	benchCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, world"}}}`
)

func benchInProcess(b *testing.B, srv *runtime.Server) {
	done := make(chan struct{}, 1)
	ss := srv.NewSession(func([]byte) { done <- struct{}{} })
	defer ss.Close()
	ctx := context.Background()
	ss.HandleMessage(ctx, []byte(benchInit))
	<-done
	call := []byte(benchCall)
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		ss.HandleMessage(ctx, call)
		<-done
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

func BenchmarkToolsCallInProcessPlain(b *testing.B) { benchInProcess(b, benchServer()) }
func BenchmarkToolsCallInProcessOTel(b *testing.B) {
	benchInProcess(b, benchServer(instrumented(b)...))
}

// BenchmarkToolsCallInProcessOTelSampled samples one trace in ten, as
// production setups do (metrics are still recorded for every call).
func BenchmarkToolsCallInProcessOTelSampled(b *testing.B) {
	benchInProcess(b, benchServer(instrumented(b, sdktrace.WithSampler(sdktrace.TraceIDRatioBased(0.1)))...))
}

// benchHTTP posts tools/call in a legacy session over a real HTTP server.
func benchHTTP(b *testing.B, srv *runtime.Server) {
	ts := httptest.NewServer(srv.HTTPHandler())
	defer ts.Close()
	post := func(body, sid string) *http.Response {
		r, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			r.Header.Set("Mcp-Session-Id", sid)
			r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	resp := post(benchInit, "")
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	buf := make([]byte, 4096)
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		resp := post(benchCall, sid)
		for {
			if _, err := resp.Body.Read(buf); err != nil {
				break
			}
		}
		resp.Body.Close()
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

func BenchmarkToolsCallHTTPPlain(b *testing.B) { benchHTTP(b, benchServer()) }
func BenchmarkToolsCallHTTPOTel(b *testing.B)  { benchHTTP(b, benchServer(instrumented(b)...)) }
