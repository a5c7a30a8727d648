package interop

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestOrdersOverStdioWithGoSDK(t *testing.T) {
	session := connectGoSDK(t, "stdio", exampleBin(t, "orders"), eraLegacy, nil, nil)
	ctx := context.Background()

	init := session.InitializeResult()
	if init.ServerInfo.Name != "orders" || init.ServerInfo.Title != "Orders desk" {
		t.Errorf("serverInfo = %+v", init.ServerInfo)
	}
	if !strings.Contains(init.Instructions, "Refunds cannot be undone") {
		t.Errorf("instructions = %q", init.Instructions)
	}

	list, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]*mcp.Tool{}
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		byName[tool.Name] = tool
	}
	if diff := cmp.Diff([]string{"lookup_order", "create_note", "refund_order"}, names); diff != "" {
		t.Fatalf("tools (-want +got):\n%s", diff)
	}
	lookup := byName["lookup_order"]
	if lookup.Annotations == nil || !lookup.Annotations.ReadOnlyHint {
		t.Errorf("lookup_order annotations = %+v, want readOnlyHint", lookup.Annotations)
	}
	if refund := byName["refund_order"]; refund.Annotations == nil || refund.Annotations.DestructiveHint == nil || !*refund.Annotations.DestructiveHint {
		t.Errorf("refund_order must be marked destructive: %+v", refund.Annotations)
	}
	wantInput := map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []any{"order_id"},
		"properties": map[string]any{
			"order_id": map[string]any{
				"type":        "string",
				"pattern":     `^[A-Z]-\d{4}$`,
				"description": "An order id such as A-1042.",
				"examples":    []any{"A-1042"},
			},
		},
	}
	if diff := cmp.Diff(wantInput, asMap(t, lookup.InputSchema)); diff != "" {
		t.Errorf("lookup_order inputSchema (-want +got):\n%s", diff)
	}
	if out := asMap(t, lookup.OutputSchema); out["type"] != "object" {
		t.Errorf("lookup_order outputSchema = %v, want an object schema", out)
	}

	// A valid call: structured content, mirrored as JSON text.
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_order", Arguments: map[string]any{"order_id": "A-1042"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("lookup_order failed: %v", textOf(res))
	}
	order := asMap(t, res.StructuredContent)
	if order["order_id"] != "A-1042" || order["status"] != "paid" {
		t.Errorf("structuredContent = %v", order)
	}
	var mirrored map[string]any
	if err := json.Unmarshal([]byte(textOf(res)), &mirrored); err != nil || mirrored["order_id"] != "A-1042" {
		t.Errorf("text content is not the JSON of the output: %q (%v)", textOf(res), err)
	}

	// Invalid input: an isError result that names every violation.
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_order", Arguments: map[string]any{"order_id": "a-1", "extra": true}})
	if err != nil {
		t.Fatalf("invalid arguments must give an isError result, not a protocol error: %v", err)
	}
	if !res.IsError {
		t.Fatalf("invalid arguments were accepted: %v", textOf(res))
	}
	msg := textOf(res)
	for _, want := range []string{"/order_id", "extra"} {
		if !strings.Contains(msg, want) {
			t.Errorf("validation message %q does not mention %q", msg, want)
		}
	}

	// A write, then a read that sees it.
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "create_note", Arguments: map[string]any{"order_id": "A-1042", "text": "called the customer"}})
	if err != nil || res.IsError {
		t.Fatalf("create_note: %v %v", err, textOf(res))
	}
	if got := asMap(t, res.StructuredContent); got["notes"] != float64(1) {
		t.Errorf("create_note output = %v", got)
	}

	// A tool without declared output returns its own content; retries with
	// the same idempotency key do not refund twice.
	args := map[string]any{"order_id": "A-1042", "reason": "damaged", "idempotency_key": "0b6f5d1e-9a43-4c1b-8f6e-2d9c7a1b3e55"}
	first, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "refund_order", Arguments: args})
	if err != nil || first.IsError {
		t.Fatalf("refund_order: %v %v", err, textOf(first))
	}
	again, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "refund_order", Arguments: args})
	if err != nil || again.IsError || textOf(again) != textOf(first) {
		t.Errorf("retried refund: %v %q, want the first result %q", err, textOf(again), textOf(first))
	}

	// A handler error is an isError result the model can act on.
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_order", Arguments: map[string]any{"order_id": "Z-9999"}})
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "no order Z-9999") {
		t.Errorf("unknown order: %v %q", err, textOf(res))
	}

	// An unknown tool is a protocol error, -32602.
	_, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "drop_tables", Arguments: map[string]any{}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != -32602 {
		t.Errorf("unknown tool: err = %v, want a JSON-RPC error -32602", err)
	}
}

func asMap(t *testing.T, v any) map[string]any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s is not a JSON object: %v", data, err)
	}
	return m
}

func textOf(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}
