// Command mcpload measures one MCP server process: it starts the server,
// initializes a session over stdio (the default) or Streamable HTTP (-http),
// sends N tools/call requests with C in flight in raw JSON-RPC, and reports
// requests/s, p50/p99 latency, the server's CPU time per call (user+sys from
// its rusage) and its peak RSS.
//
//	go run ./cmd/mcpload -tool order -n 20000 -c 16 -- ./mcpgen-server
//	go run ./cmd/mcpload -http 127.0.0.1:0 -tool echo -- ./gosdk-server
//
// Everything stays on loopback; the run is bounded by -n and -timeout.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/mcpgen/mcpgen/bench/load"
)

func main() {
	httpAddr := flag.String("http", "", "drive Streamable HTTP: the server gets -http ADDR (127.0.0.1:0 picks a free port)")
	tool := flag.String("tool", "echo", "the tool to call: echo, order or stats")
	args := flag.String("args", "", "the tool's arguments as a JSON object (default: the benchmark's for -tool)")
	n := flag.Int("n", 20000, "measured calls")
	c := flag.Int("c", 16, "calls in flight")
	warmup := flag.Int("warmup", 2000, "calls before measuring")
	timeout := flag.Duration("timeout", 2*time.Minute, "limit for the whole run")
	client := flag.String("client", "raw", "HTTP client: raw (hand-written HTTP/1.1, cheap) or nethttp (net/http's client)")
	jsonOut := flag.Bool("json", false, "print the result as JSON")
	verbose := flag.Bool("v", false, "print a sample response and the server's stderr")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: mcpload [flags] -- server-command [args...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	a := json.RawMessage(*args)
	if *args == "" {
		var ok bool
		if a, ok = load.Arguments[*tool]; !ok {
			fmt.Fprintf(os.Stderr, "mcpload: no default arguments for tool %q; pass -args\n", *tool)
			os.Exit(2)
		}
	}
	addr := *httpAddr
	if addr == "127.0.0.1:0" {
		var err error
		if addr, err = load.FreeAddr(); err != nil {
			fmt.Fprintln(os.Stderr, "mcpload:", err)
			os.Exit(1)
		}
	}
	cfg := load.Config{Cmd: flag.Args(), HTTPAddr: addr, Tool: *tool, Args: a, N: *n, C: *c, Warmup: *warmup, Timeout: *timeout, Client: *client}
	if *verbose {
		cfg.Stderr = os.Stderr
	}
	r, err := load.Run(context.Background(), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpload:", err)
		os.Exit(1)
	}
	if *jsonOut {
		json.NewEncoder(os.Stdout).Encode(r)
		return
	}
	transport := "stdio"
	if addr != "" {
		transport = "http (" + r.Format + ")"
	}
	fmt.Printf("%s %s n=%d c=%d: %.0f req/s, p50 %v, p99 %v, server CPU %v/call, peak RSS %.1f MiB, errors %d (load generator CPU %v/call)\n",
		transport, *tool, r.Calls, *c, r.RPS, r.P50.Round(time.Microsecond), r.P99.Round(time.Microsecond),
		r.CPUPerCall.Round(100*time.Nanosecond), float64(r.MaxRSSKB)/1024, r.Errors, r.ClientCPU.Round(100*time.Nanosecond))
	if *verbose {
		fmt.Printf("sample: %s\n", r.Sample)
	}
}
