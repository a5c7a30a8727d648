// Package yamlmap builds YAML mappings in insertion order, for the
// importers (internal/openapi, internal/mcpimport): the spec they write
// follows the order of what they read, which is the order on the wire.
package yamlmap

import (
	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/spec"
)

// Map is a YAML mapping node under construction.
type Map struct{ N *yaml.Node }

// New is an empty mapping.
func New() Map { return Map{&yaml.Node{Kind: yaml.MappingNode}} }

// Set adds key: v, or replaces the value when key is already there.
func (m Map) Set(key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.N.Content); i += 2 {
		if m.N.Content[i].Value == key {
			m.N.Content[i+1] = v
			return
		}
	}
	m.N.Content = append(m.N.Content, Str(key), v)
}

// Get is the value of key, or nil.
func (m Map) Get(key string) *yaml.Node {
	for i := 0; i+1 < len(m.N.Content); i += 2 {
		if m.N.Content[i].Value == key {
			return m.N.Content[i+1]
		}
	}
	return nil
}

// Del removes key.
func (m Map) Del(key string) {
	for i := 0; i+1 < len(m.N.Content); i += 2 {
		if m.N.Content[i].Value == key {
			m.N.Content = append(m.N.Content[:i], m.N.Content[i+2:]...)
			return
		}
	}
}

// Len is the number of keys.
func (m Map) Len() int { return len(m.N.Content) / 2 }

// Each calls f on every key and value, in order.
func (m Map) Each(f func(key string, v *yaml.Node)) {
	for i := 0; i+1 < len(m.N.Content); i += 2 {
		f(m.N.Content[i].Value, m.N.Content[i+1])
	}
}

// Str is a string scalar.
func Str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if spec.NumberPastFloat64(s) {
		// yaml.v3 writes "1e400" unquoted (it reads it as a string), but
		// the spec loader reads 1e400 as a number.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// Scalar is a scalar of a YAML tag (!!int, !!float…).
func Scalar(tag, v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v} }

// Bool is a boolean scalar.
func Bool(b bool) *yaml.Node {
	if b {
		return Scalar("!!bool", "true")
	}
	return Scalar("!!bool", "false")
}

// StrList is a list of strings, on one line.
func StrList(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, s := range items {
		n.Content = append(n.Content, Str(s))
	}
	return n
}
