package yamlmap

import (
	"encoding/json"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/spec"
)

// TestStrRoundTrip: a string stays a string when written and read back,
// also one that YAML 1.2 (and the spec loader) would read as a number.
func TestStrRoundTrip(t *testing.T) {
	for _, s := range []string{"1e400", "-1E+400", "12", "1e3", "x", ""} {
		m := New()
		m.Set("a", Str(s))
		text, err := yaml.Marshal(m.N)
		if err != nil {
			t.Fatal(err)
		}
		var back yaml.Node
		if err := yaml.Unmarshal(text, &back); err != nil {
			t.Fatal(err)
		}
		v := back.Content[0].Content[1]
		if v.Value != s || v.Tag != "!!str" {
			t.Errorf("%q written as %q: read back %s %q (style %v)", s, text, v.Tag, v.Value, v.Style)
		}
		want, _ := json.Marshal(map[string]string{"a": s})
		if got, diags := spec.JSON("t.yaml", text); string(got) != string(want) || len(diags) > 0 {
			t.Errorf("%q written as %q: the spec loader reads %s %v, want %s", s, text, got, diags, want)
		}
	}
}
