package safetext

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", `"plain"`},
		{`^[A-Z]-\d{4}$`, `"^[A-Z]-\d{4}$"`}, // backslashes read as written
		{"a\"b", `"a\"b"`},
		{"line\nbreak\r\ttab\x00\x7f\u2028", `"line\nbreak\r\ttab\u0000\u007f\u2028"`},
		{"bad\xffutf8", `"bad\ufffdutf8"`},
		{strings.Repeat("é", 80), `"` + strings.Repeat("é", 50) + `…"`},
	} {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
