package jsonwire

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// The JSON-RPC 2.0 pieces of a message that are plain JSON: request ids, the
// method name, and the head of a response.

// ValidID reports whether raw is a JSON string or an integer literal (no
// fraction, no exponent). null, objects, arrays, booleans and non-integers are
// not valid request ids in MCP.
func ValidID(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		// The envelope was valid JSON, so the string is well formed, but
		// raw bytes that are not UTF-8 would be echoed into the response.
		return utf8.Valid(raw)
	}
	i := 0
	if raw[0] == '-' {
		i++
	}
	if i == len(raw) {
		return false
	}
	for ; i < len(raw); i++ {
		if raw[i] < '0' || raw[i] > '9' {
			return false
		}
	}
	return true
}

// IDKey is the identity of a request id for the in-flight table: the raw
// token, except that a string written with escapes is reduced to its value so
// that a notifications/cancelled spelling it differently still matches.
// Strings keep their quotes, so the string "5" and the number 5 differ.
func IDKey(raw string) string {
	if raw[0] != '"' || strings.IndexByte(raw, '\\') < 0 {
		return raw
	}
	var s string
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return raw
	}
	return `"` + s + `"`
}

// MethodBytes returns the method of a request as bytes (callers switch on
// string(m), which does not allocate). ok is false when the value is not a
// JSON string.
func MethodBytes(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return nil, false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false
	}
	return []byte(s), true
}

// AppendResponseHead starts a response; id "" stands for a null id.
func AppendResponseHead(dst []byte, id string) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	if id == "" {
		return append(dst, "null"...)
	}
	return append(dst, id...)
}
