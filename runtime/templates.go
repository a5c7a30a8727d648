package runtime

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/yosida95/uritemplate/v3"
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

	// Cache, when set, is the caching hint of the reads of its resources in
	// the 2026-07-28 era (else WithMethodCaching's for resources/read, else
	// WithCaching's).
	Cache *CacheHint

	Handler  ResourceHandler // receives the concrete URI
	Complete CompleteHandler // optional: completes the template's variables

	parsed *uriTemplate // set by TypedTemplate: the template it matches with
	// generated is the Go type of the params of a GeneratedTemplate, and
	// the schema the generator computed for it.
	generated *generatedParams
}

type templateEntry struct {
	tmpl  ResourceTemplate
	t     *uriTemplate
	wire  []byte     // the resources/templates/list entry, encoded once
	cache *CacheHint // tmpl.Cache, normalized
}

func (te *templateEntry) key() string      { return te.tmpl.Name }
func (te *templateEntry) listJSON() []byte { return te.wire }

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
		if parsed, err = parseTemplate(t.URITemplate); err != nil {
			panic(fmt.Sprintf("runtime: %s: %v", where, err))
		}
	case parsed.raw != t.URITemplate:
		panic(fmt.Sprintf("runtime: %s: URITemplate was changed after TypedTemplate (which matches %q)", where, parsed.raw))
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

func (ss *Session) templatesList(params json.RawMessage) (encoder, *Error) {
	if !ss.offersResources() {
		return nil, errorf(CodeMethodNotFound, `method "resources/templates/list" not found: this server has no resources`)
	}
	return page(ss, "resourceTemplates", ss.srv.templates.snapshot(), params)
}

// uriTemplate is a URI template parsed once, at registration, for matching.
type uriTemplate struct {
	raw     string
	t       *uritemplate.Template
	re      *regexp.Regexp // what t matches, loosely: a cheap test before Match, or nil
	prefix  string         // the literal text before the first expression…
	suffix  string         // …and after the last: a URI must start and end with them
	literal bool           // no expression: matches raw only
	vars    []templateVar  // each variable once, in order of appearance
	seps    string         // the bytes that separate list items in its expressions
}

// maxListSeparators bounds the list separators (see uriTemplate.seps) in a
// URI matched against a template. The library's matcher copies every capture
// so far at each byte, so its cost grows with length × list items: 8 000
// commas took seconds. Within maxURI and this bound it takes milliseconds; a
// URI with more does not match (resource not found).
const maxListSeparators = 32

type templateVar struct {
	name    string
	capture string // Match's key for it: the name, or "name:3" with a prefix modifier
	sep     string // joins the items of a list value back into one string
}

// templateMatch is a template that matched a URI, and the variables it
// captured (percent-decoded).
type templateMatch struct {
	t    *uriTemplate
	vars uritemplate.Values
}

func parseTemplate(raw string) (*uriTemplate, error) {
	t, err := uritemplate.New(raw)
	if err != nil {
		return nil, fmt.Errorf("the URI template does not parse: %v", err)
	}
	ut := &uriTemplate{raw: raw, t: t}
	seen := map[string]bool{}
	first, last := -1, 0
	for i := 0; i < len(raw); {
		open, end, err := nextExpr(raw, i)
		if err != nil {
			return nil, err
		}
		if open < 0 {
			break
		}
		if first < 0 {
			first = open
		}
		last, i = end, end
		op, list, err := splitExpr(raw[open+1 : end-1])
		if err != nil {
			return nil, err
		}
		for _, sep := range []string{",", op.sep} {
			if !strings.Contains(ut.seps, sep) {
				ut.seps += sep
			}
		}
		for _, spec := range strings.Split(list, ",") {
			v, err := parseVarspec(spec)
			if err != nil {
				return nil, err
			}
			if seen[v.name] {
				continue // RFC 6570 allows it; Match then captures a list
			}
			seen[v.name] = true
			tv := templateVar{name: v.name, capture: v.name, sep: ","}
			if v.maxlen > 0 {
				tv.capture = fmt.Sprintf("%s:%d", v.name, v.maxlen)
			}
			if v.explode {
				tv.sep = op.sep
			}
			ut.vars = append(ut.vars, tv)
		}
	}
	if first < 0 {
		ut.literal = true
		return ut, nil
	}
	ut.prefix, ut.suffix = raw[:first], raw[last:]
	ut.re = looseRegexp(t)
	return ut, nil
}

// looseRegexp is the library's regular expression for t: it accepts every
// URI that Match accepts (and some it does not), in linear time and without
// allocating, where Match takes microseconds per byte. nil if it cannot be
// built (a thousand variables in one expression).
func looseRegexp(t *uritemplate.Template) (re *regexp.Regexp) {
	defer func() {
		if recover() != nil {
			re = nil
		}
	}()
	return t.Regexp()
}

// match returns the variables of uri, or nil when uri does not match.
func (t *uriTemplate) match(uri string) uritemplate.Values {
	if t.literal {
		if uri == t.raw {
			return uritemplate.Values{}
		}
		return nil
	}
	if len(uri) < len(t.prefix)+len(t.suffix) || !strings.HasPrefix(uri, t.prefix) || !strings.HasSuffix(uri, t.suffix) {
		return nil
	}
	if countAny(uri[len(t.prefix):len(uri)-len(t.suffix)], t.seps) > maxListSeparators {
		return nil
	}
	if t.re != nil && !t.re.MatchString(uri) {
		return nil
	}
	return t.t.Match(uri)
}

// countAny counts the bytes of s that are in set.
func countAny(s, set string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) >= 0 {
			n++
		}
	}
	return n
}

// hasVar reports whether name is a variable of the template.
func (t *uriTemplate) hasVar(name string) bool {
	for _, v := range t.vars {
		if v.name == name {
			return true
		}
	}
	return false
}
