package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/genimpl"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkRegister1000Tools is the cost of building a server of 1,000 tools
// of distinct input and output types (tools1000_test.go), as each SDK does
// at registration. go-sdk reflects the schemas and compiles its validators;
// mcp-go reflects them and compiles validators on a tool's first call.
// mcpgen registers the way its generated code does: with genimpl.GeneratedTool
// and the schemas as constants (indented string literals, here the reflection of the
// same types computed before the timer: TestGeneratedSchemasMatchReflection
// in gen proves generated constants equal reflection), validators compiled
// on first call. "mcpgen-reflect" is a hand-written server's runtime.TypedTool,
// which reflects and compiles at registration.

type sdk int

const (
	sdkMcpgen sdk = iota
	sdkGoSDK
	sdkMcpgo
	sdkMcpgenReflect
	prepareConstants // not an SDK: computes toolSchemas
)

// toolSchemas are the input and output schema constants of each tool, as
// generated code holds them: string literals of indented JSON, which the
// runtime compacts at registration.
var toolSchemas = map[string][2]string{}

// indented is a schema as the generator writes it.
func indented(schema json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, schema, "", "\t"); err != nil {
		panic(err)
	}
	return b.String()
}

func prepareToolSchemas() {
	if len(toolSchemas) == 0 {
		for i, r := range manyTools {
			r(prepareConstants, nil, toolNames[i])
		}
	}
}

// registrar registers one tool of the types it was instantiated with.
type registrar func(k sdk, server any, name string)

func reg[In, Out any](k sdk, server any, name string) {
	const desc = "Search a collection."
	switch k {
	case prepareConstants:
		toolSchemas[name] = [2]string{indented(runtime.SchemaFor[In]()), indented(runtime.SchemaFor[Out]())}
	case sdkMcpgen:
		sch := toolSchemas[name]
		server.(*runtime.Server).AddTool(genimpl.GeneratedTool(
			runtime.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(sch[0]), OutputSchema: json.RawMessage(sch[1])}, nil,
			func(ctx context.Context, in *In) (*Out, error) { return new(Out), nil }))
	case sdkMcpgenReflect:
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
	case sdkMcpgen, sdkMcpgenReflect:
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
	}{{"mcpgen", sdkMcpgen}, {"gosdk", sdkGoSDK}, {"mcpgo", sdkMcpgo}, {"mcpgen-reflect", sdkMcpgenReflect}} {
		b.Run(c.name, func(b *testing.B) {
			prepareToolSchemas()
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
	prepareToolSchemas()
	s := newServer(sdkMcpgen).(*runtime.Server)
	for i, r := range manyTools {
		r(sdkMcpgen, s, toolNames[i])
	}
	tools := s.Tools()
	if n := len(tools); n != len(manyTools) {
		t.Fatalf("%d tools registered, want %d", n, len(manyTools))
	}
	// The validators compiled on first call still validate the arguments.
	for args, wantRefused := range map[string]bool{`{"query":"q","limit":3}`: false, `{"query":"q","limit":"many"}`: true} {
		res, err := tools[0].Handler(context.Background(), &runtime.CallToolRequest{Name: tools[0].Name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(runtime.TextContent).Text
		if refused := strings.Contains(text, "/limit"); refused != wantRefused {
			t.Errorf("%s: %s; want the arguments refused: %v", args, text, wantRefused)
		}
	}
}
