package apps

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/contract"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

const (
	// Extension is the id of the MCP Apps extension, the key of
	// capabilities.extensions.
	Extension = "io.modelcontextprotocol/ui"
	// MIMEType is the media type of a view, on its resources/list entry
	// and on every content item of its resources/read.
	MIMEType = contract.AppMIMEType
	// LegacyResourceURIKey is the flat _meta key of the extension's drafts;
	// hosts written against them read only this one.
	LegacyResourceURIKey = "ui/resourceUri"
)

// CSP lists the origins a view may reach, such as
// https://api.example.com; the host builds the iframe's Content Security
// Policy from them. Empty lists leave the host's restrictive default.
type CSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`  // fetch, XHR, WebSocket
	ResourceDomains []string `json:"resourceDomains,omitempty"` // images, scripts, styles, fonts, media
	FrameDomains    []string `json:"frameDomains,omitempty"`    // nested iframes
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`  // <base href>
}

// Permissions are the browser permissions a view asks the host for.
type Permissions struct {
	Camera, Microphone, Geolocation, ClipboardWrite bool
}

// MarshalJSON encodes the permissions as the extension does: an empty
// object for each one asked for.
func (p Permissions) MarshalJSON() ([]byte, error) {
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

// UI is the _meta.ui of a view: what the host reads before rendering it.
type UI struct {
	CSP           *CSP         `json:"csp,omitempty"`
	Permissions   *Permissions `json:"permissions,omitempty"`
	Domain        string       `json:"domain,omitempty"` // a dedicated sandbox origin, in the host's format
	PrefersBorder *bool        `json:"prefersBorder,omitempty"`
}

// IsView reports whether uri may name a view (ui://).
func IsView(uri string) bool { return strings.HasPrefix(uri, "ui://") }

// ToolUI links a tool to a view: _meta.ui of the tool.
type ToolUI struct {
	// ResourceURI is the ui:// URI of the view; it must be registered on
	// the same server.
	ResourceURI string `json:"resourceUri"`
	// Visibility says who may call the tool: "model" (the agent sees it),
	// "app" (the view may call it through the host), or both; nil means
	// both. Hosts that show views enforce it. An app-only tool (["app"]) is
	// also listed and callable only for clients that declared the MCP Apps
	// extension (runtime.AppTool sets its Requires): a host without it has
	// no view to call it from, and would hand it to the model.
	Visibility []string `json:"visibility,omitempty"`
}

// Check reports what is wrong with the link: a ResourceURI that is not
// ui://, or an unknown visibility.
func (ui ToolUI) Check() error {
	if !IsView(ui.ResourceURI) {
		return fmt.Errorf("ResourceURI must start with ui://")
	}
	for _, v := range ui.Visibility {
		if v != "model" && v != "app" {
			return fmt.Errorf("unknown visibility %q; use model or app", v)
		}
	}
	return nil
}

// AppOnly reports whether only a view may call the tool.
func (ui ToolUI) AppOnly() bool {
	return len(ui.Visibility) > 0 && !slices.Contains(ui.Visibility, "model")
}

// WithKey returns the compacted _meta object meta with key set to value.
// It panics, naming where, if meta already has key: the generated
// registration writes these keys, and a second writer would be silently
// overruled.
func WithKey(where string, meta json.RawMessage, key string, value []byte) json.RawMessage {
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

// WithoutLink returns a tool's compacted _meta without its link to a view
// (ui and LegacyResourceURIKey), in its own key order; nil for an object
// left empty, and meta itself when it has no link.
func WithoutLink(meta json.RawMessage) json.RawMessage {
	var keys map[string]json.RawMessage
	if json.Unmarshal(meta, &keys) != nil {
		return meta
	}
	_, ui := keys["ui"]
	_, legacy := keys[LegacyResourceURIKey]
	if !ui && !legacy {
		return meta
	}
	var out []byte
	if _, err := jsonwire.ScanObject(meta, func(key, val []byte) { // key comes unquoted
		if k := string(key); k != "ui" && k != LegacyResourceURIKey {
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

// SupportsUI reports whether the client capabilities caps declare the
// extension with the app media type
// (capabilities.extensions["io.modelcontextprotocol/ui"].mimeTypes).
func SupportsUI(caps json.RawMessage) bool {
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
	ext, ok := c.Extensions[Extension]
	return ok && slices.Contains(ext.MimeTypes, MIMEType)
}
