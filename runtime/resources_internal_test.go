package runtime

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"unicode/utf8"
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

var testTemplates = []string{
	"post://{id}", "file:///{+path}", "tree://root{/segs*}", "doc://{name}/index{.ext}", "search://s{?q,lang}",
	"u://{x,y}", "u://{;a,b}", "u://q{?list*}", "u://{#frag}", "u://{id:3}/x", "u://a{&b}", "u://{a}{b}", "{+all}",
	"u://{a}.{b}", "u://p{/a,b}{?c}{&d}", "lit://only",
}

// TestLooseRegexp checks, on random URIs, that the library's regular
// expression (a prefilter) accepts every URI its Match accepts, and that
// uriTemplate.match agrees with Match, with one exception: Match takes a
// one-character input for the empty string when the whole template may be
// empty ("{+all}" matches "é"; its first step looks at the wrong position),
// which the anchored regexp rightly refuses.
func TestLooseRegexp(t *testing.T) {
	const alphabet = "az09-._~:/?#[]@!$&'()*+,;=%AFé "
	r := rand.New(rand.NewPCG(1, 2))
	runes := []rune(alphabet)
	for _, raw := range testTemplates {
		ut, err := parseTemplate(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		matched := 0
		try := func(uri string) {
			ours := ut.match(uri)
			if ours != nil {
				matched++
			}
			if ut.literal {
				if (ours != nil) != (uri == raw) {
					t.Errorf("%s: %q: match %v", raw, uri, ours)
				}
				return
			}
			lib := ut.t.Match(uri)
			if lib != nil && !ut.re.MatchString(uri) {
				if utf8.RuneCountInString(uri) != 1 {
					t.Errorf("%s: Match accepts %q, the regexp does not", raw, uri)
				}
				lib = nil // Match's one-character bug
			}
			if !reflect.DeepEqual(lib, ours) {
				t.Errorf("%s: %q: match %v, Match %v", raw, uri, ours, lib)
			}
		}
		for range 3000 {
			// A random tail after the template's literal prefix, so that many
			// reach Match; sometimes nothing but the tail.
			b := []rune(ut.prefix)
			if r.IntN(10) == 0 {
				b = nil
			}
			for range r.IntN(12) {
				b = append(b, runes[r.IntN(len(runes))])
			}
			try(string(b) + ut.suffix)
		}
		try(raw)
		for _, sample := range []any{"v", "a b/é", []string{"x", "y z"}} {
			vars := map[string]any{}
			for _, v := range ut.vars {
				vars[v.name] = sample
			}
			uri := ExpandURITemplate(raw, vars)
			try(uri)
			if ut.match(uri) == nil {
				t.Errorf("%s: its own expansion %q does not match", raw, uri)
			}
		}
		for _, c := range runes {
			try(string(c))
		}
		if matched == 0 && !ut.literal {
			t.Errorf("%s: no random URI matched; the test proves nothing", raw)
		}
	}
}

// TestExpandMatchRoundTrip expands values and matches them back.
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
		ut, err := parseTemplate(tc.template)
		if err != nil {
			t.Fatal(err)
		}
		uri := ExpandURITemplate(tc.template, tc.vars)
		if !validURI(uri) {
			t.Errorf("%s: expanded to an invalid URI %q", tc.template, uri)
		}
		got := ut.match(uri)
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
