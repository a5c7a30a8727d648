package streamhttp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/streamhttp"
)

// New serves any transport.FullServer (here a *runtime.Server, as
// runtime.Server.HTTPHandler does) over Streamable HTTP; mount the
// handler where you like, behind your own middleware.
func ExampleNew() {
	type GreetInput struct {
		Name string `json:"name"`
	}
	type GreetOutput struct {
		Greeting string `json:"greeting"`
	}
	srv := runtime.NewServer(runtime.Implementation{Name: "greeter", Version: "1.0.0"}, runtime.WithStartLine(nil))
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "greet", Description: "Greets someone by name."},
		func(ctx context.Context, in *GreetInput) (*GreetOutput, error) {
			return &GreetOutput{Greeting: "Hello, " + in.Name + "!"}, nil
		}))
	h, err := streamhttp.New(srv, streamhttp.WithStateless())
	if err != nil {
		fmt.Println(err)
		return
	}
	ts := httptest.NewServer(h)
	defer ts.Close()

	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"))
	fmt.Println(string(body))
	// Output:
	// 200 application/json
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"greeting\":\"Hello, Ada!\"}"}],"structuredContent":{"greeting":"Hello, Ada!"}}}
}
