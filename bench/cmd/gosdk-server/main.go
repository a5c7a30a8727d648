// Command gosdk-server serves the benchmark tools with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk): stdio, or Streamable HTTP at /mcp
// with -http ADDR (mcp.NewStreamableHTTPHandler, default options).
package main

import (
	"context"
	"io"
	"net/http"

	"github.com/mcpgen/mcpgen/bench/internal/servercmd"
	"github.com/mcpgen/mcpgen/bench/servers"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	servercmd.Main(servercmd.Server{
		Name: "gosdk-server",
		Stdio: func(ctx context.Context, in io.Reader, out io.Writer) error {
			return servers.NewGoSDK(nil).Run(ctx, &mcp.StdioTransport{})
		},
		HTTP: func() (http.Handler, error) {
			s := servers.NewGoSDK(nil)
			return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil), nil
		},
	})
}
