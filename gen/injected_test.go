package gen_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

// TestInjectedArgumentsOption: server.injectedArguments: reject turns the
// runtime's default (drop) off in the generated NewServer; drop, or nothing,
// adds no option.
func TestInjectedArgumentsOption(t *testing.T) {
	for policy, want := range map[string]bool{"": false, "drop": false, "reject": true} {
		src := "mcpgen: 1\nserver: {name: t, version: \"1\""
		if policy != "" {
			src += ", injectedArguments: " + policy
		}
		src += "}\ngo: {package: t}\ntools:\n  greet:\n    description: d\n    input: {properties: {name: {type: string}}}\n"
		s, diags := spec.Load("mcpgen.yaml", []byte(src))
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		files, err := gen.Generate(s, gen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, f := range files {
			all.Write(f.Bytes)
		}
		if got := strings.Contains(all.String(), "runtime.WithInjectedArguments(runtime.RejectInjected)"); got != want {
			t.Errorf("injectedArguments %q: option generated = %v, want %v", policy, got, want)
		}
	}
}
