package spec

import "testing"

// A tool's annotation key outside MCP's hints is kept, in order, with its
// value as written; a near miss of a hint is a typo.
func TestToolAnnotationExtra(t *testing.T) {
	s, diags := Load("mcpgen.yaml", []byte("mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\ntools:\n  t:\n    description: d\n    annotations: {readOnlyHint: true, category: files, x-cost: {tier: 2}}\n"))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	extra := s.Tools[0].Annotations.Extra
	if len(extra) != 2 || extra[0].Key != "category" || string(extra[0].Value.JSON) != `"files"` || extra[1].Key != "x-cost" || string(extra[1].Value.JSON) != `{"tier":2}` {
		t.Errorf("Extra = %+v", extra)
	}
	_, diags = Load("mcpgen.yaml", []byte("mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\ntools:\n  t:\n    description: d\n    annotations: {readonlyHint: true}\n"))
	if want := `mcpgen.yaml:7:19: unknown key "readonlyHint" in annotations; did you mean "readOnlyHint"?`; len(diags) != 1 || diags[0].String() != want {
		t.Errorf("diagnostics %v, want %s", diags, want)
	}
}
