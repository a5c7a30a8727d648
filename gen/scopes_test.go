package gen_test

import (
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/spec"
)

// TestToolScopesRegistered proves, for every golden case and example, that
// the generated registration gives each tool the scopes the spec resolves
// for it (its own `scopes:`, else the server's), which the runtime then
// enforces per tools/call.
func TestToolScopesRegistered(t *testing.T) {
	for path, register := range compiledCases {
		s, diags, err := spec.LoadFile(path)
		if err != nil || len(diags) > 0 {
			t.Fatalf("%s: %v %v", path, err, diags)
		}
		srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"})
		register(srv)
		for i, tool := range srv.Tools() {
			if want := s.ToolScopes(s.Tools[i]); !slices.Equal(tool.Scopes, want) {
				t.Errorf("%s: tool %q registered with scopes %q, the spec says %q", path, tool.Name, tool.Scopes, want)
			}
		}
	}
	// The golden case covers all three ways: inherited, own, none.
	s, _, _ := spec.LoadFile("../golden/scopes/mcpgen.yaml")
	var got [][]string
	for _, tool := range s.Tools {
		got = append(got, s.ToolScopes(tool))
	}
	if len(got) != 3 || !slices.Equal(got[0], []string{"expenses:read"}) || len(got[1]) != 2 || len(got[2]) != 0 {
		t.Errorf("golden/scopes resolves to %q", got)
	}
}
