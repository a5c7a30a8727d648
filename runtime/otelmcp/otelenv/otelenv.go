// Package otelenv sets up OpenTelemetry for an MCP server from the standard
// OTEL_* environment variables, with the exporters of
// go.opentelemetry.io/contrib/exporters/autoexport:
//
//	OTEL_TRACES_EXPORTER=otlp|console|none   OTEL_METRICS_EXPORTER=otlp|console|prometheus|none
//	OTEL_LOGS_EXPORTER=otlp|console|none
//	OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf|grpc, OTEL_SERVICE_NAME,
//	OTEL_RESOURCE_ATTRIBUTES, OTEL_BSP_*, OTEL_BLRP_*, OTEL_METRIC_EXPORT_INTERVAL, …
//
// With none of OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER,
// OTEL_LOGS_EXPORTER and OTEL_EXPORTER_OTLP_*ENDPOINT set, nothing is set
// up: no interceptor is installed, nothing is exported, nothing costs. An
// unset OTEL_*_EXPORTER of a configured environment means otlp, as the
// OpenTelemetry specification says. The console exporters write to stderr,
// not stdout: on stdio, stdout carries the protocol.
//
// Log records go through the otelslog bridge: the server's own (its
// runtime.WithLogger logger writes to stderr, from Warn, and to
// OpenTelemetry, from Info) and those of handlers that log through a
// logger of the bridge, which uses the global logger provider otelenv sets:
//
//	log := otelslog.NewLogger("orders") // go.opentelemetry.io/contrib/bridges/otelslog
//	log.InfoContext(ctx, "order placed", "id", id)
//
// A record logged with the handler's context carries the trace and span id
// of the request's span.
//
// It lives apart from package otelmcp so that instrumenting a server with
// providers of one's own does not pull in every exporter.
package otelenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/stdout/stdoutlog"
	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/log/global"
	"go.opentelemetry.io/otel/propagation"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
)

// Configured reports whether the environment asks for telemetry.
func Configured() bool {
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if v == "" {
			continue
		}
		switch {
		case k == "OTEL_TRACES_EXPORTER", k == "OTEL_METRICS_EXPORTER", k == "OTEL_LOGS_EXPORTER",
			strings.HasPrefix(k, "OTEL_EXPORTER_OTLP_") && strings.HasSuffix(k, "ENDPOINT"):
			return true
		}
	}
	return false
}

// Options sets up the tracer, meter and logger providers the environment
// describes (also as the global ones, with the W3C trace context and
// baggage propagator) and returns the runtime options that instrument a
// server with them and send its log records through OpenTelemetry, and the
// function that flushes and stops the exporters (call it before exit). service names the service unless OTEL_SERVICE_NAME
// does. Without configuration it returns no options and a shutdown that
// does nothing.
func Options(ctx context.Context, service string) ([]runtime.Option, func(context.Context) error, error) {
	nothing := func(context.Context) error { return nil }
	if !Configured() {
		return nil, nothing, nil
	}
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName(service)), resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, nothing, err
	}
	spans, err := spanExporter(ctx)
	if err != nil {
		return nil, nothing, err
	}
	reader, err := metricReader(ctx)
	if err != nil {
		spans.Shutdown(ctx)
		return nil, nothing, err
	}
	logs, err := logExporter(ctx)
	if err != nil {
		spans.Shutdown(ctx)
		reader.Shutdown(ctx)
		return nil, nothing, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithBatcher(spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithResource(res), sdkmetric.WithReader(reader))
	lp := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(sdklog.NewBatchProcessor(logs)))
	props := propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	otel.SetTracerProvider(tp)
	otel.SetMeterProvider(mp)
	global.SetLoggerProvider(lp)
	otel.SetTextMapPropagator(props)
	shutdown := func(ctx context.Context) error {
		return errors.Join(tp.Shutdown(ctx), mp.Shutdown(ctx), lp.Shutdown(ctx))
	}
	opts := otelmcp.Options(otelmcp.WithTracerProvider(tp), otelmcp.WithMeterProvider(mp), otelmcp.WithPropagator(props))
	opts = append(opts, runtime.WithLogger(serverLogger(service, lp)))
	return opts, shutdown, nil
}

// logExporter is autoexport's, except that console writes to stderr.
func logExporter(ctx context.Context) (sdklog.Exporter, error) {
	if os.Getenv("OTEL_LOGS_EXPORTER") == "console" {
		return stdoutlog.New(stdoutlog.WithWriter(os.Stderr))
	}
	return autoexport.NewLogExporter(ctx)
}

// spanExporter is autoexport's, except that console writes to stderr.
func spanExporter(ctx context.Context) (sdktrace.SpanExporter, error) {
	if os.Getenv("OTEL_TRACES_EXPORTER") == "console" {
		return stdouttrace.New(stdouttrace.WithWriter(os.Stderr))
	}
	return autoexport.NewSpanExporter(ctx)
}

// metricReader is autoexport's, except that console writes to stderr.
func metricReader(ctx context.Context) (sdkmetric.Reader, error) {
	if os.Getenv("OTEL_METRICS_EXPORTER") == "console" {
		exp, err := stdoutmetric.New(stdoutmetric.WithWriter(os.Stderr))
		if err != nil {
			return nil, err
		}
		return sdkmetric.NewPeriodicReader(exp), nil
	}
	return autoexport.NewMetricReader(ctx)
}

// Start is Options for a command's main: a configuration error is
// reported on stderr and the server runs without telemetry; stop flushes
// what is pending, for 5 s at most.
func Start(ctx context.Context, service string) (opts []runtime.Option, stop func()) {
	opts, shutdown, err := Options(ctx, service)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: OpenTelemetry is off: %v\n", service, err)
		return nil, func() {}
	}
	return opts, func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := shutdown(ctx); err != nil {
			fmt.Fprintf(os.Stderr, "%s: flushing telemetry: %v\n", service, err)
		}
	}
}
