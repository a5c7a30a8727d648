package runtime_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// TestContentJSON pins the wire shape of every content block and of results
// (schema 2025-11-25), byte for byte.
func TestContentJSON(t *testing.T) {
	prio := 0.5
	size := int64(1024)
	ann := &runtime.Annotations{Audience: []string{"user", "assistant"}, Priority: &prio, LastModified: "2025-01-12T15:00:58Z"}
	for _, tc := range []struct {
		name string
		v    any // a json.Marshaler
		want string
	}{
		{"text", runtime.Text("hi \"there\"\n<b>&é\u2028"), `{"type":"text","text":"hi \"there\"\n<b>&é\u2028"}`},
		{"text with control bytes and bad UTF-8", runtime.Text("a\x00\x1f\xffz"), `{"type":"text","text":"a\u0000\u001f\ufffdz"}`},
		{"text, all fields", runtime.TextContent{Text: "t", Annotations: ann, Meta: json.RawMessage(`{ "k" : [1,
			2] }`)},
			`{"type":"text","text":"t","annotations":{"audience":["user","assistant"],"priority":0.5,"lastModified":"2025-01-12T15:00:58Z"},"_meta":{"k":[1,2]}}`},
		{"text pointer", &runtime.TextContent{Text: "p"}, `{"type":"text","text":"p"}`},
		{"image", runtime.Image([]byte("\x89PNG"), "image/png"), `{"type":"image","data":"iVBORw==","mimeType":"image/png"}`},
		{"image, annotations", runtime.ImageContent{Data: []byte{1}, MimeType: "image/gif", Annotations: &runtime.Annotations{Audience: []string{"user"}}},
			`{"type":"image","data":"AQ==","mimeType":"image/gif","annotations":{"audience":["user"]}}`},
		{"audio", runtime.Audio([]byte("RIFF"), "audio/wav"), `{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}`},
		{"resource link, minimal", runtime.ResourceLink{URI: "file:///a.txt", Name: "a.txt"}, `{"type":"resource_link","uri":"file:///a.txt","name":"a.txt"}`},
		{"resource link, all fields", runtime.ResourceLink{
			URI: "github://o/r/readme", Name: "readme", Title: "README", Description: "The readme.", MimeType: "text/markdown",
			Size: &size, Icons: []runtime.Icon{{Src: "https://x/i.svg", MimeType: "image/svg+xml", Sizes: []string{"any"}}},
			Annotations: &runtime.Annotations{Priority: &prio}, Meta: json.RawMessage(`{"a":1}`),
		}, `{"type":"resource_link","uri":"github://o/r/readme","name":"readme","title":"README","description":"The readme.","mimeType":"text/markdown",` +
			`"size":1024,"icons":[{"src":"https://x/i.svg","mimeType":"image/svg+xml","sizes":["any"]}],"annotations":{"priority":0.5},"_meta":{"a":1}}`},
		{"embedded text resource", runtime.EmbeddedResource{Resource: runtime.ResourceContents{URI: "test://embedded-resource", MimeType: "text/plain", Text: "This is an embedded resource content."}},
			`{"type":"resource","resource":{"uri":"test://embedded-resource","mimeType":"text/plain","text":"This is an embedded resource content."}}`},
		{"embedded empty text resource", runtime.EmbeddedResource{Resource: runtime.ResourceContents{URI: "x:y"}},
			`{"type":"resource","resource":{"uri":"x:y","text":""}}`},
		{"embedded blob resource", runtime.EmbeddedResource{
			Resource:    runtime.ResourceContents{URI: "test://static-binary", MimeType: "image/png", Blob: []byte{}, Meta: json.RawMessage(`{"m":true}`)},
			Annotations: &runtime.Annotations{Audience: []string{"assistant"}}, Meta: json.RawMessage(`{}`),
		}, `{"type":"resource","resource":{"uri":"test://static-binary","mimeType":"image/png","blob":"","_meta":{"m":true}},"annotations":{"audience":["assistant"]},"_meta":{}}`},
		{"text result", runtime.TextResult("ok"), `{"content":[{"type":"text","text":"ok"}]}`},
		{"error result", runtime.ErrorResult("no"), `{"content":[{"type":"text","text":"no"}],"isError":true}`},
		{"empty result has an empty content array", &runtime.CallToolResult{}, `{"content":[]}`},
		{"structured result", runtime.CallToolResult{
			Content:           []runtime.Content{runtime.Text(`{"n":1}`)},
			StructuredContent: map[string]int{"n": 1},
			Meta:              json.RawMessage(`{"trace":"t1"}`),
		}, `{"content":[{"type":"text","text":"{\"n\":1}"}],"structuredContent":{"n":1},"_meta":{"trace":"t1"}}`},
		{"raw structured content is compacted", runtime.CallToolResult{StructuredContent: json.RawMessage("{\n \"n\": 1\n}")},
			`{"content":[],"structuredContent":{"n":1}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The method's bytes are what goes on the wire (json.Marshal
			// would add HTML escaping on top).
			b, err := tc.v.(json.Marshaler).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("\n got %s\nwant %s", b, tc.want)
			}
			if !json.Valid(b) {
				t.Errorf("invalid JSON: %s", b)
			}
		})
	}
}

func TestContentJSONErrors(t *testing.T) {
	for name, v := range map[string]any{
		"invalid _meta":              runtime.TextContent{Text: "x", Meta: json.RawMessage(`{`)},
		"nil content":                runtime.CallToolResult{Content: []runtime.Content{nil}},
		"invalid structured content": runtime.CallToolResult{StructuredContent: json.RawMessage(`{"a":}`)},
	} {
		if b, err := json.Marshal(v); err == nil {
			t.Errorf("%s: marshalled as %s", name, b)
		}
	}
}
