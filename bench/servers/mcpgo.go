package servers

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// NewMcpgo returns mcp-go's server. mcp-go validates nothing by default;
// validate turns on WithInputSchemaValidation and WithOutputSchemaValidation
// so that it does the work mcpgen and go-sdk always do.
func NewMcpgo(validate bool) *server.MCPServer {
	opts := []server.ServerOption{server.WithToolCapabilities(true)}
	if validate {
		opts = append(opts, server.WithInputSchemaValidation(), server.WithOutputSchemaValidation())
	}
	s := server.NewMCPServer("bench", "1.0.0", opts...)
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo the text back."), mcp.WithInputSchema[EchoIn]()),
		mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in EchoIn) (*mcp.CallToolResult, error) {
			echoed()
			return mcp.NewToolResultText(in.Text), nil
		}))
	s.AddTool(mcp.NewToolWithRawSchema("order", "Place an order and get a one-line summary of it.", mustJSON(OrderSchema())),
		mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in OrderIn) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(peerOrder(&in)), nil
		}))
	stats := mcp.NewToolWithRawSchema("stats", "Summary statistics of a list of numbers.", mustJSON(StatsSchema()))
	mcp.WithOutputSchema[StatsOut]()(&stats)
	s.AddTool(stats,
		mcp.NewStructuredToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in StatsIn) (StatsOut, error) {
			return peerStats(&in), nil
		}))
	return s
}
