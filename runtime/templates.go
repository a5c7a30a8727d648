package runtime

import (
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/internal/uritemplate"
)

// ResourceTemplate is a family of resources named by an RFC 6570 URI
// template, as registered with AddResourceTemplate: what
// resources/templates/list advertises, and the handler resources/read runs
// for a URI that matches the template (and no static resource).
type ResourceTemplate struct {
	URITemplate string // e.g. "post://{id}" or "file:///{+path}"
	Name        string // unique in the server; defaults to URITemplate
	Title       string
	Description string
	MimeType    string // of every resource of the family
	Annotations *Annotations
	Icons       []Icon
	Meta        json.RawMessage // the template's _meta object, or nil
	// Requires, when set, lists it and serves it only to clients that
	// declared these capabilities (context.go); it is not advertised.
	Requires *Requires

	// Cache, when set, is the caching hint of the reads of its resources in
	// the 2026-07-28 era (else WithMethodCaching's for resources/read, else
	// WithCaching's).
	Cache *CacheHint

	Handler  ResourceHandler // receives the concrete URI
	Complete CompleteHandler // optional: completes the template's variables

	parsed *uritemplate.Template // set by TypedTemplate: the template it matches with
	// generated is the Go type of the params of a template made by
	// genimpl.GeneratedTemplate, and the schema the generator computed for
	// it.
	generated *generatedParams
}

type templateEntry struct {
	tmpl  ResourceTemplate
	t     *uritemplate.Template
	wire  []byte     // the resources/templates/list entry, encoded once
	cache *CacheHint // tmpl.Cache, normalized
}

func (te *templateEntry) key() string         { return te.tmpl.Name }
func (te *templateEntry) listJSON() []byte    { return te.wire }
func (te *templateEntry) requires() *Requires { return te.tmpl.Requires }
func (te *templateEntry) kind() itemKind      { return kindTemplate }
func (te *templateEntry) scopes() []string    { return nil }

// AddResourceTemplate registers t. It panics, as these are programming errors
// in the (generated) registration code: on a URITemplate that does not parse
// (RFC 6570), a duplicate name, a nil Handler, or a _meta that is not a JSON
// object. A URI is matched against the templates in the order they were
// added; the first that matches serves it. AddResourceTemplate may be called
// while serving: initialized sessions then get
// notifications/resources/list_changed.
func (s *Server) AddResourceTemplate(t ResourceTemplate) {
	where := fmt.Sprintf("AddResourceTemplate(%q)", t.URITemplate)
	if t.URITemplate == "" {
		panic("runtime: AddResourceTemplate: the template has no URITemplate")
	}
	parsed := t.parsed
	switch {
	case parsed == nil:
		var err error
		if parsed, err = uritemplate.Parse(t.URITemplate); err != nil {
			panic(fmt.Sprintf("runtime: %s: %v", where, err))
		}
	case parsed.Raw() != t.URITemplate:
		panic(fmt.Sprintf("runtime: %s: URITemplate was changed after TypedTemplate (which matches %q)", where, parsed.Raw()))
	}
	if t.Handler == nil {
		panic("runtime: " + where + ": nil Handler")
	}
	if t.Name == "" {
		t.Name = t.URITemplate
	}
	if t.Meta != nil {
		t.Meta = mustObject(where, "Meta", t.Meta)
	}
	wire, err := json.Marshal(struct {
		URITemplate string          `json:"uriTemplate"`
		Name        string          `json:"name"`
		Title       string          `json:"title,omitempty"`
		Description string          `json:"description,omitempty"`
		MimeType    string          `json:"mimeType,omitempty"`
		Annotations *Annotations    `json:"annotations,omitempty"`
		Icons       []Icon          `json:"icons,omitempty"`
		Meta        json.RawMessage `json:"_meta,omitempty"`
	}{t.URITemplate, t.Name, t.Title, t.Description, t.MimeType, t.Annotations, t.Icons, t.Meta})
	if err != nil {
		panic(fmt.Sprintf("runtime: %s: %v", where, err))
	}
	if !s.templates.add(&templateEntry{tmpl: t, t: parsed, wire: wire, cache: ownCache(t.Cache)}) {
		panic(fmt.Sprintf("runtime: %s: a resource template named %q is already registered", where, t.Name))
	}
	s.listChanged(capResources)
}

// FixedTemplate is the template under which resources/templates/list also
// lists r, named name: r's URI as a uriTemplate without variables, with r's
// fields and handler (a read of the URI is r's anyway: static resources are
// matched first). Some SDKs list a template without variables so, beside
// its resource; registering both keeps their lists.
func FixedTemplate(r Resource, name string) ResourceTemplate {
	return ResourceTemplate{URITemplate: r.URI, Name: name, Title: r.Title, Description: r.Description, MimeType: r.MimeType,
		Annotations: r.Annotations, Icons: r.Icons, Meta: r.Meta, Requires: r.Requires, Cache: r.Cache, Handler: r.Handler}
}

// RemoveResourceTemplate unregisters the template with this name and reports
// whether there was one. Initialized sessions get
// notifications/resources/list_changed.
func (s *Server) RemoveResourceTemplate(name string) bool {
	if !s.templates.remove(name) {
		return false
	}
	s.listChanged(capResources)
	return true
}

// ResourceTemplates returns the registered resource templates in order.
func (s *Server) ResourceTemplates() []ResourceTemplate {
	return values(&s.templates, func(te *templateEntry) ResourceTemplate { return te.tmpl })
}

func (ss *Session) templatesList(p *peerInfo, params json.RawMessage) (encoder, *Error) {
	return page(ss, p, "resourceTemplates", ss.srv.templates.snapshot(), params)
}

// templateMatch is a template that matched a URI, and the variables it
// captured (percent-decoded).
type templateMatch struct {
	t    *uritemplate.Template
	vars uritemplate.Values
}

// ExpandURITemplate expands an RFC 6570 template (levels 1 to 3, plus the
// prefix {x:3} and explode {x*} modifiers) with vars. Values are string,
// bool, int, int64, float64 or []string; an absent or nil value, or an
// empty list, is undefined and skipped as the RFC says. Generated Expand
// helpers call it with their template, so a malformed template or a value
// of another type is a programming error: it panics.
func ExpandURITemplate(template string, vars map[string]any) string {
	uri, err := uritemplate.Expand(template, vars)
	if err != nil {
		panic(fmt.Sprintf("runtime: ExpandURITemplate(%q): %v", template, err))
	}
	return uri
}
