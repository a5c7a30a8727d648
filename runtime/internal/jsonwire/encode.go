package jsonwire

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// The hot path (responses, content blocks) is encoded by appending to a byte
// slice instead of going through encoding/json's reflection: it is the
// difference between one allocation per response and a dozen.

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Like encoding/json it replaces
// invalid UTF-8 with U+FFFD and escapes U+2028/U+2029; unlike it, it does not
// HTML-escape <, > and &, which MCP peers do not need.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendRaw appends a caller-supplied JSON value compacted: compacting both
// validates it and removes newlines, which would break stdio framing.
func AppendRaw(dst []byte, raw json.RawMessage) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	if err := json.Compact(buf, raw); err != nil {
		return dst, err
	}
	return buf.Bytes(), nil
}

// AppendValue appends v encoded by encoding/json (already compact).
func AppendValue(dst []byte, v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return AppendRaw(dst, raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// FirstByte returns the first non-whitespace byte of a JSON text, or 0.
func FirstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c
	}
	return 0
}

// IsNull reports whether raw is absent or the JSON literal null.
func IsNull(raw []byte) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}
