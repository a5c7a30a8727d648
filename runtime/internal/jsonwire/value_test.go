package jsonwire

import (
	"strings"
	"testing"
)

func TestIsNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-1": true, "1.5": true, "1e3": true, "-0.5E-2": true,
		"": false, "01": false, "+1": false, "1.": false, ".5": false, "1e": false, "NaN": false, "1 ": false,
	} {
		if got := IsNumber(s); got != want {
			t.Errorf("IsNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestParseValueRefuses: literals are read whole, and nesting stops at
// MaxDepth for objects as for arrays.
func TestParseValueRefuses(t *testing.T) {
	for _, bad := range []string{`trux`, `[nulx]`, `{"a":falsy}`, `tru`} {
		if v, err := ParseValue([]byte(bad)); err != ErrSyntax {
			t.Errorf("ParseValue(%s) = %v, %v; want ErrSyntax", bad, v, err)
		}
	}
	deep := strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1)
	if _, err := ParseValue([]byte(deep)); err != ErrTooDeep {
		t.Errorf("objects %d deep: %v, want ErrTooDeep", MaxDepth+1, err)
	}
	ok := strings.Repeat(`{"a":`, MaxDepth) + "1" + strings.Repeat("}", MaxDepth)
	if _, err := ParseValue([]byte(ok)); err != nil {
		t.Errorf("objects %d deep: %v, want them parsed", MaxDepth, err)
	}
}
