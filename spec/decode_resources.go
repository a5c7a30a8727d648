package spec

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// The keys of resources, templates and prompts, in the reference's order.
var (
	resourceKeys           = []string{"uri", "title", "description", "mimeType", "size", "annotations", "icons", "_meta", "content", "ui", "cache", "x-lint-disable"}
	templateKeys           = []string{"uriTemplate", "title", "description", "mimeType", "annotations", "icons", "_meta", "content", "variables", "cache", "x-lint-disable"}
	resourceAnnotationKeys = []string{"audience", "priority", "lastModified"}
	promptKeys             = []string{"title", "description", "icons", "_meta", "arguments", "messages", "x-lint-disable"}
	argumentKeys           = []string{"title", "description", "required", "complete", "enum"}
	messageKeys            = []string{"role", "text", "resource", "image", "audio"}
	mediaKeys              = []string{"data", "mimeType"}
	// contentWords are the values of `content:` that are not a schema.
	contentWords = []string{"text", "binary", "contents"}
)

// Hints for keys that belong to a neighbouring section.
var (
	resourceHints = map[string]string{
		"uriTemplate": "; a resource with a uriTemplate belongs under resourceTemplates:",
		"variables":   "; a resource with variables belongs under resourceTemplates:",
	}
	templateHints = map[string]string{
		"uri":  "; a resource template has a uriTemplate, and a fixed uri belongs under resources:",
		"size": "; only a static resource (under resources:) has a size",
	}
	argumentHints = map[string]string{
		"type": "; prompt arguments are always strings (restrict them with enum)",
	}
)

// unknownKeyOr is unknownKey with hints for keys that have a known meaning
// elsewhere.
func (d *decoder) unknownKeyOr(e entry, where string, valid []string, hints map[string]string) {
	if hint, ok := hints[e.key]; ok {
		d.errorf(posOf(e.keyNode), "unknown key %q %s%s", e.key, where, hint)
		return
	}
	d.unknownKey(e, where, valid)
}

// meta decodes a `_meta` mapping as JSON.
func (d *decoder) meta(n *yaml.Node) *Value {
	if _, ok := d.mapping(n, "_meta"); !ok {
		return nil
	}
	v, _ := d.value(n)
	return v
}

// resources decodes the `resources:` section.
func (d *decoder) resources(n *yaml.Node) []*Resource {
	return section(d, n, "resources", "resource", d.resource)
}

func (d *decoder) resource(re entry) *Resource {
	r := &Resource{Pos: posOf(re.keyNode), Name: re.key}
	r.Content = &Content{Pos: r.Pos, Kind: ContentText}
	m, ok := d.mapping(re.value, fmt.Sprintf("resource %q", re.key))
	if !ok {
		d.skip[r] = true
		return r
	}
	for _, e := range d.entries(m, "key") {
		switch e.key {
		case "uri":
			r.URI, r.URIPos = requiredStr(e.value)
		case "title":
			r.Title, _ = d.str(e.value, "title")
		case "description":
			r.Description, _ = d.str(e.value, "description")
		case "mimeType":
			r.MimeType, _ = d.str(e.value, "mimeType")
			r.MimeTypePos = posOf(e.value)
		case "size":
			r.Size = d.intPtr(e.value, "size")
			r.SizePos = posOf(e.value)
		case "annotations":
			r.Annotations = d.annotations(e.value)
		case "icons":
			r.Icons = d.icons(e.value)
		case "_meta":
			r.Meta = d.meta(e.value)
		case "content":
			r.Content = d.content(e.value)
		case "ui":
			r.UI = d.resourceUI(e.value)
		case "cache":
			r.Cache = d.cacheHint(e.value, "cache")
		case "x-lint-disable":
			r.LintDisable, r.LintDisablePos = d.ruleList(e.value, "x-lint-disable")
		default:
			d.unknownKeyOr(e, fmt.Sprintf("in resource %q", re.key), resourceKeys, resourceHints)
		}
	}
	return r
}

// annotations decodes the MCP annotations of a resource or template.
func (d *decoder) annotations(n *yaml.Node) *Annotations {
	m, ok := d.mapping(n, "annotations")
	if !ok {
		return nil
	}
	a := &Annotations{Pos: posOf(n)}
	for _, e := range d.entries(m, "key") {
		switch e.key {
		case "audience":
			items, _ := d.list(e.value, "audience")
			for _, item := range items {
				if !isString(item) {
					d.errorf(posOf(item), "audience values must be user or assistant")
					continue
				}
				a.Audience = append(a.Audience, deref(item).Value)
				a.AudiencePos = append(a.AudiencePos, posOf(item))
			}
		case "priority":
			a.Priority = d.numPtr(e.value, "priority")
			a.PriorityPos = posOf(e.value)
		case "lastModified":
			// An unquoted date-time is a YAML timestamp: its text is kept
			// as written.
			v := deref(e.value)
			if v.Kind == yaml.ScalarNode && (v.ShortTag() == "!!str" || v.ShortTag() == "!!timestamp") {
				a.LastModified = v.Value
			} else {
				d.errorf(posOf(e.value), "lastModified must be a date-time, such as 2026-11-01T00:00:00Z")
			}
			a.LastModifiedPos = posOf(e.value)
		default:
			d.unknownKey(e, "in annotations", resourceAnnotationKeys)
		}
	}
	return a
}

// content decodes `content:`, a word or the schema of a typed value. A bad
// value is reported and read as text, so that Content is never nil.
func (d *decoder) content(n *yaml.Node) *Content {
	c := &Content{Pos: posOf(n), Kind: ContentText}
	v := deref(n)
	switch {
	case v.Kind == yaml.MappingNode:
		c.Kind, c.Schema = ContentJSON, d.schema(n, "content")
	case isString(v) && slices.Contains(contentWords, v.Value):
		c.Kind = ContentKind(v.Value)
	case isString(v) && v.Value == string(ContentJSON):
		d.errorf(c.Pos, "content json is written as the schema of the value, such as content: {$ref: Config}")
	case isString(v) && d.typeNames[v.Value]:
		d.errorf(c.Pos, "content %q is a named type; write content: {$ref: %s}", v.Value, v.Value)
	case isString(v):
		hint := didYouMean(v.Value, contentWords)
		if hint == "" {
			hint = "; use text, binary, contents or a schema, such as {$ref: Config}"
		}
		d.errorf(c.Pos, "unknown content %q%s", v.Value, hint)
	default:
		d.errorf(c.Pos, "content must be text, binary, contents or a schema, such as {$ref: Config}")
	}
	return c
}

// resourceTemplates decodes the `resourceTemplates:` section.
func (d *decoder) resourceTemplates(n *yaml.Node) []*ResourceTemplate {
	return section(d, n, "resourceTemplates", "resource template", d.resourceTemplate)
}

func (d *decoder) resourceTemplate(te entry) *ResourceTemplate {
	t := &ResourceTemplate{Pos: posOf(te.keyNode), Name: te.key}
	t.Content = &Content{Pos: t.Pos, Kind: ContentText}
	m, ok := d.mapping(te.value, fmt.Sprintf("resource template %q", te.key))
	if !ok {
		d.skip[t] = true
		return t
	}
	var declared []*Variable
	for _, e := range d.entries(m, "key") {
		switch e.key {
		case "uriTemplate":
			t.URITemplate, t.URITemplatePos = requiredStr(e.value)
		case "title":
			t.Title, _ = d.str(e.value, "title")
		case "description":
			t.Description, _ = d.str(e.value, "description")
		case "mimeType":
			t.MimeType, _ = d.str(e.value, "mimeType")
			t.MimeTypePos = posOf(e.value)
		case "annotations":
			t.Annotations = d.annotations(e.value)
		case "icons":
			t.Icons = d.icons(e.value)
		case "_meta":
			t.Meta = d.meta(e.value)
		case "content":
			t.Content = d.content(e.value)
		case "variables":
			declared = d.variables(e.value)
		case "cache":
			t.Cache = d.cacheHint(e.value, "cache")
		case "x-lint-disable":
			t.LintDisable, t.LintDisablePos = d.ruleList(e.value, "x-lint-disable")
		default:
			d.unknownKeyOr(e, fmt.Sprintf("in resource template %q", te.key), templateKeys, templateHints)
		}
	}
	t.Variables = templateVariables(t, declared)
	return t
}

// templateVariables lists the variables of t's uriTemplate in template
// order, each typed by its declaration, else a plain string (an array of
// strings where exploded), then the declared variables the template lacks
// (the validator reports them). A uriTemplate that does not parse gives the
// declarations alone.
func templateVariables(t *ResourceTemplate, declared []*Variable) []*Variable {
	uses, err := parseURITemplate(t.URITemplate)
	if err != nil {
		return declared
	}
	byName := map[string]*Variable{}
	for _, v := range declared {
		byName[v.Name] = v
	}
	var out []*Variable
	listed := map[string]bool{}
	for _, u := range uses.vars {
		if listed[u.name] {
			continue
		}
		listed[u.name] = true
		if v := byName[u.name]; v != nil {
			out = append(out, v)
			continue
		}
		s := &Schema{Pos: t.URITemplatePos, Kind: KindString}
		if u.explode {
			s = &Schema{Pos: t.URITemplatePos, Kind: KindArray, Items: s}
		}
		out = append(out, &Variable{Pos: t.URITemplatePos, Name: u.name, Schema: s})
	}
	for _, v := range declared {
		if !listed[v.Name] {
			out = append(out, v)
		}
	}
	return out
}

// variables decodes `variables:`, the declarations of template variables.
func (d *decoder) variables(n *yaml.Node) []*Variable {
	if isNull(n) {
		return nil
	}
	m, ok := d.mapping(n, "variables")
	if !ok {
		return nil
	}
	var out []*Variable
	for _, e := range d.entries(m, "variable") {
		out = append(out, d.variable(e))
	}
	return out
}

// variable decodes one declaration: a scalar schema (a string unless said
// otherwise) with `complete:` beside its keys.
func (d *decoder) variable(e entry) *Variable {
	v := &Variable{Pos: posOf(e.keyNode), Name: e.key}
	n := e.value
	if m := deref(n); m.Kind == yaml.MappingNode {
		// The schema decoder does not know `complete`: it gets the mapping
		// without it (merge keys expanded, duplicates already reported).
		rest := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: m.Style, Line: n.Line, Column: n.Column}
		for _, f := range d.entries(m, "key") {
			if f.key == "complete" {
				v.Complete, _ = d.boolean(f.value, "complete")
				continue
			}
			rest.Content = append(rest.Content, f.keyNode, f.value)
		}
		n = rest
	}
	v.Schema = d.schemaWith(n, fmt.Sprintf("variable %q", e.key), KindString, []string{"complete"})
	return v
}

// prompts decodes the `prompts:` section.
func (d *decoder) prompts(n *yaml.Node) []*Prompt {
	return section(d, n, "prompts", "prompt", d.prompt)
}

func (d *decoder) prompt(pe entry) *Prompt {
	p := &Prompt{Pos: posOf(pe.keyNode), Name: pe.key}
	m, ok := d.mapping(pe.value, fmt.Sprintf("prompt %q", pe.key))
	if !ok {
		d.skip[p] = true
		return p
	}
	for _, e := range d.entries(m, "key") {
		switch e.key {
		case "title":
			p.Title, _ = d.str(e.value, "title")
		case "description":
			p.Description, p.DescriptionPos = requiredStr(e.value)
		case "icons":
			p.Icons = d.icons(e.value)
		case "_meta":
			p.Meta = d.meta(e.value)
		case "arguments":
			p.Arguments = d.arguments(e.value)
		case "messages":
			items, ok := d.list(e.value, "messages")
			if ok && len(items) == 0 {
				d.errorf(posOf(e.value), "messages must not be empty; leave messages out when the handler builds them")
			}
			for _, item := range items {
				p.Messages = append(p.Messages, d.message(item))
			}
		case "x-lint-disable":
			p.LintDisable, p.LintDisablePos = d.ruleList(e.value, "x-lint-disable")
		default:
			d.unknownKey(e, fmt.Sprintf("in prompt %q", pe.key), promptKeys)
		}
	}
	return p
}

// arguments decodes a prompt's `arguments:`.
func (d *decoder) arguments(n *yaml.Node) []*PromptArgument {
	if isNull(n) {
		return nil
	}
	m, ok := d.mapping(n, "arguments")
	if !ok {
		return nil
	}
	var out []*PromptArgument
	for _, ae := range d.entries(m, "argument") {
		a := &PromptArgument{Pos: posOf(ae.keyNode), Name: ae.key}
		out = append(out, a)
		am, ok := d.mapping(ae.value, fmt.Sprintf("argument %q", ae.key))
		if !ok {
			d.skip[a] = true
			continue
		}
		for _, e := range d.entries(am, "key") {
			switch e.key {
			case "title":
				a.Title, _ = d.str(e.value, "title")
			case "description":
				a.Description, _ = d.str(e.value, "description")
			case "required":
				a.Required, _ = d.boolean(e.value, "required")
			case "complete":
				a.Complete, _ = d.boolean(e.value, "complete")
			case "enum":
				items, ok := d.list(e.value, "enum")
				if ok && len(items) == 0 {
					d.errorf(posOf(e.value), "enum must not be empty")
				}
				for _, item := range items {
					if v := deref(item); !isString(v) {
						if v.Kind == yaml.ScalarNode && !isNull(v) {
							d.errorf(posOf(item), "enum value %s must be a string, as prompt arguments are; write %q", v.Value, v.Value)
						} else {
							d.errorf(posOf(item), "enum values must be strings, as prompt arguments are")
						}
						continue
					}
					a.Enum = append(a.Enum, deref(item).Value)
					a.EnumPos = append(a.EnumPos, posOf(item))
				}
			default:
				d.unknownKeyOr(e, fmt.Sprintf("in argument %q", ae.key), argumentKeys, argumentHints)
			}
		}
	}
	return out
}

// message decodes one entry of a prompt's `messages:`.
func (d *decoder) message(n *yaml.Node) *PromptMessage {
	msg := &PromptMessage{Pos: posOf(n)}
	m, ok := d.mapping(n, "a message")
	if !ok {
		d.skip[msg] = true
		return msg
	}
	for _, e := range d.entries(m, "key") {
		switch e.key {
		case "role":
			msg.Role, msg.RolePos = requiredStr(e.value)
		case "text":
			msg.Text, msg.TextPos = requiredStr(e.value)
		case "resource":
			msg.Resource, msg.ResourcePos = requiredStr(e.value)
		case "image":
			msg.Image = d.media(e.value, "image")
		case "audio":
			msg.Audio = d.media(e.value, "audio")
		default:
			d.unknownKey(e, "in message", messageKeys)
		}
	}
	return msg
}

// media decodes an inline image or audio: {data: <base64>, mimeType}.
func (d *decoder) media(n *yaml.Node, what string) *Media {
	md := &Media{Pos: posOf(n)}
	m, ok := d.mapping(n, what)
	if !ok {
		d.skip[md] = true
		return md
	}
	for _, e := range d.entries(m, "key") {
		switch e.key {
		case "data":
			md.DataPos = posOf(e.value)
			if data, ok := d.base64(e.value); ok {
				md.Data = data
			} else {
				// Reported here; the validator must not add "empty".
				d.skip[&md.Data] = true
			}
		case "mimeType":
			md.MimeType, md.MimeTypePos = requiredStr(e.value)
		default:
			d.unknownKey(e, "in "+what, mediaKeys)
		}
	}
	return md
}

// base64 decodes standard base64 text (a string or a !!binary scalar).
// Whitespace is ignored: a long value is usually folded over lines.
func (d *decoder) base64(n *yaml.Node) ([]byte, bool) {
	v := deref(n)
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" && v.ShortTag() != "!!binary" {
		d.errorf(posOf(n), "data must be a base64 string")
		return nil, false
	}
	text := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, v.Value)
	data, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		hint := ""
		switch {
		case strings.ContainsAny(text, "-_"):
			hint = "; this looks like URL-safe base64: write + and / for - and _"
		case len(text)%4 != 0 && !strings.ContainsFunc(text, notBase64):
			hint = "; standard base64 is padded with = to a multiple of 4 characters"
		}
		d.errorf(posOf(n), "data is not valid standard base64 (%v)%s", err, hint)
		return nil, false
	}
	return data, true
}

// notBase64 reports whether r is outside the standard base64 alphabet.
func notBase64(r rune) bool {
	return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '/' || r == '=')
}
