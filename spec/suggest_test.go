package spec

import "testing"

func TestSuggest(t *testing.T) {
	keys := []string{"pattern", "minLength", "maxLength", "format", "items", "type"}
	for _, c := range []struct{ word, want string }{
		{"patern", "pattern"},      // a deletion
		{"patren", "pattern"},      // a transposition counts as one edit
		{"minlength", "minLength"}, // case only
		{"MINLENGTH", "minLength"},
		{"fromat", "format"},
		{"item", "items"},
		{"typ", "type"},
		{"maxLen", ""}, // three edits away
		{"x", ""},      // a short word is not "corrected" into anything
		{"pattern", ""},
		{"zzzzzzzz", ""},
	} {
		if got := suggest(c.word, keys); got != c.want {
			t.Errorf("suggest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	if got := didYouMean("OrderId", []string{"Order", "OrderID"}); got != `; did you mean "OrderID"?` {
		t.Errorf("didYouMean = %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"ab", "ba", 1}, {"ca", "abc", 3}, {"héllo", "hello", 1},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
