package gen_test

import (
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

// TestPlanAPICollisions: each collision is data too, with its kind, the Go
// name and both positions, one for each diagnostic of a collision.
func TestPlanAPICollisions(t *testing.T) {
	src := `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p}
types:
  order_id: {type: string}
  OrderID: {type: string}
  Mode: {type: string, enum: [a-b, a_b]}
  Pair:
    type: object
    properties:
      x-y: {type: string}
      x_y: {type: string}
tools:
  get-x: {description: d}
  get_x: {description: d}
`
	s, diags := spec.Load("mcpgen.yaml", []byte(src))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	api, diags := gen.PlanAPI(s)
	want := []gen.Collision{
		{Kind: gen.CollisionType, GoName: "OrderID", Pos: spec.Pos{Line: 6, Column: 3}, First: spec.Pos{Line: 5, Column: 3}},
		{Kind: gen.CollisionEnumConstant, GoName: "ModeAB", Pos: spec.Pos{Line: 7, Column: 36}, First: spec.Pos{Line: 7, Column: 31}},
		{Kind: gen.CollisionField, GoName: "XY", Pos: spec.Pos{Line: 12, Column: 7}, First: spec.Pos{Line: 11, Column: 7}},
		{Kind: gen.CollisionMethod, GoName: "GetX", Pos: spec.Pos{Line: 15, Column: 3}, First: spec.Pos{Line: 14, Column: 3}},
	}
	got := map[gen.Collision]bool{}
	for _, c := range api.Collisions {
		got[c] = true
	}
	for _, c := range want {
		if !got[c] {
			t.Errorf("no collision %+v in %+v", c, api.Collisions)
		}
	}
	if len(api.Collisions) != len(want) || len(diags) != len(want) {
		t.Errorf("%d collisions and %d diagnostics, want %d of each:\n%+v\n%v", len(api.Collisions), len(diags), len(want), api.Collisions, diags)
	}
}
