package spec

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// The keys of each mapping of the spec outside schemas, in the reference's
// order (did-you-mean suggestions are drawn from these lists).
var (
	topKeys            = []string{"mcpgen", "server", "go", "types", "tools", "resources", "resourceTemplates", "prompts", "lint"}
	serverKeys         = []string{"name", "title", "version", "description", "instructions", "websiteUrl", "icons", "scopes", "caching"}
	goKeys             = []string{"package", "output"}
	iconKeys           = []string{"src", "mimeType", "sizes", "theme"}
	toolKeys           = []string{"title", "description", "input", "output", "inputSchema", "outputSchema", "annotations", "icons", "_meta", "ui", "permission", "x-lint-disable", "scopes", "idempotency"}
	toolAnnotationKeys = []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
)

func (d *decoder) unknownKey(e entry, where string, valid []string) {
	hint := didYouMean(e.key, valid)
	if hint == "" {
		hint = commaHint(e)
	}
	d.errorf(posOf(e.keyNode), "unknown key %q %s%s", e.key, where, hint)
}

// spec decodes the document's root mapping into s.
func (d *decoder) spec(s *Spec, root *yaml.Node) {
	m := deref(root)
	if m.Kind != yaml.MappingNode {
		d.errorf(posOf(root), "the spec must be a mapping with the keys %s", joinList(topKeys, "and"))
		d.skip[s] = true
		return
	}
	es := d.entries(m, "key")
	// Type names are known before any schema is read, so that `type: Order`
	// can be answered with "write $ref: Order".
	for _, e := range es {
		if e.key == "types" {
			if t := deref(e.value); t.Kind == yaml.MappingNode {
				for i := 0; i < len(t.Content); i += 2 {
					d.typeNames[deref(t.Content[i]).Value] = true
				}
			}
		}
	}
	for _, e := range es {
		switch e.key {
		case "mcpgen":
			// Anything but the integer 1 is left for the validator to
			// refuse, with one message whatever was written.
			s.VersionPos = posOf(e.value)
			if v := deref(e.value); v.Kind == yaml.ScalarNode && v.ShortTag() == "!!int" {
				var i int
				if decodeScalar(v, &i) == nil {
					s.Version = i
				}
			}
			if s.Version == 0 {
				s.Version = -1 // present, but not a version
			}
		case "server":
			d.server(&s.Server, e.value)
		case "go":
			d.goOptions(&s.Go, e.value)
		case "types":
			s.Types = d.types(e.value)
		case "tools":
			s.Tools = d.tools(e.value)
		case "resources":
			s.Resources = d.resources(e.value)
		case "resourceTemplates":
			s.ResourceTemplates = d.resourceTemplates(e.value)
		case "prompts":
			s.Prompts = d.prompts(e.value)
		case "lint":
			s.Lint = d.lint(e.value)
		default:
			d.unknownKey(e, "at the top level", topKeys)
		}
	}
}

// requiredStr reads a required string. A value that is not a string is kept
// as "" with its position, so that the validator reports it once, as
// "must be a non-empty string".
func requiredStr(n *yaml.Node) (string, Pos) {
	if isString(n) {
		return deref(n).Value, posOf(n)
	}
	return "", posOf(n)
}

func (d *decoder) server(srv *Server, n *yaml.Node) {
	m, ok := d.mapping(n, "server")
	if !ok {
		d.skip[srv] = true
		return
	}
	srv.Pos = posOf(n)
	for _, e := range d.entries(m, "key") {
		switch e.key {
		case "name":
			srv.Name, srv.NamePos = requiredStr(e.value)
		case "title":
			srv.Title, _ = d.str(e.value, "title")
		case "version":
			// Any scalar, as written: 1.10 stays "1.10", not 1.1.
			if v := deref(e.value); v.Kind == yaml.ScalarNode && !isNull(v) {
				srv.Version = v.Value
			}
			srv.VersionPos = posOf(e.value)
		case "description":
			srv.Description, _ = d.str(e.value, "description")
		case "instructions":
			srv.Instructions, _ = d.str(e.value, "instructions")
		case "websiteUrl":
			srv.WebsiteURL, _ = d.str(e.value, "websiteUrl")
			srv.WebsiteURLPos = posOf(e.value)
		case "icons":
			srv.Icons = d.icons(e.value)
		case "scopes":
			srv.Scopes = d.scopes(e.value)
		case "caching":
			srv.Caching = d.caching(e.value)
		default:
			d.unknownKey(e, "in server", serverKeys)
		}
	}
}

func (d *decoder) goOptions(g *GoOptions, n *yaml.Node) {
	m, ok := d.mapping(n, "go")
	if !ok {
		d.skip[g] = true
		return
	}
	g.Pos = posOf(n)
	for _, e := range d.entries(m, "key") {
		switch e.key {
		case "package":
			g.Package, g.PackagePos = requiredStr(e.value)
		case "output":
			g.Output, _ = d.str(e.value, "output")
			g.OutputPos = posOf(e.value)
		default:
			d.unknownKey(e, "in go", goKeys)
		}
	}
}

func (d *decoder) icons(n *yaml.Node) []*Icon {
	items, ok := d.list(n, "icons")
	if !ok {
		return nil
	}
	var icons []*Icon
	for _, item := range items {
		icon := &Icon{Pos: posOf(item)}
		icons = append(icons, icon)
		m, ok := d.mapping(item, "an icon")
		if !ok {
			d.skip[icon] = true
			continue
		}
		for _, e := range d.entries(m, "key") {
			switch e.key {
			case "src":
				icon.Src, icon.SrcPos = requiredStr(e.value)
			case "mimeType":
				icon.MimeType, _ = d.str(e.value, "mimeType")
			case "sizes":
				sizes, _ := d.list(e.value, "sizes")
				for _, s := range sizes {
					if size, ok := d.str(s, "each size"); ok {
						icon.Sizes = append(icon.Sizes, size)
					}
				}
			case "theme":
				icon.Theme, _ = d.str(e.value, "theme")
				icon.ThemePos = posOf(e.value)
			default:
				d.unknownKey(e, "in icon", iconKeys)
			}
		}
	}
	return icons
}

// types decodes the `types:` section.
func (d *decoder) types(n *yaml.Node) []*NamedType {
	return section(d, n, "types", "type", func(e entry) *NamedType {
		return &NamedType{Pos: posOf(e.keyNode), Name: e.key, Schema: d.schema(e.value, fmt.Sprintf("type %q", e.key))}
	})
}

// tools decodes the `tools:` section.
func (d *decoder) tools(n *yaml.Node) []*Tool {
	return section(d, n, "tools", "tool", d.tool)
}

// section decodes a top-level section of named entries (types, tools,
// resources, …) in file order. An empty section means none.
func section[T any](d *decoder, n *yaml.Node, key, kind string, decode func(entry) T) []T {
	if isNull(n) {
		return nil
	}
	m, ok := d.mapping(n, key)
	if !ok {
		return nil
	}
	var out []T
	for _, e := range d.entries(m, kind) {
		out = append(out, decode(e))
	}
	return out
}

func (d *decoder) tool(te entry) *Tool {
	t := &Tool{Pos: posOf(te.keyNode), Name: te.key}
	m, ok := d.mapping(te.value, fmt.Sprintf("tool %q", te.key))
	if !ok {
		d.skip[t] = true
		return t
	}
	for _, e := range d.entries(m, "key") {
		switch e.key {
		case "title":
			t.Title, _ = d.str(e.value, "title")
		case "description":
			t.Description, t.DescriptionPos = requiredStr(e.value)
		case "input":
			t.Input = d.schemaOr(e.value, "input", KindObject)
		case "output":
			t.Output = d.schema(e.value, "output")
		case "inputSchema":
			t.InputSchema = d.rawSchema(e.value, "inputSchema")
		case "outputSchema":
			t.OutputSchema = d.rawSchema(e.value, "outputSchema")
		case "annotations":
			t.Annotations = d.toolAnnotations(e.value)
		case "icons":
			t.Icons = d.icons(e.value)
		case "_meta":
			if _, ok := d.mapping(e.value, "_meta"); ok {
				t.Meta, _ = d.value(e.value)
			}
		case "idempotency":
			t.Idempotency = d.idempotency(e.value, te.key)
		case "ui":
			t.UI = d.toolUI(e.value)
		case "permission":
			t.Permission, _ = d.str(e.value, "permission")
			t.PermissionPos = posOf(e.value)
		case "x-lint-disable":
			t.LintDisable, t.LintDisablePos = d.ruleList(e.value, "x-lint-disable")
		case "scopes":
			t.Scopes = d.scopes(e.value)
		default:
			d.unknownKey(e, fmt.Sprintf("in tool %q", te.key), toolKeys)
		}
	}
	return t
}

func (d *decoder) toolAnnotations(n *yaml.Node) *ToolAnnotations {
	m, ok := d.mapping(n, "annotations")
	if !ok {
		return nil
	}
	a := &ToolAnnotations{Pos: posOf(n)}
	hint := func(v *yaml.Node, key string) *bool {
		if b, ok := d.boolean(v, key); ok {
			return &b
		}
		return nil
	}
	for _, e := range d.entries(m, "key") {
		switch e.key {
		case "title":
			a.Title, _ = d.str(e.value, "title")
		case "readOnlyHint":
			a.ReadOnlyHint = hint(e.value, e.key)
		case "destructiveHint":
			a.DestructiveHint = hint(e.value, e.key)
		case "idempotentHint":
			a.IdempotentHint = hint(e.value, e.key)
		case "openWorldHint":
			a.OpenWorldHint = hint(e.value, e.key)
		default:
			d.unknownKey(e, "in annotations", toolAnnotationKeys)
		}
	}
	return a
}

// rawSchema decodes a JSON Schema written out in full (inputSchema,
// outputSchema): a mapping kept as JSON, checked by validation.
func (d *decoder) rawSchema(n *yaml.Node, key string) *Value {
	if _, ok := d.mapping(n, key); !ok {
		return nil
	}
	v, _ := d.value(n)
	return v
}
