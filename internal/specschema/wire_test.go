package specschema

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

// wireRoots are the schemas Wire is asked for on s: every tool's input
// and output, and every named type by reference, as gen asks.
func wireRoots(s *spec.Spec) []*spec.Schema {
	var roots []*spec.Schema
	for _, t := range s.Tools {
		roots = append(roots, t.Input, t.Output)
	}
	for _, nt := range s.Types {
		roots = append(roots, &spec.Schema{Kind: spec.KindRef, Ref: nt.Name})
	}
	return slices.DeleteFunc(roots, func(r *spec.Schema) bool { return r == nil })
}

// A Wirer shared by every schema of a spec, asked in any order, writes
// what a fresh one writes for each: the $defs entries it keeps write the
// same bytes, in the same order, with the types they reach.
func TestWirerSharedEqualsFresh(t *testing.T) {
	specs, _ := filepath.Glob("../../examples/*/mcpgen.yaml")
	specs = append(specs, "testdata/profiles.yaml")
	for _, path := range specs {
		s := loadSpec(t, path)
		roots := wireRoots(s)
		for _, order := range []string{"forward", "reverse"} {
			shared := NewWirer(s)
			rs := slices.Clone(roots)
			if order == "reverse" {
				slices.Reverse(rs)
			}
			for _, r := range rs {
				want, wantGo := NewWirer(s).Wire(r)
				got, gotGo := shared.Wire(r)
				if !bytes.Equal(got, want) || gotGo != wantGo {
					t.Errorf("%s (%s): shared Wirer wrote\n%s (goType %v), fresh\n%s (goType %v)", path, order, got, gotGo, want, wantGo)
				}
			}
		}
	}
}

// The $defs of a tool that reaches a chain of named types list them in
// order of first reference, after the root is written, and a type
// reaching itself is defined once.
func TestWireDefsOrder(t *testing.T) {
	s, diags := spec.Load("t.yaml", []byte(`mcpgen: 1
server: {name: t, version: 1.0.0}
go: {package: tmcp}
types:
  A: {properties: {b: {$ref: B}, c: {$ref: C}}}
  B: {properties: {c: {$ref: C}, a: {$ref: A, nullable: true}}}
  C: {properties: {n: {type: string}}}
tools:
  one:
    description: One.
    input: {properties: {b: {$ref: B}}}
  two:
    description: Two.
    input: {properties: {a: {$ref: A}}}
`))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	w := NewWirer(s)
	for _, tc := range []struct{ tool, want string }{
		{"two", `{"$defs":{"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/B"},"c":{"$ref":"#/$defs/C"}},"additionalProperties":false},"B":{"type":"object","properties":{"c":{"$ref":"#/$defs/C"},"a":{"oneOf":[{"$ref":"#/$defs/A"},{"type":"null"}]}},"additionalProperties":false},"C":{"type":"object","properties":{"n":{"type":"string"}},"additionalProperties":false}},"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"additionalProperties":false}`},
		{"one", `{"$defs":{"B":{"type":"object","properties":{"c":{"$ref":"#/$defs/C"},"a":{"oneOf":[{"$ref":"#/$defs/A"},{"type":"null"}]}},"additionalProperties":false},"C":{"type":"object","properties":{"n":{"type":"string"}},"additionalProperties":false},"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/B"},"c":{"$ref":"#/$defs/C"}},"additionalProperties":false}},"type":"object","properties":{"b":{"$ref":"#/$defs/B"}},"additionalProperties":false}`},
	} {
		i := slices.IndexFunc(s.Tools, func(t *spec.Tool) bool { return t.Name == tc.tool })
		got, _ := w.Wire(s.Tools[i].Input)
		if string(got) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.tool, got, tc.want)
		}
	}
}

// BenchmarkWireSharedDefs is Wire on a spec whose tools all reach one
// chain of named types, as an imported API's do (issue 32): a shared
// Wirer writes each $defs entry once.
func BenchmarkWireSharedDefs(b *testing.B) {
	var y strings.Builder
	y.WriteString("mcpgen: 1\nserver: {name: t, version: 1.0.0}\ngo: {package: tmcp}\ntypes:\n")
	const types, tools = 200, 200
	for i := range types {
		next := ""
		if i+1 < types {
			next = fmt.Sprintf(", next: {$ref: T%d}", i+1)
		}
		fmt.Fprintf(&y, "  T%d: {properties: {id: {type: string, description: The id.}, n: {type: integer, minimum: 0}%s}}\n", i, next)
	}
	y.WriteString("tools:\n")
	for i := range tools {
		fmt.Fprintf(&y, "  tool%d:\n    description: A tool.\n    input: {properties: {t: {$ref: T%d}}}\n", i, i%10)
	}
	s, diags := spec.Load("bench.yaml", []byte(y.String()))
	if len(diags) > 0 {
		b.Fatal(diags)
	}
	b.ResetTimer()
	for range b.N {
		w := NewWirer(s)
		for _, t := range s.Tools {
			w.Wire(t.Input)
		}
	}
}
