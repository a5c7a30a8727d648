package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/contract"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// MCP Apps (extension io.modelcontextprotocol/ui, stable 2026-01-26): a
// ui:// resource is an HTML view that a host renders in a sandboxed iframe,
// and a tool's _meta.ui.resourceUri names the view its results are shown
// in. The server's part is small: declare the view with the app media type
// and its _meta.ui, link tools to it, and keep every linked tool useful to
// hosts that show no view (a text block in every result). Messages between
// the view and the host never reach the server: a view's tool calls arrive
// as ordinary tools/call requests, validated like the model's.

const (
	// UIExtension is the id of the MCP Apps extension, the key of
	// capabilities.extensions.
	UIExtension = "io.modelcontextprotocol/ui"
	// AppMIMEType is the media type of a view, on its resources/list entry
	// and on every content item of its resources/read.
	AppMIMEType = contract.AppMIMEType
)

// AppCSP lists the origins a view may reach, such as
// https://api.example.com; the host builds the iframe's Content Security
// Policy from them. Empty lists leave the host's restrictive default.
type AppCSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`  // fetch, XHR, WebSocket
	ResourceDomains []string `json:"resourceDomains,omitempty"` // images, scripts, styles, fonts, media
	FrameDomains    []string `json:"frameDomains,omitempty"`    // nested iframes
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`  // <base href>
}

// AppPermissions are the browser permissions a view asks the host for.
type AppPermissions struct {
	Camera, Microphone, Geolocation, ClipboardWrite bool
}

// MarshalJSON encodes the permissions as the extension does: an empty
// object for each one asked for.
func (p AppPermissions) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for _, f := range []struct {
		on   bool
		name string
	}{{p.Camera, "camera"}, {p.Microphone, "microphone"}, {p.Geolocation, "geolocation"}, {p.ClipboardWrite, "clipboardWrite"}} {
		if f.on {
			if len(b) > 1 {
				b = append(b, ',')
			}
			b = append(b, `"`+f.name+`":{}`...)
		}
	}
	return append(b, '}'), nil
}

// AppUI is the _meta.ui of a view: what the host reads before rendering it.
type AppUI struct {
	CSP           *AppCSP         `json:"csp,omitempty"`
	Permissions   *AppPermissions `json:"permissions,omitempty"`
	Domain        string          `json:"domain,omitempty"` // a dedicated sandbox origin, in the host's format
	PrefersBorder *bool           `json:"prefersBorder,omitempty"`
}

// AppResource returns r as an MCP App view whose HTML document fn returns:
// MimeType is AppMIMEType, and ui is the _meta.ui of both the resources/list
// entry and the content item every read returns (the stable extension puts
// it on the content, hosts of the draft read either). fn's errors are
// answered as ResourceHandler says. AppResource panics, as these are
// programming errors, unless r.URI starts with ui://, or if r.Meta already
// has a "ui" key or is not a JSON object.
func AppResource(r Resource, ui AppUI, fn func(ctx context.Context) (string, error)) Resource {
	where := fmt.Sprintf("runtime: AppResource(%q)", r.URI)
	if !strings.HasPrefix(r.URI, "ui://") {
		panic(where + ": the URI of an MCP App view must start with ui://")
	}
	uiJSON, err := json.Marshal(ui)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", where, err))
	}
	r.MimeType = AppMIMEType
	r.Meta = withMetaKey(where, r.Meta, "ui", uiJSON)
	contentMeta := withMetaKey(where, nil, "ui", uiJSON)
	r.Handler = func(ctx context.Context, req *ReadResourceRequest) (*ReadResourceResult, error) {
		html, err := fn(ctx)
		if err != nil {
			return nil, err
		}
		return &ReadResourceResult{Contents: []ResourceContents{{URI: req.URI, MimeType: AppMIMEType, Text: html, Meta: contentMeta}}}, nil
	}
	return r
}

// ToolUI links a tool to a view: _meta.ui of the tool.
type ToolUI struct {
	// ResourceURI is the ui:// URI of the view; it must be registered on
	// the same server.
	ResourceURI string `json:"resourceUri"`
	// Visibility says who may call the tool: "model" (the agent sees it),
	// "app" (the view may call it through the host), or both; nil means
	// both. Hosts that show views enforce it. An app-only tool (["app"]) is
	// also listed and callable only for clients that declared the MCP Apps
	// extension (AppTool sets its Requires): a host without it has no view
	// to call it from, and would hand it to the model.
	Visibility []string `json:"visibility,omitempty"`
}

// legacyResourceURIKey is the flat _meta key of the extension's drafts;
// hosts written against them read only this one.
const legacyResourceURIKey = "ui/resourceUri"

// AppTool returns t linked to a view: _meta.ui (and the drafts' flat
// ui/resourceUri) in its tools/list entry. Its handler is wrapped so that a
// result without a text block becomes an isError result saying so: hosts
// without the extension, and the model, read only the content, so a tool
// whose output only a view can show would be useless to them (seed 002:
// progressive enhancement). Tests that call the tool see that failure. It
// panics, as these are programming errors, if ui.ResourceURI is not ui://,
// a visibility is unknown, t.Handler is nil, or t.Meta already has a "ui"
// key or is not a JSON object.
func AppTool(t Tool, ui ToolUI) Tool {
	where := fmt.Sprintf("runtime: AppTool(%q)", t.Name)
	if !strings.HasPrefix(ui.ResourceURI, "ui://") {
		panic(where + ": ResourceURI must start with ui://")
	}
	for _, v := range ui.Visibility {
		if v != "model" && v != "app" {
			panic(fmt.Sprintf("%s: unknown visibility %q; use model or app", where, v))
		}
	}
	if t.Handler == nil {
		panic(where + ": nil Handler (set it, e.g. with TypedTool, before AppTool)")
	}
	uiJSON, err := json.Marshal(ui)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", where, err))
	}
	uriJSON, _ := json.Marshal(ui.ResourceURI)
	if ui.appOnly() {
		t.Requires = requiringExtension(t.Requires, UIExtension)
	}
	t.Meta = withMetaKey(where, t.Meta, "ui", uiJSON)
	t.Meta = withMetaKey(where, t.Meta, legacyResourceURIKey, uriJSON)
	next, name := t.Handler, t.Name
	t.Handler = func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
		res, err := next(ctx, req)
		if err == nil && res != nil && !res.IsError && !hasText(res) {
			logger(ctx).Error("runtime: a tool linked to an MCP App view returned no text content", "tool", name)
			return ErrorResult("internal error: tool " + quote(name) + " is shown in an MCP App view but returned no text content, so hosts without the view would show nothing; this is a bug in the server"), nil
		}
		return res, err
	}
	return t
}

// appOnly reports whether only a view may call the tool.
func (ui ToolUI) appOnly() bool {
	return len(ui.Visibility) > 0 && !slices.Contains(ui.Visibility, "model")
}

// requiringExtension returns a copy of r that also requires the client
// extension name.
func requiringExtension(r *Requires, name string) *Requires {
	out := &Requires{}
	if r != nil {
		out.Capabilities = slices.Clone(r.Capabilities)
		out.Extensions = slices.Clone(r.Extensions)
	}
	if !slices.Contains(out.Extensions, name) {
		out.Extensions = append(out.Extensions, name)
	}
	return out
}

func hasText(r *CallToolResult) bool {
	return slices.ContainsFunc(r.Content, func(c Content) bool {
		switch t := c.(type) {
		case TextContent:
			return t.Text != ""
		case *TextContent:
			return t != nil && t.Text != ""
		}
		return false
	})
}

// withMetaKey returns the _meta object meta with key set to value. It
// panics if meta is not a JSON object or already has key: the generated
// registration writes these keys, and a second writer would be silently
// overruled.
func withMetaKey(where string, meta json.RawMessage, key string, value []byte) json.RawMessage {
	if meta == nil {
		meta = json.RawMessage(`{}`)
	}
	meta = mustObject(where, "Meta", meta)
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(meta, &keys); err != nil {
		panic(fmt.Sprintf("%s: Meta: %v", where, err))
	}
	if _, dup := keys[key]; dup {
		panic(fmt.Sprintf("%s: Meta already has %q, which MCP Apps sets", where, key))
	}
	// Append to the object as written, so that its key order stays.
	b := bytes.TrimSuffix(bytes.Clone(meta), []byte("}"))
	if len(keys) > 0 {
		b = append(b, ',')
	}
	b = jsonwire.AppendString(b, key)
	b = append(b, ':')
	b = append(b, value...)
	return append(b, '}')
}

// ClientSupportsUI reports whether the client serving ctx declared the MCP
// Apps extension with the app media type: at initialize, or in the 2026-07-28
// era in the request's _meta
// (capabilities.extensions["io.modelcontextprotocol/ui"].mimeTypes). A tool
// may then keep its text short and leave detail to the view; without it the
// text is all the user sees.
func ClientSupportsUI(ctx context.Context) bool {
	caps := ClientCapabilities(ctx)
	if caps == nil {
		return false
	}
	var c struct {
		Extensions map[string]struct {
			MimeTypes []string `json:"mimeTypes"`
		} `json:"extensions"`
	}
	if json.Unmarshal(caps, &c) != nil {
		return false
	}
	ext, ok := c.Extensions[UIExtension]
	return ok && slices.Contains(ext.MimeTypes, AppMIMEType)
}

// withExtensions adds capabilities.extensions to the capabilities of
// server/discover when a view is registered. Only 2026-07-28 has that
// key; the 2025-11-25 initialize result's schema has no place for it.
func (s *Server) withExtensions(caps json.RawMessage) json.RawMessage {
	var exts []string
	if slices.ContainsFunc(s.resources.snapshot().list, func(re *resourceEntry) bool { return re.res.MimeType == AppMIMEType }) {
		exts = append(exts, `"`+UIExtension+`":{}`)
	}
	if s.hasTaskTools() {
		exts = append(exts, `"`+TasksExtension+`":{}`)
	}
	if len(exts) == 0 {
		return caps
	}
	out := bytes.TrimSuffix(bytes.Clone(caps), []byte("}"))
	if len(out) > 1 {
		out = append(out, ',')
	}
	return append(out, `"extensions":{`+strings.Join(exts, ",")+`}}`...)
}

// WithoutAppViews turns MCP Apps off: AddResource skips views (resources
// with AppMIMEType) and AddTool drops the tools' links to them (_meta.ui
// and ui/resourceUri), so that every host gets the plain tools, whose text
// results are unchanged. It is the switch that rolls an app back without
// the tools it enhances (seed 002).
func WithoutAppViews() Option { return func(c *config) { c.noAppViews = true } }

// appLink returns a tool's compacted _meta, without the MCP Apps link when
// the server has views turned off. It keeps nil for an object left empty.
func (s *Server) appLink(meta json.RawMessage) json.RawMessage {
	if !s.cfg.noAppViews {
		return meta
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(meta, &keys) != nil {
		return meta
	}
	_, ui := keys["ui"]
	_, legacy := keys[legacyResourceURIKey]
	if !ui && !legacy {
		return meta
	}
	// Rebuild the object without the two keys, in its own key order.
	var out []byte
	if _, err := jsonwire.ScanObject(meta, func(key, val []byte) { // key comes unquoted
		if k := string(key); k != "ui" && k != legacyResourceURIKey {
			if len(out) == 0 {
				out = append(out, '{')
			} else {
				out = append(out, ',')
			}
			out = append(append(jsonwire.AppendString(out, k), ':'), val...)
		}
	}); err != nil {
		return meta
	}
	if len(out) == 0 {
		return nil
	}
	return append(out, '}')
}
