package openapi

import (
	"fmt"
	"testing"
)

// TestAnnotationsByMethod: the hints each HTTP method gives a tool
// (docs/importing.md §Annotations): GET reads; PUT and DELETE are
// destructive and idempotent; POST is destructive, not idempotent.
func TestAnnotationsByMethod(t *testing.T) {
	desc := `openapi: 3.0.0
info: {title: t, version: '1'}
paths:
  /things/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get: {operationId: getThing, responses: {"200": {description: ok}}}
    put: {operationId: putThing, responses: {"200": {description: ok}}}
    delete: {operationId: deleteThing, responses: {"204": {description: ok}}}
    post: {operationId: postThing, responses: {"200": {description: ok}}}
`
	_, s, _ := importText(t, "methods", desc)
	want := map[string]string{
		"get_thing":    "readOnly=true destructive=<nil> idempotent=<nil>",
		"put_thing":    "readOnly=false destructive=true idempotent=true",
		"delete_thing": "readOnly=false destructive=true idempotent=true",
		"post_thing":   "readOnly=false destructive=true idempotent=<nil>",
	}
	show := func(b *bool) string {
		if b == nil {
			return "<nil>"
		}
		return fmt.Sprint(*b)
	}
	seen := 0
	for _, tool := range s.Tools {
		a := tool.Annotations
		got := "readOnly=" + show(a.ReadOnlyHint) + " destructive=" + show(a.DestructiveHint) + " idempotent=" + show(a.IdempotentHint)
		if w, ok := want[tool.Name]; ok {
			seen++
			if got != w {
				t.Errorf("%s: %s, want %s", tool.Name, got, w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d tools imported", seen, len(want))
	}
}

// TestOperationParameterWins: an operation's parameter overrides the path
// item's of the same name and place (OpenAPI 3, Path Item parameters);
// another operation of the path keeps the path item's.
func TestOperationParameterWins(t *testing.T) {
	desc := `openapi: 3.0.0
info: {title: t, version: '1'}
paths:
  /things/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
      - {name: q, in: query, description: from the path item, schema: {type: string}}
    put:
      operationId: putThing
      parameters: [{name: q, in: query, required: true, description: from the operation, schema: {type: integer}}]
      responses: {"200": {description: ok}}
    get: {operationId: getThing, responses: {"200": {description: ok}}}
`
	_, _, doc := importText(t, "params", desc)
	for _, c := range []struct{ tool, typ, description string }{
		{"put_thing", "integer", "from the operation"},
		{"get_thing", "string", "from the path item"},
	} {
		q := dig(doc, "tools", c.tool, "input", "properties", "q")
		if got := fmt.Sprint(dig(q, "type"), " ", dig(q, "description")); got != c.typ+" "+c.description {
			t.Errorf("%s: q is %s, want %s %s", c.tool, got, c.typ, c.description)
		}
	}
	if got := fmt.Sprint(dig(doc, "tools", "put_thing", "input", "required")); got != "[id q]" {
		t.Errorf("put_thing: required %s, want [id q] (the operation's q is required)", got)
	}
}
