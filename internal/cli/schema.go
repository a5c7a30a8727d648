package cli

import (
	"fmt"
	"io"

	"github.com/mcpgen/mcpgen/internal/specformat"
)

const schemaHelp = `usage: mcpgen schema

Prints the JSON Schema (draft 2020-12) of the spec format, which editors use
to validate and complete mcpgen.yaml as it is typed. The repository commits it
as mcpgen.schema.json; a spec points at it on its first line:

  # yaml-language-server: $schema=` + specformat.SchemaID + `

Example:
  mcpgen schema > mcpgen.schema.json
`

// runSchema is `mcpgen schema`.
func runSchema(args []string, stdout io.Writer) error {
	fs := newFlags("schema")
	if err := parseFlags(fs, args, schemaHelp, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("schema takes no arguments, got %q", fs.Args())}
	}
	data, err := specformat.JSONSchema()
	if err != nil {
		return err
	}
	_, err = stdout.Write(data)
	return err
}
