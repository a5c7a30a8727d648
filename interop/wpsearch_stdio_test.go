package interop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestWPSearchOverStdioWithGoSDK plays seed 000 as a host would: search,
// get links, follow one, and measure what the links save over inlining the
// articles.
func TestWPSearchOverStdioWithGoSDK(t *testing.T) {
	session := connectGoSDK(t, "stdio", exampleBin(t, "wpsearch"), eraLegacy, nil, nil)
	ctx := context.Background()

	if info := session.InitializeResult().ServerInfo; info.Name != "wpsearch" {
		t.Errorf("serverInfo = %+v", info)
	}
	templates, err := session.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "post://{id}" || templates.ResourceTemplates[0].MIMEType != "text/markdown" {
		t.Errorf("resource templates = %s", jsonOf(t, templates.ResourceTemplates))
	}
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 1 || tools.Tools[0].Name != "search_posts" {
		t.Fatalf("tools = %s", jsonOf(t, tools.Tools))
	}
	props := asMap(t, tools.Tools[0].InputSchema)["properties"].(map[string]any)
	if limit := props["limit"].(map[string]any); limit["minimum"] != 1.0 || limit["maximum"] != 10.0 || limit["default"] != 5.0 {
		t.Errorf("limit schema = %v", limit)
	}

	// A search answers with a line of text and links, best first.
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "search_posts", Arguments: map[string]any{"query": "Redis caching"}})
	if err != nil || res.IsError {
		t.Fatalf("search_posts: %v %s", err, textOf(res))
	}
	links := linksOf(t, res)
	if len(links) == 0 || len(links) > 5 {
		t.Fatalf("got %d links, want 1 to 5 (the default limit)", len(links))
	}
	best := links[0]
	if best.URI != "post://4" || best.Name != "post" || best.MIMEType != "text/markdown" ||
		!strings.Contains(best.Title, "Redis") || best.Description == "" || best.Size == nil {
		t.Errorf("best link = %s", jsonOf(t, best))
	}

	// Following the link gives the article, whose size the link announced.
	read, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: best.URI})
	if err != nil {
		t.Fatalf("reading %s: %v", best.URI, err)
	}
	if len(read.Contents) != 1 {
		t.Fatalf("got %d contents", len(read.Contents))
	}
	article := read.Contents[0]
	if article.URI != best.URI || article.MIMEType != "text/markdown" || !strings.HasPrefix(article.Text, "# "+best.Title+"\n") {
		t.Errorf("article = %.200s (uri %s, mimeType %s)", article.Text, article.URI, article.MIMEType)
	}
	if int64(len(article.Text)) != *best.Size {
		t.Errorf("link says %d bytes, the article has %d", *best.Size, len(article.Text))
	}

	// A post that does not exist, and a URI that cannot name one: both
	// -32002, the second saying why.
	_, err = session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "post://9999"})
	if e := rpcError(err); e == nil || e.Code != -32002 || !strings.Contains(e.Message, "no post 9999") {
		t.Errorf("post://9999: %v, want -32002 naming the post", err)
	}
	_, err = session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "post://abc"})
	if e := rpcError(err); e == nil || e.Code != -32002 || !strings.Contains(e.Message, "variable id: must be an integer") {
		t.Errorf("post://abc: %v, want -32002 saying id must be an integer", err)
	}

	// Invalid input is the tool's isError result, as for any tool.
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "search_posts", Arguments: map[string]any{"query": "", "limit": 11}})
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "/query") || !strings.Contains(textOf(res), "/limit") {
		t.Errorf("invalid search: %v %q", err, textOf(res))
	}

	// The measure of seed 000: ten results as links against the same ten
	// articles inlined as text.
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "search_posts", Arguments: map[string]any{"query": "wordpress", "limit": 10}})
	if err != nil || res.IsError {
		t.Fatalf("search_posts: %v %s", err, textOf(res))
	}
	links = linksOf(t, res)
	if len(links) != 10 {
		t.Fatalf("got %d links, want 10", len(links))
	}
	inlined := &mcp.CallToolResult{Content: []mcp.Content{res.Content[0]}} // the same text line
	for _, l := range links {
		r, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: l.URI})
		if err != nil {
			t.Fatalf("reading %s: %v", l.URI, err)
		}
		inlined.Content = append(inlined.Content, &mcp.TextContent{Text: r.Contents[0].Text})
	}
	linkBytes, inlineBytes := len(jsonOf(t, res)), len(jsonOf(t, inlined))
	ratio := float64(inlineBytes) / float64(linkBytes)
	line := fmt.Sprintf("wpsearch: 10 results as resource_link: %d bytes; inlined as text: %d bytes; links are %.1f× smaller", linkBytes, inlineBytes, ratio)
	t.Log(line)
	if testing.Verbose() {
		fmt.Println(line)
	}
	if ratio < 5 {
		t.Errorf("links are only %.1f× smaller than inlined articles, want at least 5×", ratio)
	}
}

// linksOf returns the resource_link blocks of a search result, after
// checking that it starts with one line of text.
func linksOf(t *testing.T, res *mcp.CallToolResult) []*mcp.ResourceLink {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatal("empty result")
	}
	if _, ok := res.Content[0].(*mcp.TextContent); !ok {
		t.Errorf("first block is %T, want the text line", res.Content[0])
	}
	var links []*mcp.ResourceLink
	for _, c := range res.Content[1:] {
		l, ok := c.(*mcp.ResourceLink)
		if !ok {
			t.Fatalf("block %T in a search result, want only resource_link after the text", c)
		}
		links = append(links, l)
	}
	return links
}

// rpcError returns the JSON-RPC error err carries, or nil.
func rpcError(err error) *jsonrpc.Error {
	var e *jsonrpc.Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
