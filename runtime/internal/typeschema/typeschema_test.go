package typeschema

import (
	"reflect"
	"testing"
)

func TestType(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"object"}`:                    "object",
		`{"type":"string","type":"object"}`:    "object", // the last duplicate wins
		`{"type":"\u006fbject"}`:               "object",
		`{"type":["object","null"]}`:           "",
		`{"properties":{"type":{"type":"x"}}}`: "", // not the top level
		`[]`:                                   "",
		`{"type":`:                             "",
	} {
		if got := Type([]byte(in)); got != want {
			t.Errorf("Type(%s) = %q, want %q", in, got, want)
		}
	}
}

type node struct {
	Name     string  `json:"name"`
	Children []*node `json:"children,omitempty"`
}

func TestFor(t *testing.T) {
	if got := string(For(reflect.TypeFor[*NoArgs]())); got != string(NoArgsSchema) {
		t.Errorf("NoArgs: %s", got)
	}
	// A recursive type keeps the definition its references point to.
	got := string(For(reflect.TypeFor[node]()))
	if want := `{"$defs":{"node":`; len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("node: %s", got)
	}
}
