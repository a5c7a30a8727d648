package runtime_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// TestResultBudgetExactTexts: the summary, the link block and the isError
// texts of a result over budget, written out in full; the read of the link
// answers the whole CallToolResult as application/json under the link's
// URI; an unknown link's error names it.
func TestResultBudgetExactTexts(t *testing.T) {
	body := strings.Repeat("b", 300)
	content := []runtime.Content{runtime.TextContent{Text: "héllo"}, runtime.TextContent{Text: body}}
	full := `{"content":[{"type":"text","text":"héllo"},{"type":"text","text":"` + body + `"}]}`
	size := len(full)
	uriForm := regexp.MustCompile(`^mcpgen-result://blocks/[0-9a-f]{32}$`)
	for _, tc := range []struct {
		ttl  time.Duration
		said string
	}{{0, "10m0s"}, {90 * time.Second, "1m30s"}} {
		srv := runtime.NewServer(testInfo())
		srv.AddTool(blocksTool(120, runtime.OverflowLink, tc.ttl, content...))
		c := serve(t, srv)
		c.initialize()
		var res struct {
			Content []map[string]any `json:"content"`
			IsError bool             `json:"isError"`
		}
		if err := json.Unmarshal(c.callTool("blocks", nil), &res); err != nil || len(res.Content) != 2 || res.IsError {
			t.Fatalf("ttl %v: %+v (%v)", tc.ttl, res, err)
		}
		uri, _ := res.Content[1]["uri"].(string)
		if !uriForm.MatchString(uri) {
			t.Fatalf("ttl %v: link %q", tc.ttl, uri)
		}
		want := fmt.Sprintf("The result of blocks is %d bytes, over this tool's limit of 120 bytes, so it is not inlined: read %s (resources/read) within %s for all of it. It begins: héllo", size, uri, tc.said)
		if got := res.Content[0]["text"]; got != want || res.Content[0]["type"] != "text" {
			t.Errorf("ttl %v: summary\n got %q\nwant %q", tc.ttl, got, want)
		}
		link, _ := json.Marshal(res.Content[1])
		wantLink := fmt.Sprintf(`{"description":"The full result of this call of blocks (a CallToolResult).","mimeType":"application/json","name":"blocks result","size":%d,"type":"resource_link","uri":%q}`, size, uri)
		if string(link) != wantLink {
			t.Errorf("ttl %v: link\n got %s\nwant %s", tc.ttl, link, wantLink)
		}
		r := c.request("resources/read", map[string]any{"uri": uri})
		if r.Error != nil {
			t.Fatalf("read: %s", errorJSON(r))
		}
		wantRead := `{"contents":[{"uri":` + fmt.Sprintf("%q", uri) + `,"mimeType":"application/json","text":` + string(mustMarshal(t, full)) + `}]}`
		if got := compactJSON(t, r.Result); got != wantRead {
			t.Errorf("read\n got %s\nwant %s", got, wantRead)
		}
		gone := "mcpgen-result://blocks/" + strings.Repeat("0", 32)
		if r := c.request("resources/read", map[string]any{"uri": gone}); r.Error == nil || !strings.Contains(r.Error.Message, gone+" (a result is kept for a while after its call, for its caller only)") {
			t.Errorf("an unknown link: %s", errorJSON(r))
		}
	}
	srv := runtime.NewServer(testInfo())
	srv.AddTool(blocksTool(120, runtime.OverflowError, 0, content...))
	c := serve(t, srv)
	c.initialize()
	var res toolResult
	jsonUnmarshal(c.callTool("blocks", nil), &res)
	want := fmt.Sprintf("the result of tool blocks is %d bytes, over its limit of 120 bytes (maxResultBytes); ask for less: narrow the query, or fetch fewer items or a page at a time", size)
	if !res.IsError || len(res.Content) != 1 || res.Content[0].Text != want {
		t.Errorf("OverflowError: %+v, want %q", res, want)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func compactJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
