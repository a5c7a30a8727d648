// Package mcpheader holds the rules of a modern (2026-07-28) request's HTTP
// headers against its body (basic/transports/streamable-http.mdx):
// MCP-Protocol-Version, Mcp-Method and Mcp-Name, and the Mcp-Param-*
// headers that mirror a tool's x-mcp-header arguments (SEP-2243). A
// disagreement is an error whose text is the message of the header-mismatch
// error (-32020, 400 over HTTP) that package runtime answers with; which
// method a request calls, and which tool declares which headers, are
// runtime's.
package mcpheader

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/safetext"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// x-mcp-header: a string, integer or boolean property of a tool's
// inputSchema may carry "x-mcp-header": "Name"; a modern HTTP client then
// mirrors the argument into the header Mcp-Param-Name (as =?base64?…?= when
// it is not plain ASCII), so that gateways can route without reading the
// body. The server MUST reject a request whose header and argument
// disagree. The declarations are read from the inputSchema once, when the
// tool is added; stdio has no headers and checks nothing.

// Param is one x-mcp-header declaration of a tool.
type Param struct {
	Prop   string // the argument's name
	Header string // "Mcp-Param-" + the declared name, canonical
}

// Params reads the x-mcp-header declarations of a tool's input schema; a
// malformed one is a programming error in the registration, and panics
// with where in its message.
func Params(where string, inputSchema json.RawMessage) []Param {
	if !bytes.Contains(inputSchema, []byte(`"x-mcp-header"`)) {
		return nil // what the loop below finds in no property: don't decode
	}
	var top struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(inputSchema, &top) != nil {
		return nil
	}
	var out []Param
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
		if json.Unmarshal(p.Header, &name) != nil || !token(name) {
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
		out = append(out, Param{Prop: prop, Header: http.CanonicalHeaderKey("Mcp-Param-" + name)})
	}
	return out
}

// token reports whether s is an HTTP token (RFC 9110 tchar+).
func token(s string) bool {
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

// CheckParams checks the Mcp-Param-* headers of a modern tools/call
// against its params ({name, arguments}) and the tool's declarations: an
// argument that is present (and not null) needs its header, with the same
// value; an absent one, no header.
func CheckParams(header http.Header, params []byte, decls []Param) error {
	var args []byte
	if jsonwire.FirstByte(params) == '{' {
		args = jsonwire.Member(params, "arguments")
	}
	for _, ph := range decls {
		var val []byte
		if jsonwire.FirstByte(args) == '{' {
			val = jsonwire.Member(args, ph.Prop)
		}
		values, sent := header[ph.Header]
		if jsonwire.IsNull(val) {
			if sent {
				return fmt.Errorf("header mismatch: %s is sent, but arguments.%s is absent", ph.Header, ph.Prop)
			}
			continue
		}
		if !sent {
			return fmt.Errorf("header mismatch: the %s header is required: it mirrors arguments.%s", ph.Header, ph.Prop)
		}
		got, ok := DecodeValue(strings.TrimSpace(values[0]))
		if !ok {
			return fmt.Errorf("header mismatch: %s %s is not valid =?base64?…?= text (standard alphabet, padded)", ph.Header, safetext.Quote(values[0]))
		}
		if !sameArgument(got, val) {
			return fmt.Errorf("header mismatch: %s is %s, but arguments.%s is %s", ph.Header, safetext.Quote(got), ph.Prop, safetext.Sanitize(string(val), safetext.MaxLen))
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

// DecodeValue decodes the =?base64?…?= form of a header value (the
// standard alphabet, padded: anything else in the wrapper is refused);
// other values, a lone prefix or suffix included, are taken as they are.
func DecodeValue(v string) (string, bool) {
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

// Value is h.Get for a key already in canonical form.
func Value(h http.Header, canonicalKey string) string {
	if v := h[canonicalKey]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// CheckMetaVersion: MCP-Protocol-Version must name the version the body's
// _meta names under metaKey, supported or not; a disagreement is a header
// mismatch before anything else.
func CheckMetaVersion(header http.Header, params []byte, metaKey string) error {
	if jsonwire.FirstByte(params) != '{' {
		return nil
	}
	v, ok := jsonwire.StringMember(jsonwire.Member(params, "_meta"), metaKey)
	if !ok || v == "" {
		return nil
	}
	if got := Value(header, transport.HeaderProtocolVersion); got != v {
		return mismatch(transport.HeaderProtocolVersion, got, v, "the protocol version in _meta")
	}
	return nil
}

// Check checks the headers a modern POST must carry against its body:
// MCP-Protocol-Version equal to version (the _meta's), Mcp-Method to
// method, and, where the method names a target (params.name or params.uri
// for tools/call, prompts/get and resources/read), Mcp-Name (possibly
// =?base64?…?=) to params' member target.
func Check(header http.Header, method, target, version string, params []byte) error {
	if v := Value(header, transport.HeaderProtocolVersion); v != version {
		return mismatch(transport.HeaderProtocolVersion, v, version, "the protocol version in _meta")
	}
	if m := Value(header, transport.HeaderMethod); m != method {
		return mismatch(transport.HeaderMethod, m, method, "the method in the body")
	}
	if target == "" {
		return nil
	}
	want, _ := jsonwire.StringMember(params, target)
	got, ok := DecodeValue(Value(header, transport.HeaderName))
	if !ok {
		return errors.New("header mismatch: " + transport.HeaderName + " " + safetext.Quote(Value(header, transport.HeaderName)) + " is not valid =?base64?…?= text")
	}
	if _, present := header[transport.HeaderName]; !present || got != want {
		return mismatch(transport.HeaderName, got, want, "params."+target)
	}
	return nil
}

func mismatch(header, got, want, what string) error {
	if got == "" {
		return fmt.Errorf("header mismatch: the %s header is required and must be %s (%s)", header, safetext.Quote(want), what)
	}
	return fmt.Errorf("header mismatch: %s is %s, but %s is %s", header, safetext.Quote(got), what, safetext.Quote(want))
}
