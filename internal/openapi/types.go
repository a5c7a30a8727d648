package openapi

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
	"gopkg.in/yaml.v3"
)

// jsonMedia picks application/json, else another JSON media type
// (application/vnd.github+json, application/problem+json).
func jsonMedia(content *orderedmap.Map[string, *v3.MediaType]) *v3.MediaType {
	if m := content.GetOrZero("application/json"); m != nil {
		return m
	}
	for mt, m := range content.FromOldest() {
		base, _, _ := strings.Cut(mt, ";")
		if strings.HasSuffix(base, "+json") || base == "application/json" || base == "*/*" {
			return m
		}
	}
	return nil
}

func keys[V any](m *orderedmap.Map[string, V]) []string {
	var out []string
	for k := range m.KeysFromOldest() {
		out = append(out, k)
	}
	return out
}

// componentSchemas is components.schemas, nil when the description has no
// components or no schemas (1forge.com, ip2location.io in APIs.guru).
// KeysFromOldest and FromOldest of a nil map yield nothing; GetOrZero panics.
func (im *importer) componentSchemas() *orderedmap.Map[string, *base.SchemaProxy] {
	if im.doc.Components == nil {
		return nil
	}
	return im.doc.Components.Schemas
}

// types converts the component schemas the tools reach (and those they
// reach), in the description's order, then the shared schemas that are not
// components (see hoist.go), in the order they were first used.
func (im *importer) types(tools ymap) ymap {
	byName := map[string]string{} // type name → component name
	for comp, t := range im.conv.typeNames {
		byName[t] = comp
	}
	schemas := im.componentSchemas()
	converted := map[string]ymap{}
	queue := refsIn(tools.N, nil)
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		if _, done := converted[t]; done {
			continue
		}
		var m ymap
		if h := im.conv.hoistedByName[t]; h != nil {
			m = im.conv.inline(h.proxy, h.ref, 0)
		} else if comp, ok := byName[t]; ok && schemas != nil {
			m = im.conv.inline(schemas.GetOrZero(comp), "components.schemas."+comp, 0)
		} else {
			continue // not a type the importer named (none is)
		}
		converted[t] = m
		queue = refsIn(m.N, queue)
	}
	im.conv.settleDiscriminators(converted)
	nullableTypes(converted, tools)
	breakCycles(converted, &im.notes)
	types := newMap()
	for comp := range schemas.KeysFromOldest() {
		t := im.conv.typeNames[comp]
		if m, ok := converted[t]; ok {
			types.Set(t, m.N)
		}
	}
	for _, t := range im.conv.hoistOrder {
		if m, ok := converted[t]; ok {
			types.Set(t, m.N)
			// Where the type comes from, as a tool's operation is noted.
			types.N.Content[len(types.N.Content)-2].HeadComment = "shared schema " + im.conv.hoistedByName[t].ref
		}
	}
	return types
}

// nullableTypes moves nullable from a named type (3.0's nullable-simple-user)
// to every reference to it, where the spec wants it.
func nullableTypes(types map[string]ymap, tools ymap) {
	nullable := map[string]bool{}
	for t, m := range types {
		if n := m.Get("nullable"); n != nil {
			m.Del("nullable")
			nullable[t] = n.Value == "true"
		}
	}
	var mark func(n *yaml.Node)
	mark = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			if r := (ymap{N: n}).Get("$ref"); r != nil && nullable[r.Value] {
				ymap{N: n}.Set("nullable", boolean(true))
			}
		}
		for _, c := range n.Content {
			mark(c)
		}
	}
	for _, m := range types {
		mark(m.N)
	}
	mark(tools.N)
}

// refsIn appends the type names n refers to.
func refsIn(n *yaml.Node, out []string) []string {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "$ref" && n.Content[i+1].Kind == yaml.ScalarNode {
				out = append(out, n.Content[i+1].Value)
			}
		}
	}
	for _, c := range n.Content {
		out = refsIn(c, out)
	}
	return out
}

// byValueRefs are the $ref mappings of a type held by value: not under an
// array's items, a map's values, or a nullable schema. Go can hold a
// recursive type only through those (the spec's rule, see spec/cycles.go).
func byValueRefs(m *yaml.Node, out []*yaml.Node) []*yaml.Node {
	if m.Kind != yaml.MappingNode {
		return out
	}
	mm := ymap{N: m}
	if n := mm.Get("nullable"); n != nil && n.Value == "true" {
		return out
	}
	if mm.Get("$ref") != nil {
		return append(out, m)
	}
	if t := mm.Get("type"); t != nil && (t.Value == "array" || (t.Value == "object" && mm.Get("properties") == nil)) {
		return out
	}
	if props := mm.Get("properties"); props != nil {
		for i := 1; i < len(props.Content); i += 2 {
			out = byValueRefs(props.Content[i], out)
		}
	}
	return out
}

// breakCycles makes each $ref that closes a loop of types held by value
// nullable (a pointer in Go): a circular description stays circular, as a
// recursive type, instead of being an error or an endless expansion.
func breakCycles(types map[string]ymap, n *notes) {
	names := make([]string, 0, len(types))
	for t := range types {
		names = append(names, t)
	}
	slices.Sort(names)
	const (
		unvisited = iota
		onPath
		done
	)
	state := map[string]int{}
	var visit func(t string)
	visit = func(t string) {
		state[t] = onPath
		m, ok := types[t]
		if ok {
			for _, ref := range byValueRefs(m.N, nil) {
				to := ymap{N: ref}.Get("$ref").Value
				switch state[to] {
				case onPath:
					ymap{N: ref}.Set("nullable", boolean(true))
					n.add("types.%s: holds %s, which holds it back; the reference is nullable (a pointer in Go)", t, to)
				case unvisited:
					visit(to)
				}
			}
		}
		state[t] = done
	}
	for _, t := range names {
		if state[t] == unvisited {
			visit(t)
		}
	}
}

// write assembles the spec.
func (im *importer) write(info *base.Info, upstream *yaml.Node, types, tools ymap) ([]byte, error) {
	title, version := titleOf(info), "0.0.0"
	if info != nil && info.Version != "" {
		version = info.Version
	}
	name := im.serverName(info)
	pkg := im.opts.Package
	if pkg == "" {
		pkg = strings.ReplaceAll(snake(title), "_", "") + "mcp"
		if pkg[0] >= '0' && pkg[0] <= '9' {
			pkg = "api" + pkg
		}
	}
	root := newMap()
	root.Set("mcpgen", scalar("!!int", "1"))
	server := newMap()
	server.Set("name", str(name))
	server.Set("title", str(title))
	server.Set("version", str(version))
	if info != nil && strings.TrimSpace(info.Description) != "" {
		server.Set("description", str(strings.TrimSpace(info.Description)))
	}
	root.Set("server", server.N)
	goSec := newMap()
	goSec.Set("package", str(pkg))
	if im.opts.Output != "" {
		goSec.Set("output", str(im.opts.Output))
	}
	root.Set("go", goSec.N)
	root.Set("upstream", upstream)
	if types.Len() > 0 {
		root.Set("types", types.N)
	}
	root.Set("tools", tools.N)
	root.N.HeadComment = fmt.Sprintf("Imported from the OpenAPI description %q %s by mcpgen import openapi.\nReview it: rename tools, edit descriptions, remove what the model does not need.", title, version)
	return im.settle(root.N)
}

// titleOf is the description's title, or "api".
func titleOf(info *base.Info) string {
	if info != nil && info.Title != "" {
		return info.Title
	}
	return "api"
}

// serverName is the spec's server name: the option, else the title in
// kebab-case.
func (im *importer) serverName(info *base.Info) string {
	if im.opts.ServerName != "" {
		return im.opts.ServerName
	}
	return strings.ReplaceAll(snake(titleOf(info)), "_", "-")
}

// envPrefix starts the names of the environment variables the upstream
// section reads: the server's name in SCREAMING_SNAKE_CASE, ASCII only (an
// environment variable's name is [A-Za-z_][A-Za-z0-9_]*, so the letters of
// a title such as "カラーミーショップ API" are left out), "API" when nothing is
// left.
func envPrefix(server string) string {
	var words []string
	for _, w := range strings.Split(strings.ToUpper(snake(server)), "_") {
		w = strings.Map(func(r rune) rune {
			if (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
				return r
			}
			return -1
		}, w)
		if w != "" {
			words = append(words, w)
		}
	}
	p := strings.Join(words, "_")
	if p == "" {
		return "API"
	}
	if p[0] >= '0' && p[0] <= '9' {
		p = "API_" + p
	}
	return p
}
