package specformat

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/spec"
)

const committed = "../../mcpgen.schema.json"

// TestCommittedSchemaIsCurrent keeps mcpgen.schema.json (what editors fetch)
// equal to what `mcpgen schema` prints.
func TestCommittedSchemaIsCurrent(t *testing.T) {
	want, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(committed)
	if err != nil {
		t.Fatalf("%v; create it with: go run ./cmd/mcpgen schema > mcpgen.schema.json", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("mcpgen.schema.json is stale (-want +committed):\n%s\nupdate it with: go run ./cmd/mcpgen schema > mcpgen.schema.json", diff)
	}
}

// TestDeterministic: two runs give the same bytes.
func TestDeterministic(t *testing.T) {
	a, _ := JSONSchema()
	b, _ := JSONSchema()
	if !bytes.Equal(a, b) {
		t.Error("two runs of JSONSchema differ")
	}
}

func compile(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(SchemaID)
	if err != nil {
		t.Fatalf("the schema does not compile as draft 2020-12: %v", err)
	}
	return sch
}

// instance reads YAML as the spec loader does (spec.JSON): as a JSON value.
func instance(t *testing.T, data []byte) any {
	t.Helper()
	j, diags := spec.JSON("mcpgen.yaml", data)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// TestSpecsValidate: every spec the loader accepts (the golden cases without
// diagnostics.txt, and the examples) is valid against the schema.
func TestSpecsValidate(t *testing.T) {
	sch := compile(t)
	var specs []string
	for _, pattern := range []string{"../../golden/*/mcpgen.yaml", "../../examples/*/mcpgen.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, m...)
	}
	checked := 0
	for _, path := range specs {
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), "diagnostics.txt")); err == nil {
			continue // a spec the loader rejects
		}
		checked++
		t.Run(strings.TrimPrefix(filepath.ToSlash(path), "../../"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(instance(t, data)); err != nil {
				t.Errorf("%s does not validate against mcpgen.schema.json:\n%v", path, err)
			}
		})
	}
	if checked < 10 {
		t.Fatalf("only %d specs checked; are the golden cases and examples where the test expects?", checked)
	}
}

// TestSchemaRefuses: mistakes an editor should flag as the spec is typed.
func TestSchemaRefuses(t *testing.T) {
	sch := compile(t)
	const head = "mcpgen: 1\nserver: {name: s, version: 1.0.0}\ngo: {package: smcp}\n"
	for name, body := range map[string]string{
		"unknown top-level key":    "tool: {}\n",
		"misspelt schema key":      "types:\n  A: {type: string, patern: x}\n",
		"unknown type":             "types:\n  A: {type: str}\n",
		"tool without description": "tools:\n  t: {input: {properties: {a: {type: string}}}}\n",
		"input and inputSchema":    "tools:\n  t: {description: d, input: {properties: {}}, inputSchema: {type: object}}\n",
		"bad tool name":            "tools:\n  'a b': {description: d}\n",
		"message with two bodies":  "prompts:\n  p: {description: d, messages: [{role: user, text: a, resource: 'x://y'}]}\n",
		"bad role":                 "prompts:\n  p: {description: d, messages: [{role: system, text: a}]}\n",
		"bad content word":         "resources:\n  r: {uri: 'x://y', content: json}\n",
		"version 2":                "mcpgen: 2\n",
		"resource without uri":     "resources:\n  r: {title: R}\n",
		"unknown variable key":     "resourceTemplates:\n  t: {uriTemplate: 'x://{id}', variables: {id: {type: integer, completes: true}}}\n",
	} {
		t.Run(name, func(t *testing.T) {
			doc := head + body
			if strings.HasPrefix(body, "mcpgen:") {
				doc = strings.Replace(head, "mcpgen: 1\n", body, 1)
			}
			if err := sch.Validate(instance(t, []byte(doc))); err == nil {
				t.Errorf("accepted:\n%s", doc)
			}
		})
	}
	// And what it must accept.
	for name, body := range map[string]string{
		"numeric version":        "",
		"additionalProperties":   "types:\n  M: {type: object, additionalProperties: {type: integer}}\n  O: {properties: {a: {type: string}}, additionalProperties: true}\n",
		"content schema":         "resources:\n  r: {uri: 'x://y', content: {$ref: M}}\ntypes:\n  M: {type: map, values: {type: string}}\n",
		"variable with complete": "resourceTemplates:\n  t: {uriTemplate: 'x://{id}', variables: {id: {type: integer, minimum: 1, complete: true}}}\n",
		"timestamp":              "resources:\n  r: {uri: 'x://y', annotations: {lastModified: 2026-11-01T00:00:00Z}}\n",
	} {
		t.Run(name, func(t *testing.T) {
			doc := head + body
			if name == "numeric version" {
				doc = strings.Replace(head, "version: 1.0.0", "version: 2", 1)
			}
			if err := sch.Validate(instance(t, []byte(doc))); err != nil {
				t.Errorf("refused:\n%s\n%v", doc, err)
			}
		})
	}
}
