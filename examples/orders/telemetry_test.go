package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp/otelenv"
)

// The example as main sets it up, with OTEL_TRACES_EXPORTER=console: the
// spans are written to stderr (stdout carries the protocol on stdio).
func TestConsoleTelemetry(t *testing.T) {
	t.Setenv("OTEL_TRACES_EXPORTER", "console")
	t.Setenv("OTEL_METRICS_EXPORTER", "none")
	t.Setenv("OTEL_LOGS_EXPORTER", "none") // unset would mean otlp
	stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = stderr
	telemetry, stop := otelenv.Start(context.Background(), "orders")
	os.Stderr = saved
	if len(telemetry) == 0 {
		t.Fatal("no telemetry options")
	}
	srv := ordersmcp.NewServer(newDesk(sampleOrders()), telemetry...)
	out := make(chan string, 4)
	ss := srv.NewSession(func(msg []byte) { out <- string(msg) })
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
	} {
		ss.HandleMessage(context.Background(), []byte(msg))
		select {
		case <-out:
		case <-time.After(10 * time.Second):
			t.Fatal("no response")
		}
	}
	ss.Close()
	stop()
	b, err := os.ReadFile(stderr.Name())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"Name":"initialize"`, `"Name":"tools/list"`, `"Key":"mcp.method.name"`, `"SpanKind":2`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("stderr has no %s:\n%.600s", want, b)
		}
	}
}

// An input interceptor sees a generated tool's typed input, and its error
// is the call's isError result (README, "Interceptors").
func TestInputInterceptorOnGeneratedTool(t *testing.T) {
	srv := ordersmcp.NewServer(newDesk(sampleOrders()), runtime.WithInputInterceptors(
		func(_ context.Context, tool string, in any) (*runtime.CallToolResult, error) {
			if r, ok := in.(*ordersmcp.RefundOrderInput); ok && !r.Amount.Set {
				return nil, errors.New("full refunds need a human")
			}
			return nil, nil
		}))
	out := make(chan string, 4)
	ss := srv.NewSession(func(msg []byte) { out <- string(msg) })
	defer ss.Close()
	var last string
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"refund_order","arguments":{"order_id":"A-1042","reason":"damaged","idempotency_key":"0b6f5d1e-9a43-4c1b-8f6e-2d9c7a1b3e55"}}}`,
	} {
		ss.HandleMessage(context.Background(), []byte(msg))
		select {
		case last = <-out:
		case <-time.After(10 * time.Second):
			t.Fatal("no response")
		}
	}
	if !strings.Contains(last, `"text":"full refunds need a human"`) || !strings.Contains(last, `"isError":true`) {
		t.Errorf("refund: %s", last)
	}
}
