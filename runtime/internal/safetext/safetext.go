// Package safetext makes peer-supplied text safe to echo in a message we send
// back or log: bounded in length, with control characters and quotes
// escaped. Hostile input must never be echoed unbounded.
package safetext

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// MaxLen caps how many bytes of a string Quote shows.
const MaxLen = 100

// Quote returns s in double quotes, at most MaxLen bytes of it, with control
// characters and quotes escaped. Backslashes are kept as they are so that
// regular expressions read naturally ("^[A-Z]-\d{4}$").
func Quote(s string) string {
	return QuoteN(s, MaxLen)
}

// QuoteN is Quote with at most limit bytes of s.
func QuoteN(s string, limit int) string {
	b := make([]byte, 0, min(len(s), limit)+8)
	b = append(b, '"')
	b = appendSanitized(b, s, limit, true)
	return string(append(b, '"'))
}

// Sanitize is QuoteN without the quotes, for text such as JSON pointers.
func Sanitize(s string, limit int) string {
	return string(appendSanitized(nil, s, limit, false))
}

func appendSanitized(b []byte, s string, limit int, escQuote bool) []byte {
	for i := 0; i < len(s); {
		if i >= limit {
			return append(b, "…"...)
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '"' && escQuote:
			b = append(b, '\\', '"')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			b = append(b, `\u`...)
			h := strconv.FormatInt(int64(r), 16)
			for range 4 - len(h) {
				b = append(b, '0')
			}
			b = append(b, h...)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}
