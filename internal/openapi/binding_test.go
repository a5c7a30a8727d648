package openapi

import (
	"strings"
	"testing"
)

// importInline imports an OpenAPI document given as text.
func importInline(t *testing.T, doc string) *Result {
	t.Helper()
	res, err := Import([]byte(doc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func notesContain(res *Result, s string) bool {
	return strings.Contains(strings.Join(res.Notes, "\n"), s)
}

// A path template's {id} needs a path parameter id: a query parameter of
// the same name does not fill the path.
func TestPathTemplateNeedsAPathParameter(t *testing.T) {
	res := importInline(t, `openapi: 3.0.3
info: {title: t, version: "1"}
servers: [{url: "https://api.example.com"}]
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters:
        - {name: id, in: query, schema: {type: string}}
      responses: {"200": {description: ok}}
`)
	if !notesContain(res, "its path parameter {id} is not declared") {
		t.Errorf("a path {id} filled by a query parameter: notes %q", res.Notes)
	}
}

// A text body whose schema is format: binary is bytes, not a string
// argument: the operation gets no http binding.
func TestBinaryTextBodyIsNotAString(t *testing.T) {
	res := importInline(t, `openapi: 3.0.3
info: {title: t, version: "1"}
servers: [{url: "https://api.example.com"}]
paths:
  /upload:
    post:
      operationId: upload
      requestBody:
        required: true
        content:
          text/plain: {schema: {type: string, format: binary}}
      responses: {"200": {description: ok}}
`)
	if !notesContain(res, "text/plain of a schema that is not a string") {
		t.Errorf("a format: binary text body taken as a string: notes %q", res.Notes)
	}
}

// TestBearerSchemeAnyCase: an http security scheme's scheme name is
// case-insensitive (RFC 9110 §11.1): Bearer, BEARER and bearer all give
// the upstream bearer auth from $PREFIX_TOKEN.
func TestBearerSchemeAnyCase(t *testing.T) {
	for _, scheme := range []string{"bearer", "Bearer", "BEARER", "bEaReR"} {
		_, s, _ := importText(t, "bearer-"+scheme, `openapi: 3.0.3
info: {title: t, version: "1"}
servers: [{url: "https://api.example.com"}]
components:
  securitySchemes:
    tok: {type: http, scheme: `+scheme+`}
security: [{tok: []}]
paths:
  /items:
    get:
      operationId: listItems
      responses: {"200": {description: ok}}
`)
		if s.Upstream == nil || s.Upstream.Auth == nil || s.Upstream.Auth.Bearer == nil {
			t.Errorf("scheme %s: no upstream bearer auth written: %+v", scheme, s.Upstream)
		}
	}
}
