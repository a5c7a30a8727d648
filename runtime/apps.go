package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/apps"
)

// MCP Apps (extension io.modelcontextprotocol/ui, stable 2026-01-26): a
// ui:// resource is an HTML view that a host renders in a sandboxed iframe,
// and a tool's _meta.ui.resourceUri names the view its results are shown
// in. The server's part is small: declare the view with the app media type
// and its _meta.ui, link tools to it, and keep every linked tool useful to
// hosts that show no view (a text block in every result). Messages between
// the view and the host never reach the server: a view's tool calls arrive
// as ordinary tools/call requests, validated like the model's. What needs
// no server is package runtime/apps; these are its names in this package.

const (
	// UIExtension is the id of the MCP Apps extension, the key of
	// capabilities.extensions (apps.Extension).
	UIExtension = apps.Extension
	// AppMIMEType is the media type of a view, on its resources/list entry
	// and on every content item of its resources/read (apps.MIMEType).
	AppMIMEType = apps.MIMEType
)

type (
	// AppCSP lists the origins a view may reach (apps.CSP).
	AppCSP = apps.CSP
	// AppPermissions are the browser permissions a view asks the host for
	// (apps.Permissions).
	AppPermissions = apps.Permissions
	// AppUI is the _meta.ui of a view: what the host reads before
	// rendering it (apps.UI).
	AppUI = apps.UI
	// ToolUI links a tool to a view: _meta.ui of the tool (apps.ToolUI).
	ToolUI = apps.ToolUI
)

// AppResource returns r as an MCP App view whose HTML document fn returns:
// MimeType is AppMIMEType, and ui is the _meta.ui of both the resources/list
// entry and the content item every read returns (the stable extension puts
// it on the content, hosts of the draft read either); a zero ui is not sent. fn's errors are
// answered as ResourceHandler says. AppResource panics, as these are
// programming errors, unless r.URI starts with ui://, or if r.Meta already
// has a "ui" key or is not a JSON object.
func AppResource(r Resource, ui AppUI, fn func(ctx context.Context) (string, error)) Resource {
	where := fmt.Sprintf("runtime: AppResource(%q)", r.URI)
	if !apps.IsView(r.URI) {
		panic(where + ": the URI of an MCP App view must start with ui://")
	}
	uiJSON, err := json.Marshal(ui)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", where, err))
	}
	r.MimeType = AppMIMEType
	meta := withMetaKey(where, r.Meta, "ui", uiJSON) // panics on a ui key of r.Meta
	var contentMeta json.RawMessage
	if string(uiJSON) != "{}" {
		// A ui without settings says what no ui says: none is sent, as
		// the extension's reference servers send none.
		r.Meta = meta
		contentMeta = withMetaKey(where, nil, "ui", uiJSON)
	}
	r.Handler = func(ctx context.Context, req *ReadResourceRequest) (*ReadResourceResult, error) {
		html, err := fn(ctx)
		if err != nil {
			return nil, err
		}
		return &ReadResourceResult{Contents: []ResourceContents{{URI: req.URI, MimeType: AppMIMEType, Text: html, Meta: contentMeta}}}, nil
	}
	return r
}

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
	if err := ui.Check(); err != nil {
		panic(where + ": " + err.Error())
	}
	if t.Handler == nil {
		panic(where + ": nil Handler (set it, e.g. with TypedTool, before AppTool)")
	}
	uiJSON, err := json.Marshal(ui)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", where, err))
	}
	uriJSON, _ := json.Marshal(ui.ResourceURI)
	if ui.AppOnly() {
		t.Requires = requiringExtension(t.Requires, UIExtension)
	}
	t.Meta = withMetaKey(where, t.Meta, "ui", uiJSON)
	t.Meta = withMetaKey(where, t.Meta, apps.LegacyResourceURIKey, uriJSON)
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
// panics if meta is not a JSON object or already has key (apps.WithKey).
func withMetaKey(where string, meta json.RawMessage, key string, value []byte) json.RawMessage {
	if meta == nil {
		meta = json.RawMessage(`{}`)
	}
	return apps.WithKey(where, mustObject(where, "Meta", meta), key, value)
}

// ClientSupportsUI reports whether the client serving ctx declared the MCP
// Apps extension with the app media type: at initialize, or in the 2026-07-28
// era in the request's _meta
// (capabilities.extensions["io.modelcontextprotocol/ui"].mimeTypes). A tool
// may then keep its text short and leave detail to the view; without it the
// text is all the user sees.
func ClientSupportsUI(ctx context.Context) bool { return apps.SupportsUI(ClientCapabilities(ctx)) }

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
	return apps.WithoutLink(meta)
}
