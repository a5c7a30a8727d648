package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"testing"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/mcpgen/mcpgen/bench/load"
	"github.com/mcpgen/mcpgen/bench/servers"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The in-process benchmarks: one tools/call round trip at a time, so that
// allocations per call can be compared (b.ReportAllocs counts every
// goroutine's, the SDK's own included).
//
// BenchmarkToolsCallPipe drives each SDK's own stdio transport over in-memory
// pipes with raw JSON-RPC bytes: server work only (decode, validate, call,
// encode, framing), the same for the three. BenchmarkEchoInProcess uses what
// each SDK offers for in-process use: mcpgen's Session.HandleMessage (raw bytes
// in and out), mcp-go's MCPServer.HandleMessage (raw bytes in, a response
// value that is then json.Marshal'ed) and its in-process client, and go-sdk's
// NewInMemoryTransports with its client (client and server allocations).

const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`

func callLine(tool string, id int) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + compact(load.Arguments[tool]) + `}}` + "\n")
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		panic(err)
	}
	return b.String()
}

// pipeServer is a server reading requests from in and writing responses to out.
type pipeServer func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error

var pipeServers = []struct {
	name  string
	serve pipeServer
}{
	{"mcpgen", func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return servers.NewMcpgen().ServeStdio(ctx, in, out)
	}},
	{"gosdk", func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return servers.NewGoSDK(nil).Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
	}},
	{"mcpgo", func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return mcpgoserver.NewStdioServer(servers.NewMcpgo(true)).Listen(ctx, in, out)
	}},
	{"mcpgo-novalidate", func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return mcpgoserver.NewStdioServer(servers.NewMcpgo(false)).Listen(ctx, in, out)
	}},
}

// startPipe serves over in-memory pipes and performs the handshake.
func startPipe(b *testing.B, serve pipeServer) (io.Writer, *bufio.Reader) {
	return startPipeWith(b, serve, nil, 1<<20)
}

// startPipeWith is startPipe with the server's output passed through wrap
// (when not nil) and a reader of size bytes.
func startPipeWith(b *testing.B, serve pipeServer, wrap func(io.WriteCloser) io.WriteCloser, size int) (io.Writer, *bufio.Reader) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var out io.WriteCloser = outW
	if wrap != nil {
		out = wrap(outW)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(ctx, inR, out)
		outW.Close()
	}()
	b.Cleanup(func() {
		inW.Close()
		cancel()
		outR.Close()
		<-done
	})
	r := bufio.NewReaderSize(outR, size)
	if _, err := io.WriteString(inW, initLine+"\n"); err != nil {
		b.Fatal(err)
	}
	if line, err := r.ReadSlice('\n'); err != nil || !bytes.Contains(line, []byte(`"result"`)) {
		b.Fatalf("initialize: %s %v", line, err)
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return inW, r
}

func BenchmarkToolsCallPipe(b *testing.B) {
	for _, tool := range load.Tools {
		for _, s := range pipeServers {
			b.Run(tool+"/"+s.name, func(b *testing.B) {
				w, r := startPipe(b, s.serve)
				req := callLine(tool, 1)
				check := func(line []byte) {
					if !bytes.Contains(line, []byte(`"result"`)) || bytes.Contains(line, []byte(`"isError":true`)) {
						b.Fatalf("response: %s", line)
					}
				}
				w.Write(req)
				line, err := r.ReadSlice('\n')
				if err != nil {
					b.Fatal(err)
				}
				check(line)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := w.Write(req); err != nil {
						b.Fatal(err)
					}
					if _, err := r.ReadSlice('\n'); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkEchoInProcess(b *testing.B) {
	ctx := context.Background()
	req := bytes.TrimSuffix(callLine("echo", 1), []byte("\n"))
	const want = `"text":"hello, world"`

	b.Run("mcpgen/Session.HandleMessage", func(b *testing.B) {
		srv := servers.NewMcpgen()
		done := make(chan struct{}, 1)
		var got []byte
		ss := srv.NewSession(func(msg []byte) {
			got = append(got[:0], msg...)
			done <- struct{}{}
		})
		defer ss.Close()
		ss.HandleMessage(ctx, []byte(initLine))
		<-done
		ss.HandleMessage(ctx, req)
		<-done
		if !bytes.Contains(got, []byte(want)) {
			b.Fatalf("response %s", got)
		}
		b.ReportAllocs()
		for b.Loop() {
			ss.HandleMessage(ctx, req)
			<-done
		}
	})

	b.Run("mcpgo/MCPServer.HandleMessage", func(b *testing.B) {
		srv := servers.NewMcpgo(true)
		srv.HandleMessage(ctx, []byte(initLine))
		call := func() []byte {
			resp := srv.HandleMessage(ctx, req)
			out, err := json.Marshal(resp)
			if err != nil {
				b.Fatal(err)
			}
			return out
		}
		if got := call(); !bytes.Contains(got, []byte(want)) {
			b.Fatalf("response %s", got)
		}
		b.ReportAllocs()
		for b.Loop() {
			call()
		}
	})

	b.Run("mcpgo/InProcessClient", func(b *testing.B) {
		c, err := mcpgoclient.NewInProcessClient(servers.NewMcpgo(true))
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		if err := c.Start(ctx); err != nil {
			b.Fatal(err)
		}
		var ir mcpgo.InitializeRequest
		ir.Params.ProtocolVersion = "2025-11-25"
		ir.Params.ClientInfo = mcpgo.Implementation{Name: "bench", Version: "1"}
		if _, err := c.Initialize(ctx, ir); err != nil {
			b.Fatal(err)
		}
		var cr mcpgo.CallToolRequest
		cr.Params.Name = "echo"
		cr.Params.Arguments = map[string]any{"text": "hello, world"}
		res, err := c.CallTool(ctx, cr)
		if err != nil || res.IsError || res.Content[0].(mcpgo.TextContent).Text != "hello, world" {
			b.Fatalf("CallTool: %+v %v", res, err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.CallTool(ctx, cr); err != nil {
				b.Fatal(err)
			}
		}
	})

	b.Run("gosdk/InMemoryTransports", func(b *testing.B) {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := servers.NewGoSDK(nil).Connect(ctx, st, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ss.Close()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello, world"}}
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "hello, world" {
			b.Fatalf("CallTool: %+v %v", res, err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cs.CallTool(ctx, params); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestServersAgree checks that the three servers answer the benchmark's calls
// with the same content (the peers' JSON key order aside).
func TestServersAgree(t *testing.T) {
	for _, tool := range load.Tools {
		var first map[string]any
		for _, s := range pipeServers {
			got := oneCall(t, s.serve, tool)
			var res struct {
				Result map[string]any `json:"result"`
			}
			if err := json.Unmarshal(got, &res); err != nil || res.Result == nil {
				t.Fatalf("%s %s: %s", s.name, tool, got)
			}
			if first == nil {
				first = res.Result
				continue
			}
			if a, b := fmt.Sprint(normalize(first)), fmt.Sprint(normalize(res.Result)); a != b {
				t.Errorf("%s %s:\n got %s\nwant %s", s.name, tool, b, a)
			}
		}
	}
}

// normalize decodes the JSON text blocks, whose key order differs.
func normalize(res map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range res {
		out[k] = v
	}
	if content, ok := res["content"].([]any); ok {
		var blocks []any
		for _, c := range content {
			m := c.(map[string]any)
			var v any
			if json.Unmarshal([]byte(fmt.Sprint(m["text"])), &v) == nil {
				blocks = append(blocks, v)
			} else {
				blocks = append(blocks, m["text"])
			}
		}
		out["content"] = blocks
	}
	return out
}

func oneCall(t *testing.T, serve pipeServer, tool string) []byte {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(ctx, inR, outW)
		outW.Close()
	}()
	defer func() { inW.Close(); cancel(); outR.Close(); <-done }()
	r := bufio.NewReader(outR)
	io.WriteString(inW, initLine+"\n")
	if _, err := r.ReadBytes('\n'); err != nil {
		t.Fatal(err)
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	inW.Write(callLine(tool, 1))
	line, err := r.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	return line
}
