// Command expenses is the expense explorer of seed 002, an MCP server with
// an MCP App: explore_expenses returns a snapshot that hosts with the MCP
// Apps extension show in an interactive view (ui://expenses/explorer), and
// that other hosts show as its text summary. It serves MCP over stdio:
//
//	go run ./examples/expenses
//
// With -http 127.0.0.1:PORT it serves Streamable HTTP at /mcp instead; with
// -no-views the view is off and every host gets the plain tools. It shuts
// down gracefully on SIGINT and SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp/otelenv"
	"github.com/mcpgen/mcpgen/runtime/redisstore"

	"github.com/mcpgen/mcpgen/examples/expenses/expensesmcp"
)

func main() {
	httpAddr := flag.String("http", "", "serve Streamable HTTP on this address (e.g. 127.0.0.1:8080) instead of stdio")
	noViews := flag.Bool("no-views", false, "turn the MCP App view off: the tools stay, answered as text (the app's rollback switch)")
	redisURL := flag.String("redis", "", redisstore.FlagUsage)
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	shared, err := redisstore.Option(ctx, *redisURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "expenses:", err)
		os.Exit(1)
	}

	var opts []runtime.Option
	if *noViews {
		opts = append(opts, runtime.WithoutAppViews())
	}
	telemetry, stopTelemetry := otelenv.Start(ctx, "expenses") // OTEL_* variables; none: off
	defer stopTelemetry()
	srv := expensesmcp.NewServer(newExplorer(sampleLedger()), append(append(opts, telemetry...), shared)...)
	if err := runtime.Serve(ctx, srv, *httpAddr); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "expenses:", err)
		os.Exit(1)
	}
}
