package docs

import "testing"

func TestEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"a":     "`a`",
		"a`b":   "`` a`b ``",
		"`x":    "`` `x ``",
		"a``b`": "``` a``b` ```",
	} {
		if got := code(in); got != want {
			t.Errorf("code(%q) = %q, want %q", in, got, want)
		}
	}
	if got := cell("`a|b`\nnext"); got != "`a\\|b`<br>next" {
		t.Errorf("cell: %q", got)
	}
	var s slugger
	for _, c := range []struct{ heading, want string }{
		{"Tools", "tools"},
		{"api.v2.get-user", "apiv2get-user"},
		{"Resource templates", "resource-templates"},
		{"tools", "tools-1"},
		{"Tools", "tools-2"},
		{"Café_Ünïcode", "café_ünïcode"},
	} {
		if got := s.slug(c.heading); got != c.want {
			t.Errorf("slug(%q) = %q, want %q", c.heading, got, c.want)
		}
	}
}
