package spec

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// OAuth scopes: `scopes:` on a tool names the scopes a call needs when the
// server runs as an OAuth resource server over HTTP; `scopes:` in `server:`
// is the default for tools that name none.

// scopes decodes a `scopes:` list of strings.
func (d *decoder) scopes(n *yaml.Node) Scopes {
	sc := Scopes{Set: true, Pos: posOf(n)}
	items, ok := d.list(n, "scopes")
	if !ok {
		return sc
	}
	for _, item := range items {
		if name, ok := d.str(item, "each scope"); ok {
			sc.Names = append(sc.Names, name)
			sc.NamePos = append(sc.NamePos, posOf(item))
		}
	}
	return sc
}

// scopes checks every scope list: each name is a scope-token of RFC 6749
// §3.3 (printable ASCII without space, '"' or '\'), listed once.
func (v *validator) scopes() {
	v.scopeList(v.s.Server.Scopes, "server")
	for _, t := range v.s.Tools {
		if t != nil {
			v.scopeList(t.Scopes, fmt.Sprintf("tool %q", t.Name))
		}
	}
}

func (v *validator) scopeList(sc Scopes, owner string) {
	first := map[string]Pos{}
	for i, name := range sc.Names {
		p := sc.NamePos[i]
		if bad := badScopeChar(name); bad != "" {
			v.errorf(p, "scope %q of %s %s; a scope is printable ASCII without spaces, quotes or backslashes (RFC 6749 §3.3), e.g. orders:write", name, owner, bad)
			continue
		}
		if prev, dup := first[name]; dup {
			v.errorf(p, "scope %q is listed twice in the scopes of %s (first at %d:%d)", name, owner, prev.Line, prev.Column)
			continue
		}
		first[name] = p
	}
}

// badScopeChar says what is wrong with a scope name, or "".
func badScopeChar(name string) string {
	if name == "" {
		return "is empty"
	}
	for _, c := range name {
		switch {
		case c == ' ' || c == '\t':
			return "contains a space (write one scope per list item)"
		case c == '"' || c == '\\':
			return fmt.Sprintf("contains %q", c)
		case c < 0x21 || c > 0x7e:
			return fmt.Sprintf("contains %s", strings.Trim(fmt.Sprintf("%q", c), "'"))
		}
	}
	return ""
}
