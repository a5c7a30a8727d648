package mcpimport

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/internal/yamlmap"
)

// ymap is a YAML mapping under construction, in insertion order, so that
// the written spec follows the order the server sent.
type ymap = yamlmap.Map

var (
	newMap  = yamlmap.New
	str     = yamlmap.Str
	boolean = yamlmap.Bool
)

// flowSmall makes small mappings of scalars print on one line: {type: string}.
func flowSmall(n *yaml.Node) *yaml.Node {
	if n.Kind != yaml.MappingNode || len(n.Content) > 8 {
		return n
	}
	for i := 1; i < len(n.Content); i += 2 {
		if v := n.Content[i]; v.Kind != yaml.ScalarNode || len(v.Value) > 40 || v.Style != 0 {
			return n
		}
	}
	n.Style = yaml.FlowStyle
	return n
}

// plain drops the styles a JSON document left on its nodes (quoted
// strings, flow mappings), so that the written spec reads as YAML.
func plain(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && n.Style == yaml.DoubleQuotedStyle {
		if !blockLoses(n.Value) {
			n.Style = 0
		}
	} else if n.Kind != yaml.ScalarNode {
		n.Style = 0
	}
	for _, c := range n.Content {
		plain(c)
	}
	return n
}

// text is a string scalar that reads back byte for byte.
func text(s string) *yaml.Node {
	n := str(s)
	if blockLoses(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// blockLoses reports whether yaml.v3 would write s as a block scalar that
// reads back as another string: a multi-line string that starts with
// white space (a leading newline is dropped, a leading tab breaks the
// indentation). Such strings stay double-quoted, byte for byte.
func blockLoses(s string) bool {
	return strings.Contains(s, "\n") && s != "" && strings.ContainsAny(s[:1], " \t\n\r")
}
