package spec

import (
	"slices"
	"strings"
	"testing"
)

// server.capabilities: the names, in order; unknown and repeated ones are
// errors that say where.
func TestServerCapabilities(t *testing.T) {
	s, diags := Load("mcpgen.yaml", []byte("mcpgen: 1\nserver: {name: s, version: '1', capabilities: [resources, completions]}\ngo: {package: p}\n"))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if want := []string{"resources", "completions"}; !slices.Equal(s.Server.Capabilities, want) {
		t.Errorf("Capabilities = %q, want %q", s.Server.Capabilities, want)
	}
	_, diags = Load("mcpgen.yaml", []byte("mcpgen: 1\nserver: {name: s, version: '1', capabilities: [promts, tools, tools]}\ngo: {package: p}\n"))
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	want := []string{
		`mcpgen.yaml:2:48: unknown capability "promts"; did you mean "prompts"?`,
		`mcpgen.yaml:2:63: capability tools is listed twice`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
