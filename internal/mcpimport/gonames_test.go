package mcpimport

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

// TestGoNameCollisions checks that wire names whose Go names collide get
// goName:, so that the imported spec generates.
func TestGoNameCollisions(t *testing.T) {
	tools := []json.RawMessage{
		json.RawMessage(`{"name":"get-x","description":"a","inputSchema":{"type":"object","properties":{"a":{"type":"object","properties":{"q":{"type":"string"}}}}}}`),
		json.RawMessage(`{"name":"get_x","description":"b","inputSchema":{"type":"object","properties":{"a":{"type":"object","properties":{"q":{"type":"integer"}}}}}}`),
	}
	resources := []json.RawMessage{json.RawMessage(`{"name":"get x","uri":"a://b"}`), json.RawMessage(`{"name":"Get X","uri":"a://c"}`)}
	res, err := FromLists(&Lists{Tools: tools, Resources: resources}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, diags := spec.Load("x.yaml", res.YAML)
	if len(diags) > 0 {
		t.Fatalf("%v\n%s", diags, res.YAML)
	}
	if _, diags := gen.PlanAPI(s); len(diags) > 0 {
		t.Errorf("the imported spec does not generate:\n%v\nnotes: %q\n%s", diags, res.Notes, res.YAML)
	}
	t.Logf("notes: %q", res.Notes)
}
