package spec

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// contentWords are the values of `content:` that are not a schema.
var contentWords = []string{"text", "binary", "contents"}

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

// contentField is `content:`, what the handler of a resource or template
// returns.
func contentField[T any](into func(T) **Content) field[T] {
	return field[T]{key: "content", doc: "What the handler returns: text (a string; the default), binary ([]byte, sent base64), contents ([]runtime.ResourceContents), or a schema (a typed value sent as its JSON).",
		schema: defRef("Content"), decode: func(d *decoder, t T, e entry) { *into(t) = d.content(e.value) }}
}

// mimeTypeField is the `mimeType:` of a resource or template.
func mimeTypeField[T any](into func(T) (*string, *Pos)) field[T] {
	return field[T]{key: "mimeType", doc: "The MIME type of the content.", schema: stringSchema,
		decode: func(d *decoder, t T, e entry) {
			mt, pos := into(t)
			*mt, _ = d.str(e.value, "mimeType")
			*pos = posOf(e.value)
		}}
}

// annotationsField is the `annotations:` of a resource or template.
func annotationsField[T any](into func(T) **Annotations) field[T] {
	return field[T]{key: "annotations", doc: "Hints for clients: audience, priority, lastModified.", schema: defRef("Annotations"),
		decode: func(d *decoder, t T, e entry) { *into(t) = d.annotations(e.value) }}
}

// cacheField is the `cache:` of a resource or template.
func cacheField[T any](doc string, into func(T) **CacheHint) field[T] {
	return field[T]{key: "cache", doc: doc, schema: defRef("CacheHint"),
		decode: func(d *decoder, t T, e entry) { *into(t) = d.cacheHint(e.value, "cache") }}
}

var resourceFields = fields[*Resource]{
	{key: "uri", required: true, doc: "The resource's absolute URI, such as config://app (required).", schema: nonEmptyString,
		decode: func(d *decoder, r *Resource, e entry) { r.URI, r.URIPos = requiredStr(e.value) }},
	titleField[*Resource]("A human-readable name."),
	descriptionField[*Resource]("What the resource holds.", false),
	mimeTypeField(func(r *Resource) (*string, *Pos) { return &r.MimeType, &r.MimeTypePos }),
	{key: "size", doc: "The size in bytes, if known.", schema: `{"type":"integer","minimum":0}`,
		decode: func(d *decoder, r *Resource, e entry) {
			r.Size = d.intPtr(e.value, "size")
			r.SizePos = posOf(e.value)
		}},
	annotationsField(func(r *Resource) **Annotations { return &r.Annotations }),
	iconsField[*Resource]("Icons for the resource."),
	metaField[*Resource]("The resource's _meta object, sent as written."),
	goNameField[*Resource](),
	requiresField[*Resource](),
	contentField(func(r *Resource) **Content { return &r.Content }),
	{key: "ui", doc: "MCP Apps: makes the resource an HTML view (its uri must be ui://): where the HTML comes from, and its _meta.ui (CSP, permissions, domain, border).", schema: defRef("ResourceUI"),
		decode: func(d *decoder, r *Resource, e entry) { r.UI = d.resourceUI(e.value) }},
	{key: "asTemplate", doc: "Also list the resource in resources/templates/list under this name, as a template whose uriTemplate is its uri, without variables (as some SDKs list a template beside its one resource); reads are the resource's.", schema: nonEmptyString,
		decode: func(d *decoder, r *Resource, e entry) { r.AsTemplate, r.AsTemplatePos = requiredStr(e.value) }},
	cacheField("The caching hint of its reads in the 2026-07-28 era; what it leaves out comes from server.caching.",
		func(r *Resource) **CacheHint { return &r.Cache }),
	lintDisableField("Lint rules skipped for this resource.", func(r *Resource) (*[]string, *[]Pos) { return &r.LintDisable, &r.LintDisablePos }),
}

func (d *decoder) resource(re entry) *Resource {
	r := &Resource{Item: Item{Pos: posOf(re.keyNode), Name: re.key}}
	r.Content = &Content{Pos: r.Pos, Kind: ContentText}
	m, ok := d.mapping(re.value, fmt.Sprintf("resource %q", re.key))
	if !ok {
		d.skip[r] = true
		return r
	}
	decodeMapping(d, m, r, resourceFields, func(e entry) {
		d.unknownKeyOr(e, fmt.Sprintf("in resource %q", re.key), resourceFields.keys(), resourceHints)
	})
	return r
}

var annotationFields = fields[*Annotations]{
	{key: "audience", doc: "Who the content is for: user, assistant or both.", schema: listOf(stringEnum([]string{"user", "assistant"})),
		decode: func(d *decoder, a *Annotations, e entry) {
			items, _ := d.list(e.value, "audience")
			for _, item := range items {
				if !isString(item) {
					d.errorf(posOf(item), "audience values must be user or assistant")
					continue
				}
				a.Audience = append(a.Audience, deref(item).Value)
				a.AudiencePos = append(a.AudiencePos, posOf(item))
			}
		}},
	{key: "priority", doc: "How important the content is, from 0 (optional) to 1 (required).", schema: `{"type":"number","minimum":0,"maximum":1}`,
		decode: func(d *decoder, a *Annotations, e entry) {
			a.Priority = d.numPtr(e.value, "priority")
			a.PriorityPos = posOf(e.value)
		}},
	{key: "lastModified", doc: "When the content last changed, as an ISO 8601 date-time such as 2026-11-01T00:00:00Z.", schema: stringSchema,
		decode: func(d *decoder, a *Annotations, e entry) {
			// An unquoted date-time is a YAML timestamp: its text is kept
			// as written.
			v := deref(e.value)
			if v.Kind == yaml.ScalarNode && (v.ShortTag() == "!!str" || v.ShortTag() == "!!timestamp") {
				a.LastModified = v.Value
			} else {
				d.errorf(posOf(e.value), "lastModified must be a date-time, such as 2026-11-01T00:00:00Z")
			}
			a.LastModifiedPos = posOf(e.value)
		}},
}

// annotations decodes the MCP annotations of a resource or template.
func (d *decoder) annotations(n *yaml.Node) *Annotations {
	m, ok := d.mapping(n, "annotations")
	if !ok {
		return nil
	}
	a := &Annotations{Pos: posOf(n)}
	decodeMapping(d, m, a, annotationFields, func(e entry) { d.unknownKey(e, "in annotations", annotationFields.keys()) })
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

// templateDecoding is a template being decoded: its variables are typed
// once the whole mapping is read (templateVariables).
type templateDecoding struct {
	*ResourceTemplate
	declared []*Variable
}

var templateFields = fields[*templateDecoding]{
	{key: "uriTemplate", required: true, doc: "An RFC 6570 URI template, levels 1 to 3: {id}, {+path}, {/path*}, {.ext}, {?q,lang} (required).", schema: nonEmptyString,
		decode: func(d *decoder, t *templateDecoding, e entry) { t.URITemplate, t.URITemplatePos = requiredStr(e.value) }},
	titleField[*templateDecoding]("A human-readable name."),
	descriptionField[*templateDecoding]("What the resources hold.", false),
	mimeTypeField(func(t *templateDecoding) (*string, *Pos) { return &t.MimeType, &t.MimeTypePos }),
	annotationsField(func(t *templateDecoding) **Annotations { return &t.Annotations }),
	iconsField[*templateDecoding]("Icons for the template."),
	metaField[*templateDecoding]("The template's _meta object, sent as written."),
	goNameField[*templateDecoding](),
	requiresField[*templateDecoding](),
	contentField(func(t *templateDecoding) **Content { return &t.Content }),
	{key: "variables", doc: "The type of each template variable: a scalar schema (an array of scalars for an exploded {/path*}). Undeclared variables are strings.", schema: mapOf(defRef("Variable")),
		decode: func(d *decoder, t *templateDecoding, e entry) { t.declared = d.variables(e.value) }},
	cacheField("The caching hint of the reads of its resources in the 2026-07-28 era; what it leaves out comes from server.caching.",
		func(t *templateDecoding) **CacheHint { return &t.Cache }),
	lintDisableField("Lint rules skipped for this template.", func(t *templateDecoding) (*[]string, *[]Pos) { return &t.LintDisable, &t.LintDisablePos }),
}

func (d *decoder) resourceTemplate(te entry) *ResourceTemplate {
	t := &ResourceTemplate{Item: Item{Pos: posOf(te.keyNode), Name: te.key}}
	t.Content = &Content{Pos: t.Pos, Kind: ContentText}
	m, ok := d.mapping(te.value, fmt.Sprintf("resource template %q", te.key))
	if !ok {
		d.skip[t] = true
		return t
	}
	td := &templateDecoding{ResourceTemplate: t}
	decodeMapping(d, m, td, templateFields, func(e entry) {
		d.unknownKeyOr(e, fmt.Sprintf("in resource template %q", te.key), templateFields.keys(), templateHints)
	})
	t.Variables = templateVariables(t, td.declared)
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

// variableFields are the keys a variable declaration has beside those of
// its schema.
var variableFields = fields[*Variable]{
	{key: "complete", doc: "Generate a completion method for this variable (enum variables complete from their values without it).", schema: flagSchema,
		decode: func(d *decoder, v *Variable, e entry) { v.Complete, _ = d.boolean(e.value, "complete") }},
}

// variable decodes one declaration: a scalar schema (a string unless said
// otherwise) with variableFields beside its keys.
func (d *decoder) variable(e entry) *Variable {
	v := &Variable{Pos: posOf(e.keyNode), Name: e.key}
	n := e.value
	if m := deref(n); m.Kind == yaml.MappingNode {
		// The schema decoder does not know the variable's own keys: it
		// gets the mapping without them (merge keys expanded, duplicates
		// already reported).
		rest := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: m.Style, Line: n.Line, Column: n.Column}
		decodeMapping(d, m, v, variableFields, func(f entry) {
			rest.Content = append(rest.Content, f.keyNode, f.value)
		})
		n = rest
	}
	v.Schema = d.schemaWith(n, fmt.Sprintf("variable %q", e.key), KindString, variableFields.keys())
	return v
}

// prompts decodes the `prompts:` section.
func (d *decoder) prompts(n *yaml.Node) []*Prompt {
	return section(d, n, "prompts", "prompt", d.prompt)
}

var promptFields = fields[*Prompt]{
	titleField[*Prompt]("A human-readable name."),
	descriptionField[*Prompt]("What the prompt is for (required).", true),
	iconsField[*Prompt]("Icons for the prompt."),
	metaField[*Prompt]("The prompt's _meta object, sent as written."),
	goNameField[*Prompt](),
	requiresField[*Prompt](),
	{key: "arguments", doc: "The arguments, in order. MCP prompt arguments are strings. `{}` is advertised as written, `arguments: []`; without the key, prompts/list says nothing.", schema: mapOf(defRef("Argument")),
		decode: func(d *decoder, p *Prompt, e entry) {
			p.Arguments = d.arguments(e.value)
			v := deref(e.value)
			p.EmptyArguments = v.Kind == yaml.MappingNode && len(v.Content) == 0
		}},
	{key: "messages", doc: "Declarative messages, sent with their {{.arg}} placeholders filled: the prompt needs no code. Absent: the handler builds the messages.",
		schema: `{"type":"array","items":{"$ref":"#/$defs/Message"},"minItems":1}`,
		decode: func(d *decoder, p *Prompt, e entry) {
			items, ok := d.list(e.value, "messages")
			if ok && len(items) == 0 {
				d.errorf(posOf(e.value), "messages must not be empty; leave messages out when the handler builds them")
			}
			for _, item := range items {
				p.Messages = append(p.Messages, d.message(item))
			}
		}},
	lintDisableField("Lint rules skipped for this prompt and its arguments.", func(p *Prompt) (*[]string, *[]Pos) { return &p.LintDisable, &p.LintDisablePos }),
}

func (d *decoder) prompt(pe entry) *Prompt {
	p := &Prompt{Item: Item{Pos: posOf(pe.keyNode), Name: pe.key}}
	m, ok := d.mapping(pe.value, fmt.Sprintf("prompt %q", pe.key))
	if !ok {
		d.skip[p] = true
		return p
	}
	decodeMapping(d, m, p, promptFields, func(e entry) {
		d.unknownKey(e, fmt.Sprintf("in prompt %q", pe.key), promptFields.keys())
	})
	return p
}

var argumentFields = fields[*PromptArgument]{
	{key: "title", doc: "A human-readable name.", schema: stringSchema,
		decode: func(d *decoder, a *PromptArgument, e entry) { a.Title, _ = d.str(e.value, "title") }},
	{key: "description", doc: "What the argument means.", schema: stringSchema,
		decode: func(d *decoder, a *PromptArgument, e entry) { a.Description, _ = d.str(e.value, "description") }},
	{key: "required", doc: "The client must give the argument. `false` is advertised as written; without the key, prompts/list says nothing.", schema: flagSchema,
		decode: func(d *decoder, a *PromptArgument, e entry) {
			var ok bool
			a.Required, ok = d.boolean(e.value, "required")
			a.ExplicitOptional = ok && !a.Required
		}},
	{key: "complete", doc: "Generate a completion method for this argument (enum arguments complete from their values without it).", schema: flagSchema,
		decode: func(d *decoder, a *PromptArgument, e entry) { a.Complete, _ = d.boolean(e.value, "complete") }},
	{key: "enum", doc: "The allowed values; others are refused before any code runs.", schema: `{"type":"array","items":{"type":"string"},"minItems":1}`,
		decode: func(d *decoder, a *PromptArgument, e entry) {
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
		}},
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
		decodeMapping(d, am, a, argumentFields, func(e entry) {
			d.unknownKeyOr(e, fmt.Sprintf("in argument %q", ae.key), argumentFields.keys(), argumentHints)
		})
	}
	return out
}

var messageFields = fields[*PromptMessage]{
	{key: "role", required: true, doc: "Who says it (required).", schema: stringEnum([]string{"user", "assistant"}),
		decode: func(d *decoder, msg *PromptMessage, e entry) { msg.Role, msg.RolePos = requiredStr(e.value) }},
	{key: "text", doc: "Text with {{.arg}} placeholders.", schema: stringSchema,
		decode: func(d *decoder, msg *PromptMessage, e entry) { msg.Text, msg.TextPos = requiredStr(e.value) }},
	{key: "resource", doc: "A URI (with {{.arg}} placeholders) read through the server and embedded.", schema: stringSchema,
		decode: func(d *decoder, msg *PromptMessage, e entry) { msg.Resource, msg.ResourcePos = requiredStr(e.value) }},
	{key: "image", doc: "An inline image.", schema: defRef("Media"),
		decode: func(d *decoder, msg *PromptMessage, e entry) { msg.Image = d.media(e.value, "image") }},
	{key: "audio", doc: "An inline audio clip.", schema: defRef("Media"),
		decode: func(d *decoder, msg *PromptMessage, e entry) { msg.Audio = d.media(e.value, "audio") }},
}

// message decodes one entry of a prompt's `messages:`.
func (d *decoder) message(n *yaml.Node) *PromptMessage {
	msg := &PromptMessage{Pos: posOf(n)}
	m, ok := d.mapping(n, "a message")
	if !ok {
		d.skip[msg] = true
		return msg
	}
	decodeMapping(d, m, msg, messageFields, func(e entry) { d.unknownKey(e, "in message", messageFields.keys()) })
	return msg
}

var mediaFields = fields[*Media]{
	{key: "data", required: true, doc: "The content in standard base64 (required).", schema: nonEmptyString,
		decode: func(d *decoder, md *Media, e entry) {
			md.DataPos = posOf(e.value)
			if data, ok := d.base64(e.value); ok {
				md.Data = data
			} else {
				// Reported here; the validator must not add "empty".
				d.skip[&md.Data] = true
			}
		}},
	{key: "mimeType", required: true, doc: "The content's MIME type, such as image/png (required).", schema: nonEmptyString,
		decode: func(d *decoder, md *Media, e entry) { md.MimeType, md.MimeTypePos = requiredStr(e.value) }},
}

// media decodes an inline image or audio: {data: <base64>, mimeType}.
func (d *decoder) media(n *yaml.Node, what string) *Media {
	md := &Media{Pos: posOf(n)}
	m, ok := d.mapping(n, what)
	if !ok {
		d.skip[md] = true
		return md
	}
	decodeMapping(d, m, md, mediaFields, func(e entry) { d.unknownKey(e, "in "+what, mediaFields.keys()) })
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
