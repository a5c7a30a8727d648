// Command mcpgo-server serves the benchmark tools with mcp-go
// (github.com/mark3labs/mcp-go): stdio, or Streamable HTTP at /mcp with
// -http ADDR (server.NewStreamableHTTPServer, default options). Input and
// output validation are on, as in the other two servers; -novalidate serves
// mcp-go's defaults (no validation).
package main

import (
	"context"
	"flag"
	"io"
	"net/http"

	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpgen/mcpgen/bench/internal/servercmd"
	"github.com/mcpgen/mcpgen/bench/servers"
)

func main() {
	novalidate := flag.Bool("novalidate", false, "serve mcp-go's defaults: no input or output validation")
	servercmd.Main(servercmd.Server{
		Name: "mcpgo-server",
		Stdio: func(ctx context.Context, in io.Reader, out io.Writer) error {
			return server.NewStdioServer(servers.NewMcpgo(!*novalidate)).Listen(ctx, in, out)
		},
		HTTP: func() (http.Handler, error) {
			return server.NewStreamableHTTPServer(servers.NewMcpgo(!*novalidate)), nil
		},
	})
}
