package runtime_test

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/inmemory"
)

// PostURI holds the variables of the template post://{id}: the json tag
// names the variable, the type converts it, the jsonschema tag bounds it.
type PostURI struct {
	ID int `json:"id" jsonschema:"minimum=1"`
}

// Post is what reading post://{id} returns, sent as JSON.
type Post struct {
	ID    int    `json:"id"`
	Title string `json:"title"`
}

// A resource template: one handler serves a family of resources named by
// an RFC 6570 URI template. TypedTemplate decodes and validates the URI's
// variables into a struct, so a URI that does not fit (not a number, below
// the minimum) is answered as a resource not found, with the reason, before
// the handler runs. The in-memory client reads three URIs.
func ExampleTypedTemplate() {
	srv := runtime.NewServer(runtime.Implementation{Name: "blog", Version: "1.0.0"})
	srv.AddResourceTemplate(runtime.TypedTemplate(
		runtime.ResourceTemplate{URITemplate: "post://{id}", Name: "post", MimeType: "application/json"},
		func(ctx context.Context, p *PostURI) (*Post, error) {
			if p.ID > 100 {
				return nil, runtime.ErrResourceNotFound // the handler decides too
			}
			return &Post{ID: p.ID, Title: fmt.Sprintf("Post number %d", p.ID)}, nil
		}))

	ctx := context.Background()
	c, err := inmemory.Connect(srv, inmemory.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	if _, err := c.Call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "example", "version": "1"},
	}); err != nil {
		fmt.Println(err)
		return
	}
	_ = c.Notify(ctx, "notifications/initialized", nil)

	list, _ := c.Call(ctx, "resources/templates/list", nil)
	fmt.Println(string(list))
	for _, uri := range []string{"post://7", "post://abc", "post://0", "post://101"} {
		res, err := c.Call(ctx, "resources/read", map[string]any{"uri": uri})
		if err != nil {
			fmt.Println(uri, "→", err)
			continue
		}
		fmt.Println(uri, "→", string(res))
	}
	// Output:
	// {"resourceTemplates":[{"uriTemplate":"post://{id}","name":"post","mimeType":"application/json"}]}
	// post://7 → {"contents":[{"uri":"post://7","mimeType":"application/json","text":"{\"id\":7,\"title\":\"Post number 7\"}"}]}
	// post://abc → JSON-RPC error -32002: resource not found: "post://abc": variable id: must be an integer (got "abc")
	// post://0 → JSON-RPC error -32002: resource not found: "post://0": variable id: must be greater than or equal to 1 (got 0)
	// post://101 → JSON-RPC error -32002: resource not found: "post://101"
}
