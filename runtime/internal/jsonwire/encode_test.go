package jsonwire

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzAppendString checks our string encoder against encoding/json: both
// must decode to the same string.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a", "\"\\/", "\x00\x1f\x7f", "é\u2028\u2029", "\xff\xfe", "<&>", "\U0001F600"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ours := AppendString(nil, s)
		if !json.Valid(ours) {
			t.Fatalf("invalid JSON %q for %q", ours, s)
		}
		var got, want string
		if err := json.Unmarshal(ours, &got); err != nil {
			t.Fatal(err)
		}
		std, _ := json.Marshal(s)
		if err := json.Unmarshal(std, &want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%q: ours decodes to %q, encoding/json's to %q", s, got, want)
		}
		if strings.ContainsAny(string(ours), "\n\r") {
			t.Fatalf("raw newline in %q", ours)
		}
	})
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	// Beyond the fuzz seeds: every byte and a few runes, against
	// encoding/json without HTML escaping.
	for i := 0; i < 256; i++ {
		s := "x" + string(rune(i)) + string([]byte{byte(i)}) + "y"
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		want := strings.TrimSuffix(b.String(), "\n")
		if got := string(AppendString(nil, s)); got != want && utf8.ValidString(s) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}
