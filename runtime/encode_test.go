package runtime

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
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
		if got := quote(tc.in); got != tc.want {
			t.Errorf("quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// FuzzAppendString checks our string encoder against encoding/json: both
// must decode to the same string.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a", "\"\\/", "\x00\x1f\x7f", "é\u2028\u2029", "\xff\xfe", "<&>", "\U0001F600"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ours := appendString(nil, s)
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
		if got := string(appendString(nil, s)); got != want && utf8.ValidString(s) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}

func TestValidID(t *testing.T) {
	for raw, want := range map[string]bool{
		`1`: true, `-1`: true, `0`: true, `9007199254740993`: true, `"x"`: true, `""`: true,
		`-`: false, `1.0`: false, `1e3`: false, `null`: false, `true`: false, `{}`: false, `[]`: false, ``: false,
	} {
		if got := validID([]byte(raw)); got != want {
			t.Errorf("validID(%s) = %v", raw, got)
		}
	}
}

func TestIDKey(t *testing.T) {
	if idKey(`"ab"`) != idKey(`"a\u0062"`) {
		t.Error(`"ab" and "a\u0062" are different ids`)
	}
	if idKey(`"5"`) == idKey(`5`) {
		t.Error(`the string "5" and the number 5 are the same id`)
	}
}

func TestCursor(t *testing.T) {
	for off := 1; off <= 3; off++ {
		raw, _ := json.Marshal(map[string]string{"cursor": encodeCursor(off)})
		got, e := pageStart(raw, 3)
		if e != nil || got != off {
			t.Errorf("cursor for %d: %d, %v", off, got, e)
		}
	}
	if _, e := pageStart([]byte(`{"cursor":"`+encodeCursor(4)+`"}`), 3); e == nil {
		t.Error("a cursor past the end is accepted")
	}
}

// FuzzParseValue checks the validator's JSON decoder against encoding/json
// with UseNumber: same acceptance, same value.
func FuzzParseValue(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,-2.5e+3,"x\u00e9\n",true,false,null,{}]}`, `"\ud83d\ude00"`, `"bad\xff"`,
		`01`, `1.`, `-`, `{"a":1,}`, `[1 2]`, `"` + "\x01" + `"`, `{"a":1,"a":2}`, ` 0 `, `1e`, `{"a"}`, `nul`, `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseValue([]byte(s))
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var want any
		werr := d.Decode(&want)
		if werr == nil {
			if _, e := d.Token(); e == nil || e.Error() != "EOF" {
				werr = e
				if werr == nil {
					werr = errJSONSyntax
				}
			}
		}
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: parseValue error %v, encoding/json error %v", s, err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: parseValue %#v, encoding/json %#v", s, got, want)
		}
	})
}
