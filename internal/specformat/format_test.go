package specformat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
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

// instance reads YAML the way an editor sees it: as a JSON value.
func instance(t *testing.T, data []byte) any {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	v, err := nodeJSON(&doc)
	if err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// nodeJSON is the JSON value of a YAML node. A number is taken as written,
// as the spec loader takes it: yaml.v3 cannot decode an integer past int64
// tagged !!float (golden/numbers has some), but JSON has no such bound.
func nodeJSON(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return nodeJSON(n.Content[0])
	case yaml.AliasNode:
		return nodeJSON(n.Alias)
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := nodeJSON(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			out[n.Content[i].Value] = v
		}
		return out, nil
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, err := nodeJSON(c)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	// A plain 1e400 is a number too (yaml.v3 resolves it as a string: it
	// does not fit a float64); a plain scalar that is valid JSON can only be
	// a number, its other JSON forms resolving to bool and null.
	tag := n.ShortTag()
	number := tag == "!!int" || tag == "!!float" || (tag == "!!str" && n.Style == 0)
	if number && json.Valid([]byte(n.Value)) {
		return json.Number(n.Value), nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return toJSON(v), nil
}

// toJSON converts what yaml.v3 decodes into what encoding/json can write:
// map keys become strings, and an unquoted timestamp stays a string (as the
// spec loader keeps it).
func toJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = toJSON(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[fmt.Sprint(k)] = toJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = toJSON(e)
		}
		return out
	case time.Time:
		return v.Format(time.RFC3339Nano)
	}
	return v
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
