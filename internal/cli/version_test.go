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
		{"go tool mcpgen against a clone (the zero pseudo-version of -require)", debug.BuildInfo{
			Main: debug.Module{Path: mcpgenModule, Version: "v0.0.0-00010101000000-000000000000"},
		}, "(devel)"},
		{"a dependency at the zero pseudo-version", debug.BuildInfo{
			Main: debug.Module{Path: "example.com/hello"},
			Deps: []*debug.Module{{Path: mcpgenModule, Version: "v0.0.0-00010101000000-000000000000"}},
		}, "(devel)"},
		{"a replace to a released version", debug.BuildInfo{
			Main: debug.Module{Path: "example.com/hello"},
			Deps: []*debug.Module{{Path: mcpgenModule, Version: "v0.4.1", Replace: &debug.Module{Path: "example.com/fork", Version: "v0.4.2"}}},
		}, "v0.4.2"},
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

// TestVersionOverride: a release build's -ldflags -X wins over build info.
func TestVersionOverride(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "v1.2.3"
	if got := Version(); got != "v1.2.3" {
		t.Errorf("Version = %q with version set by -ldflags, want v1.2.3", got)
	}
}
