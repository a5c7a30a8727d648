package gen_test

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

// TestCollisionNamesFullPath: a collision names the first position with the
// spec's path as given, like the finding itself, so that both lead to the
// file from wherever mcpgen ran.
func TestCollisionNamesFullPath(t *testing.T) {
	src := "mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\ntypes:\n  order_id: {type: string}\n  OrderID: {type: string}\n"
	s, diags := spec.Load("api/specs/mcpgen.yaml", []byte(src))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	_, err := gen.Generate(s, gen.Options{})
	want := `api/specs/mcpgen.yaml:6:3: type "OrderID" gets the Go name OrderID, already used by type "order_id" at api/specs/mcpgen.yaml:5:3`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestCollisionsAsData: PlanAPI returns each collision a goName settles as
// data, with where the fix goes, so that importers need not read messages.
func TestCollisionsAsData(t *testing.T) {
	src := `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p}
types:
  Job:
    type: object
    properties:
      summary: {type: object, properties: {a: {type: string}}}
  JobSummary: {type: string}
  Color:
    type: string
    enum: [a-b, a_b]
tools:
  get-x:
    description: d
    input:
      properties:
        jsonSchema: {type: string}
        nodeId: {type: string}
        node_id: {type: string}
  get_x: {description: d}
`
	s, diags := spec.Load("mcpgen.yaml", []byte(src))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	api, diags := gen.PlanAPI(s)
	type got struct {
		line, col                int
		fix, goName, value, base string
		reserved                 bool
	}
	var list []got
	for _, c := range api.Collisions {
		list = append(list, got{c.At.Line, c.At.Column, c.Fix, c.GoName, c.EnumValue, c.Base, c.Reserved})
	}
	want := []got{
		{8, 16, "goName", "JobSummary", "", "Summary", false}, // the property's inline object
		{21, 3, "goName", "GetX", "", "GetX", false},          // the second tool's key
		{11, 5, "goNames", "ColorAB", "a_b", "AB", false},     // the enum's mapping
		{18, 21, "goName", "JSONSchema", "", "JSONSchema", true},
		{20, 18, "goName", "NodeID", "", "NodeID", false},
	}
	slices.SortFunc(list, func(a, b got) int { return cmp.Compare(a.goName+a.value, b.goName+b.value) })
	slices.SortFunc(want, func(a, b got) int { return cmp.Compare(a.goName+a.value, b.goName+b.value) })
	if !slices.Equal(list, want) {
		t.Errorf("collisions:\n got %v\nwant %v\n(findings: %v)", list, want, diags)
	}
	if len(diags) < len(want) {
		t.Errorf("%d findings for %d collisions", len(diags), len(want))
	}
}
