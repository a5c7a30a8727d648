package runtime

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// Icon is an icon for a server, tool, resource or prompt.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"` // "light" or "dark"
}

// Content is a content block of a tool result or prompt message: TextContent,
// ImageContent, AudioContent, ResourceLink or EmbeddedResource (the set is
// closed, as in the MCP schema). Each marshals with its "type" discriminator.
type Content interface {
	json.Marshaler
	appendJSON(dst []byte) ([]byte, error)
}

// Annotations tell the client how to use an object (schema 2025-11-25).
type Annotations struct {
	Audience     []string `json:"audience,omitempty"`     // "user", "assistant"
	Priority     *float64 `json:"priority,omitempty"`     // 0 (least) … 1 (most important)
	LastModified string   `json:"lastModified,omitempty"` // ISO 8601
}

// TextContent is {"type":"text","text":…}.
type TextContent struct {
	Text        string
	Annotations *Annotations
	Meta        json.RawMessage
}

// ImageContent is {"type":"image","data":base64,"mimeType":…}.
type ImageContent struct {
	Data        []byte // raw bytes; base64-encoded on the wire
	MimeType    string
	Annotations *Annotations
	Meta        json.RawMessage
}

// AudioContent is {"type":"audio","data":base64,"mimeType":…}.
type AudioContent struct {
	Data        []byte // raw bytes; base64-encoded on the wire
	MimeType    string
	Annotations *Annotations
	Meta        json.RawMessage
}

// ResourceLink points at a resource the client may read:
// {"type":"resource_link","uri":…,"name":…}.
type ResourceLink struct {
	URI         string
	Name        string
	Title       string
	Description string
	MimeType    string
	Size        *int64
	Icons       []Icon
	Annotations *Annotations
	Meta        json.RawMessage
}

// EmbeddedResource carries a resource's contents inline:
// {"type":"resource","resource":{…}}.
type EmbeddedResource struct {
	Resource    ResourceContents
	Annotations *Annotations
	Meta        json.RawMessage
}

// ResourceContents is the contents of a resource: text, or binary when Blob is
// non-nil ({"blob":base64}).
type ResourceContents struct {
	URI      string
	MimeType string
	Text     string
	Blob     []byte
	Meta     json.RawMessage
}

// Text returns a text content block.
func Text(s string) Content { return TextContent{Text: s} }

// Image returns an image content block.
func Image(data []byte, mimeType string) Content {
	return ImageContent{Data: data, MimeType: mimeType}
}

// Audio returns an audio content block.
func Audio(data []byte, mimeType string) Content {
	return AudioContent{Data: data, MimeType: mimeType}
}

// CallToolResult is the result of tools/call.
type CallToolResult struct {
	Content           []Content       `json:"content"` // encoded as [] when empty, never null
	StructuredContent any             `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	Meta              json.RawMessage `json:"_meta,omitempty"`
}

// TextResult returns a result with one text block.
func TextResult(s string) *CallToolResult {
	return oneBlock(TextContent{Text: s})
}

// oneBlock returns a result whose Content is c alone, with the result and
// its one-element slice in a single allocation (results are made per call).
func oneBlock(c Content) *CallToolResult {
	r := &struct {
		res     CallToolResult
		content [1]Content
	}{content: [1]Content{c}}
	r.res.Content = r.content[:]
	return &r.res
}

// ErrorResult returns an isError result with one text block: a tool execution
// error the model can read and act on.
func ErrorResult(msg string) *CallToolResult {
	r := oneBlock(TextContent{Text: msg})
	r.IsError = true
	return r
}

var errNilContent = errors.New("runtime: nil Content in a result")

func (r *CallToolResult) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"content":[`...)
	var err error
	for i, c := range r.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		if c == nil {
			return dst, errNilContent
		}
		if dst, err = c.appendJSON(dst); err != nil {
			return dst, err
		}
	}
	dst = append(dst, ']')
	if r.StructuredContent != nil {
		dst = append(dst, `,"structuredContent":`...)
		if dst, err = jsonwire.AppendValue(dst, r.StructuredContent); err != nil {
			return dst, err
		}
	}
	if r.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	dst, err = appendMeta(dst, r.Meta)
	return append(dst, '}'), err
}

// MarshalJSON encodes the result as in the MCP schema.
func (r CallToolResult) MarshalJSON() ([]byte, error) { return r.appendJSON(nil) }

func (c TextContent) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"type":"text","text":`...)
	dst = jsonwire.AppendString(dst, c.Text)
	return closeBlock(dst, c.Annotations, c.Meta)
}

// MarshalJSON encodes the block as in the MCP schema.
func (c TextContent) MarshalJSON() ([]byte, error) { return c.appendJSON(nil) }

func (c ImageContent) appendJSON(dst []byte) ([]byte, error) {
	return appendMedia(dst, `{"type":"image","data":"`, c.Data, c.MimeType, c.Annotations, c.Meta)
}

// MarshalJSON encodes the block as in the MCP schema.
func (c ImageContent) MarshalJSON() ([]byte, error) { return c.appendJSON(nil) }

func (c AudioContent) appendJSON(dst []byte) ([]byte, error) {
	return appendMedia(dst, `{"type":"audio","data":"`, c.Data, c.MimeType, c.Annotations, c.Meta)
}

// MarshalJSON encodes the block as in the MCP schema.
func (c AudioContent) MarshalJSON() ([]byte, error) { return c.appendJSON(nil) }

func appendMedia(dst []byte, head string, data []byte, mimeType string, a *Annotations, meta json.RawMessage) ([]byte, error) {
	dst = append(dst, head...)
	dst = base64.StdEncoding.AppendEncode(dst, data)
	dst = append(dst, `","mimeType":`...)
	dst = jsonwire.AppendString(dst, mimeType)
	return closeBlock(dst, a, meta)
}

func (c ResourceLink) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"type":"resource_link","uri":`...)
	dst = jsonwire.AppendString(dst, c.URI)
	dst = append(dst, `,"name":`...)
	dst = jsonwire.AppendString(dst, c.Name)
	dst = appendOptString(dst, `,"title":`, c.Title)
	dst = appendOptString(dst, `,"description":`, c.Description)
	dst = appendOptString(dst, `,"mimeType":`, c.MimeType)
	if c.Size != nil {
		dst = append(dst, `,"size":`...)
		dst = strconv.AppendInt(dst, *c.Size, 10)
	}
	if len(c.Icons) > 0 {
		dst = append(dst, `,"icons":`...)
		var err error
		if dst, err = jsonwire.AppendValue(dst, c.Icons); err != nil {
			return dst, err
		}
	}
	return closeBlock(dst, c.Annotations, c.Meta)
}

// MarshalJSON encodes the block as in the MCP schema.
func (c ResourceLink) MarshalJSON() ([]byte, error) { return c.appendJSON(nil) }

func (c EmbeddedResource) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"type":"resource","resource":`...)
	dst, err := c.Resource.appendJSON(dst)
	if err != nil {
		return dst, err
	}
	return closeBlock(dst, c.Annotations, c.Meta)
}

// MarshalJSON encodes the block as in the MCP schema.
func (c EmbeddedResource) MarshalJSON() ([]byte, error) { return c.appendJSON(nil) }

func (c ResourceContents) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"uri":`...)
	dst = jsonwire.AppendString(dst, c.URI)
	dst = appendOptString(dst, `,"mimeType":`, c.MimeType)
	if c.Blob != nil {
		dst = append(dst, `,"blob":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, c.Blob)
		dst = append(dst, '"')
	} else {
		dst = append(dst, `,"text":`...)
		dst = jsonwire.AppendString(dst, c.Text)
	}
	dst, err := appendMeta(dst, c.Meta)
	return append(dst, '}'), err
}

// MarshalJSON encodes the contents as TextResourceContents or
// BlobResourceContents.
func (c ResourceContents) MarshalJSON() ([]byte, error) { return c.appendJSON(nil) }

func appendOptString(dst []byte, key, s string) []byte {
	if s == "" {
		return dst
	}
	return jsonwire.AppendString(append(dst, key...), s)
}

// closeBlock appends the members every block may end with, and the brace.
func closeBlock(dst []byte, a *Annotations, meta json.RawMessage) ([]byte, error) {
	if a != nil {
		dst = append(dst, `,"annotations":`...)
		var err error
		if dst, err = jsonwire.AppendValue(dst, a); err != nil {
			return dst, err
		}
	}
	dst, err := appendMeta(dst, meta)
	return append(dst, '}'), err
}

func appendMeta(dst []byte, meta json.RawMessage) ([]byte, error) {
	if len(meta) == 0 {
		return dst, nil
	}
	return jsonwire.AppendRaw(append(dst, `,"_meta":`...), meta)
}
