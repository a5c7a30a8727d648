package runtime

import (
	"encoding/json"
	"testing"
)

// Extra annotation keys are advertised beside the hints, as written; one
// named like a hint does not override it.
func TestToolAnnotationsExtra(t *testing.T) {
	yes := true
	b, err := json.Marshal(&ToolAnnotations{ReadOnlyHint: &yes, Extra: map[string]json.RawMessage{
		"x-cost": json.RawMessage(`{"tier":2}`), "category": json.RawMessage(`"files"`), "readOnlyHint": json.RawMessage(`false`)}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"readOnlyHint":true,"category":"files","x-cost":{"tier":2}}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	if b, _ := json.Marshal(ToolAnnotations{Extra: map[string]json.RawMessage{"a": json.RawMessage(`1`)}}); string(b) != `{"a":1}` {
		t.Errorf("only extra: %s", b)
	}
	if _, err := json.Marshal(ToolAnnotations{Extra: map[string]json.RawMessage{"a": json.RawMessage(`{`)}}); err == nil {
		t.Error("an Extra value that is not JSON is advertised")
	}
}
