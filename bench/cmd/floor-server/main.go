// Command floor-server is the benchmark's floor (servers.Floor): a minimal
// JSON-RPC responder with canned results, the least a Go server can do per
// call, measured by the same load generator as the MCP servers so that each
// of their figures can be read as a ratio to it. stdio (a bufio line loop),
// or HTTP at /mcp with -http ADDR (net/http).
package main

import (
	"context"
	"io"
	"net/http"

	"github.com/mcpgen/mcpgen/bench/internal/servercmd"
	"github.com/mcpgen/mcpgen/bench/servers"
)

func main() {
	servercmd.Main(servercmd.Server{
		Name: "floor-server",
		Stdio: func(ctx context.Context, in io.Reader, out io.Writer) error {
			return servers.NewFloor().ServeStdio(in, out)
		},
		HTTP: func() (http.Handler, error) {
			return servers.NewFloor(), nil
		},
	})
}
