package openapi

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/spec"
)

// swagger2 are real Swagger 2.0 descriptions (testdata/swagger2/README.md
// says where from).
func swagger2(name string) string { return filepath.Join("testdata", "swagger2", name) }

// generatedCode is the generated Go of a spec, all files together.
func generatedCode(t *testing.T, s *spec.Spec) string {
	t.Helper()
	files, err := gen.Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var code strings.Builder
	for _, f := range files {
		code.Write(f.Bytes)
	}
	return code.String()
}

// TestSwagger2Petstores imports the classic Swagger 2.0 petstores (JSON and
// YAML): every operation a tool, every one bound to its upstream call (the
// file upload as a multipart file part), tools and types in the description's order, the
// server URL from host, basePath and schemes, the API key sent, and query
// arrays sent as their collectionFormat says.
func TestSwagger2Petstores(t *testing.T) {
	for _, c := range []struct {
		file, baseURL string
		bound         int
		tools, types  []string
		calls         []string
	}{
		{"petstore.json", "http://petstore.swagger.io/v2", 20,
			[]string{"update_pet", "add_pet", "find_pets_by_status", "find_pets_by_tags", "get_pet_by_id"},
			[]string{"Order", "Category", "User", "Tag", "Pet", "APIResponse"},
			[]string{`r.Query("status", `, `r.Query("tags", `}},
		{"petstore-expanded.yaml", "http://petstore.swagger.io/api", 4,
			[]string{"find_pets", "add_pet", "find_pet_by_id", "delete_pet"},
			[]string{"Pet"}, // Pet is NewPet and an id (allOf, merged)
			[]string{`r.QueryJoined("tags", `}},
	} {
		t.Run(c.file, func(t *testing.T) {
			res, s := importChecked(t, swagger2(c.file), Options{})
			if len(s.Tools) != res.Operations {
				t.Errorf("%d tools of %d operations", len(s.Tools), res.Operations)
			}
			var names []string
			bound := 0
			for _, tool := range s.Tools {
				names = append(names, tool.Name)
				if tool.HTTP != nil {
					bound++
				} else if !notesContain(res, `implement tool "`+tool.Name+`" by hand`) {
					t.Errorf("%s unbound without a note", tool.Name)
				}
			}
			if bound != c.bound {
				t.Errorf("%d of %d tools bound, want %d", bound, len(s.Tools), c.bound)
			}
			if len(names) < len(c.tools) || !slices.Equal(names[:len(c.tools)], c.tools) {
				t.Errorf("tools %v, want %v first (the description's order)", names, c.tools)
			}
			var types []string
			for _, ty := range s.Types {
				types = append(types, ty.Name)
			}
			if !slices.Equal(types, c.types) {
				t.Errorf("types %v, want %v (the description's order)", types, c.types)
			}
			if s.Upstream == nil || s.Upstream.BaseURL != c.baseURL {
				t.Errorf("upstream %+v, want base URL %s", s.Upstream, c.baseURL)
			}
			if !notesContain(res, "Swagger 2.0, converted to OpenAPI 3.0 by kin-openapi") {
				t.Errorf("no note of the conversion: %q", res.Notes)
			}
			code := generatedCode(t, s)
			for _, call := range c.calls {
				if !strings.Contains(code, call) {
					t.Errorf("generated code has no %s", call)
				}
			}
		})
	}
}

// TestSwagger2PetstoreMatchesOpenAPI3: the Swagger 2.0 petstore imports
// as the same spec as its OpenAPI 3.0 edition (testdata/petstore-3.0.json),
// but for what the two descriptions themselves say differently: nothing of
// the API is lost in the conversion.
func TestSwagger2PetstoreMatchesOpenAPI3(t *testing.T) {
	v2, _ := importChecked(t, swagger2("petstore.json"), Options{})
	v3, _ := importChecked(t, filepath.Join("testdata", "petstore-3.0.json"), Options{})
	want := string(v3.YAML)
	// The 3.0 edition gives Category, Tag and Pet ids a default of 40 and
	// capitalizes the upload's summary.
	want = strings.ReplaceAll(want, "id: {type: integer, default: 40}", "id: {type: integer}")
	want = strings.ReplaceAll(want, "Uploads an image", "uploads an image")
	if got := string(v2.YAML); got != want {
		g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("line %d of the spec from Swagger 2.0:\n  %s\nfrom OpenAPI 3.0:\n  %s", i+1, g[i], w[i])
			}
		}
		t.Fatalf("the spec from Swagger 2.0 has %d lines, from OpenAPI 3.0 %d", len(g), len(w))
	}
	var extra []string
	for _, n := range v2.Notes {
		if !slices.Contains(v3.Notes, n) {
			extra = append(extra, n)
		}
	}
	if len(extra) != 1 || !strings.Contains(extra[0], "converted to OpenAPI 3.0") {
		t.Errorf("notes beyond the OpenAPI 3.0 edition's: %q", extra)
	}
}

// TestSwagger2PetstoreBuilds builds the code generated from the Swagger 2.0
// petstore in a module of its own.
func TestSwagger2PetstoreBuilds(t *testing.T) {
	testenv.BuildsModules(t)
	_, s := importChecked(t, swagger2("petstore.json"), Options{Package: "petmcp"})
	files, err := gen.Generate(s, gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	buildModule(t, files)
}

// TestSwagger2CollectionFormats: a query array without collectionFormat is
// comma-separated (Swagger 2.0's default, where OpenAPI 3's would repeat
// the parameter); the formats OpenAPI 3 cannot say are noted.
func TestSwagger2CollectionFormats(t *testing.T) {
	res := importInline(t, `swagger: "2.0"
info: {title: t, version: "1"}
host: api.example.com
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - {name: tags, in: query, type: array, items: {type: string}}
        - {name: cols, in: query, type: array, items: {type: string}, collectionFormat: tsv}
      responses: {"200": {description: ok}}
  /items/{ids}:
    get:
      operationId: getItems
      parameters:
        - {name: ids, in: path, required: true, type: array, items: {type: string}, collectionFormat: pipes}
        - {name: X-Flags, in: header, type: array, items: {type: string}, collectionFormat: ssv}
      responses: {"200": {description: ok}}
`)
	s := checkSpec(t, "formats", res.YAML)
	if code := generatedCode(t, s); !strings.Contains(code, `r.QueryJoined("tags",`) {
		t.Errorf("tags without collectionFormat is not sent comma-separated")
	}
	for _, note := range []string{
		"GET /items/{ids}: parameter ids: collectionFormat pipes of a path parameter has no OpenAPI 3 equivalent",
		"GET /items: parameter cols: collectionFormat tsv has no OpenAPI 3 equivalent; sent as repeated parameters",
		"GET /items/{ids}: parameter X-Flags: collectionFormat ssv of a header parameter",
	} {
		if !notesContain(res, note) {
			t.Errorf("no note %q in %q", note, res.Notes)
		}
	}
	if got := res.Tools["list_items"]; got != "GET /items" {
		t.Errorf("tools %v", res.Tools)
	}
}

// TestSwagger2Invalid: a broken Swagger 2.0 description is refused with an
// error naming where it is broken (each case breaks the real petstore once).
func TestSwagger2Invalid(t *testing.T) {
	data, err := os.ReadFile(swagger2("petstore.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"$ref": "#/definitions/Category"`, `"$ref": "#/definitions/Nope"`,
			`definitions.Pet.properties.category.$ref (line 833): "#/definitions/Nope" points at nothing`},
		{`"$ref": "#/definitions/Pet"`, `"$ref": "pet.json#/definitions/Pet"`,
			`paths./pet.post.parameters[0].schema.$ref (line 57): "pet.json#/definitions/Pet" is a reference to another file`},
		{`"collectionFormat": "multi"`, `"collectionFormat": 3`,
			"paths./pet/findByStatus.get.parameters[0].collectionFormat (line 127): a number, where Swagger 2.0 has a string"},
		{`"name": "petId",`, `"name": ["petId"],`,
			"paths./pet/{petId}.get.parameters[0].name (line 202): an array, where Swagger 2.0 has a string"},
		{`"parameters": [`, `"parameters": {"a": 1}, "x-was": [`,
			"paths./pet.post.parameters (line 50): an object, where Swagger 2.0 has a list"},
		{`"in": "formData",`, `"in": "body", "schema": {"type": "object"},`,
			"POST /pet/{petId}: body parameter name beside form parameters (status)"},
		{`"name": "username",
            "in": "path",
            "description": "name that need to be updated",`, `"name": "username", "in": "body", "schema": {"type": "string"},`,
			"PUT /user/{username}: 2 body parameters (username, body); Swagger 2.0 allows one"},
		{`"flow": "implicit"`, `"flow": "magic"`,
			`securityDefinitions.petstore_auth: OAuth2 flow "magic" is none of`},
		{`"host": "petstore.swagger.io"`, `"host": "petstore.swagger.io/v1"`,
			`host: "petstore.swagger.io/v1" is not a host name`},
	} {
		broken := strings.Replace(string(data), c.from, c.to, 1)
		if broken == string(data) {
			t.Fatalf("%s is not in the petstore", c.from)
		}
		_, err := Import([]byte(broken), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: %v, want %q", c.from, c.to, err, c.want)
		}
	}
}

// TestSwagger2OtherVersions: "swagger" versions other than 2.0 are refused
// by name.
func TestSwagger2OtherVersions(t *testing.T) {
	_, err := Import([]byte(`{"swagger": "2.1", "info": {"title": "t", "version": "1"}, "paths": {}}`), Options{})
	if err == nil || !strings.Contains(err.Error(), `"2.1" is not a version mcpgen reads`) {
		t.Errorf("swagger 2.1: %v", err)
	}
}
