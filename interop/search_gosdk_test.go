package interop

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	library "github.com/mcpgen/mcpgen/golden/search_exposure"
)

type searchLender struct{ library.UnimplementedHandler }

func (searchLender) LendBook(_ context.Context, in *library.LendBookInput) (*library.LendBookOutput, error) {
	return &library.LendBookOutput{Due: "2026-12-22 for " + in.Reader}, nil
}

// TestSearchExposureWithGoSDK: the official Go SDK client, over stdio and
// Streamable HTTP and in both eras, sees the three search tools in
// tools/list, finds lend_book with search_tools, reads its schema with
// describe_tools, and gets from call_tool what a direct call returns: the
// result, and the generated validation's isError for bad arguments.
func TestSearchExposureWithGoSDK(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		for _, era := range eras {
			t.Run(transport+"/"+era, func(t *testing.T) {
				session := connectSearchServer(t, transport, era)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()

				if names := toolNames(t, session); strings.Join(names, " ") != "search_tools describe_tools call_tool" {
					t.Fatalf("tools/list: %q", names)
				}

				found := callText(ctx, t, session, "search_tools", map[string]any{"query": "lend a book to a reader", "limit": 2})
				if !strings.HasPrefix(found, `{"tools":[{"name":"lend_book"`) {
					t.Errorf("search_tools: %s", found)
				}
				described := callText(ctx, t, session, "describe_tools", map[string]any{"names": []string{"lend_book"}})
				if !strings.Contains(described, `"minLength":10`) {
					t.Errorf("describe_tools: %s", described)
				}

				for _, args := range []map[string]any{{"isbn": "0140449132", "reader": "R-7"}, {"isbn": "short", "reader": "R-7"}} {
					direct, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "lend_book", Arguments: args})
					if err != nil {
						t.Fatal(err)
					}
					via, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "lend_book", "arguments": args}})
					if err != nil {
						t.Fatal(err)
					}
					if direct.IsError != (args["isbn"] == "short") {
						t.Errorf("lend_book %v: isError %v", args, direct.IsError)
					}
					d, _ := json.Marshal(direct)
					v, _ := json.Marshal(via)
					if string(d) != string(v) {
						t.Errorf("lend_book %v:\ndirect:        %s\nvia call_tool: %s", args, d, v)
					}
				}
			})
		}
	}
}

// connectSearchServer serves golden/search_exposure in process, over
// stdio (pipes) or HTTP (httptest), and connects the Go SDK client to it.
func connectSearchServer(t *testing.T, transport, era string) *mcp.ClientSession {
	t.Helper()
	srv := library.NewServer(searchLender{})
	var tr mcp.Transport
	if transport == "stdio" {
		toServer, clientOut := io.Pipe()
		clientIn, fromServer := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			srv.ServeStdio(ctx, toServer, fromServer)
			fromServer.Close()
			close(done)
		}()
		t.Cleanup(func() { cancel(); clientOut.Close(); <-done })
		tr = &mcp.IOTransport{Reader: clientIn, Writer: clientOut}
	} else {
		ts := httptest.NewServer(srv.HTTPHandler())
		t.Cleanup(ts.Close)
		tr = &mcp.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: 2}
	}
	return connectGoSDKOver(t, tr, transport+" server", era, nil)
}

// callText calls a tool and returns its one text block, failing on an
// error or an isError result.
func callText(ctx context.Context, t *testing.T, session *mcp.ClientSession, name string, args any) string {
	t.Helper()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError || len(res.Content) != 1 {
		t.Fatalf("%s: %v %+v", name, err, res)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content %T", name, res.Content[0])
	}
	return text.Text
}
