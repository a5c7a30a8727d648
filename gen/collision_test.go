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
