package spec

import (
	"errors"
	"fmt"
	"math/big"
	"mime"
	"net/url"
	"strings"
	"time"
)

// mcpName checks the name of a resource, template or prompt. Unlike a
// tool's, MCP lets it be any string ("Dynamic Text Resource"): it is wire
// data, sent as written, and the Go names are derived from it apart.
func (v *validator) mcpName(p Pos, what, name string) {
	if name == "" {
		v.errorf(p, "%s name must not be empty", what)
	}
}

// meta checks a `_meta` value built in Go (Load only keeps mappings).
func (v *validator) meta(m *Value, owner Pos) {
	if m != nil && !isJSONObject(m.JSON) {
		v.errorf(orPos(m.Pos, owner), "_meta must be a mapping")
	}
}

// resources checks the static resources and returns those whose URI is
// valid, for the checks across resources and templates.
func (v *validator) resources() []*Resource {
	first := map[string]*Resource{}
	var valid []*Resource
	for _, r := range v.s.Resources {
		if r == nil {
			continue
		}
		if f, dup := first[r.Name]; dup {
			v.errorf(r.Pos, "duplicate resource %q (first defined at %s)", r.Name, at(v.s.File, f.Pos))
			continue
		}
		first[r.Name] = r
		v.mcpName(r.Pos, "resource", r.Name)
		if v.skip[r] {
			continue
		}
		if v.requiredString(r.URI, r.URIPos, r.Pos, "uri", fmt.Sprintf("resource %q", r.Name)) && v.staticURI(r) {
			valid = append(valid, r)
		}
		v.mimeType(r.MimeType, orPos(r.MimeTypePos, r.Pos))
		if r.Size != nil && *r.Size < 0 {
			v.errorf(orPos(r.SizePos, r.Pos), "size must not be negative")
		}
		v.annotations(r.Annotations, r.Pos)
		v.icons(r.Icons)
		v.meta(r.Meta, r.Pos)
		v.content(r.Content, r.Pos)
		v.appResource(r)
		v.asTemplate(r)
	}
	return valid
}

// asTemplate checks `asTemplate:`: a name, on a resource that is not an
// MCP App view (a view is never a template), unique among the templates.
func (v *validator) asTemplate(r *Resource) {
	if r.AsTemplatePos == (Pos{}) && r.AsTemplate == "" {
		return
	}
	p := orPos(r.AsTemplatePos, r.Pos)
	switch {
	case r.AsTemplate == "":
		v.errorf(p, "asTemplate must be a non-empty string: the name of the template resources/templates/list lists it as")
	case r.IsApp():
		v.errorf(p, "resource %q is an MCP App view, which is a static resource and never a template: leave asTemplate out", r.Name)
	}
	for _, t := range v.s.ResourceTemplates {
		if t != nil && t.Name == r.AsTemplate {
			v.errorf(p, "asTemplate %q is the name of resource template %q (%s); templates/list would list two of that name", r.AsTemplate, t.Name, at(v.s.File, t.Pos))
		}
	}
	for _, o := range v.s.Resources {
		if o == r {
			break
		}
		if o != nil && r.AsTemplate != "" && o.AsTemplate == r.AsTemplate {
			v.errorf(p, "asTemplate %q is also that of resource %q (%s); templates/list would list two of that name", r.AsTemplate, o.Name, at(v.s.File, o.Pos))
		}
	}
}

// staticURI checks the uri of a static resource: an absolute URI, with no
// variable.
func (v *validator) staticURI(r *Resource) bool {
	p := orPos(r.URIPos, r.Pos)
	switch {
	case strings.ContainsAny(r.URI, "{}"):
		v.errorf(p, "uri %q holds { or }; a URI with variables belongs under resourceTemplates:", r.URI)
	case hasSpaceOrControl(r.URI):
		v.errorf(p, "uri %q must not hold spaces or control characters; percent-encode them (a space is %%20)", r.URI)
	default:
		u, err := url.Parse(r.URI)
		var ue *url.Error
		switch {
		case errors.As(err, &ue):
			v.errorf(p, "uri %q is not a valid URI: %v", r.URI, ue.Err)
		case err != nil:
			v.errorf(p, "uri %q is not a valid URI: %v", r.URI, err)
		case u.Scheme == "":
			v.errorf(p, "uri %q must be an absolute URI with a scheme, such as config://app", r.URI)
		default:
			return true
		}
	}
	return false
}

func hasSpaceOrControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f })
}

// mimeType checks a media type (parameters allowed, as in
// text/html;profile=mcp-app) and returns it without its parameters,
// lowercased. "" is no media type, and fine.
func (v *validator) mimeType(m string, p Pos) (string, bool) {
	if m == "" {
		return "", false
	}
	mt, _, err := mime.ParseMediaType(m)
	switch {
	case err != nil:
		v.errorf(p, "mimeType %q is not a valid media type: %s", m, strings.TrimPrefix(err.Error(), "mime: "))
	case !strings.Contains(mt, "/") || strings.Contains(mt, "*"):
		v.errorf(p, "mimeType %q must be a media type such as text/plain or application/json", m)
	default:
		return mt, true
	}
	return "", false
}

var audiences = []string{"user", "assistant"}

// annotations checks the MCP annotations of a resource or template.
func (v *validator) annotations(a *Annotations, owner Pos) {
	if a == nil || v.skip[a] {
		return
	}
	base := orPos(a.Pos, owner)
	first := map[string]Pos{}
	for i, who := range a.Audience {
		p := base
		if i < len(a.AudiencePos) {
			p = orPos(a.AudiencePos[i], base)
		}
		if who != "user" && who != "assistant" {
			hint := didYouMean(who, audiences)
			if hint == "" {
				hint = "; use user or assistant"
			}
			v.errorf(p, "unknown audience %q%s", who, hint)
			continue
		}
		if f, dup := first[who]; dup {
			v.errorf(p, "duplicate audience %q (first listed at %s)", who, at(v.s.File, f))
			continue
		}
		first[who] = p
	}
	if a.Priority != nil {
		p := orPos(a.PriorityPos, base)
		text := string(*a.Priority)
		r, ok := ratOf(text)
		switch {
		case !isJSONNumber(text):
			v.errorf(p, "priority %q is not a number", text)
		case !ok || r.Sign() < 0 || r.Cmp(big.NewRat(1, 1)) > 0:
			v.errorf(p, "priority must be between 0 and 1, not %s", text)
		}
	}
	if lm := a.LastModified; lm != "" {
		if _, err := time.Parse(time.RFC3339, lm); err != nil {
			v.errorf(orPos(a.LastModifiedPos, base), "lastModified %q must be an RFC 3339 date-time, such as 2026-11-01T00:00:00Z", lm)
		}
	}
}

// content checks what a resource or template returns.
func (v *validator) content(c *Content, owner Pos) {
	if c == nil {
		return // built in Go: text
	}
	p := orPos(c.Pos, owner)
	switch c.Kind {
	case ContentText, ContentBinary, ContentContents:
		if c.Schema != nil {
			v.errorf(p, "content %s has no schema; a typed value is content json", c.Kind)
		}
	case ContentJSON:
		if c.Schema == nil {
			v.errorf(p, "content json needs the schema of the value")
			return
		}
		v.schema(c.Schema)
	default:
		v.errorf(p, "unknown content %q; use text, binary, contents or json", c.Kind)
	}
}

// parsedTemplate is a resource template whose uriTemplate is sound, for the
// checks across resources and templates.
type parsedTemplate struct {
	t   *ResourceTemplate
	uri *uriTemplate
}

func (v *validator) resourceTemplates() []parsedTemplate {
	first := map[string]*ResourceTemplate{}
	var sound []parsedTemplate
	for _, t := range v.s.ResourceTemplates {
		if t == nil {
			continue
		}
		if f, dup := first[t.Name]; dup {
			v.errorf(t.Pos, "duplicate resource template %q (first defined at %s)", t.Name, at(v.s.File, f.Pos))
			continue
		}
		first[t.Name] = t
		v.mcpName(t.Pos, "resource template", t.Name)
		if v.skip[t] {
			continue
		}
		var ut *uriTemplate
		if v.requiredString(t.URITemplate, t.URITemplatePos, t.Pos, "uriTemplate", fmt.Sprintf("resource template %q", t.Name)) {
			var ok bool
			if ut, ok = v.uriTemplate(t); ok {
				sound = append(sound, parsedTemplate{t: t, uri: ut})
			}
		}
		v.templateVariables(t, ut)
		v.mimeType(t.MimeType, orPos(t.MimeTypePos, t.Pos))
		v.annotations(t.Annotations, t.Pos)
		v.icons(t.Icons)
		v.meta(t.Meta, t.Pos)
		v.content(t.Content, t.Pos)
		v.appTemplate(t)
	}
	return sound
}

// uriTemplate parses and checks t's uriTemplate. It returns the parsed
// template (nil if it does not parse) and whether it is sound.
func (v *validator) uriTemplate(t *ResourceTemplate) (*uriTemplate, bool) {
	p := orPos(t.URITemplatePos, t.Pos)
	ut, err := parseURITemplate(t.URITemplate)
	if err != nil {
		v.errorf(p, "uriTemplate does not parse: %v", err)
		return nil, false
	}
	sound := true
	if len(ut.vars) == 0 {
		v.errorf(p, "uriTemplate %q has no variable; a fixed URI belongs under resources:", t.URITemplate)
		return ut, false
	}
	if lead := t.URITemplate[:strings.IndexByte(t.URITemplate, '{')]; !schemeRE.MatchString(lead) {
		v.errorf(p, "uriTemplate %q must start with a URI scheme before its first variable, such as github://{owner}/{repo}", t.URITemplate)
		sound = false
	}
	reported := map[string]bool{}
	for _, u := range ut.vars {
		if reported[u.name] {
			continue
		}
		if strings.Contains(u.name, "%") {
			v.errorf(p, "variable name %q holds a %%-escape; name template variables with letters, digits, _ and .", u.name)
			reported[u.name], sound = true, false
			continue
		}
		for _, other := range ut.vars {
			if other.name == u.name && other.explode != u.explode {
				v.errorf(p, "variable %q is exploded in one place of the uriTemplate and not in another", u.name)
				reported[u.name], sound = true, false
				break
			}
		}
	}
	return ut, sound
}

// templateVariables checks the variables of t against its uriTemplate (ut
// is nil when it does not parse: only the declarations are checked then).
func (v *validator) templateVariables(t *ResourceTemplate, ut *uriTemplate) {
	uses := map[string]uriVar{}
	var names []string
	if ut != nil {
		for _, u := range ut.vars {
			if _, ok := uses[u.name]; !ok {
				uses[u.name] = u
				names = append(names, u.name)
			}
		}
	}
	seen := map[string]*Variable{}
	for _, va := range t.Variables {
		if va == nil {
			continue
		}
		p := orPos(va.Pos, t.Pos)
		if f, dup := seen[va.Name]; dup {
			v.errorf(p, "duplicate variable %q (first defined at %s)", va.Name, at(v.s.File, orPos(f.Pos, t.Pos)))
			continue
		}
		seen[va.Name] = va
		u, used := uses[va.Name]
		if ut != nil && !used {
			v.errorf(p, "variable %q is declared but the uriTemplate has no {%s}%s", va.Name, va.Name, didYouMean(va.Name, names))
		}
		v.variable(va, u, ut != nil && used)
	}
	for _, name := range names {
		if seen[name] == nil {
			// Only a spec built in Go can lack one: Load lists them all.
			v.errorf(orPos(t.URITemplatePos, t.Pos), "the uriTemplate variable {%s} is missing from the variables of resource template %q", name, t.Name)
		}
	}
}

// variable checks the schema of one template variable: a scalar, or an
// array of scalars where the template explodes it (when shape is set, that
// is when the template is known to use it as u).
func (v *validator) variable(va *Variable, u uriVar, shape bool) {
	s := va.Schema
	if s == nil {
		v.errorf(va.Pos, "variable %q has no schema", va.Name)
		return
	}
	v.schema(s)
	if v.skip[s] {
		return
	}
	if s.Nullable {
		v.errorf(keyPos(s, "nullable"), "nullable is not allowed on a URI template variable")
	}
	// A default fills in a variable the URI left out, which only a
	// form-style query variable can be.
	if s.Default != nil && !(shape && (u.op == "?" || u.op == "&")) {
		v.errorf(keyPos(s, "default"), "default is allowed only on a query variable ({?%s} or {&%s}): a URI always holds its other variables", va.Name, va.Name)
	}
	if !shape {
		return
	}
	target, nt := v.resolve(s)
	if target == nil || v.skip[target] {
		return // an unknown or circular $ref, reported on its own
	}
	const scalars = "strings, integers, numbers or booleans"
	if !u.explode {
		if !isScalarKind(target.Kind) {
			v.errorf(s.Pos, "variable %q must be a string, integer, number or boolean%s", va.Name, notKind(target, nt))
		}
		return
	}
	if target.Kind != KindArray {
		v.errorf(s.Pos, "variable %q is exploded (%s), so it must be an array of %s%s", va.Name, u.spelled(), scalars, notKind(target, nt))
		return
	}
	items, itemType := v.resolve(target.Items)
	switch {
	case items == nil || v.skip[items]:
	case !isScalarKind(items.Kind):
		v.errorf(orPos(target.Items.Pos, s.Pos), "variable %q is exploded (%s), so its items must be %s%s", va.Name, u.spelled(), scalars, notKind(items, itemType))
	case target.Items.Nullable:
		v.errorf(keyPos(target.Items, "nullable"), "the items of variable %q cannot be nullable", va.Name)
	}
}

func isScalarKind(k Kind) bool {
	return k == KindString || k == KindInteger || k == KindNumber || k == KindBoolean
}

// notKind ends a message about the wrong kind: ", not an object", or
// ", but type "X" is an object".
func notKind(s *Schema, nt *NamedType) string {
	if nt != nil {
		return fmt.Sprintf(", but type %q is %s", nt.Name, kindPhrase(s.Kind))
	}
	return ", not " + kindPhrase(s.Kind)
}

// uriCollisions checks that resources/read can tell every static resource
// from the others and from the templates.
func (v *validator) uriCollisions(res []*Resource, tmpls []parsedTemplate) {
	byURI := map[string]*Resource{}
	for _, r := range res {
		p := orPos(r.URIPos, r.Pos)
		if f, dup := byURI[r.URI]; dup {
			v.errorf(p, "resource %q has the same uri %q as resource %q (%s)", r.Name, r.URI, f.Name, at(v.s.File, f.Pos))
			continue
		}
		byURI[r.URI] = r
		for _, pt := range tmpls {
			if pt.uri.tmpl.Regexp().MatchString(r.URI) {
				v.errorf(p, "resource %q uri %q is also matched by resource template %q (%s); a read of that uri would be ambiguous, so change the uri or the template",
					r.Name, r.URI, pt.t.Name, at(v.s.File, pt.t.Pos))
			}
		}
	}
	byTemplate := map[string]*ResourceTemplate{}
	for _, pt := range tmpls {
		if f, dup := byTemplate[pt.t.URITemplate]; dup {
			v.errorf(orPos(pt.t.URITemplatePos, pt.t.Pos), "resource template %q has the same uriTemplate as resource template %q (%s)", pt.t.Name, f.Name, at(v.s.File, f.Pos))
			continue
		}
		byTemplate[pt.t.URITemplate] = pt.t
	}
}
