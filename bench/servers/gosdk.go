package servers

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewGoSDK returns the official Go SDK's server: mcp.AddTool with typed
// structs, which validates arguments and structured output like mcpgen.
func NewGoSDK(opts *mcp.ServerOptions) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, opts)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo the text back."},
		func(ctx context.Context, req *mcp.CallToolRequest, in EchoIn) (*mcp.CallToolResult, any, error) {
			echoed()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "order", Description: "Place an order and get a one-line summary of it.", InputSchema: OrderSchema()},
		func(ctx context.Context, req *mcp.CallToolRequest, in OrderIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: peerOrder(&in)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "stats", Description: "Summary statistics of a list of numbers.", InputSchema: StatsSchema()},
		func(ctx context.Context, req *mcp.CallToolRequest, in StatsIn) (*mcp.CallToolResult, StatsOut, error) {
			return nil, peerStats(&in), nil
		})
	return s
}
