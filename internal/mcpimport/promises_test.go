package mcpimport

import (
	"encoding/json"
	"go/token"
	"strings"
	"testing"
)

// TestPackageNameIsAGoIdentifier: whatever the server calls itself,
// go.package (and go.output) is a lower-case Go identifier, not a keyword,
// ending in mcp.
func TestPackageNameIsAGoIdentifier(t *testing.T) {
	for _, name := range []string{"1password", "42", "007-agent", "9", "my-server", "GitHub MCP",
		"Ünïcode 東京", "", "mcp", "go", "type", "_x", "a1"} {
		init, err := json.Marshal(initializeResult{ServerInfo: map[string]any{"name": name}})
		if err != nil {
			t.Fatal(err)
		}
		lists := &Lists{Initialize: init}
		res, err := FromLists(lists, Options{})
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		_, s := importLists(t, lists)
		pkg := s.Go.Package
		if !token.IsIdentifier(pkg) || token.IsKeyword(pkg) || pkg != strings.ToLower(pkg) || !strings.HasSuffix(pkg, "mcp") {
			t.Errorf("server %q: go.package %q is not a lower-case Go identifier ending in mcp\n%s", name, pkg, res.YAML)
		}
	}
}

// TestToolListedTwice: a tool name listed twice keeps the first
// definition, and a note says the second was left out.
func TestToolListedTwice(t *testing.T) {
	lists := &Lists{Tools: []json.RawMessage{
		json.RawMessage(`{"name":"t","description":"the first","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"u","description":"another","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"t","description":"the second","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`),
	}}
	res, s := importLists(t, lists)
	if len(s.Tools) != 2 {
		t.Fatalf("%d tools, want 2\n%s", len(s.Tools), res.YAML)
	}
	for _, tool := range s.Tools {
		if tool.Name == "t" && tool.Description != "the first" {
			t.Errorf("tool t: description %q, want the first's\n%s", tool.Description, res.YAML)
		}
	}
	noted := false
	for _, n := range res.Notes {
		noted = noted || strings.Contains(n, "tools.t") && strings.Contains(n, "twice")
	}
	if !noted {
		t.Errorf("no note names the tool listed twice: %q", res.Notes)
	}
}
