package runtime

import (
	"encoding/json"
)

// compactSchema returns a schema constant of generated code in compact form:
// the bytes json.Compact writes for it. The generator writes schemas
// indented, to read well in review; clients must still receive the compact
// bytes, so registration compacts them once.
//
// It compacts in place: s must be the caller's own copy (generated code
// hands over json.RawMessage(`…`), a fresh copy of a string constant), and
// its bytes are overwritten. Compacting only drops whitespace, so the
// result is a prefix of s's array and registration allocates nothing for
// it. Invalid JSON is returned as is, unmodified: it fails where the schema
// is compiled. Already compact JSON (one line, no whitespace outside
// strings) is returned without being validated, as json.Compact would
// return it unchanged if it is valid.
func compactSchema(s json.RawMessage) json.RawMessage {
	i := firstSpace(s)
	if i < 0 || !json.Valid(s) {
		return s
	}
	// s is valid JSON: outside strings, whitespace is only ever between
	// tokens, and the only bytes that matter inside a string are the quote
	// that ends it and a backslash that escapes the byte after it.
	n, inString, escaped := i, false, false
	for _, c := range s[i:] {
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case isJSONSpace(c):
			continue
		case c == '"':
			inString = true
		}
		s[n] = c
		n++
	}
	return s[:n:n]
}

// firstSpace is the index of the first whitespace byte of s outside a JSON
// string, or -1 if there is none.
func firstSpace(s []byte) int {
	inString, escaped := false, false
	for i, c := range s {
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case isJSONSpace(c):
			return i
		case c == '"':
			inString = true
		}
	}
	return -1
}

// isJSONSpace reports whether c is whitespace between JSON tokens.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
