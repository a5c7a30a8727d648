// Command mcpgen-server serves the benchmark tools with the server mcpgen
// generated from ../../mcpgen.yaml (package benchmcp): stdio, or Streamable
// HTTP at /mcp with -http ADDR (the runtime's Server.HTTPHandler, default
// options, mounted like the other two servers' handlers).
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
		Name: "mcpgen-server",
		Stdio: func(ctx context.Context, in io.Reader, out io.Writer) error {
			return servers.NewMcpgen().ServeStdio(ctx, in, out)
		},
		HTTP: func() (http.Handler, error) {
			return servers.NewMcpgen().HTTPHandler(), nil
		},
	})
}
