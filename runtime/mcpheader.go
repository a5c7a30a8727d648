package runtime

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// x-mcp-header (2026-07-28 basic/transports/streamable-http.mdx, SEP-2243):
// a string, integer or boolean property of a tool's inputSchema may carry
// "x-mcp-header": "Name"; a modern HTTP client then mirrors the argument
// into the header Mcp-Param-Name (as =?base64?…?= when it is not plain
// ASCII), so that gateways can route without reading the body. The server
// MUST reject a request whose header and argument disagree: 400 with
// -32020. The runtime reads the declarations from the inputSchema once, at
// AddTool; stdio has no headers and checks nothing.

// paramHeader is one x-mcp-header declaration of a tool.
type paramHeader struct {
	prop   string // the argument's name
	header string // "Mcp-Param-" + the declared name
}

// paramHeaders reads the x-mcp-header declarations of a tool's input
// schema; a malformed one is a programming error in the registration.
func paramHeaders(where string, inputSchema json.RawMessage) []paramHeader {
	if !bytes.Contains(inputSchema, []byte(`"x-mcp-header"`)) {
		return nil // what the loop below finds in no property: don't decode
	}
	var top struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(inputSchema, &top) != nil {
		return nil
	}
	var out []paramHeader
	seen := map[string]string{}
	for prop, raw := range top.Properties {
		if !strings.Contains(string(raw), `"x-mcp-header"`) {
			continue
		}
		var p struct {
			Header json.RawMessage `json:"x-mcp-header"`
			Type   string          `json:"type"`
		}
		if json.Unmarshal(raw, &p) != nil || p.Header == nil {
			continue
		}
		var name string
		if json.Unmarshal(p.Header, &name) != nil || !headerToken(name) {
			panic(fmt.Sprintf("runtime: %s: property %q: x-mcp-header must be an HTTP header name (letters, digits and !#$%%&'*+-.^_`|~), not %s", where, prop, p.Header))
		}
		switch p.Type {
		case "string", "integer", "boolean":
		default:
			panic(fmt.Sprintf("runtime: %s: property %q: x-mcp-header applies to a string, integer or boolean property, not %q", where, prop, p.Type))
		}
		key := strings.ToLower(name)
		if other, dup := seen[key]; dup {
			panic(fmt.Sprintf("runtime: %s: properties %q and %q have the same x-mcp-header %q", where, other, prop, name))
		}
		seen[key] = prop
		out = append(out, paramHeader{prop: prop, header: http.CanonicalHeaderKey("Mcp-Param-" + name)})
	}
	return out
}

// headerToken reports whether s is an HTTP token (RFC 9110 tchar+).
func headerToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return true
}

// checkParamHeaders checks the Mcp-Param-* headers of a modern tools/call
// against its arguments: an argument that is present (and not null) needs
// its header, with the same value; an absent one, no header.
func (s *Server) checkParamHeaders(header http.Header, params []byte) *Error {
	name, _ := stringMember(params, "name")
	te := s.tools.snapshot().byKey[name]
	if te == nil || len(te.headers) == 0 {
		return nil // an unknown tool is answered by tools/call itself
	}
	var args []byte
	if jsonwire.FirstByte(params) == '{' {
		args = member(params, "arguments")
	}
	for _, ph := range te.headers {
		var val []byte
		if jsonwire.FirstByte(args) == '{' {
			val = member(args, ph.prop)
		}
		values, sent := header[ph.header]
		if jsonwire.IsNull(val) {
			if sent {
				return errorf(CodeHeaderMismatch, "header mismatch: %s is sent, but arguments.%s is absent", ph.header, ph.prop)
			}
			continue
		}
		if !sent {
			return errorf(CodeHeaderMismatch, "header mismatch: the %s header is required: it mirrors arguments.%s", ph.header, ph.prop)
		}
		got, ok := decodeHeaderValue(strings.TrimSpace(values[0]))
		if !ok {
			return errorf(CodeHeaderMismatch, "header mismatch: %s %s is not valid =?base64?…?= text (standard alphabet, padded)", ph.header, quote(values[0]))
		}
		if !sameArgument(got, val) {
			return errorf(CodeHeaderMismatch, "header mismatch: %s is %s, but arguments.%s is %s", ph.header, quote(got), ph.prop, sanitize(string(val), maxQuoted))
		}
	}
	return nil
}

// sameArgument reports whether a header's text names the JSON value val:
// a string is its text; true and false are themselves; a number is the
// same number however it is written (1, 1.0, 1e0).
func sameArgument(text string, val []byte) bool {
	switch jsonwire.FirstByte(val) {
	case '"':
		var s string
		return json.Unmarshal(val, &s) == nil && s == text
	case 't', 'f':
		return text == string(val)
	}
	a, okA := new(big.Rat).SetString(string(val))
	b, okB := new(big.Rat).SetString(text)
	return okA && okB && a.Cmp(b) == 0
}

// decodeHeaderValue decodes the =?base64?…?= form of a header value (the
// standard alphabet, padded: anything else in the wrapper is refused);
// other values, a lone prefix or suffix included, are taken as they are.
func decodeHeaderValue(v string) (string, bool) {
	rest, ok := strings.CutPrefix(v, "=?base64?")
	if !ok {
		return v, true
	}
	enc, ok := strings.CutSuffix(rest, "?=")
	if !ok {
		return v, true // not the encoded form: literal
	}
	b, err := base64.StdEncoding.Strict().DecodeString(enc)
	if err != nil {
		return "", false
	}
	return string(b), true
}
