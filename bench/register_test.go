package bench

import (
	"context"
	"fmt"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkRegister1000Tools is the cost of building a server of 1,000 tools
// of distinct input and output types (tools1000_test.go): schemas reflected
// from the types, validators prepared, tools/list entries encoded, as each
// SDK does at registration. mcp-go compiles validators lazily, on a tool's
// first call, so its registration does less.

type sdk int

const (
	sdkMcpgen sdk = iota
	sdkGoSDK
	sdkMcpgo
)

// registrar registers one tool of the types it was instantiated with.
type registrar func(k sdk, server any, name string)

func reg[In, Out any](k sdk, server any, name string) {
	const desc = "Search a collection."
	switch k {
	case sdkMcpgen:
		server.(*runtime.Server).AddTool(runtime.TypedTool(runtime.Tool{Name: name, Description: desc},
			func(ctx context.Context, in *In) (*Out, error) { return new(Out), nil }))
	case sdkGoSDK:
		mcp.AddTool(server.(*mcp.Server), &mcp.Tool{Name: name, Description: desc},
			func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
				var out Out
				return nil, out, nil
			})
	case sdkMcpgo:
		server.(*mcpgoserver.MCPServer).AddTool(
			mcpgo.NewTool(name, mcpgo.WithDescription(desc), mcpgo.WithInputSchema[In](), mcpgo.WithOutputSchema[Out]()),
			mcpgo.NewStructuredToolHandler(func(ctx context.Context, req mcpgo.CallToolRequest, in In) (Out, error) {
				var out Out
				return out, nil
			}))
	}
}

func newServer(k sdk) any {
	switch k {
	case sdkMcpgen:
		return runtime.NewServer(runtime.Implementation{Name: "big", Version: "1.0.0"})
	case sdkGoSDK:
		return mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1.0.0"}, nil)
	default:
		return mcpgoserver.NewMCPServer("big", "1.0.0", mcpgoserver.WithToolCapabilities(true),
			mcpgoserver.WithInputSchemaValidation(), mcpgoserver.WithOutputSchemaValidation())
	}
}

var toolNames = func() []string {
	names := make([]string, len(manyTools))
	for i := range names {
		names[i] = fmt.Sprintf("tool_%04d", i+1)
	}
	return names
}()

func BenchmarkRegister1000Tools(b *testing.B) {
	for _, c := range []struct {
		name string
		k    sdk
	}{{"mcpgen", sdkMcpgen}, {"gosdk", sdkGoSDK}, {"mcpgo", sdkMcpgo}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := newServer(c.k)
				for i, r := range manyTools {
					r(c.k, s, toolNames[i])
				}
			}
		})
	}
}

func TestRegister1000Tools(t *testing.T) {
	s := newServer(sdkMcpgen).(*runtime.Server)
	for i, r := range manyTools {
		r(sdkMcpgen, s, toolNames[i])
	}
	if n := len(s.Tools()); n != len(manyTools) {
		t.Fatalf("%d tools registered, want %d", n, len(manyTools))
	}
}
