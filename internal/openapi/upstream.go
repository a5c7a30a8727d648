package openapi

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
	"gopkg.in/yaml.v3"
)

// A binding is what the importer knows of where each input property goes
// in the operation's request, written as the tool's `http:` mapping.
type binding struct {
	params []placement
	// body is the input property that is the whole body ("" for a body
	// whose properties are input properties, or none).
	body string
	// form: the body is application/x-www-form-urlencoded; multipart:
	// multipart/form-data; contentType: a string body sent as it is.
	form, multipart bool
	contentType     string
	// files are a multipart body's file parts, by wire name.
	files []string
	// aws holds the names of an operation of AWS's query protocol
	// (awsquery.go), nil for any other.
	aws *awsTables
	// why is set when the operation cannot be called from the input (a
	// parameter that is an object, a body neither JSON nor a form): the tool gets
	// no binding, and the note says why.
	why string
}

// placement is one input property's place: in is path, query, header,
// cookie or body; wire is its name there.
type placement struct {
	prop, in, wire string
	// style is a query parameter's OpenAPI style when not form
	// (spaceDelimited, pipeDelimited, deepObject); explode is the
	// description's explode, nil for the style's default.
	style   string
	explode *bool
}

func (b *binding) cannot(format string, args ...any) {
	if b.why == "" {
		b.why = fmt.Sprintf(format, args...)
	}
}

// paramShape says why a parameter's value cannot be sent ("" when it
// can). A query parameter may be a scalar, a list of scalars or an object
// of scalars in form, spaceDelimited or pipeDelimited style, anything
// deepObject style; a path, header or cookie parameter a scalar (a list
// too, but in a path), simple style.
func paramShape(p *v3.Parameter) string {
	if p.Schema == nil {
		if p.Content != nil {
			return "is described by content, not a schema"
		}
		return "" // no schema: a string
	}
	s := p.Schema.Schema()
	if p.In == "query" {
		switch p.Style {
		case "deepObject":
			return ""
		case "", "form", "spaceDelimited", "pipeDelimited":
		default:
			return "has style " + p.Style
		}
		if s == nil || textual(s, true, 0) || flatObject(s) {
			return ""
		}
		return "is not a string, number, boolean, a list of them, a union of those or an object of them " +
			"(OpenAPI defines no " + orDefault(p.Style, "form") + " style for nested values)"
	}
	if s == nil {
		return ""
	}
	if !textual(s, p.In != "path", 0) {
		if p.In == "path" {
			return "is not a string, number or boolean"
		}
		return "is not a string, number, boolean, a list of them or a union of those"
	}
	switch p.Style {
	case "", "simple":
		return ""
	}
	return "has style " + p.Style
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// flatObject reports whether s is an object whose properties (or whose
// additionalProperties) are all scalars: form, spaceDelimited and
// pipeDelimited style send it as key/value text.
func flatObject(s *base.Schema) bool {
	types, _ := typesOf(s)
	isObject := s.Properties != nil && s.Properties.Len() > 0
	for _, t := range types {
		isObject = isObject || t == "object"
	}
	if !isObject || len(s.OneOf)+len(s.AnyOf) > 0 {
		return false
	}
	if s.Properties != nil {
		for _, p := range s.Properties.FromOldest() {
			if ps := p.Schema(); ps != nil && !textual(ps, false, 1) {
				return false
			}
		}
	}
	if ap := s.AdditionalProperties; ap != nil && ap.IsA() {
		if as := ap.A.Schema(); as != nil && !textual(as, false, 1) {
			return false
		}
	}
	return true
}

// textual reports whether a value of s can be sent as parameter text: a
// scalar, a list of scalars (when lists is set), or a union of those.
func textual(s *base.Schema, lists bool, depth int) bool {
	if s == nil || depth > 8 {
		return s == nil
	}
	if len(s.OneOf)+len(s.AnyOf) > 0 {
		for _, v := range append(slices.Clone(s.OneOf), s.AnyOf...) {
			if !textual(v.Schema(), lists, depth+1) {
				return false
			}
		}
		return true
	}
	for _, part := range s.AllOf {
		// allOf: [$ref Tag, {xml: …}] is a Tag (AWS's item lists).
		if !textual(part.Schema(), lists, depth+1) {
			return false
		}
	}
	types, _ := typesOf(s)
	for _, t := range types {
		switch t {
		case "object":
			return false
		case "array":
			if !lists || s.Items == nil || !s.Items.IsA() {
				return lists && s.Items == nil
			}
			it := s.Items.A.Schema()
			if it != nil && !textual(it, false, depth+1) {
				return false
			}
		}
	}
	return s.Properties == nil || s.Properties.Len() == 0
}

// httpNode writes the binding of operation o.
func (b *binding) httpNode(o operation) *yaml.Node {
	h := newMap()
	h.Set("method", str(strings.ToUpper(o.method)))
	h.Set("path", str(requestPath(o.path)))
	if len(b.params) > 0 {
		params := newMap()
		for _, p := range b.params {
			m := newMap()
			m.Set("in", str(p.in))
			if p.wire != p.prop {
				m.Set("name", str(p.wire))
			}
			if p.style != "" {
				m.Set("style", str(p.style))
			}
			if p.explode != nil {
				m.Set("explode", boolean(*p.explode))
			}
			params.Set(p.prop, flow(m))
		}
		h.Set("params", params.N)
	}
	if b.body != "" {
		h.Set("body", str(b.body))
	}
	if b.form {
		h.Set("form", boolean(true))
	}
	if b.multipart {
		h.Set("multipart", boolean(true))
	}
	if len(b.files) > 0 {
		h.Set("files", flowList(b.files))
	}
	if b.contentType != "" {
		h.Set("contentType", str(b.contentType))
	}
	if b.aws != nil {
		h.Set("awsQuery", b.aws.node())
	}
	return h.N
}

// requestPath is an operation's path as requested: without a fragment,
// which never reaches the server (AWS's descriptions write one to tell
// their operations apart on one path: /#Action=AddTags). A "#" followed
// by more path (mastercard's /send/#env/v1/partners/{partnerId}) is kept.
func requestPath(path string) string {
	if p, frag, ok := strings.Cut(path, "#"); ok && !strings.ContainsAny(frag, "/{}") {
		return p
	}
	return path
}

// checkPath makes sure every {name} of the path is a path parameter of the
// input.
func (b *binding) checkPath(path string) {
	for rest := path; ; {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			return
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			b.cannot("its path has an unclosed {")
			return
		}
		name := rest[open+1 : open+end]
		if !slices.ContainsFunc(b.params, func(p placement) bool { return p.in == "path" && p.wire == name }) {
			b.cannot("its path parameter {%s} is not declared", name)
		}
		rest = rest[open+end+1:]
	}
}

// upstreamNode is the spec's `upstream:` section: the base URL from the
// first server (its variables at their defaults), an environment variable
// that replaces it, and the first security scheme the selected operations
// use that the upstream client can send.
func (im *importer) upstreamNode(envPrefix string) *yaml.Node {
	u := newMap()
	base := ""
	if len(im.doc.Servers) > 0 && im.doc.Servers[0] != nil {
		s := im.doc.Servers[0]
		addr := s.URL
		if s.Variables != nil {
			for name, v := range s.Variables.FromOldest() {
				if v != nil {
					addr = strings.ReplaceAll(addr, "{"+name+"}", v.Default)
				}
			}
		}
		if strings.HasPrefix(addr, "http://") || strings.HasPrefix(addr, "https://") {
			base = addr
			u.Set("baseUrl", str(strings.TrimSuffix(addr, "/")))
		} else {
			im.notes.add("servers: %q is not an absolute http(s) URL; set the base URL with $%s_BASE_URL (or upstream.baseUrl)", s.URL, envPrefix)
		}
	} else {
		im.notes.add("servers: none; set the base URL with $%s_BASE_URL (or upstream.baseUrl)", envPrefix)
	}
	u.Set("baseUrlEnv", str(envPrefix+"_BASE_URL"))
	if auth := im.authNode(envPrefix, base); auth != nil {
		u.Set("auth", auth)
	}
	return u.N
}

// authNode is the upstream auth of the first usable security scheme that
// the description or a selected operation requires, or nil.
// A relative token URL is resolved against the base URL, server (RFC 3986).
func (im *importer) authNode(envPrefix, server string) *yaml.Node {
	if im.doc.Components == nil || im.doc.Components.SecuritySchemes == nil {
		return nil
	}
	var names []string
	add := func(reqs []*base.SecurityRequirement) {
		for _, r := range reqs {
			if r == nil || r.Requirements == nil {
				continue
			}
			for name := range r.Requirements.KeysFromOldest() {
				if !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
		}
	}
	add(im.doc.Security)
	for _, reqs := range im.opSecurity {
		add(reqs)
	}
	var skipped []string
	for _, name := range names {
		s := im.doc.Components.SecuritySchemes.GetOrZero(name)
		if s == nil {
			continue
		}
		a := newMap()
		switch {
		case s.Type == "apiKey" && slices.Contains([]string{"header", "query", "cookie"}, s.In):
			k := newMap()
			k.Set("in", str(s.In))
			k.Set("name", str(s.Name))
			k.Set("env", str(envPrefix+"_API_KEY"))
			a.Set("apiKey", flow(k))
		case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
			k := newMap()
			k.Set("env", str(envPrefix+"_TOKEN"))
			a.Set("bearer", flow(k))
		case s.Type == "oauth2" && s.Flows != nil && s.Flows.ClientCredentials != nil && s.Flows.ClientCredentials.TokenUrl != "":
			tokenURL, ok := im.absoluteURL(s.Flows.ClientCredentials.TokenUrl, server, "securitySchemes."+name+".flows.clientCredentials.tokenUrl")
			if !ok {
				skipped = append(skipped, fmt.Sprintf("%s (a relative token URL without an absolute server URL)", name))
				continue
			}
			k := newMap()
			k.Set("tokenUrl", str(tokenURL))
			k.Set("clientIdEnv", str(envPrefix+"_CLIENT_ID"))
			k.Set("clientSecretEnv", str(envPrefix+"_CLIENT_SECRET"))
			a.Set("clientCredentials", k.N)
		default:
			skipped = append(skipped, fmt.Sprintf("%s (%s)", name, describeScheme(s)))
			continue
		}
		if len(skipped) > 0 {
			im.notes.add("securitySchemes: %s cannot be sent by the server itself; used %s", strings.Join(skipped, ", "), name)
		}
		return a.N
	}
	if len(skipped) > 0 {
		im.notes.add("securitySchemes: %s cannot be sent by the server itself (it needs a user's login); write upstream.auth by hand, such as bearer: {env: %s_TOKEN}", strings.Join(skipped, ", "), envPrefix)
	}
	return nil
}

// absoluteURL is ref as an absolute http(s) URL: itself, or resolved
// against base (noted); false when neither is absolute.
func (im *importer) absoluteURL(ref, base, where string) (string, bool) {
	r, err := url.Parse(ref)
	if err != nil {
		return "", false
	}
	if r.IsAbs() && (r.Scheme == "http" || r.Scheme == "https") {
		return ref, true
	}
	b, err := url.Parse(base)
	if base == "" || err != nil || !b.IsAbs() {
		return "", false
	}
	got := b.ResolveReference(r).String()
	im.notes.add("%s: %q is relative; resolved against the server URL: %s", where, ref, got)
	return got, true
}

func describeScheme(s *v3.SecurityScheme) string {
	switch s.Type {
	case "http":
		return "http " + s.Scheme
	case "oauth2":
		return "OAuth without a client-credentials flow"
	}
	return s.Type
}

// queryStyle is the style and explode a query parameter's placement
// writes: form is the spec's default and not written; explode only where
// it differs from the style's default (true for form, false for the
// delimited styles), so the binding says what the description does.
func queryStyle(p *v3.Parameter) (string, *bool) {
	style := p.Style
	if style == "form" {
		style = ""
	}
	def := style != "spaceDelimited" && style != "pipeDelimited"
	if style == "deepObject" || p.Explode == nil || *p.Explode == def {
		return style, nil
	}
	e := *p.Explode
	return style, &e
}

// contentScalar is p with the schema of its content when p is described
// by content (a media type) rather than a schema, and that schema is a
// string, number, integer or boolean: its value goes on the wire as text,
// as a schema-described parameter's does (noted). Other parameters are
// returned as they are.
func (im *importer) contentScalar(o operation, p *v3.Parameter) *v3.Parameter {
	if p.Schema != nil || p.Content == nil {
		return p
	}
	for mt, m := range p.Content.FromOldest() {
		if m == nil || m.Schema == nil {
			continue
		}
		s := m.Schema.Schema()
		if s == nil || len(s.OneOf)+len(s.AnyOf)+len(s.AllOf) > 0 || (s.Properties != nil && s.Properties.Len() > 0) {
			return p
		}
		types, _ := typesOf(s)
		if len(types) != 1 || !slices.Contains([]string{"string", "number", "integer", "boolean"}, types[0]) {
			return p
		}
		im.notes.add("%s: %s %q is described by content %s, a %s: sent as its text, as a schema would send it (not JSON-quoted)", o, describeIn(p.In), p.Name, mt, types[0])
		cp := *p
		cp.Schema, cp.Content = m.Schema, nil
		return &cp
	}
	return p
}

// bodyMedia picks the request body's media type mcpgen sends, in this
// order: JSON; a form (nested values deepObject style, as form APIs such
// as Stripe's read them); multipart/form-data without file parts; a text
// body whose schema is a string (text/plain, text/css, application/xml…),
// sent as it is. It sets b's encoding, or returns nil and why not.
func (im *importer) bodyMedia(o operation, content *orderedmap.Map[string, *v3.MediaType], b *binding) (*v3.MediaType, string) {
	if b.aws != nil {
		// AWS's query protocol: the text/xml body the description
		// writes is the input structure, sent as a form.
		for mt, m := range content.FromOldest() {
			if base, _, _ := strings.Cut(mt, ";"); m != nil && m.Schema != nil && strings.HasSuffix(strings.TrimSpace(base), "xml") {
				b.form = true
				return m, ""
			}
		}
	}
	if m := jsonMedia(content); m != nil {
		return m, ""
	}
	if m := content.GetOrZero("application/x-www-form-urlencoded"); m != nil {
		b.form = true
		return m, ""
	}
	why := "neither JSON nor a form"
	if m := content.GetOrZero("multipart/form-data"); m != nil {
		if files, whole := fileParts(m.Schema); whole {
			why = "multipart whose body is one file, not an object of parts"
		} else {
			b.multipart, b.files = true, files
			return m, ""
		}
	}
	for mt, m := range content.FromOldest() {
		base, _, _ := strings.Cut(mt, ";")
		base = strings.ToLower(strings.TrimSpace(base))
		if m == nil || !textMedia(base) {
			continue
		}
		if m.Schema != nil {
			s := m.Schema.Schema()
			types, _ := typesOf(s)
			if s == nil || (len(types) > 0 && !slices.Equal(types, []string{"string"})) || (s.Properties != nil && s.Properties.Len() > 0) || s.Format == "binary" {
				why = fmt.Sprintf("%s of a schema that is not a string (mcpgen sends a text body as the string it is)", base)
				continue
			}
		}
		b.contentType = base
		im.notes.add("%s: request body is %s: the input property body is its text, sent as it is", o, base)
		return m, ""
	}
	return nil, why
}

// textMedia reports whether a media type is text a tool's string
// argument can hold.
func textMedia(base string) bool {
	return strings.HasPrefix(base, "text/") || base == "application/xml" || strings.HasSuffix(base, "+xml") ||
		base == "application/yaml" || base == "application/x-yaml" || base == "application/graphql"
}

// fileParts names the properties of a multipart body that are files
// (format binary or base64, or a contentMediaType; a list of them too);
// whole is set for a body that is not an object of properties.
func fileParts(sp *base.SchemaProxy) (files []string, whole bool) {
	if sp == nil || sp.Schema() == nil {
		return nil, true
	}
	s := sp.Schema()
	if s.Properties == nil || s.Properties.Len() == 0 {
		return nil, true
	}
	for name, p := range s.Properties.FromOldest() {
		ps := p.Schema()
		if ps == nil {
			continue
		}
		if ps.Items != nil && ps.Items.IsA() && ps.Items.A.Schema() != nil {
			ps = ps.Items.A.Schema()
		}
		if ps.Format == "binary" || ps.Format == "base64" || ps.ContentMediaType != "" {
			files = append(files, name)
		}
	}
	return files, false
}

// fileProp makes the schema of a multipart body's file part (or of its
// items) a string holding the file's contents in base64, as a tool's
// JSON arguments can carry them, and says so in its description.
func fileProp(sch ymap) {
	target := sch
	if t := sch.Get("type"); t != nil && t.Value == "array" {
		if it := sch.Get("items"); it != nil && it.Kind == yaml.MappingNode {
			target = ymap{N: it}
		}
	}
	target.Del("format")
	target.Del("contentMediaType")
	target.Set("type", str("string"))
	what := "The file's contents, base64-encoded: sent as a file part."
	if d := target.Get("description"); d != nil && strings.TrimSpace(d.Value) != "" {
		what = strings.TrimSpace(d.Value) + " (" + what + ")"
	}
	target.Set("description", str(what))
}

// textParam types a parameter whose schema says nothing (schema: {}, or
// items: {}) as a string: on the wire it is text either way, and the spec
// sends only typed values (noted).
func (im *importer) textParam(o operation, p *v3.Parameter, sch ymap) {
	isAny := func(m ymap) bool {
		t := m.Get("type")
		return t != nil && t.Value == "any" && len(m.N.Content) <= 4 // type, and at most a description
	}
	target := sch
	what := "its value"
	if t := sch.Get("type"); t != nil && t.Value == "array" {
		if it := sch.Get("items"); it != nil && it.Kind == yaml.MappingNode {
			target, what = ymap{N: it}, "its items"
		}
	}
	if !isAny(target) {
		return
	}
	target.Set("type", str("string"))
	im.notes.add("%s: %s %q: %s have no type; typed string, as the request sends them", o, describeIn(p.In), p.Name, what)
}
