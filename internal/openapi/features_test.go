package openapi

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

func importFeatures(t *testing.T, opts Options) (*Result, map[string]any) {
	t.Helper()
	return importDocWith(t, "testdata/features-3.1.yaml", opts)
}

func importDoc(t *testing.T, path string) (*Result, map[string]any) {
	t.Helper()
	return importDocWith(t, path, Options{})
}

// importText imports an OpenAPI document given as text, checks the spec it
// writes (checkSpec, named name) and returns it also as plain YAML values.
func importText(t *testing.T, name, text string) (*Result, *spec.Spec, map[string]any) {
	t.Helper()
	res, err := Import([]byte(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := checkSpec(t, name, res.YAML)
	var doc map[string]any
	if err := yaml.Unmarshal(res.YAML, &doc); err != nil {
		t.Fatal(err)
	}
	return res, s, doc
}

// importDocWith is importChecked, with the spec as plain YAML values.
func importDocWith(t *testing.T, path string, opts Options) (*Result, map[string]any) {
	t.Helper()
	res, _ := importChecked(t, path, opts)
	var doc map[string]any
	if err := yaml.Unmarshal(res.YAML, &doc); err != nil {
		t.Fatal(err)
	}
	return res, doc
}

func dig(v any, path ...string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func toolNames(doc map[string]any) []string {
	var out []string
	for name := range doc["tools"].(map[string]any) {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func TestToolNames(t *testing.T) {
	res, doc := importFeatures(t, Options{})
	names := toolNames(doc)
	want := []string{"get_item", "list_items", "list_items_2", "ping_legacy", "reindex_everything_in_the_whole_catalogue_including_arc_7f627f65",
		"reindex_everything_in_the_whole_catalogue_including_arc_d75a862b", "remove_item", "replace_item"}
	if !slices.Equal(names, want) {
		t.Errorf("tools %q, want %q", names, want)
	}
	for _, n := range names {
		if len(n) > maxToolName {
			t.Errorf("%q is longer than %d", n, maxToolName)
		}
	}
	// Every renaming is a note, saying which operation and why.
	for _, want := range []string{`GET /list-items: tool name "list_items" is taken; named "list_items_2"`,
		`GET /ping: x-mcp name "Ping (legacy)" is not a tool name (letters, digits, _ . -); named "ping_legacy"`,
		`POST /admin/reindex: tool name "reindex_everything_in_the_whole_catalogue_including_archived_items_and_their_history" is longer than 64 characters`} {
		if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.HasPrefix(n, want) }) {
			t.Errorf("no note %q in\n%s", want, strings.Join(res.Notes, "\n"))
		}
	}
	if res.Tools["remove_item"] != "DELETE /items/{id}" {
		t.Errorf("remove_item comes from %q", res.Tools["remove_item"])
	}
}

func TestShortenIsStable(t *testing.T) {
	long := strings.Repeat("a", 70)
	if a, b := shorten(long, 64), shorten(long, 64); a != b || len(a) != 64 {
		t.Errorf("shorten: %q, %q", a, b)
	}
	if shorten(long+"x", 64) == shorten(long+"y", 64) {
		t.Error("two long names that differ at the end got one name")
	}
	if s := shorten("short", 64); s != "short" {
		t.Errorf("shorten(short) = %q", s)
	}
}

func TestToolShape(t *testing.T) {
	_, doc := importFeatures(t, Options{})
	get := dig(doc, "tools", "get_item").(map[string]any)
	if get["title"] != "Get an item" || dig(get, "annotations", "readOnlyHint") != true {
		t.Errorf("get_item: %v", get)
	}
	// Path (from the path item), header and cookie parameters are inputs.
	for _, p := range []string{"id", "X-Trace", "session"} {
		if dig(get, "input", "properties", p) == nil {
			t.Errorf("get_item lacks input %q: %v", p, dig(get, "input"))
		}
	}
	if dig(get, "output", "$ref") != "Item" {
		t.Errorf("get_item output: %v", get["output"])
	}
	// The body's id clashes with the path's id and is renamed, visibly.
	put := dig(doc, "tools", "replace_item").(map[string]any)
	if dig(put, "input", "properties", "body_id") == nil || dig(put, "annotations", "idempotentHint") != true {
		t.Errorf("replace_item: %v", put)
	}
	if req := dig(put, "input", "required"); !slices.Equal(toStrings(req), []string{"id", "body_id", "name"}) {
		t.Errorf("replace_item required %v", req)
	}
	del := dig(doc, "tools", "remove_item").(map[string]any)
	if del["description"] != "Remove an item for good." || dig(del, "annotations", "destructiveHint") != true {
		t.Errorf("remove_item (x-mcp name and description): %v", del)
	}
	// A 3.1 type list with null is a nullable value; the default is kept.
	limit := dig(doc, "tools", "list_items", "input", "properties", "limit").(map[string]any)
	if limit["type"] != "integer" || limit["nullable"] != true || limit["default"] != 20 {
		t.Errorf("limit: %v", limit)
	}
	// allOf merged into one object.
	item := dig(doc, "types", "Item").(map[string]any)
	if !slices.Equal(toStrings(item["required"]), []string{"id", "name"}) || dig(item, "properties", "kind", "$ref") != "Kind" {
		t.Errorf("Item: %v", item)
	}
	if _, ok := dig(doc, "tools").(map[string]any)["admin_secret"]; ok {
		t.Error("x-mcp: false did not leave admin_secret out")
	}
}

func toStrings(v any) []string {
	var out []string
	if l, ok := v.([]any); ok {
		for _, s := range l {
			out = append(out, s.(string))
		}
	}
	return out
}

// TestPathGlobs: in Options.Paths a * matches any run of characters, and
// the rest of the pattern is literal, anchored at both ends.
func TestPathGlobs(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"/repos/*/issues", "/repos/x/issues", true},
		{"/repos/*/issues", "/repos/x/y/issues", true},
		{"/repos/*/issues", "/repos/x/issues/comments", false},
		{"/repos/*/issues", "/v2/repos/x/issues", false},
		{"*fast", "/reindex/fast", true},
		{"*fast", "/fastly", false},
		{"/items*", "/items", true},
		{"/items*", "/items/{id}", true},
		{"/items", "/items/{id}", false},
		{"/*/b/*/c", "/x/b/y/c", true},
		{"/*/b/*/c", "/x/b/y/c/d", false},
		{"/a*a", "/a", false},
	} {
		if got := glob(c.pattern, c.path); got != c.want {
			t.Errorf("glob(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}

func TestSelection(t *testing.T) {
	for _, c := range []struct {
		opts Options
		want []string
	}{
		{Options{Tags: []string{"legacy"}}, []string{"list_items"}},
		{Options{Paths: []string{"/items*"}, ExcludeOperations: []string{"replaceItem"}}, []string{"get_item", "list_items", "remove_item"}},
		{Options{Operations: []string{"get_item", "listItems"}}, []string{"get_item", "list_items"}},
		{Options{ExcludeTags: []string{"items", "admin"}}, []string{"list_items", "ping_legacy"}},
		{Options{Tags: []string{"admin"}, ExcludePaths: []string{"*fast"}}, []string{"reindex_everything_in_the_whole_catalogue_including_arc_d75a862b"}},
	} {
		_, doc := importFeatures(t, c.opts)
		if got := toolNames(doc); !slices.Equal(got, c.want) {
			t.Errorf("%+v: tools %q, want %q", c.opts, got, c.want)
		}
	}
	data, _ := os.ReadFile("testdata/features-3.1.yaml")
	if _, err := Import(data, Options{Tags: []string{"nothing"}}); err == nil || !strings.Contains(err.Error(), "no operation selected") {
		t.Errorf("an empty selection: %v", err)
	}
}

// TestUnions: oneOf/anyOf, const and 3.1 type lists are written with the
// spec's keys, and the result loads and generates (importChecked).
func TestUnions(t *testing.T) {
	res, _ := importFeatures(t, Options{})
	for _, want := range []string{"oneOf:\n", "- {$ref: Circle}", "label: {const: fixed}", "\n  Square:", "type: [string, integer]"} {
		if !strings.Contains(string(res.YAML), want) {
			t.Errorf("no %q in\n%s", want, res.YAML)
		}
	}
}

// TestDiscriminator: an OpenAPI discriminator (propertyName, mapping or the
// schema names) becomes the spec's: the union names the property, and each
// variant type requires it with its value as a const. One the spec cannot
// say is left out with a note, and the spec still loads.
func TestDiscriminator(t *testing.T) {
	res, doc := importDoc(t, "testdata/circular-3.1.yaml")
	if d := dig(doc, "types", "Pet", "discriminator"); d != "kind" {
		t.Errorf("Pet's discriminator: %v\n%s", d, res.YAML)
	}
	for typ, value := range map[string]string{"Cat": "Cat", "Dog": "Dog"} {
		if c := dig(doc, "types", typ, "properties", "kind", "const"); c != value {
			t.Errorf("%s.kind const %v, want %q", typ, c, value)
		}
		if !slices.Contains(toStrings(dig(doc, "types", typ, "required")), "kind") {
			t.Errorf("%s does not require kind", typ)
		}
	}
	res, doc = importDoc(t, "testdata/discriminator-3.0.yaml")
	// The mapping's values, not the schema names.
	if c := dig(doc, "types", "CardPayment", "properties", "method", "const"); c != "card" {
		t.Errorf("CardPayment.method const %v, want card", c)
	}
	if d := dig(doc, "types", "Payment", "discriminator"); d != "method" {
		t.Errorf("Payment's discriminator: %v", d)
	}
	// Refund reuses CardPayment with another value: left out, noted.
	if d := dig(doc, "types", "Refund", "discriminator"); d != nil {
		t.Errorf("Refund's conflicting discriminator written: %v", d)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool {
		return strings.Contains(n, "Refund: discriminator method left out") && strings.Contains(n, `CardPayment is already told apart by method "card"`)
	}) {
		t.Errorf("no note for Refund's discriminator in\n%s", strings.Join(res.Notes, "\n"))
	}
}

func TestBrokenDescription(t *testing.T) {
	_, err := Import([]byte("openapi: 3.0.0\ninfo: [\n"), Options{})
	if err == nil {
		t.Error("a broken description imported")
	}
}

// TestNoComponentSchemas: a description without components, or with
// components but no schemas (1forge.com, ip2location.io in APIs.guru),
// imports; one without paths is refused with an error, not a panic.
func TestNoComponentSchemas(t *testing.T) {
	const op = `paths:
  /quotes:
    get:
      operationId: getQuotes
      parameters:
        - {name: pairs, in: query, schema: {type: string}}
      responses:
        "200":
          description: quotes
          content:
            application/json:
              schema: {type: array, items: {type: object, properties: {price: {type: number}}}}
`
	for name, desc := range map[string]string{
		"no components": "openapi: 3.0.0\ninfo: {title: t, version: '1'}\n" + op,
		"no schemas": "openapi: 3.0.0\ninfo: {title: t, version: '1'}\n" + op +
			"components:\n  securitySchemes:\n    key: {type: apiKey, in: query, name: api_key}\n",
	} {
		res, err := Import([]byte(desc), Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if s := checkSpec(t, name, res.YAML); len(s.Tools) != 1 {
			t.Errorf("%s: %d tools, want 1", name, len(s.Tools))
		}
	}
	if _, err := Import([]byte("openapi: 3.0.0\ninfo: {title: t, version: '1'}\n"), Options{}); err == nil {
		t.Error("a description without paths imported")
	}
}

// TestSettleCuts: a finding left in what the importer wrote (a bug of the
// importer) costs the smallest part that holds it, with a note, never a
// spec that fails in generate.
func TestSettleCuts(t *testing.T) {
	src := `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p}
upstream: {baseUrl: 'https://example.com'}
types:
  Bad: {type: string, minLength: 5, maxLength: 2}
tools:
  bad_binding:
    description: d
    input: {properties: {a: {type: string}}}
    http: {method: GET, path: /a, params: {a: {in: nowhere}}}
  bad_input:
    description: d
    input: {properties: {a: {type: strin}}}
  good:
    description: d
    input: {properties: {b: {$ref: Bad}}}
`
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	im := &importer{res: &Result{Tools: map[string]string{"bad_binding": "", "bad_input": "", "good": ""}}}
	out, err := im.settle(doc.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	s := checkSpec(t, "settled", out)
	if len(s.Tools) != 2 || s.Tools[0].Name != "bad_binding" || s.Tools[0].HTTP != nil {
		t.Errorf("tools: %s", out)
	}
	notes := strings.Join(im.notes.list, "\n")
	for _, want := range []string{"tools.bad_binding: no http binding (", "tools.bad_input: left out: ", "types.Bad: any JSON value: "} {
		if !strings.Contains(notes, want) {
			t.Errorf("no note %q in:\n%s", want, notes)
		}
	}
}

// TestSwaggerMentionIsNotSwagger: an OpenAPI 3.0 description that names
// its Swagger original (bridgedb.org's info.x-origin) imports.
func TestSwaggerMentionIsNotSwagger(t *testing.T) {
	desc := `{"openapi": "3.0.0", "info": {"title": "t", "version": "1", "x-origin": [{"format": "swagger", "url": "https://example.com/swagger.json"}]},
"paths": {"/a": {"get": {"operationId": "getA", "responses": {"200": {"description": "ok"}}}}}}`
	if _, err := Import([]byte(desc), Options{}); err != nil {
		t.Error(err)
	}
}

// TestAnnotationsSafe: a POST is destructive unless its x-mcp says it is
// not (rclone's operations/delete, core/quit are POSTs); a note says how
// the hints were decided.
func TestAnnotationsSafe(t *testing.T) {
	desc := `openapi: 3.0.0
info: {title: t, version: '1'}
paths:
  /operations/delete:
    post: {operationId: operationsDelete, responses: {"200": {description: ok}}}
  /search:
    post: {operationId: search, x-mcp: {readOnlyHint: true}, responses: {"200": {description: ok}}}
  /things/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    patch: {operationId: patchThing, x-mcp: {destructiveHint: false}, responses: {"200": {description: ok}}}
    get: {operationId: getThing, responses: {"200": {description: ok}}}
`
	res, err := Import([]byte(desc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := checkSpec(t, "annotations", res.YAML)
	want := map[string]string{
		"operations_delete": "readOnly=false destructive=true",
		"search":            "readOnly=true destructive=<nil>",
		"patch_thing":       "readOnly=false destructive=false",
		"get_thing":         "readOnly=true destructive=<nil>",
	}
	for _, tool := range s.Tools {
		a := tool.Annotations
		show := func(b *bool) string {
			if b == nil {
				return "<nil>"
			}
			return fmt.Sprint(*b)
		}
		got := "readOnly=" + show(a.ReadOnlyHint) + " destructive=" + show(a.DestructiveHint)
		if got != want[tool.Name] {
			t.Errorf("%s: %s, want %s", tool.Name, got, want[tool.Name])
		}
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.HasPrefix(n, "annotations: from each operation's method") }) {
		t.Errorf("no note on the annotations: %q", res.Notes)
	}
}

// TestRelativeTokenURL: a relative OAuth token URL is resolved against the
// server URL (RFC 3986), and noted.
func TestRelativeTokenURL(t *testing.T) {
	desc := `openapi: 3.0.0
info: {title: t, version: '1'}
servers: [{url: 'https://api.example.com/v2/'}]
security: [{cc: []}]
components:
  securitySchemes:
    cc: {type: oauth2, flows: {clientCredentials: {tokenUrl: /oauth/token, scopes: {}}}}
paths:
  /a: {get: {operationId: getA, responses: {"200": {description: ok}}}}
`
	res, err := Import([]byte(desc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := checkSpec(t, "token", res.YAML)
	if got := s.Upstream.Auth.ClientCredentials.TokenURL; got != "https://api.example.com/oauth/token" {
		t.Errorf("tokenUrl %q", got)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, `"/oauth/token" is relative`) }) {
		t.Errorf("no note: %q", res.Notes)
	}
}

// TestPathParameterAlwaysRequired: a path parameter is required whether
// or not the description says required: true (OpenAPI: it MUST be; many
// descriptions omit it); a query parameter without it is optional.
func TestPathParameterAlwaysRequired(t *testing.T) {
	res, s, doc := importText(t, "path-params", `openapi: 3.0.0
info: {title: t, version: '1'}
paths:
  /pets/{petId}/toys/{toyId}:
    get:
      operationId: getToy
      parameters:
        - {name: petId, in: path, schema: {type: string}}
        - {name: toyId, in: path, required: false, schema: {type: integer}}
        - {name: verbose, in: query, schema: {type: boolean}}
      responses:
        "200": {description: ok}
`)
	if got := toStrings(dig(doc, "tools", "get_toy", "input", "required")); !slices.Equal(got, []string{"petId", "toyId"}) {
		t.Errorf("required %q, want [petId toyId] (%d tools)\n%s", got, len(s.Tools), res.YAML)
	}
}

// TestExclusiveBounds: OpenAPI 3.0's boolean exclusiveMinimum/Maximum make
// minimum/maximum exclusive (the spec's number form); 3.1's numbers are
// kept as they are; false leaves the bound inclusive.
func TestExclusiveBounds(t *testing.T) {
	for _, c := range []struct {
		version, props string
		want           map[string]map[string]any // property: its bounds
	}{
		{"3.0.3", `
                a: {type: integer, minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: true}
                b: {type: number, minimum: 0.5, exclusiveMinimum: false, maximum: 2}`,
			map[string]map[string]any{"a": {"exclusiveMinimum": 1, "exclusiveMaximum": 9}, "b": {"minimum": 0.5, "maximum": 2}}},
		{"3.1.0", `
                a: {type: integer, exclusiveMinimum: 1, exclusiveMaximum: 9}
                b: {type: number, minimum: 0.5, maximum: 2}`,
			map[string]map[string]any{"a": {"exclusiveMinimum": 1, "exclusiveMaximum": 9}, "b": {"minimum": 0.5, "maximum": 2}}},
	} {
		res, err := Import([]byte(`openapi: `+c.version+`
info: {title: t, version: '1'}
paths:
  /x:
    post:
      operationId: setX
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:`+c.props+`
      responses:
        "200": {description: ok}
`), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.version, err)
		}
		checkSpec(t, "bounds-"+c.version, res.YAML)
		var doc map[string]any
		if err := yaml.Unmarshal(res.YAML, &doc); err != nil {
			t.Fatal(err)
		}
		props, _ := dig(doc, "tools", "set_x", "input", "properties").(map[string]any)
		for name, want := range c.want {
			got := map[string]any{}
			for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
				if v := dig(props, name, k); v != nil {
					got[k] = v
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %s's bounds %v, want %v\n%s", c.version, name, got, want, res.YAML)
			}
		}
	}
}

// TestNonASCIITitleEnv: the environment variables' names are ASCII even
// when the title is not (shop-pro.jp's "カラーミーショップアプリストア API"):
// what an environment variable can be named.
func TestNonASCIITitleEnv(t *testing.T) {
	for title, want := range map[string]string{
		"カラーミーショップアプリストア API": "API_BASE_URL",
		"カラーミー":          "API_BASE_URL",
		"Café Ünicode 2": "CAF_NICODE_2_BASE_URL",
		"3scale":         "API_3_SCALE_BASE_URL",
	} {
		res, err := Import([]byte(`openapi: 3.0.0
info: {title: '`+title+`', version: '1'}
servers: [{url: 'https://api.example.com'}]
paths:
  /a: {get: {operationId: getA, responses: {"200": {description: ok}}}}
`), Options{})
		if err != nil {
			t.Fatalf("%s: %v", title, err)
		}
		s := checkSpec(t, "env", res.YAML)
		if got := s.Upstream.BaseURLEnv; got != want {
			t.Errorf("%s: baseUrlEnv %q, want %q", title, got, want)
		}
	}
}

// TestOptionalBodyRequiredMembers: the members a body's schema requires are
// required in the tool's input only when the body itself is: an optional
// body may be left out whole.
func TestOptionalBodyRequiredMembers(t *testing.T) {
	for _, c := range []struct {
		bodyRequired string
		want         []string
	}{{"true", []string{"name"}}, {"false", nil}} {
		res, _, doc := importText(t, "body-required-"+c.bodyRequired, `openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        required: `+c.bodyRequired+`
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name: {type: string}
                tag: {type: string}
      responses:
        "200": {description: ok}
`)
		if got := toStrings(dig(doc, "tools", "add_pet", "input", "required")); !slices.Equal(got, c.want) {
			t.Errorf("requestBody required %s: input required %q, want %q\n%s", c.bodyRequired, got, c.want, res.YAML)
		}
	}
}

// TestQueryStyles: array and object query parameters bind in every
// OpenAPI style, the binding saying the style and explode the description
// does; a nested value outside deepObject (which OpenAPI does not define)
// leaves the operation unbound with the reason.
func TestQueryStyles(t *testing.T) {
	res, s, doc := importText(t, "styles", `openapi: 3.1.0
info: {title: t, version: '1'}
servers: [{url: 'https://api.example.com'}]
components:
  schemas:
    Color: {type: object, properties: {R: {type: integer}, G: {type: integer}}}
paths:
  /a:
    get:
      operationId: getA
      parameters:
        - {name: tags, in: query, schema: {type: array, items: {type: string}}}
        - {name: ids, in: query, explode: false, schema: {type: array, items: {type: integer}}}
        - {name: words, in: query, style: spaceDelimited, schema: {type: array, items: {type: string}}}
        - {name: pipes, in: query, style: pipeDelimited, explode: true, schema: {type: array, items: {type: string}}}
        - {name: color, in: query, schema: {$ref: '#/components/schemas/Color'}}
        - {name: hue, in: query, style: form, explode: false, schema: {$ref: '#/components/schemas/Color'}}
        - {name: filter, in: query, style: deepObject, schema: {type: object, properties: {created: {type: object, properties: {gte: {type: integer}}}}}}
        - {name: free, in: query, schema: {type: object, additionalProperties: {type: string}}}
      responses: {"200": {description: ok}}
  /b:
    get:
      operationId: getB
      parameters:
        - {name: nested, in: query, schema: {type: object, properties: {a: {type: array, items: {type: string}}}}}
      responses: {"200": {description: ok}}
`)
	want := map[string]string{
		"tags":   "map[in:query]",
		"ids":    "map[explode:false in:query]",
		"words":  "map[in:query style:spaceDelimited]",
		"pipes":  "map[explode:true in:query style:pipeDelimited]",
		"color":  "map[in:query]",
		"hue":    "map[explode:false in:query]",
		"filter": "map[in:query style:deepObject]",
		"free":   "map[in:query]",
	}
	for prop, w := range want {
		if got := fmt.Sprint(dig(doc, "tools", "get_a", "http", "params", prop)); got != w {
			t.Errorf("param %s: %s, want %s", prop, got, w)
		}
	}
	if h := dig(doc, "tools", "get_b", "http"); h != nil {
		t.Errorf("get_b bound: %v", h)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool {
		return strings.Contains(n, `query parameter "nested" is not a string, number, boolean, a list of them, a union of those or an object of them (OpenAPI defines no form style for nested values)`)
	}) {
		t.Errorf("no note on get_b: %q", res.Notes)
	}
	code := generatedCode(t, s)
	for _, call := range []string{
		`r.Query("tags", `, `r.QueryJoined("ids", `, `r.QueryStyle("words", upstream.SpaceDelimited, false, `,
		`r.QueryStyle("pipes", upstream.PipeDelimited, true, `, `r.Query("color", `, `r.QueryJoined("hue", `,
		`r.QueryDeep("filter", `, `r.Query("free", `,
	} {
		if !strings.Contains(code, call) {
			t.Errorf("generated code has no %s", call)
		}
	}
}

// TestContentScalarParam: a parameter described by content whose schema is
// a scalar (telnyx.com's path ids) binds as text, noted; one whose
// content is an object stays unbound with the reason.
func TestContentScalarParam(t *testing.T) {
	res, _, doc := importText(t, "content", `openapi: 3.0.0
info: {title: t, version: '1'}
servers: [{url: 'https://api.example.com'}]
paths:
  /reports/{id}:
    delete:
      operationId: deleteReport
      parameters:
        - {name: id, in: path, required: true, content: {application/json: {schema: {type: string, format: uuid}}}}
      responses: {"200": {description: ok}}
  /search:
    get:
      operationId: search
      parameters:
        - {name: q, in: query, content: {application/json: {schema: {type: object, properties: {a: {type: string}}}}}}
      responses: {"200": {description: ok}}
`)
	if got := fmt.Sprint(dig(doc, "tools", "delete_report", "http", "params", "id")); got != "map[in:path]" {
		t.Errorf("id placed %s\n%s", got, res.YAML)
	}
	if got := fmt.Sprint(dig(doc, "tools", "delete_report", "input", "properties", "id", "type")); got != "string" {
		t.Errorf("id typed %s", got)
	}
	if dig(doc, "tools", "search", "http") != nil {
		t.Errorf("search bound")
	}
	for _, want := range []string{`path parameter "id" is described by content application/json, a string: sent as its text`, `query parameter "q" is described by content, not a schema`} {
		if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, want) }) {
			t.Errorf("no note %q: %q", want, res.Notes)
		}
	}
}

// TestBodyMedia: multipart bodies without a file bind as multipart, text
// bodies of a string as contentType, each noted; a file part or an XML
// object stays unbound with the reason.
func TestBodyMedia(t *testing.T) {
	res, s, doc := importText(t, "bodies", `openapi: 3.0.0
info: {title: t, version: '1'}
servers: [{url: 'https://api.example.com'}]
paths:
  /train:
    post:
      operationId: train
      requestBody:
        content:
          multipart/form-data:
            schema: {type: object, properties: {name: {type: string}, epochs: {type: integer}}, required: [name]}
      responses: {"200": {description: ok}}
  /markdown/raw:
    post:
      operationId: renderRaw
      requestBody:
        required: true
        content: {text/plain: {schema: {type: string}}}
      responses: {"200": {description: ok}}
  /upload:
    post:
      operationId: upload
      requestBody:
        content:
          multipart/form-data:
            schema: {type: object, properties: {file: {type: string, format: binary}}}
      responses: {"200": {description: ok}}
  /whole:
    post:
      operationId: whole
      requestBody:
        content:
          multipart/form-data:
            schema: {type: string, format: binary}
      responses: {"200": {description: ok}}
  /xml:
    post:
      operationId: postXml
      requestBody:
        content: {text/xml: {schema: {type: object, properties: {a: {type: string}}}}}
      responses: {"200": {description: ok}}
`)
	if got := fmt.Sprint(dig(doc, "tools", "train", "http")); got != "map[method:POST multipart:true params:map[epochs:map[in:body] name:map[in:body]] path:/train]" {
		t.Errorf("train: %s", got)
	}
	if got := fmt.Sprint(dig(doc, "tools", "render_raw", "http")); got != "map[body:body contentType:text/plain method:POST path:/markdown/raw]" {
		t.Errorf("render_raw: %s", got)
	}
	if got := toStrings(dig(doc, "tools", "render_raw", "input", "required")); !slices.Equal(got, []string{"body"}) {
		t.Errorf("render_raw required %q", got)
	}
	if got := fmt.Sprint(dig(doc, "tools", "upload", "http")); got != "map[files:[file] method:POST multipart:true params:map[file:map[in:body]] path:/upload]" {
		t.Errorf("upload: %s", got)
	}
	for _, tool := range []string{"whole", "post_xml"} {
		if h := dig(doc, "tools", tool, "http"); h != nil {
			t.Errorf("%s bound: %v", tool, h)
		}
	}
	for _, want := range []string{"multipart whose body is one file, not an object of parts", "text/xml of a schema that is not a string"} {
		if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, want) }) {
			t.Errorf("no note %q: %q", want, res.Notes)
		}
	}
	code := generatedCode(t, s)
	for _, call := range []string{"r.Multipart()", `r.Raw("text/plain")`, `r.Files("file")`} {
		if !strings.Contains(code, call) {
			t.Errorf("generated code has no %s", call)
		}
	}
}

// TestUntypedParams: a parameter or a parameter's items without a type
// (wikipathways' items: {}) are strings, noted, and the operation binds.
func TestUntypedParams(t *testing.T) {
	res, _, doc := importText(t, "untyped", `openapi: 3.0.0
info: {title: t, version: '1'}
servers: [{url: 'https://api.example.com'}]
paths:
  /find:
    get:
      operationId: find
      parameters:
        - {name: codes, in: query, explode: false, schema: {type: array, items: {}}}
        - {name: q, in: query, schema: {}}
      responses: {"200": {description: ok}}
`)
	if got := fmt.Sprint(dig(doc, "tools", "find", "input", "properties")); got != "map[codes:map[items:map[type:string] type:array] q:map[type:string]]" {
		t.Errorf("input %s", got)
	}
	if dig(doc, "tools", "find", "http") == nil {
		t.Errorf("find unbound: %q", res.Notes)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool {
		return strings.Contains(n, `query parameter "codes": its items have no type; typed string`)
	}) {
		t.Errorf("no note: %q", res.Notes)
	}
}

// TestToolNamedClient: an operation whose Go method would be Client (a
// field of UpstreamHandler; authentiq.io's "client") gets another Go name.
func TestToolNamedClient(t *testing.T) {
	res, err := Import([]byte(`openapi: 3.0.0
info: {title: t, version: '1'}
servers: [{url: 'https://api.example.com'}]
paths:
  /client: {get: {operationId: client, responses: {"200": {description: ok}}}}
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := checkSpec(t, "client", res.YAML)
	files, err := gen.Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.Contains(string(f.Bytes), "func (u *UpstreamHandler) Client(") {
			t.Errorf("%s declares the method Client beside the field Client\n%s", f.Path, res.YAML)
		}
	}
}

// TestAllOfItemsInQuery: a query list whose items are allOf an object
// (AWS's Tags: items allOf [$ref Tag, {xml: …}]) is refused by the
// importer itself, with its own reason, not by the spec's loader later.
func TestAllOfItemsInQuery(t *testing.T) {
	res, _, doc := importText(t, "allof", `openapi: 3.0.0
info: {title: t, version: '1'}
servers: [{url: 'https://api.example.com'}]
components:
  schemas:
    Tag: {type: object, properties: {Key: {type: string}}}
    Zone: {type: string}
paths:
  /tag:
    get:
      operationId: tag
      parameters:
        - {name: Tags, in: query, schema: {type: array, items: {allOf: [{$ref: '#/components/schemas/Tag'}, {xml: {name: Tag}}]}}}
      responses: {"200": {description: ok}}
  /zones:
    get:
      operationId: zones
      parameters:
        - {name: Zones, in: query, schema: {type: array, items: {allOf: [{$ref: '#/components/schemas/Zone'}, {xml: {name: Zone}}]}}}
      responses: {"200": {description: ok}}
`)
	if dig(doc, "tools", "tag", "http") != nil {
		t.Errorf("tag bound")
	}
	if dig(doc, "tools", "zones", "http") == nil {
		t.Errorf("zones unbound: %q", res.Notes)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool {
		return strings.Contains(n, `no http binding (query parameter "Tags" is not a string, number, boolean, a list of them`)
	}) {
		t.Errorf("no importer note for Tags: %q", res.Notes)
	}
}
