package interop

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestExpensesFallbackWithGoSDK is MCP Apps' progressive enhancement seen
// from a client without the extension (the official Go SDK declares none):
// it lists the model-visible tools, with their _meta.ui links it ignores,
// and not the app-only ones (expense_detail, approve_expense: only a view
// calls them); the snapshot tool answers it with a text summary a person
// can read, beside the structured content a view would show.
func TestExpensesFallbackWithGoSDK(t *testing.T) {
	session := connectGoSDK(t, "stdio", exampleBin(t, "expenses"), eraLegacy, nil, nil)
	ctx := context.Background()

	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tool := range tools.Tools {
		byName[tool.Name] = tool
	}
	explore := byName["explore_expenses"]
	if explore == nil || byName["expense_detail"] != nil || byName["approve_expense"] != nil {
		t.Fatalf("tools = %s, want explore_expenses and no app-only tool", jsonOf(t, tools.Tools))
	}
	ui, _ := explore.Meta["ui"].(map[string]any)
	if ui["resourceUri"] != "ui://expenses/explorer" {
		t.Errorf("explore_expenses _meta = %s", jsonOf(t, explore.Meta))
	}
	if _, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "expense_detail", Arguments: map[string]any{"expense_id": "EXP-0020"}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("expense_detail called by a client without MCP Apps: %v, want unknown tool", err)
	}

	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "explore_expenses", Arguments: map[string]any{"month": "2026-10"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) == 0 {
		t.Fatalf("result = %s", jsonOf(t, res))
	}
	summary, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("first block is %T, want text", res.Content[0])
	}
	for _, want := range []string{"Expenses for 2026-10", "snapshot snap-", "16 expenses", "pending approval", "EXP-0022"} {
		if !strings.Contains(summary.Text, want) {
			t.Errorf("summary lacks %q: %s", want, summary.Text)
		}
	}
	if sc, _ := res.StructuredContent.(map[string]any); sc == nil || len(sc["rows"].([]any)) != 16 {
		t.Errorf("structuredContent = %s", jsonOf(t, res.StructuredContent))
	}

	// The view itself is an ordinary resource to this client.
	read, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://expenses/explorer"})
	if err != nil {
		t.Fatal(err)
	}
	c := read.Contents[0]
	if c.MIMEType != "text/html;profile=mcp-app" || !strings.HasPrefix(c.Text, "<!doctype html>") || c.Meta["ui"] == nil {
		t.Errorf("ui://expenses/explorer = %s %q… %s", c.MIMEType, c.Text[:min(len(c.Text), 40)], jsonOf(t, c.Meta))
	}
}
