package spec

import (
	"testing"

	"gopkg.in/yaml.v3"
)

// TestValueJSON: YAML values become JSON as yaml.v3 resolves them.
func TestValueJSON(t *testing.T) {
	for _, c := range []struct{ yaml, json string }{
		{`1`, `1`},
		{`-7`, `-7`},
		{`0x1F`, `31`},
		{`0o17`, `15`},
		{`1_000`, `1000`},
		{`+5`, `5`},
		{`18446744073709551615`, `18446744073709551615`}, // uint64
		{`99999999999999999999`, `99999999999999999999`}, // a float to yaml.v3, kept as written
		{`1.50`, `1.50`},
		{`1e3`, `1e3`},
		{`.5`, `0.5`},
		{`1.`, `1`},
		{`!!float 1`, `1`},
		{`!!float 9223372036854776000`, `9223372036854776000`}, // past int64: yaml.v3 cannot decode it
		{`!!int 9223372036854776000`, `9223372036854776000`},
		{`-9223372036854776001`, `-9223372036854776001`},
		{`1e400`, `1e400`},     // past float64: a string to yaml.v3, a float to YAML 1.2
		{`-1E+400`, `-1E+400`}, // likewise
		{`0.10000000000000000000000000001`, `0.10000000000000000000000000001`},
		{`"1e400"`, `"1e400"`},
		{`!!str 1e400`, `"1e400"`},
		{`true`, `true`},
		{`False`, `false`},
		{`yes`, `"yes"`}, // YAML 1.1 booleans are strings in yaml.v3
		{`~`, `null`},
		{`null`, `null`},
		{``, `null`},
		{`"12"`, `"12"`},
		{`!!str 12`, `"12"`},
		{`2024-01-02`, `"2024-01-02"`}, // a timestamp: JSON has none
		{`!!binary aGk=`, `"aGk="`},
		{`'a <b> & "c"'`, `"a <b> & \"c\""`},
		{`"tab\there"`, `"tab\there"`},
		{`héllo`, `"héllo"`},
		{`[1, [], {}]`, `[1,[],{}]`},
		{`{z: 1, a: 2, m: [x]}`, `{"z":1,"a":2,"m":["x"]}`},
		{"- a\n- b: 1\n  c: null\n", `["a",{"b":1,"c":null}]`},
		{"{<<: {a: 1, b: 2}, b: 3}", `{"a":1,"b":3}`},
		{"[&x {a: 1}, *x]", `[{"a":1},{"a":1}]`},
	} {
		d := newDecoder("t.yaml")
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(c.yaml), &n); err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		root := &n
		if len(n.Content) == 1 {
			root = n.Content[0]
		} else {
			root = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
		}
		v, ok := d.value(root)
		if !ok || len(d.diags) > 0 {
			t.Errorf("%q: %v", c.yaml, d.diags)
			continue
		}
		if string(v.JSON) != c.json {
			t.Errorf("%q → %s, want %s", c.yaml, v.JSON, c.json)
		}
	}
}

func TestValueJSONErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{`.inf`, `t.yaml:1:1: .inf has no JSON equivalent`},
		{`-.Inf`, `t.yaml:1:1: -.Inf has no JSON equivalent`},
		{`.nan`, `t.yaml:1:1: .nan has no JSON equivalent`},
		{`{1: a}`, `t.yaml:1:2: object key 1 must be a string; write "1"`},
		{`{null: a}`, `t.yaml:1:2: object key null must be a string; write "null"`},
		{`!foo x`, `t.yaml:1:1: unsupported YAML tag !foo`},
		{`!!set {a}`, `t.yaml:1:1: unsupported YAML tag !!set`},
		{`!!int x`, `t.yaml:1:1: "x" is not a valid !!int`},
		{`!!bool x`, `t.yaml:1:1: "x" is not a valid !!bool`},
		{`!!int 1.5`, `t.yaml:1:1: "1.5" is not a valid !!int`},
		{`!!float x`, `t.yaml:1:1: "x" is not a valid !!float`},
		{`{a: 1, a: 2}`, `t.yaml:1:8: duplicate key "a" (first defined at t.yaml:1:2)`},
	} {
		d := newDecoder("t.yaml")
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(c.yaml), &n); err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		d.value(n.Content[0])
		if len(d.diags) != 1 || d.diags[0].String() != c.want {
			t.Errorf("%q: got %v, want %s", c.yaml, d.diags, c.want)
		}
	}
}

func TestIsJSONNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-0": true, "12": true, "1.5": true, "1e9": true, "1E+9": true, "-2.5e-3": true,
		"": false, "-": false, "01": false, "1.": false, ".5": false, "+1": false, "0x1F": false,
		"1e": false, "1_000": false, "NaN": false, "Infinity": false, "1 ": false,
	} {
		if got := isJSONNumber(s); got != want {
			t.Errorf("isJSONNumber(%q) = %v", s, got)
		}
	}
}
