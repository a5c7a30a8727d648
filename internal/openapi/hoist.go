package openapi

import (
	"slices"
	"strings"

	oyaml "github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	"github.com/pb33f/libopenapi/index"

	"github.com/mcpgen/mcpgen/internal/naming"
)

// A schema that a description shares through a reference to something
// other than a component of its own — `#/paths/~1v2~1keys/get/responses/
// 200/content/application~1json/schema`, `#/components/schemas/Gateway/
// properties/ipConfiguration`, as the bundler of APIs.guru's directory
// writes every schema a file shared (digitalocean.com has no component
// schema at all) — becomes a named type of its own, the way a component
// does: every use of it, the place it is written included, is a `$ref` to
// that type. Inlined at each use instead, a chain of such schemas that use
// each other twice is copied 2^depth times (azure.com's
// network-applicationGateway, digitalocean.com: gigabytes; issue 32).

// hoistTargets are the schema nodes that local references other than
// `#/components/schemas/Name` point at, each with its reference.
func hoistTargets(idx *index.SpecIndex) map[*oyaml.Node]string {
	out := map[*oyaml.Node]string{}
	if idx == nil {
		return out
	}
	for _, ref := range idx.GetMappedReferences() {
		if ref == nil || ref.Node == nil || ref.IsRemote || ref.Node.Kind != oyaml.MappingNode {
			continue
		}
		def := ref.Definition
		if !strings.HasPrefix(def, "#/") {
			continue
		}
		if name, ok := strings.CutPrefix(def, componentPrefix); ok && !strings.Contains(name, "/") {
			continue // a component: named already
		}
		if prev, ok := out[ref.Node]; !ok || def < prev {
			out[ref.Node] = def // the same reference, whatever the map's order
		}
	}
	return out
}

// hoisted is a type made of a shared schema that is not a component.
type hoisted struct {
	name  string
	ref   string // the reference that names it, for notes
	proxy *base.SchemaProxy
}

// hoist is the type name of sp when sp is (or refers to) a shared schema
// that is not a component, naming it at its first use; "" otherwise.
func (c *converter) hoist(sp *base.SchemaProxy) string {
	if len(c.targets) == 0 || (sp.IsReference() && !strings.HasPrefix(sp.GetReference(), "#/")) {
		return ""
	}
	low := sp.GoLow()
	if low == nil {
		return ""
	}
	node := low.GetValueNode()
	def, ok := c.targets[node]
	if !ok {
		return ""
	}
	if h, ok := c.hoisted[node]; ok {
		return h.name
	}
	t := hoistName(def)
	if _, ok := c.inlineNames[t]; ok {
		t += "Type" // the Go name gen makes for an inline schema of a component
	}
	got, renamed := c.names.take(t)
	if renamed {
		got = strings.ReplaceAll(got, "_", "")
	}
	h := &hoisted{name: got, ref: def, proxy: sp}
	c.hoisted[node] = h
	c.hoistedByName[got] = h
	c.hoistOrder = append(c.hoistOrder, got)
	return got
}

// hoistName is a type name for a reference: the Go spelling of the name
// it starts from (a component, an operation's path, a parameter) and of
// the last name in it (a property, a header), ahead of an array's Item:
// #/components/schemas/Gateway/properties/ipConfiguration/properties/taps/items
// is GatewayTapsItem; an operation's schema is named for its path and
// what it is (#/paths/~1keys/get/responses/200/content/application~1json/schema:
// KeysResponse).
func hoistName(def string) string {
	segs := pointerTokens(strings.TrimPrefix(def, "#/"))
	var words []string
	item := false
	for i, s := range segs {
		item = s == "items" && (i == 0 || segs[i-1] != "properties")
		if i == 0 {
			continue
		}
		switch segs[i-1] {
		case "properties", "schemas", "paths", "headers", "parameters", "requestBodies", "responses", "patternProperties":
			if segs[i-1] == "responses" && segs[0] == "paths" {
				continue // a status code
			}
			if segs[i-1] == "parameters" && segs[0] == "paths" {
				continue // an index
			}
			words = append(words, s)
		}
	}
	name := ""
	switch len(words) {
	case 0:
	case 1:
		name = naming.Exported(words[0])
	default:
		name = naming.Exported(words[0]) + naming.Exported(words[len(words)-1])
	}
	if len(words) == 1 && segs[0] == "paths" {
		// An operation's own schema, named for what it is.
		switch {
		case slices.Contains(segs, "responses"):
			name += "Response"
		case slices.Contains(segs, "requestBody"):
			name += "Body"
		case slices.Contains(segs, "parameters"):
			name += "Parameter"
		}
	}
	if item {
		name += "Item"
	}
	if name == "" || !(name[0] >= 'A' && name[0] <= 'Z') {
		name = "Schema" + name
	}
	return name
}
