package cli

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestCommandFor(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcpgen")
	os.WriteFile(bin, []byte("x"), 0o755)
	other := filepath.Join(t.TempDir(), "mcpgen")
	os.WriteFile(other, []byte("y"), 0o755)
	version := func(v string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: mcpgenModule, Version: v}}
	}
	const cached = "/root/.cache/go-build/ab/abcd-d/mcpgen"
	for _, c := range []struct {
		name              string
		bi                *debug.BuildInfo
		exe, arg0, onPath string
		pinned            bool
		want              string
	}{
		{"go tool", version("v1.2.0"), cached, cached, "", true, "go tool mcpgen"},
		{"go run in a clone", version("(devel)"), "/tmp/go-build123/b001/exe/mcpgen", "/tmp/go-build123/b001/exe/mcpgen", "", false, "go run github.com/mcpgen/mcpgen/cmd/mcpgen"},
		{"go run with a replace", version(zeroVersion), cached, cached, "", false, "go run github.com/mcpgen/mcpgen/cmd/mcpgen"},
		{"go run @version", version("v1.2.0"), cached, cached, "", false, "go run github.com/mcpgen/mcpgen/cmd/mcpgen@v1.2.0"},
		{"installed, on PATH", version("v1.2.0"), bin, "mcpgen", bin, true, "mcpgen"},
		{"another one on PATH", version("v1.2.0"), bin, "./bin/mcpgen", other, false, "./bin/mcpgen"},
	} {
		if got := commandFor(c.bi, c.exe, c.arg0, c.onPath, c.pinned); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestPinnedAsTool(t *testing.T) {
	for gomod, want := range map[string]bool{
		"module m\n\ntool github.com/mcpgen/mcpgen/cmd/mcpgen\n":                                            true,
		"module m\n\ntool (\n\tgolang.org/x/tools/cmd/stringer\n\tgithub.com/mcpgen/mcpgen/cmd/mcpgen\n)\n": true,
		"module m\n\nrequire github.com/mcpgen/mcpgen v1.0.0\n":                                             false,
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644)
		os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
		if got := pinnedAsTool(filepath.Join(dir, "sub")); got != want {
			t.Errorf("%q: %v, want %v", gomod, got, want)
		}
	}
}
