// Command conformance serves the fixtures of the official MCP conformance
// suite, declared in mcpgen.yaml. conformance/run.sh starts it with
// -http 127.0.0.1:PORT and runs the suite against http://localhost:PORT/mcp.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen/mcpgen/examples/conformance/conformancemcp"
	"github.com/mcpgen/mcpgen/runtime"
)

func main() {
	httpAddr := flag.String("http", "", "serve Streamable HTTP at /mcp on this address (e.g. 127.0.0.1:3000) instead of stdio")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	f := &fixtures{}
	f.srv = conformancemcp.NewServer(f)
	go f.touchWatched(ctx)
	// An event store makes SSE streams resumable (Last-Event-ID), which
	// test_reconnection needs (SEP-1699 polling).
	if err := runtime.Serve(ctx, f.srv, *httpAddr, runtime.WithEventStore(runtime.NewMemoryEventStore(1000))); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}
