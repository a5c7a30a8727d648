package spec

import "testing"

// TestSyntaxErrorLines: a tab in the indentation and an unclosed flow
// mapping or sequence are reported on their own line (yaml.v3 says the line
// before), at the tab or the bracket.
func TestSyntaxErrorLines(t *testing.T) {
	head := "mcpgen: 1\nserver: {name: a, version: 1}\ngo: {package: p}\n"
	for _, tc := range []struct {
		name, src string
		want      Pos
	}{
		{"tab in a block mapping", "mcpgen: 1\nserver:\n  name: a\n\tversion: 1\n", Pos{Line: 4, Column: 1}},
		{"unclosed {", head + "tools: {x: {description: d}\n", Pos{Line: 4, Column: 8}},
		{"unclosed { mid-file", "mcpgen: 1\nserver: {name: a, version: 1}\ngo: {package: p\ntools: {}\n", Pos{Line: 3, Column: 5}},
		{"unclosed [", "mcpgen: 1\nserver: [a, b\n", Pos{Line: 2, Column: 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Load("m.yaml", []byte(tc.src))
			if len(diags) == 0 {
				t.Fatal("no diagnostic")
			}
			if diags[0].Pos != tc.want {
				t.Errorf("reported at %d:%d, want %d:%d: %v", diags[0].Pos.Line, diags[0].Pos.Column, tc.want.Line, tc.want.Column, diags)
			}
		})
	}
}
