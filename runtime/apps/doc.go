// Package apps holds the server's side of MCP Apps (extension
// io.modelcontextprotocol/ui, stable 2026-01-26) that needs no server: the
// extension's id and media type, the _meta.ui of a view (UI) and of a tool
// linked to one (ToolUI) with their rules, and the edits of a _meta object
// that link a tool to a view or take the link away. It promises:
//
//   - a view's _meta.ui and a tool's _meta.ui encode as the extension
//     defines them (permissions as empty objects, omitted fields left out);
//   - a link names a ui:// view and only the visibilities model and app
//     (ToolUI.Check);
//   - WithKey never overrules a key that is already there, and WithoutLink
//     removes the link (ui and the drafts' ui/resourceUri) and keeps every
//     other key in its order.
//
// Package runtime names these AppUI, AppCSP, AppPermissions, ToolUI,
// UIExtension and AppMIMEType, and makes views and linked tools of them
// (runtime.AppResource, runtime.AppTool).
package apps
