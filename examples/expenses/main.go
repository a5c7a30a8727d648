// Command expenses is the expense explorer of seed 002, an MCP server with
// an MCP App: explore_expenses returns a snapshot that hosts with the MCP
// Apps extension show in an interactive view (ui://expenses/explorer), and
// that other hosts show as its text summary. It serves MCP over stdio:
//
//	go run ./examples/expenses
//
// With -http 127.0.0.1:PORT it serves Streamable HTTP at /mcp instead. It
// shuts down gracefully on SIGINT and SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen/mcpgen/runtime"

	"github.com/mcpgen/mcpgen/examples/expenses/expensesmcp"
)

func main() {
	httpAddr := flag.String("http", "", "serve Streamable HTTP on this address (e.g. 127.0.0.1:8080) instead of stdio")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	srv := expensesmcp.NewServer(newExplorer(sampleLedger()))
	if err := runtime.Serve(ctx, srv, *httpAddr); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "expenses:", err)
		os.Exit(1)
	}
}
