package cli

import (
	"runtime/debug"
	"testing"
)

func TestVersionFrom(t *testing.T) {
	tests := []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"mcpgen is the main module, released", debug.BuildInfo{Main: debug.Module{Path: mcpgenModule, Version: "v0.3.0"}}, "v0.3.0"},
		{"mcpgen is the main module, from a work tree", debug.BuildInfo{Main: debug.Module{Path: mcpgenModule}}, "(devel)"},
		{"go tool mcpgen in a user's module", debug.BuildInfo{
			Main: debug.Module{Path: "example.com/hello", Version: "(devel)"},
			Deps: []*debug.Module{{Path: "golang.org/x/mod", Version: "v0.20.0"}, {Path: mcpgenModule, Version: "v0.4.1"}},
		}, "v0.4.1"},
		{"a replaced mcpgen", debug.BuildInfo{
			Main: debug.Module{Path: "example.com/hello"},
			Deps: []*debug.Module{{Path: mcpgenModule, Version: "v0.4.1", Replace: &debug.Module{Path: "../mcpgen"}}},
		}, "(devel)"},
		{"mcpgen nowhere", debug.BuildInfo{Main: debug.Module{Path: "example.com/hello"}}, "(devel)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionFrom(&tt.bi); got != tt.want {
				t.Errorf("versionFrom = %q, want %q", got, tt.want)
			}
		})
	}
}
