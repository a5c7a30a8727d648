package interop

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestBooksUnionsWithGoSDK: the official Go SDK client against
// examples/books, whose tool takes a union (text, or a filter object) and a
// nullable limit spelled anyOf [integer, null], and returns a list of a
// oneOf (a book, or a note). The client reads the unions as the spec wrote
// them, each variant goes through, and a value that fits no variant is
// refused before the handler.
func TestBooksUnionsWithGoSDK(t *testing.T) {
	session := connectGoSDK(t, "stdio", exampleBin(t, "books"), eraLegacy, nil, nil)
	ctx := context.Background()

	list, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "find_books" {
		t.Fatalf("tools = %s", jsonOf(t, list))
	}
	input := asMap(t, list.Tools[0].InputSchema)
	props := input["properties"].(map[string]any)
	wantQuery := map[string]any{
		"description": "Text to look for, or a filter.",
		"anyOf":       []any{map[string]any{"type": "string", "minLength": float64(1)}, map[string]any{"$ref": "#/$defs/Filter"}},
	}
	if diff := cmp.Diff(wantQuery, props["query"]); diff != "" {
		t.Errorf("query schema (-want +got):\n%s", diff)
	}
	wantLimit := map[string]any{
		"description": "The most items to return, or null for all.",
		"anyOf":       []any{map[string]any{"type": "integer", "minimum": float64(1)}, map[string]any{"type": "null"}},
	}
	if diff := cmp.Diff(wantLimit, props["limit"]); diff != "" {
		t.Errorf("limit schema (-want +got):\n%s", diff)
	}
	items := asMap(t, list.Tools[0].OutputSchema)["properties"].(map[string]any)["items"].(map[string]any)["items"].(map[string]any)
	if variants, _ := items["oneOf"].([]any); len(variants) != 2 {
		t.Errorf("output items = %s, want a oneOf of two", jsonOf(t, items))
	}

	for _, c := range []struct {
		name string
		args map[string]any
		want string // structuredContent as JSON (the SDK decodes it into a map: sorted keys)
	}{
		{"text", map[string]any{"query": "programming", "limit": 1},
			`{"items":[{"author":"Alan Donovan","kind":"book","title":"The Go Programming Language","year":2015}]}`},
		{"filter, null limit", map[string]any{"query": map[string]any{"field": "author", "equals": "Christopher Alexander"}, "limit": nil},
			`{"items":[{"author":"Christopher Alexander","kind":"book","title":"Notes on the Synthesis of Form","year":null}]}`},
		{"nothing found", map[string]any{"query": map[string]any{"field": "title", "equals": "Dune"}},
			`{"items":[{"kind":"note","text":"no book matches"}]}`},
	} {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "find_books", Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.IsError {
			t.Errorf("%s: error result %s", c.name, jsonOf(t, res))
			continue
		}
		if got := jsonOf(t, res.StructuredContent); got != c.want {
			t.Errorf("%s: structuredContent = %s, want %s", c.name, got, c.want)
		}
	}

	for _, args := range []map[string]any{
		{"query": 42},
		{"query": map[string]any{"field": "author"}},
		{"query": "go", "limit": 0},
	} {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "find_books", Arguments: args})
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if !res.IsError {
			t.Errorf("%v: accepted (%s), want refused", args, jsonOf(t, res))
		}
	}
}
