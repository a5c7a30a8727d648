package mcpimport

import (
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/naming"
	"github.com/mcpgen/mcpgen/spec"
)

// settleGoNames gives goName: to what the generator would give a Go name
// already taken (tools get-x and get_x are both GetX; a resource "Get X"
// and one "get x" both ReadGetX), until the spec plans without a
// collision: wire names are data, Go names are derived, and the import
// must write a spec that generates. It returns what loading the spec it
// leaves reports (nothing when it loads), so that the caller need not load
// it again.
func (im *importer) settleGoNames(root ymap) spec.Diagnostics {
	for range 100 {
		data, err := encode(root.N)
		if err != nil {
			break
		}
		s, diags := spec.Load("mcpgen.yaml", data)
		if len(diags) > 0 {
			return diags
		}
		api, _ := gen.PlanAPI(s)
		fixed := false
		for _, c := range api.Collisions {
			if c.Kind == gen.CollisionEnumConstant {
				continue // the converter names enum constants itself (goNames)
			}
			var parsed yaml.Node
			if yaml.Unmarshal(data, &parsed) != nil || len(parsed.Content) == 0 {
				return nil // data loaded above
			}
			path, ok := pathAt(parsed.Content[0], c.Pos.Line, c.Pos.Column, nil)
			if !ok {
				continue
			}
			target := walk(root.N, path)
			if target == nil || target.Kind != yaml.MappingNode {
				continue
			}
			base := c.GoName
			if len(path) == 2 {
				// An item: its goName stands for the name, not the method
				// (Read, Get… come before it).
				base = naming.Exported(path[1].key)
			}
			goName := freeGoName(base, data)
			ymap{N: target}.Set("goName", str(goName))
			im.note("%s: its Go name %s is taken; goName: %s (the wire name stays)", pathString(path), c.GoName, goName)
			fixed = true
			break // positions move: plan again
		}
		if !fixed {
			return nil
		}
	}
	_, diags := spec.Load("mcpgen.yaml", mustEncode(root))
	return diags
}

// step is one key (of a mapping) or index (of a list) on a path.
type step struct {
	key   string
	index int
}

// pathAt finds the mapping at line:col, or the value of the key there.
func pathAt(n *yaml.Node, line, col int, path []step) ([]step, bool) {
	if n.Line == line && n.Column == col && n.Kind == yaml.MappingNode {
		return path, true
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := append(append([]step(nil), path...), step{key: k.Value, index: -1})
			if k.Line == line && k.Column == col {
				return p, true
			}
			if found, ok := pathAt(v, line, col, p); ok {
				return found, true
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if found, ok := pathAt(c, line, col, append(append([]step(nil), path...), step{index: i})); ok {
				return found, true
			}
		}
	}
	return nil, false
}

// walk follows path from n.
func walk(n *yaml.Node, path []step) *yaml.Node {
	for _, s := range path {
		switch {
		case n == nil:
			return nil
		case s.index < 0 && n.Kind == yaml.MappingNode:
			n = ymap{N: n}.Get(s.key)
		case s.index >= 0 && n.Kind == yaml.SequenceNode && s.index < len(n.Content):
			n = n.Content[s.index]
		default:
			return nil
		}
	}
	return n
}

func pathString(path []step) string {
	out := ""
	for i, s := range path {
		if s.index >= 0 {
			out += "[" + strconv.Itoa(s.index) + "]"
			continue
		}
		if i > 0 {
			out += "."
		}
		out += s.key
	}
	return out
}

// freeGoName is name followed by the first number not already in the spec.
func freeGoName(name string, spec []byte) string {
	for i := 2; ; i++ {
		cand := name + strconv.Itoa(i)
		if !regexp.MustCompile(`\b` + cand + `\b`).Match(spec) {
			return cand
		}
	}
}
