package openapi

import "gopkg.in/yaml.v3"

// ymap is a YAML mapping under construction, kept in insertion order so the
// written spec follows the description's order (the order on the wire).
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

func (m ymap) del(key string) {
	for i := 0; i+1 < len(m.n.Content); i += 2 {
		if m.n.Content[i].Value == key {
			m.n.Content = append(m.n.Content[:i], m.n.Content[i+2:]...)
			return
		}
	}
}

func (m ymap) len() int { return len(m.n.Content) / 2 }

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func scalar(tag, v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v} }

func boolean(b bool) *yaml.Node {
	if b {
		return scalar("!!bool", "true")
	}
	return scalar("!!bool", "false")
}

func strList(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, s := range items {
		n.Content = append(n.Content, str(s))
	}
	return n
}

// flow makes small mappings print on one line: {type: string}.
func flow(m ymap) *yaml.Node {
	simple := m.len() <= 3
	for i := 1; i < len(m.n.Content); i += 2 {
		if v := m.n.Content[i]; v.Kind != yaml.ScalarNode || len(v.Value) > 40 {
			simple = false
		}
	}
	if simple {
		m.n.Style = yaml.FlowStyle
	}
	return m.n
}
