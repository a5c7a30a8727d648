package spec

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Requires is `requires:` on a tool, resource, template or prompt: the
// client capabilities it needs. It is listed, and callable, only for a
// client that declared them (runtime.Requires); to another client it does
// not exist.
type Requires struct {
	Pos Pos
	// Capabilities are among ClientCapabilityNames.
	Capabilities []string
	// Extensions are client extension identifiers
	// (capabilities.extensions), such as io.modelcontextprotocol/ui.
	Extensions []string
}

// ClientCapabilityNames are the client capabilities `requires:` may name.
var ClientCapabilityNames = []string{"roots", "sampling", "elicitation", "tasks"}

var requiresFields = fields[*Requires]{
	{key: "capabilities", doc: "Client capabilities the item needs: roots, sampling, elicitation, tasks (in 2026-07-28: the io.modelcontextprotocol/tasks extension).",
		schema: `{"type":"array","uniqueItems":true,"items":` + stringEnum(ClientCapabilityNames) + `}`,
		decode: func(d *decoder, r *Requires, e entry) {
			r.Capabilities = d.nameList(e.value, "capabilities", func(name string) string {
				if slices.Contains(ClientCapabilityNames, name) {
					return ""
				}
				return fmt.Sprintf("unknown client capability %q%s", name, orHint(didYouMean(name, ClientCapabilityNames), "; use "+joinList(ClientCapabilityNames, "or")))
			})
		}},
	{key: "extensions", doc: "Client extensions the item needs, by identifier (vendor-prefix/name), e.g. io.modelcontextprotocol/ui.",
		schema: `{"type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^[^/\\s]+/[^/\\s]+$"}}`,
		decode: func(d *decoder, r *Requires, e entry) {
			r.Extensions = d.nameList(e.value, "extensions", func(name string) string {
				if prefix, rest, ok := strings.Cut(name, "/"); ok && prefix != "" && rest != "" && !strings.ContainsAny(rest, "/ \t") && !strings.ContainsAny(prefix, " \t") {
					return ""
				}
				return fmt.Sprintf("extension %q is not an extension identifier: write vendor-prefix/name, such as io.modelcontextprotocol/ui", name)
			})
		}},
}

// requiresField is `requires:`, shared by tools, resources, templates and
// prompts.
func requiresField[T interface{ item() *Item }]() field[T] {
	return field[T]{key: "requires", doc: "The client capabilities and extensions it needs: listed and callable only for a client that declared them all (initialize, or a 2026-07-28 request's _meta); to others it does not exist.",
		schema: defRef("Requires"),
		decode: func(d *decoder, into T, e entry) { into.item().Requires = d.requires(e.value) }}
}

func (d *decoder) requires(n *yaml.Node) *Requires {
	m, ok := d.mapping(n, "requires")
	if !ok {
		return nil
	}
	r := &Requires{Pos: posOf(n)}
	decodeMapping(d, m, r, requiresFields, func(e entry) {
		d.unknownKey(e, "in requires", requiresFields.keys())
	})
	if len(m.Content) == 0 {
		d.errorf(r.Pos, "requires names nothing: list capabilities (%s) or extensions, or leave requires out", joinList(ClientCapabilityNames, "or"))
		return nil
	}
	return r
}

// nameList decodes a list of names, each checked by bad (a message, or ""
// when the name is good) and listed once.
func (d *decoder) nameList(n *yaml.Node, key string, bad func(string) string) []string {
	items, ok := d.list(n, key)
	if !ok {
		return nil
	}
	var out []string
	for _, item := range items {
		name, ok := d.str(item, "each of "+key)
		if !ok {
			continue
		}
		switch msg := bad(name); {
		case msg != "":
			d.errorf(posOf(item), "%s", msg)
		case slices.Contains(out, name):
			d.errorf(posOf(item), "%s lists %q twice", key, name)
		default:
			out = append(out, name)
		}
	}
	return out
}
