package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// blocksTool answers the given content blocks; its budget is limit.
func blocksTool(limit int, overflow runtime.Overflow, ttl time.Duration, content ...runtime.Content) runtime.Tool {
	return runtime.Tool{Name: "blocks", Description: "Answers blocks.", MaxResultBytes: limit, Overflow: overflow, ResultTTL: ttl,
		Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			return &runtime.CallToolResult{Content: content}, nil
		}}
}

func callBlocks(t *testing.T, tool runtime.Tool, opts ...runtime.Option) (toolResult, *client) {
	t.Helper()
	srv := runtime.NewServer(testInfo(), opts...)
	srv.AddTool(tool)
	c := serve(t, srv)
	c.initialize()
	var res toolResult
	jsonUnmarshal(c.callTool("blocks", nil), &res)
	return res, c
}

// TestResultPreviewBound: the preview is the first non-empty text block,
// whole when it has at most min(limit/2, 600) bytes, else cut there and
// marked; a result without text has none.
func TestResultPreviewBound(t *testing.T) {
	filler := runtime.TextContent{Text: strings.Repeat("z", 5000)} // puts the result over any budget here
	a := func(n int) string { return strings.Repeat("a", n) }
	for _, tc := range []struct {
		limit   int
		content []runtime.Content
		preview string // "" for none
	}{
		{200, []runtime.Content{runtime.TextContent{Text: a(99)}, filler}, a(99)},
		{200, []runtime.Content{runtime.TextContent{Text: a(100)}, filler}, a(100)},
		{200, []runtime.Content{runtime.TextContent{Text: a(101)}, filler}, a(100) + "…"},
		{201, []runtime.Content{runtime.TextContent{Text: a(101)}, filler}, a(100) + "…"},
		{202, []runtime.Content{runtime.TextContent{Text: a(101)}, filler}, a(101)},
		{1200, []runtime.Content{runtime.TextContent{Text: a(600)}, filler}, a(600)},
		{1200, []runtime.Content{runtime.TextContent{Text: a(601)}, filler}, a(600) + "…"},
		{4000, []runtime.Content{runtime.TextContent{Text: a(601)}, filler}, a(600) + "…"},
		{4000, []runtime.Content{runtime.TextContent{Text: a(1999)}, filler}, a(600) + "…"},
		{200, []runtime.Content{runtime.ImageContent{Data: []byte(strings.Repeat("i", 300)), MimeType: "image/png"}, runtime.TextContent{}, runtime.TextContent{Text: "second"}, filler}, "second"},
		{200, []runtime.Content{runtime.ImageContent{Data: []byte(strings.Repeat("i", 300)), MimeType: "image/png"}}, ""},
	} {
		res, _ := callBlocks(t, blocksTool(tc.limit, runtime.OverflowLink, 0, tc.content...))
		if len(res.Content) != 2 || res.IsError {
			t.Fatalf("limit %d: %+v, want a summary and a link", tc.limit, res)
		}
		summary := res.Content[0].Text
		_, got, found := strings.Cut(summary, " It begins: ")
		if found != (tc.preview != "") || got != tc.preview {
			t.Errorf("limit %d, first block of %d bytes: preview %q (%d bytes), want %q (%d bytes)", tc.limit, len(got), got, len(got), tc.preview, len(tc.preview))
		}
	}
}

// TestResultBudgetKept: what the runtime keeps for a link: the full
// result under the link's URI for ResultTTL (0 and below:
// DefaultResultTTL), said in the summary; every call its own link; a
// budget of 0 or below is none; a store that fails gives an isError result
// (nothing cut, no link) and a read that is not "not found".
func TestResultBudgetKept(t *testing.T) {
	big := runtime.TextContent{Text: strings.Repeat("b", 1000)}
	for _, tc := range []struct{ ttl, want time.Duration }{
		{0, runtime.DefaultResultTTL}, {-time.Second, runtime.DefaultResultTTL}, {time.Nanosecond, time.Nanosecond}, {90 * time.Second, 90 * time.Second},
	} {
		spy := &spyIdempotencyStore{inner: runtime.NewMemoryIdempotencyStore(0)}
		res, c := callBlocks(t, blocksTool(100, runtime.OverflowLink, tc.ttl, big), runtime.WithIdempotencyStore(spy))
		k, ttl, n := spy.last()
		if len(res.Content) != 2 || n != 1 || ttl != tc.want || k.Key != res.Content[1].URI || k.Owner != "" {
			t.Fatalf("ResultTTL %v: %+v; the store was asked %d times, last %+v for %v; want the link's URI for %v", tc.ttl, res, n, k, ttl, tc.want)
		}
		if !strings.Contains(res.Content[0].Text, "within "+tc.want.String()+" for all of it") {
			t.Errorf("ResultTTL %v: summary %q does not say %v", tc.ttl, res.Content[0].Text, tc.want)
		}
		if link := res.Content[1]; link.MimeType != "application/json" || link.Name != "blocks result" || link.Size < 1000 || !strings.HasPrefix(link.URI, "mcpgen-result://blocks/") {
			t.Errorf("the link: %+v", link)
		}
		var again toolResult
		jsonUnmarshal(c.callTool("blocks", nil), &again)
		if len(again.Content) != 2 || again.Content[1].URI == res.Content[1].URI {
			t.Errorf("two calls, one link: %+v", again)
		}
	}
	for _, limit := range []int{0, -1} {
		if res, _ := callBlocks(t, blocksTool(limit, runtime.OverflowLink, 0, big)); len(res.Content) != 1 || res.IsError || res.Content[0].Text != big.Text {
			t.Errorf("MaxResultBytes %d: %+v, want the result inlined", limit, res)
		}
	}

	spy := &spyIdempotencyStore{inner: runtime.NewMemoryIdempotencyStore(0), fail: errors.New("store down")}
	res, c := callBlocks(t, blocksTool(100, runtime.OverflowLink, 0, big), runtime.WithIdempotencyStore(spy))
	if len(res.Content) != 1 || !res.IsError || !strings.Contains(res.Content[0].Text, "over its limit of 100 bytes, and could not be kept for reading") {
		t.Errorf("with the store failing: %+v, want an isError result saying so", res)
	}
	r := c.request("resources/read", map[string]any{"uri": "mcpgen-result://blocks/00"})
	if r.Error == nil || strings.Contains(r.Error.Message, "not found") {
		t.Errorf("a read with the store failing: %+v, want an error that is not \"not found\"", r.Error)
	}
	spy.fail = nil
	for _, uri := range []string{"mcpgen-result://blocks/00", "mcpgen-result://", "other://blocks/00"} {
		if r := c.request("resources/read", map[string]any{"uri": uri}); r.Error == nil || !strings.Contains(r.Error.Message, "resource not found") {
			t.Errorf("read of %s: %+v, want resource not found", uri, r.Error)
		}
	}
}

// TestResultBudgetErrorOverflow: OverflowError keeps nothing, and only a
// tool with OverflowLink (and a budget) makes a server offer resources.
func TestResultBudgetErrorOverflow(t *testing.T) {
	spy := &spyIdempotencyStore{inner: runtime.NewMemoryIdempotencyStore(0)}
	res, _ := callBlocks(t, blocksTool(100, runtime.OverflowError, 0, runtime.TextContent{Text: strings.Repeat("b", 1000)}), runtime.WithIdempotencyStore(spy))
	if _, _, n := spy.last(); !res.IsError || len(res.Content) != 1 || n != 0 {
		t.Errorf("OverflowError: %+v, %d keeps; want an isError result and nothing kept", res, n)
	}
	for _, tc := range []struct {
		tool      runtime.Tool
		resources bool
	}{
		{blocksTool(100, runtime.OverflowError, 0), false},
		{blocksTool(0, runtime.OverflowLink, 0), false},
		{blocksTool(100, runtime.OverflowLink, 0), true},
	} {
		srv := runtime.NewServer(testInfo())
		srv.AddTool(tc.tool)
		init := string(serve(t, srv).initialize())
		if got := strings.Contains(init, `"resources"`); got != tc.resources {
			t.Errorf("MaxResultBytes %d, Overflow %d: resources offered %v, want %v: %s", tc.tool.MaxResultBytes, tc.tool.Overflow, got, tc.resources, init)
		}
	}
}
