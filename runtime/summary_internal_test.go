package runtime

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSearchSummaryBound: a search_tools hit carries the first sentence of
// a description, at most 200 bytes (then "…"), cut between words when a
// space is near and always on a character boundary.
func TestSearchSummaryBound(t *testing.T) {
	for _, n := range []int{201, 250, 399, 401, 1000} {
		desc := strings.Repeat("wörd ", n/6+1)[:n]
		got := summary(desc)
		body := strings.TrimSuffix(got, "…")
		if body == got || len(body) > 200 || !utf8.ValidString(got) {
			t.Errorf("%d bytes: summary of %d bytes %q, want at most 200 and an ellipsis", n, len(got), got)
		}
	}
	if got := summary("Lists the open issues. Then more words."); got != "Lists the open issues." {
		t.Errorf("first sentence: %q", got)
	}
	if short := strings.Repeat("x", 200); summary(short) != short {
		t.Error("a description of exactly 200 bytes is cut")
	}
}
