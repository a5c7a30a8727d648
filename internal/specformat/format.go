// Package specformat derives the JSON Schema of the spec file format
// (mcpgen.yaml) that editors use to validate and complete a spec
// (mcpgen.schema.json, printed by `mcpgen schema`).
//
// It holds no grammar of its own: the keys, their descriptions and the
// schemas of their values come from the tables the spec loader decodes with
// (spec.FormatMappings), so a key added to the loader is in the schema too.
// The loader stays the authority: it accepts what this schema accepts, and
// says more (cross-references, kind-specific keys, Go naming clashes). After
// a change to those tables, run
// `go run ./cmd/mcpgen schema > mcpgen.schema.json`; a test fails until then.
package specformat

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/spec"
)

// SchemaID is the $id of the published schema, and the URL that scaffolded
// specs point yaml-language-server at.
const SchemaID = "https://raw.githubusercontent.com/mcpgen/mcpgen/main/mcpgen.schema.json"

// JSONSchema returns the JSON Schema (draft 2020-12) of the spec format,
// indented, with a final newline. It is deterministic.
func JSONSchema() ([]byte, error) {
	mappings := spec.FormatMappings()
	s, err := schemaOf(mappings[0]) // the document
	if err != nil {
		return nil, err
	}
	s.Version = jsonschema.Version
	s.ID = SchemaID
	s.Title = "mcpgen spec"
	s.Description = "An mcpgen spec (mcpgen.yaml): an MCP server's tools, resources, resource templates and prompts, from which mcpgen generates a typed Go server. Keys use MCP's own wire names; the order of the file is the order on the wire."
	s.Definitions = jsonschema.Definitions{}
	for _, m := range mappings[1:] {
		if s.Definitions[m.Name], err = schemaOf(m); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// schemaOf is the JSON Schema of one kind of value: for a mapping, an
// object of exactly its keys, each with its description.
func schemaOf(m spec.FormatMapping) (*jsonschema.Schema, error) {
	s, err := parse(m.Schema)
	if err != nil || len(m.Keys) == 0 {
		return s, annotate(err, m.Name)
	}
	s.Properties = jsonschema.NewProperties()
	for _, k := range m.Keys {
		v, err := parse(k.Schema)
		if err != nil {
			return nil, annotate(err, m.Name+"."+k.Name)
		}
		v.Description = k.Doc
		s.Properties.Set(k.Name, v)
		if k.Required {
			s.Required = append(s.Required, k.Name)
		}
	}
	s.AdditionalProperties = jsonschema.FalseSchema // a typo never passes
	s.Type = "object"
	return s, nil
}

// parse reads a JSON Schema fragment of the spec's tables ("" is none).
func parse(text string) (*jsonschema.Schema, error) {
	s := &jsonschema.Schema{}
	if text == "" {
		return s, nil
	}
	err := json.Unmarshal([]byte(text), s)
	return s, err
}

func annotate(err error, where string) error {
	if err == nil {
		return nil
	}
	if where == "" {
		where = "the document"
	}
	return fmt.Errorf("the JSON Schema of %s in package spec's tables: %w", where, err)
}
