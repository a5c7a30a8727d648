package runtime

import (
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/uritemplate"
)

func TestValidURI(t *testing.T) {
	for uri, want := range map[string]bool{
		"file:///notes.txt": true, "post://a%20b": true, "db://table:row": true, "urn:isbn:1": true, "mailto:a@b": true,
		"a+b.c-d://x": true, "file:///café": true, "file:///a b": true, "x:": true, "HTTP://X": true, "x://h/%41%4a": true,
		"": false, "notes.txt": false, ":x": false, "1x://y": false, "x_y://z": false, "x://\x00": false, "x://\x7f": false,
		"x://\u0085": false, "x://\xff": false, "x://h/100%": false, "x://h/%zz": false, "x://h/%4": false, "é://x": false,
	} {
		if got := validURI(uri); got != want {
			t.Errorf("validURI(%q) = %v, want %v", uri, got, want)
		}
	}
}

// TestExpandMatchRoundTrip expands values, checks that resources/read would
// accept the URI, and matches the values back.
func TestExpandMatchRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		template string
		vars     map[string]any
	}{
		{"post://{id}", map[string]any{"id": "a b/é\x00%"}},
		{"file:///{+path}", map[string]any{"path": "src/a b/é.go"}},
		{"tree://root{/segs*}", map[string]any{"segs": []string{"a/b", "c d"}}},
		{"search://s{?q,lang}", map[string]any{"q": "x&y=z", "lang": "fr"}},
		{"doc://{name}/index{.ext}", map[string]any{"name": "read me", "ext": "md"}},
	} {
		ut, err := uritemplate.Parse(tc.template)
		if err != nil {
			t.Fatal(err)
		}
		uri := ExpandURITemplate(tc.template, tc.vars)
		if !validURI(uri) {
			t.Errorf("%s: expanded to an invalid URI %q", tc.template, uri)
		}
		got := ut.Match(uri)
		for name, want := range tc.vars {
			var g any
			if v, ok := got[name]; ok {
				if _, list := want.([]string); list {
					g = v.V
				} else {
					g = v.String()
				}
			}
			if fmt.Sprint(g) != fmt.Sprint(want) {
				t.Errorf("%s → %s: %s = %q, want %q", tc.template, uri, name, g, want)
			}
		}
	}
}
