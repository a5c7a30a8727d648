package spec

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/url"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/internal/contract"
)

// MCP Apps (the io.modelcontextprotocol/ui extension, stable 2026-01-26): a
// static resource with a ui:// URI is an HTML view a host renders in a
// sandboxed iframe; a tool names the view it is shown in with `ui:`.

// AppMIMEType is the media type of every MCP App view, on its resources/list
// entry and on every content item resources/read returns.
const AppMIMEType = contract.AppMIMEType

// AppPermissions are the browser permissions a view may ask the host for.
// None is granted by default, and lint warns on each one asked for.
var AppPermissions = []string{"camera", "microphone", "geolocation", "clipboardWrite"}

// AppVisibilities are who may call a UI-linked tool: the model (the agent
// sees the tool), the app (the view may call it through the host), or both
// (the default).
var AppVisibilities = []string{"model", "app"}

// ResourceUI is the `ui:` key of a ui:// resource: where its HTML comes from
// and the `_meta.ui` the host reads before rendering it.
type ResourceUI struct {
	Pos Pos
	// HTML is the path of the view's HTML file, relative to the spec's
	// directory; the generated package embeds a copy of it. "" means a
	// handler method builds the HTML.
	HTML    string
	HTMLPos Pos
	// CSP lists the origins the view may reach; nil asks the host for its
	// restrictive default (no network at all).
	CSP *AppCSP
	// Permissions are the names of AppPermissions asked for, in file order.
	Permissions    []string
	PermissionsPos []Pos
	// Domain asks for a dedicated sandbox origin (its format is the
	// host's); "" for none.
	Domain    string
	DomainPos Pos
	// PrefersBorder asks the host to draw (true) or not draw (false) a
	// border around the view; nil leaves it to the host.
	PrefersBorder *bool
}

// AppCSP is `ui.csp`: the origins of each Content Security Policy list of
// the extension, in file order.
type AppCSP struct {
	Pos             Pos
	ConnectDomains  []Origin // fetch, XHR, WebSocket (connect-src)
	ResourceDomains []Origin // images, scripts, styles, fonts, media
	FrameDomains    []Origin // nested iframes (frame-src)
	BaseURIDomains  []Origin // <base href> (base-uri)
}

// Origin is one origin of a CSP list, such as https://api.example.com.
type Origin struct {
	Pos   Pos
	Value string
}

// ToolUI is the `ui:` key of a tool: the view it links to and who may call
// it.
type ToolUI struct {
	Pos Pos
	// Resource is the name (the key under resources:) of a ui:// resource.
	Resource    string
	ResourcePos Pos
	// Visibility is some of AppVisibilities; empty means both.
	Visibility    []string
	VisibilityPos []Pos
}

// IsApp reports whether r is an MCP App view: its URI is ui://, or it has a
// `ui:` key.
func (r *Resource) IsApp() bool {
	return r.UI != nil || hasUIScheme(r.URI)
}

// hasUIScheme is case-sensitive, as hosts compare the prefix as written.
func hasUIScheme(uri string) bool { return strings.HasPrefix(uri, "ui://") }

// AppOnly reports whether a tool is linked to a view and hidden from the
// model: only the view may call it.
func (u *ToolUI) AppOnly() bool {
	return u != nil && len(u.Visibility) > 0 && !slices.Contains(u.Visibility, "model")
}

var resourceUIFields = fields[*ResourceUI]{
	{key: "html", doc: "The view's HTML file, relative to the spec, embedded into the generated package. Absent: a handler method returns the HTML.", schema: nonEmptyString,
		decode: func(d *decoder, u *ResourceUI, e entry) { u.HTML, u.HTMLPos = requiredStr(e.value) }},
	{key: "csp", doc: "The origins the view may reach; absent: none (the host's restrictive default).", schema: defRef("AppCSP"),
		decode: func(d *decoder, u *ResourceUI, e entry) { u.CSP = d.csp(e.value) }},
	{key: "permissions", doc: "Browser permissions the view asks the host for; none by default, and lint warns on each.",
		schema: `{"type":"array","items":` + stringEnum(AppPermissions) + `,"uniqueItems":true}`,
		decode: func(d *decoder, u *ResourceUI, e entry) {
			items, _ := d.list(e.value, "permissions")
			for _, item := range items {
				if p, ok := d.str(item, "each permission"); ok {
					u.Permissions = append(u.Permissions, p)
					u.PermissionsPos = append(u.PermissionsPos, posOf(item))
				}
			}
		}},
	{key: "domain", doc: "A dedicated sandbox origin for the view, in the host's format.", schema: nonEmptyString,
		decode: func(d *decoder, u *ResourceUI, e entry) { u.Domain, u.DomainPos = requiredStr(e.value) }},
	{key: "prefersBorder", doc: "Whether the host should draw a border around the view.", schema: booleanSchema,
		decode: func(d *decoder, u *ResourceUI, e entry) {
			if b, ok := d.boolean(e.value, "prefersBorder"); ok {
				u.PrefersBorder = &b
			}
		}},
}

// resourceUI decodes a resource's `ui:` key.
func (d *decoder) resourceUI(n *yaml.Node) *ResourceUI {
	u := &ResourceUI{Pos: posOf(n)}
	if isNull(n) {
		return u // `ui:` alone: a view built by a handler, with no metadata
	}
	m, ok := d.mapping(n, "ui")
	if !ok {
		return u
	}
	decodeMapping(d, m, u, resourceUIFields, func(e entry) { d.unknownKey(e, "in ui", resourceUIFields.keys()) })
	return u
}

// originsField is one list of origins of `ui.csp`.
func originsField(key, doc string, into func(*AppCSP) *[]Origin) field[*AppCSP] {
	return field[*AppCSP]{key: key, doc: doc, schema: listOf(stringSchema),
		decode: func(d *decoder, c *AppCSP, e entry) {
			items, _ := d.list(e.value, key)
			for _, item := range items {
				if s, ok := d.str(item, "each origin of "+key); ok {
					*into(c) = append(*into(c), Origin{Pos: posOf(item), Value: s})
				}
			}
		}}
}

var cspFields = fields[*AppCSP]{
	originsField("connectDomains", "Origins for fetch, XHR and WebSocket (connect-src).", func(c *AppCSP) *[]Origin { return &c.ConnectDomains }),
	originsField("resourceDomains", "Origins of images, scripts, styles, fonts and media.", func(c *AppCSP) *[]Origin { return &c.ResourceDomains }),
	originsField("frameDomains", "Origins of nested iframes (frame-src).", func(c *AppCSP) *[]Origin { return &c.FrameDomains }),
	originsField("baseUriDomains", "Origins allowed in <base href> (base-uri).", func(c *AppCSP) *[]Origin { return &c.BaseURIDomains }),
}

func (d *decoder) csp(n *yaml.Node) *AppCSP {
	m, ok := d.mapping(n, "csp")
	if !ok {
		return nil
	}
	c := &AppCSP{Pos: posOf(n)}
	decodeMapping(d, m, c, cspFields, func(e entry) { d.unknownKey(e, "in csp", cspFields.keys()) })
	return c
}

var toolUIFields = fields[*ToolUI]{
	{key: "resource", required: true, doc: "The name (key under resources:) of the ui:// resource the tool is shown in (required).", schema: nonEmptyString,
		decode: func(d *decoder, u *ToolUI, e entry) { u.Resource, u.ResourcePos = requiredStr(e.value) }},
	{key: "visibility", doc: "Who may call the tool: model, app or both (the default). An app-only tool ([app]) is listed and callable only for hosts that declare the MCP Apps extension.",
		schema: `{"type":"array","items":` + stringEnum(AppVisibilities) + `,"minItems":1,"uniqueItems":true}`,
		decode: func(d *decoder, u *ToolUI, e entry) {
			items, ok := d.list(e.value, "visibility")
			if ok && len(items) == 0 {
				d.errorf(posOf(e.value), "visibility must not be empty; leave it out for [model, app]")
			}
			for _, item := range items {
				if s, ok := d.str(item, "each visibility"); ok {
					u.Visibility = append(u.Visibility, s)
					u.VisibilityPos = append(u.VisibilityPos, posOf(item))
				}
			}
		}},
}

// toolUI decodes a tool's `ui:` key.
func (d *decoder) toolUI(n *yaml.Node) *ToolUI {
	m, ok := d.mapping(n, "ui")
	if !ok {
		return nil
	}
	u := &ToolUI{Pos: posOf(n)}
	decodeMapping(d, m, u, toolUIFields, func(e entry) { d.unknownKey(e, "in ui", toolUIFields.keys()) })
	return u
}

// appResource checks what makes r an MCP App view: a ui:// URI, the app's
// media type, HTML as text, and sound `_meta.ui` values.
func (v *validator) appResource(r *Resource) {
	if !r.IsApp() {
		return
	}
	if r.URI != "" && !hasUIScheme(r.URI) {
		v.errorf(orPos(r.URIPos, r.Pos), "resource %q has ui: so it is an MCP App view, and its uri must start with ui://, such as ui://%s/view, not %q", r.Name, r.Name, r.URI)
	}
	if r.MimeType != "" {
		if mt, params, err := mime.ParseMediaType(r.MimeType); err == nil && (mt != "text/html" || params["profile"] != "mcp-app" || len(params) != 1) {
			v.errorf(orPos(r.MimeTypePos, r.Pos), "mimeType of MCP App view %q must be %s (or left out), not %q", r.Name, AppMIMEType, r.MimeType)
		}
	}
	if c := r.Content; c != nil && c.Kind != ContentText {
		v.errorf(orPos(c.Pos, r.Pos), "an MCP App view is an HTML document, so content must be text (or left out), not %s", c.Kind)
	}
	u := r.UI
	if u == nil {
		return
	}
	v.noMetaUI(r.Meta, r.Pos)
	if u.HTMLPos != (Pos{}) {
		v.htmlPath(u.HTML, u.HTMLPos)
	}
	if c := u.CSP; c != nil {
		for _, list := range [][]Origin{c.ConnectDomains, c.ResourceDomains, c.FrameDomains, c.BaseURIDomains} {
			for _, o := range list {
				if msg := badOrigin(o.Value); msg != "" {
					v.errorf(orPos(o.Pos, c.Pos), "origin %q %s", o.Value, msg)
				}
			}
		}
	}
	v.names(u.Permissions, u.PermissionsPos, u.Pos, "permission", AppPermissions)
	if u.DomainPos != (Pos{}) {
		d := u.Domain
		if strings.TrimSpace(d) == "" {
			v.errorf(u.DomainPos, "domain must be a non-empty string, such as views.example.com")
		} else if strings.ContainsAny(d, " \t\r\n;,'\"") || strings.ContainsFunc(d, func(c rune) bool { return c < ' ' || c == 0x7f }) {
			v.errorf(u.DomainPos, "domain %q must be a host name or origin, without spaces, quotes, commas or semicolons", d)
		}
	}
}

// htmlPath checks the path of a view's HTML file: relative to the spec,
// with forward slashes, inside the spec's directory, naming an .html file.
func (v *validator) htmlPath(p string, pos Pos) {
	clean := path.Clean(p)
	switch {
	case strings.TrimSpace(p) == "":
		v.errorf(pos, "html must be the path of an HTML file next to the spec, such as view.html")
	case path.IsAbs(p) || strings.Contains(p, `\`) || len(p) >= 2 && p[1] == ':':
		v.errorf(pos, "html %q must be a relative path with forward slashes, such as views/explorer.html", p)
	case clean == ".." || strings.HasPrefix(clean, "../"):
		v.errorf(pos, "html %q must be inside the spec's directory", p)
	case !strings.EqualFold(path.Ext(clean), ".html") && !strings.EqualFold(path.Ext(clean), ".htm"):
		v.errorf(pos, "html %q must name an .html file", p)
	}
}

// badOrigin says what is wrong with a CSP origin ("" when nothing): the
// host turns these into CSP source expressions, so anything but
// scheme://host[:port] (a leading *. allowed) could widen or break the
// policy.
func badOrigin(o string) string {
	if strings.ContainsAny(o, " \t\r\n;,'\"") {
		return "must be one origin such as https://api.example.com, without spaces, quotes, commas or semicolons"
	}
	scheme, rest, ok := strings.Cut(o, "://")
	if !ok || rest == "" {
		return "must be an origin with a scheme, such as https://api.example.com"
	}
	switch strings.ToLower(scheme) {
	case "https", "wss", "http", "ws":
	default:
		return "must use https, wss, http or ws"
	}
	host := strings.TrimPrefix(rest, "*.")
	if strings.ContainsAny(host, "/?#@*") {
		return "must be scheme://host[:port] with no path, query or user; a wildcard is only allowed as a leading *."
	}
	u, err := url.Parse("https://" + host)
	if err != nil || u.Hostname() == "" {
		return "has no valid host"
	}
	return ""
}

// toolUI checks a tool's link to a view: an existing ui:// resource, and
// known visibilities.
func (v *validator) toolUI(t *Tool) {
	u := t.UI
	if u == nil {
		return
	}
	v.noMetaUI(t.Meta, t.Pos)
	if v.requiredString(u.Resource, u.ResourcePos, u.Pos, "resource", fmt.Sprintf("the ui of tool %q", t.Name)) {
		var names []string
		var target *Resource
		for _, r := range v.s.Resources {
			if r == nil {
				continue
			}
			if r.IsApp() {
				names = append(names, r.Name)
			}
			if r.Name == u.Resource && target == nil {
				target = r
			}
		}
		p := orPos(u.ResourcePos, u.Pos)
		switch {
		case target == nil:
			hint := didYouMean(u.Resource, names)
			if hint == "" && len(names) > 0 {
				hint = "; the views are " + joinList(names, "and")
			} else if hint == "" {
				hint = "; declare it under resources: with a ui:// uri"
			}
			v.errorf(p, "tool %q links to unknown resource %q%s", t.Name, u.Resource, hint)
		case !target.IsApp():
			v.errorf(p, "tool %q links to resource %q, which is not an MCP App view: its uri %q is not ui://", t.Name, u.Resource, target.URI)
		}
	}
	v.names(u.Visibility, u.VisibilityPos, u.Pos, "visibility", AppVisibilities)
	// A view's write without an idempotency key is lint's
	// APP_WRITE_NOT_IDEMPOTENT: large servers in the field ship such links.
}

// IsIdempotencyKeyName reports whether a property name says it is an
// idempotency key (idempotency_key, dedupKey, …).
func IsIdempotencyKeyName(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "idempoten") || strings.Contains(n, "dedup")
}

// names checks a list of names against the allowed ones: each known, none
// twice.
func (v *validator) names(list []string, pos []Pos, owner Pos, what string, allowed []string) {
	first := map[string]Pos{}
	for i, n := range list {
		p := owner
		if i < len(pos) {
			p = orPos(pos[i], owner)
		}
		if !slices.Contains(allowed, n) {
			hint := didYouMean(n, allowed)
			if hint == "" {
				hint = "; use " + joinList(allowed, "or")
			}
			v.errorf(p, "unknown %s %q%s", what, n, hint)
			continue
		}
		if f, dup := first[n]; dup {
			v.errorf(p, "duplicate %s %q (first listed at %s)", what, n, at(v.s.File, f))
			continue
		}
		first[n] = p
	}
}

// appTemplate refuses ui:// templates: a view is one fixed document the
// host can fetch and cache before any call.
func (v *validator) appTemplate(t *ResourceTemplate) {
	if hasUIScheme(t.URITemplate) {
		v.errorf(orPos(t.URITemplatePos, t.Pos), "resource template %q has a ui:// uriTemplate, but an MCP App view is a static resource: declare it under resources: with a fixed ui:// uri", t.Name)
	}
}

// noMetaUI refuses a hand-written _meta.ui beside `ui:`: the generated one
// would silently replace it.
func (v *validator) noMetaUI(m *Value, owner Pos) {
	if m == nil {
		return
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(m.JSON, &keys) == nil && keys["ui"] != nil {
		v.errorf(orPos(m.Pos, owner), "_meta.ui is written from the ui: key; move its settings there")
	}
}
