package jsonwire

import (
	"encoding/json"
	"unicode/utf8"
)

// A one-pass scanner for the JSON objects of the request path (the envelope,
// tools/call params): it checks the syntax of the whole text, as json.Valid
// would, and hands back each member's raw value as a sub-slice of the input,
// so nothing is allocated or copied. Keys match exactly (encoding/json would
// also accept "METHOD" for "method").

// ScanObject calls member for each member of the JSON object data (callers
// switch on string(key), which does not allocate). It returns
// ErrSyntax when data is not exactly one valid JSON object (surrounding
// whitespace allowed); data that is valid JSON but not an object is reported
// through notObject so callers can tell a batch from garbage.
func ScanObject(data []byte, member func(key, val []byte)) (notObject bool, err error) {
	i := SkipSpace(data, 0)
	if i == len(data) {
		return false, ErrSyntax
	}
	if data[i] != '{' {
		if json.Valid(data) {
			return true, nil
		}
		return false, ErrSyntax
	}
	i = SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		i++
	} else {
		for {
			if i >= len(data) || data[i] != '"' {
				return false, ErrSyntax
			}
			kend, escaped, err := skipString(data, i)
			if err != nil {
				return false, err
			}
			key := data[i+1 : kend-1]
			i = SkipSpace(data, kend)
			if i >= len(data) || data[i] != ':' {
				return false, ErrSyntax
			}
			i = SkipSpace(data, i+1)
			vstart := i
			if i, err = skipValue(data, i, 1); err != nil {
				return false, err
			}
			if escaped {
				var k string
				if json.Unmarshal(data[kend-len(key)-2:kend], &k) != nil {
					return false, ErrSyntax
				}
				member([]byte(k), data[vstart:i])
			} else {
				member(key, data[vstart:i])
			}
			i = SkipSpace(data, i)
			if i >= len(data) {
				return false, ErrSyntax
			}
			if data[i] == '}' {
				i++
				break
			}
			if data[i] != ',' {
				return false, ErrSyntax
			}
			i = SkipSpace(data, i+1)
		}
	}
	if SkipSpace(data, i) != len(data) {
		return false, ErrSyntax
	}
	return false, nil
}

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace (len(data) if none).
func SkipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipValue returns the end of the JSON value starting at data[i].
func skipValue(data []byte, i, depth int) (int, error) {
	if i >= len(data) {
		return i, ErrSyntax
	}
	switch c := data[i]; {
	case c == '"':
		end, _, err := skipString(data, i)
		return end, err
	case c == '{', c == '[':
		if depth > MaxDepth {
			return i, ErrTooDeep
		}
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		i = SkipSpace(data, i+1)
		if i < len(data) && data[i] == closing {
			return i + 1, nil
		}
		for {
			var err error
			if c == '{' {
				if i >= len(data) || data[i] != '"' {
					return i, ErrSyntax
				}
				if i, _, err = skipString(data, i); err != nil {
					return i, err
				}
				i = SkipSpace(data, i)
				if i >= len(data) || data[i] != ':' {
					return i, ErrSyntax
				}
				i = SkipSpace(data, i+1)
			}
			if i, err = skipValue(data, i, depth+1); err != nil {
				return i, err
			}
			i = SkipSpace(data, i)
			if i >= len(data) {
				return i, ErrSyntax
			}
			if data[i] == closing {
				return i + 1, nil
			}
			if data[i] != ',' {
				return i, ErrSyntax
			}
			i = SkipSpace(data, i+1)
		}
	case c == '-' || c >= '0' && c <= '9':
		p := valueParser{data: data, i: i}
		if !p.skipNumber() {
			return i, ErrSyntax
		}
		return p.i, nil
	case c == 't':
		return skipLiteral(data, i, "true")
	case c == 'f':
		return skipLiteral(data, i, "false")
	case c == 'n':
		return skipLiteral(data, i, "null")
	}
	return i, ErrSyntax
}

func skipLiteral(data []byte, i int, lit string) (int, error) {
	if len(data)-i < len(lit) || string(data[i:i+len(lit)]) != lit {
		return i, ErrSyntax
	}
	return i + len(lit), nil
}

// skipString returns the end of the string starting at data[i] (after the
// closing quote), and whether it contains escapes.
func skipString(data []byte, i int) (end int, escaped bool, err error) {
	i++
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(data) {
				return i, escaped, ErrSyntax
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(data)-i < 6 || !isHex(data[i+2]) || !isHex(data[i+3]) || !isHex(data[i+4]) || !isHex(data[i+5]) {
					return i, escaped, ErrSyntax
				}
				i += 6
			default:
				return i, escaped, ErrSyntax
			}
		case c < 0x20:
			return i, escaped, ErrSyntax
		case c < utf8.RuneSelf:
			i++
		default:
			i++ // invalid UTF-8 is accepted (and later replaced), as by encoding/json
		}
	}
	return i, escaped, ErrSyntax
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Member returns the raw value of obj's member key, or nil when obj has no
// such member or is not an object.
func Member(obj []byte, key string) []byte {
	var v []byte
	_, _ = ScanObject(obj, func(k, val []byte) {
		if string(k) == key {
			v = val
		}
	})
	return v
}

// StringMember decodes obj's member key as a string; ok is false when it is
// absent or not a string.
func StringMember(obj []byte, key string) (s string, ok bool) {
	raw := Member(obj, key)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
