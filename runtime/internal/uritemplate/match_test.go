package uritemplate

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"unicode/utf8"
)

var testTemplates = []string{
	"post://{id}", "file:///{+path}", "tree://root{/segs*}", "doc://{name}/index{.ext}", "search://s{?q,lang}",
	"u://{x,y}", "u://{;a,b}", "u://q{?list*}", "u://{#frag}", "u://{id:3}/x", "u://a{&b}", "u://{a}{b}", "{+all}",
	"u://{a}.{b}", "u://p{/a,b}{?c}{&d}", "lit://only",
}

// TestLooseRegexp checks, on random URIs, that the library's regular
// expression (a prefilter) accepts every URI its Match accepts, and that
// Template.Match agrees with Match, with one exception: Match takes a
// one-character input for the empty string when the whole template may be
// empty ("{+all}" matches "é"; its first step looks at the wrong position),
// which the anchored regexp rightly refuses.
func TestLooseRegexp(t *testing.T) {
	const alphabet = "az09-._~:/?#[]@!$&'()*+,;=%AFé "
	r := rand.New(rand.NewPCG(1, 2))
	runes := []rune(alphabet)
	for _, raw := range testTemplates {
		ut, err := Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		matched := 0
		try := func(uri string) {
			ours := ut.Match(uri)
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
				vars[v.Name] = sample
			}
			uri := mustExpand(t, raw, vars)
			try(uri)
			if ut.Match(uri) == nil {
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
