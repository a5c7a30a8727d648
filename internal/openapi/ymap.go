package openapi

import (
	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/internal/yamlmap"
)

// ymap is a YAML mapping under construction, kept in insertion order so the
// written spec follows the description's order (the order on the wire).
type ymap = yamlmap.Map

var (
	newMap  = yamlmap.New
	str     = yamlmap.Str
	scalar  = yamlmap.Scalar
	boolean = yamlmap.Bool
	strList = yamlmap.StrList
)

// flow makes small mappings print on one line: {type: string}.
func flow(m ymap) *yaml.Node {
	simple := m.Len() <= 3
	for i := 1; i < len(m.N.Content); i += 2 {
		if v := m.N.Content[i]; v.Kind != yaml.ScalarNode || len(v.Value) > 40 {
			simple = false
		}
	}
	if simple {
		m.N.Style = yaml.FlowStyle
	}
	return m.N
}
