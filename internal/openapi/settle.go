package openapi

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/internal/gonames"
	"github.com/mcpgen/mcpgen/spec"
)

// settle writes the spec in root as one that generates: Go names through the
// generator's plan (gonames.SettleText), and then, for any finding left (a
// construct the importer wrote that the spec cannot hold), the smallest
// cut that removes it, noted: a tool's http binding, else the tool; a
// type's schema becomes any; the upstream auth goes. The importer should
// not write such constructs (each is a bug to fix at its cause); this makes
// sure a missed one is a note, not a spec that fails in generate.
func (im *importer) settle(root *yaml.Node) ([]byte, error) {
	for range 50 {
		st, err := gonames.SettleText("mcpgen.yaml", root)
		if err != nil {
			return nil, err
		}
		im.notes.list = append(im.notes.list, st.Notes...)
		if st.Spec != nil && len(st.Diags) == 0 {
			return st.Data, nil
		}
		if root, err = st.Root(); err != nil {
			return nil, err
		}
		cut := false
		at := map[spec.Pos][]string{}
		indexPaths(root, nil, at)
		for _, d := range st.Diags {
			if im.cut(root, at[d.Pos], d) {
				cut = true
			}
		}
		if !cut {
			return nil, fmt.Errorf("the imported spec does not load (a bug of the importer; please report it): %v", st.Diags)
		}
	}
	return nil, fmt.Errorf("the imported spec does not settle (a bug of the importer; please report it)")
}

// cut removes what holds the finding d at path; false when nothing does.
func (im *importer) cut(root *yaml.Node, path []string, d spec.Diagnostic) bool {
	if len(path) < 2 {
		return false
	}
	top := ymap{N: root}
	switch path[0] {
	case "tools":
		tools := top.Get("tools")
		if tools == nil {
			return false
		}
		tool := ymap{N: tools}.Get(path[1])
		if tool == nil {
			return false // cut already
		}
		if len(path) > 2 && path[2] == "http" {
			ymap{N: tool}.Del("http")
			im.notes.add("tools.%s: no http binding (%s): implement tool %q by hand", path[1], d.Message, path[1])
			return true
		}
		ymap{N: tools}.Del(path[1])
		delete(im.res.Tools, path[1])
		im.notes.add("tools.%s: left out: %s", path[1], d.Message)
		return true
	case "types":
		types := top.Get("types")
		if types == nil {
			return false
		}
		t := ymap{N: types}.Get(path[1])
		if t == nil || (len(t.Content) == 2 && t.Content[1].Value == "any") {
			return false // any already
		}
		anyType := newMap()
		anyType.Set("type", str("any"))
		ymap{N: types}.Set(path[1], flow(anyType))
		im.notes.add("types.%s: any JSON value: %s", path[1], d.Message)
		return true
	case "upstream":
		up := top.Get("upstream")
		if up == nil || path[1] != "auth" || (ymap{N: up}).Get("auth") == nil {
			return false
		}
		ymap{N: up}.Del("auth")
		im.notes.add("upstream.auth: left out: %s; write it by hand", d.Message)
		return true
	}
	return false
}

// indexPaths records the path of keys to every node (a key stands for its
// entry).
func indexPaths(n *yaml.Node, path []string, at map[spec.Pos][]string) {
	pos := spec.Pos{Line: n.Line, Column: n.Column}
	if _, ok := at[pos]; !ok {
		at[pos] = path
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := append(path[:len(path):len(path)], n.Content[i].Value)
			kp := spec.Pos{Line: n.Content[i].Line, Column: n.Content[i].Column}
			if _, ok := at[kp]; !ok {
				at[kp] = p
			}
			indexPaths(n.Content[i+1], p, at)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			indexPaths(c, append(path[:len(path):len(path)], fmt.Sprint(i)), at)
		}
	}
}
