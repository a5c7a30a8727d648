package mcpimport

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

// A tool name is at most 64 characters of [A-Za-z0-9_.-] (the MCP
// specification's rule): 64 is kept, 65 is left out with a note.
func TestToolNameLengthBound(t *testing.T) {
	at, over := strings.Repeat("a", 64), strings.Repeat("b", 65)
	tools := []json.RawMessage{
		json.RawMessage(`{"name":"` + at + `","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"` + over + `","inputSchema":{"type":"object"}}`),
	}
	res, err := FromLists(&Lists{Tools: tools}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, diags := spec.Load("x.yaml", res.YAML)
	if len(diags) > 0 {
		t.Fatalf("%v\n%s", diags, res.YAML)
	}
	if len(s.Tools) != 1 || s.Tools[0].Name != at {
		var names []string
		for _, tl := range s.Tools {
			names = append(names, tl.Name)
		}
		t.Errorf("tools = %q, want only the 64-character name", names)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), over+`" is not a valid tool name`) {
		t.Errorf("no note of the 65-character name: %q", res.Notes)
	}
}
