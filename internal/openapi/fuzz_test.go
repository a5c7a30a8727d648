package openapi

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

// FuzzImport: no description, however broken, makes the importer panic,
// and what it imports loads as a spec (what import writes, generate
// reads). Seeds are the testdata descriptions; the real corpus is
// internal/openapi/corpus's.
//
//	go test ./internal/openapi -run '^$' -fuzz FuzzImport -fuzztime 2m
func FuzzImport(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.json")
	yamls, _ := filepath.Glob("testdata/*.yaml")
	swagger, _ := filepath.Glob("testdata/swagger2/*.*")
	yamls = append(yamls, swagger...)
	for _, p := range append(paths, yamls...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}}}`))
	// Swagger 2.0 is converted (or refused with a clear error), never a panic.
	f.Add([]byte("swagger: '2.0'\ninfo: {title: t, version: '1'}\nhost: a.example\npaths:\n  /a/{id}:\n    get:\n      parameters: [{name: id, in: path, required: true, type: string}, {name: q, in: query, type: array, items: {type: string}, collectionFormat: pipes}]\n      responses: {200: {description: ok, schema: {type: object, properties: {x: {type: string}}}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Import(data, Options{})
		if err != nil {
			return
		}
		if _, diags := spec.Load("fuzz.mcpgen.yaml", res.YAML); len(diags) > 0 {
			t.Fatalf("the imported spec does not load: %v\n%s", diags, res.YAML)
		}
	})
}
