package spec

import "strings"

// x-mcp-header (2026-07-28 basic/transports/streamable-http.mdx, SEP-2243):
// a string, integer or boolean property of a tool's input may be mirrored
// by the client into an HTTP header Mcp-Param-{name}, so that gateways can
// route on it without reading the body; the server checks that the header
// and the argument agree. The name is an HTTP token (no space, colon or
// non-ASCII), unique within the tool whatever its case (headers are
// case-insensitive).

// mcpHeaders checks every x-mcp-header on a property of a tool's input
// (placements refuses one elsewhere): its name, and that no two
// properties of a tool share one.
func (v *validator) mcpHeaders() {
	for _, t := range v.s.Tools {
		if t == nil || t.Input == nil || t.Input.Kind != KindObject {
			continue
		}
		byName := map[string]*Property{}
		for _, p := range t.Input.Properties {
			if p == nil || p.Schema == nil || p.Schema.MCPHeader == "" {
				continue
			}
			s := p.Schema
			pos := valuePos(s, "x-mcp-header")
			if bad := headerNameProblem(s.MCPHeader); bad != "" {
				v.errorf(pos, "x-mcp-header %q of property %q %s", s.MCPHeader, p.Name, bad)
				continue
			}
			key := strings.ToLower(s.MCPHeader)
			if first := byName[key]; first != nil {
				v.errorf(pos, "x-mcp-header %q of property %q is already the header of property %q (header names are case-insensitive)", s.MCPHeader, p.Name, first.Name)
				continue
			}
			byName[key] = p
		}
	}
}

// headerNameProblem says what is wrong with an x-mcp-header name, or "".
// The name goes into a header name, so it is an HTTP token (RFC 9110
// tchar).
func headerNameProblem(name string) string {
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("!#$%&'*+-.^_`|~", r):
		default:
			return "must be an HTTP header name: letters, digits and !#$%&'*+-.^_`|~, without spaces, colons or non-ASCII"
		}
	}
	return ""
}
