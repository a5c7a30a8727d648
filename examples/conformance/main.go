// Command conformance serves the fixtures of the official MCP conformance
// suite, declared in mcpgen.yaml. conformance/run.sh starts it with
// -http 127.0.0.1:PORT and runs the suite against http://localhost:PORT/mcp.
//
// It serves both eras: a client that initializes gets 2025-11-25 with a
// session, one whose requests carry the 2026-07-28 _meta is served
// statelessly. To run it as one of several replicas behind a load balancer
// (see README, "Deploying behind a load balancer"), give each replica
// -session-id-prefix with its own tag, which the balancer routes legacy
// sessions by, and every replica the same MCP_REQUEST_STATE_KEY (hex, at
// least 16 bytes), so that a 2026-07-28 retry may land on any of them.
// With -redis redis://HOST:PORT/DB the replicas share idempotent results
// and SSE events (see README, "Running several replicas").
package main

import (
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen/mcpgen/examples/conformance/conformancemcp"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp/otelenv"
	"github.com/mcpgen/mcpgen/runtime/redisstore"
)

func main() {
	httpAddr := flag.String("http", "", "serve Streamable HTTP at /mcp on this address (e.g. 127.0.0.1:3000) instead of stdio")
	sessionPrefix := flag.String("session-id-prefix", "", "start every Mcp-Session-Id with this replica tag (e.g. r1.) so that a load balancer can route legacy sessions by it")
	redisURL := flag.String("redis", "", redisstore.FlagUsage)
	flag.Parse()
	var opts []runtime.Option
	if key := os.Getenv("MCP_REQUEST_STATE_KEY"); key != "" {
		b, err := hex.DecodeString(key)
		if err != nil || len(b) < 16 {
			fmt.Fprintln(os.Stderr, "conformance: MCP_REQUEST_STATE_KEY must be at least 16 bytes, hex-encoded (32+ hex digits)")
			os.Exit(2)
		}
		opts = append(opts, runtime.WithRequestStateKey(b))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	shared, err := redisstore.Option(ctx, *redisURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}

	f := &fixtures{}
	telemetry, stopTelemetry := otelenv.Start(ctx, "conformance") // OTEL_* variables; none: off
	defer stopTelemetry()
	f.srv = conformancemcp.NewServer(f, append(append(opts, telemetry...), shared)...)
	go f.touchWatched(ctx)
	// An event store makes SSE streams resumable (Last-Event-ID), which
	// test_reconnection needs (SEP-1699 polling); with -redis, the events
	// are kept in Redis.
	var httpOpts []runtime.HTTPOption
	if *redisURL == "" {
		httpOpts = append(httpOpts, runtime.WithEventStore(runtime.NewMemoryEventStore(1000)))
	}
	if *sessionPrefix != "" {
		httpOpts = append(httpOpts, runtime.WithSessionIDPrefix(*sessionPrefix))
	}
	if err := runtime.Serve(ctx, f.srv, *httpAddr, httpOpts...); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}
