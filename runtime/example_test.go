package runtime_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// A server written by hand, with one typed tool: the runtime derives the
// input and output schemas from the Go types, validates arguments against
// them, and returns the output as structured content. Here it serves a
// scripted session over stdio.
func ExampleTypedTool() {
	type GreetInput struct {
		Name string `json:"name" jsonschema:"minLength=1"`
	}
	type GreetOutput struct {
		Greeting string `json:"greeting"`
	}
	srv := runtime.NewServer(runtime.Implementation{Name: "greeter", Version: "1.0.0"}, runtime.WithStartLine(nil))
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "greet", Description: "Greets someone by name."},
		func(ctx context.Context, in *GreetInput) (*GreetOutput, error) {
			return &GreetOutput{Greeting: "Hello, " + in.Name + "!"}, nil
		}))

	session := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{"name":""}}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := srv.ServeStdio(context.Background(), strings.NewReader(session), &out); err != nil {
		fmt.Println(err)
	}
	// Requests may be answered concurrently: print the answers by id.
	var answers []string
	for sc := bufio.NewScanner(&out); sc.Scan(); {
		answers = append(answers, sc.Text())
	}
	slices.Sort(answers)
	for _, a := range answers[1:] { // [0] is the initialize result
		fmt.Println(a)
	}
	// Output:
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"greeting\":\"Hello, Ada!\"}"}],"structuredContent":{"greeting":"Hello, Ada!"}}}
	// {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"invalid arguments for tool \"greet\":\n- /name: must be at least 1 character long (got 0)"}],"isError":true}}
}
