package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	jsonschema "github.com/santhosh-tekuri/jsonschema/v6"
)

// rawSchemas checks a tool's inputSchema and outputSchema: each excludes its
// typed counterpart, compiles as JSON Schema 2020-12 with no remote
// references, and an inputSchema describes an object (MCP requires it).
func (v *validator) rawSchemas(t *Tool) {
	if t.InputSchema != nil {
		if t.Input != nil {
			v.errorf(t.InputSchema.Pos, "tool %q has both input and inputSchema; keep one", t.Name)
		}
		v.compileRaw(t.InputSchema, "inputSchema")
		var top struct {
			Type any `json:"type"`
		}
		if json.Unmarshal(t.InputSchema.JSON, &top) == nil && top.Type != "object" {
			v.errorf(t.InputSchema.Pos, `inputSchema must have type: object (MCP tool arguments are an object)`)
		}
	}
	if t.OutputSchema != nil {
		if t.Output != nil {
			v.errorf(t.OutputSchema.Pos, "tool %q has both output and outputSchema; keep one", t.Name)
		}
		v.compileRaw(t.OutputSchema, "outputSchema")
	}
}

// noRemote refuses to load any schema by URL: a spec is self-contained.
type noRemote struct{}

func (noRemote) Load(url string) (any, error) {
	return nil, fmt.Errorf("remote $ref %q is not allowed; put the schema under $defs", url)
}

func (v *validator) compileRaw(raw *Value, key string) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw.JSON))
	if err != nil {
		v.errorf(raw.Pos, "%s is not valid JSON: %v", key, err)
		return
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noRemote{})
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mcpgen:"+key, doc); err != nil {
		v.errorf(raw.Pos, "%s is not a valid JSON Schema: %s", key, cleanSchemaError(err))
		return
	}
	if _, err := c.Compile("mcpgen:" + key); err != nil {
		v.errorf(raw.Pos, "%s is not a valid JSON Schema: %s", key, cleanSchemaError(err))
	}
}

// cleanSchemaError keeps the compiler's reason and drops its internal URL.
func cleanSchemaError(err error) string {
	msg := err.Error()
	// A metaschema failure lists every branch it tried; the last, deepest
	// one names the keyword that is wrong.
	if i := strings.LastIndex(msg, "- at '"); i >= 0 {
		rest := msg[i+len("- at '"):]
		if j := strings.Index(rest, "': "); j >= 0 {
			where := rest[:j]
			if where == "" {
				where = "/"
			}
			msg = "at " + where + ": " + rest[j+3:]
		}
	}
	msg = strings.ReplaceAll(msg, "mcpgen:inputSchema", "inputSchema")
	msg = strings.ReplaceAll(msg, "mcpgen:outputSchema", "outputSchema")
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return strings.ReplaceAll(msg, "\n", "; ")
}
