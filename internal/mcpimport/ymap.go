package mcpimport

import "gopkg.in/yaml.v3"

// ymap is a YAML mapping under construction, in insertion order, so that
// the written spec follows the order the server sent.
type ymap struct{ n *yaml.Node }

func newMap() ymap { return ymap{&yaml.Node{Kind: yaml.MappingNode}} }

// set adds key: v, or replaces the value when key is already there.
func (m ymap) set(key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.n.Content); i += 2 {
		if m.n.Content[i].Value == key {
			m.n.Content[i+1] = v
			return
		}
	}
	m.n.Content = append(m.n.Content, str(key), v)
}

func (m ymap) get(key string) *yaml.Node {
	for i := 0; i+1 < len(m.n.Content); i += 2 {
		if m.n.Content[i].Value == key {
			return m.n.Content[i+1]
		}
	}
	return nil
}

func (m ymap) len() int { return len(m.n.Content) / 2 }

// each calls f on every key and value, in order.
func (m ymap) each(f func(key string, v *yaml.Node)) {
	for i := 0; i+1 < len(m.n.Content); i += 2 {
		f(m.n.Content[i].Value, m.n.Content[i+1])
	}
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func boolean(b bool) *yaml.Node {
	if b {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"}
}

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
		n.Style = 0
	} else if n.Kind != yaml.ScalarNode {
		n.Style = 0
	}
	for _, c := range n.Content {
		plain(c)
	}
	return n
}
