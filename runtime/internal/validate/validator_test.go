package validate

import (
	"strings"
	"testing"
)

func TestCompileRefusesExternalReferences(t *testing.T) {
	_, err := Compile([]byte(`{"$ref":"https://example.com/schema.json"}`))
	if err == nil || !strings.Contains(err.Error(), "external schema references are not supported") {
		t.Errorf("Compile = %v, want the external reference refused", err)
	}
}

// TestCheckWordsEveryViolation: all violations at once, sorted by pointer,
// in words, and the text a tool call gets back.
func TestCheckWordsEveryViolation(t *testing.T) {
	v, err := Compile([]byte(`{"type":"object","required":["id"],"additionalProperties":false,
		"properties":{"id":{"type":"string"},"n":{"type":"integer","minimum":1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := Decode([]byte(`{"n":0,"x":true}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `invalid arguments for tool "t":
- /id: is required but missing
- /n: must be greater than or equal to 1 (got 0)
- /x: is not allowed: unknown property; allowed properties: id, n`
	if got := InvalidArguments("t", v.Check(inst)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if vs := v.Check(map[string]any{"id": "a"}); vs != nil {
		t.Errorf("valid instance: %+v", vs)
	}
}

// TestLazyCompilesOnce: the validator is built at the first call and kept.
func TestLazyCompilesOnce(t *testing.T) {
	l := NewLazy([]byte(`{"type":"object"}`))
	a, err := l.Validator()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := l.Validator(); a != b {
		t.Error("a second Validator call compiled again")
	}
	if _, err := NewLazy([]byte(`{"type":3}`)).Validator(); err == nil {
		t.Error("an invalid schema compiled")
	}
}

// TestCountsAreWordedForOne: a bound of one reads "1 character", not "1
// characters"; other counts are plural.
func TestCountsAreWordedForOne(t *testing.T) {
	v, err := Compile([]byte(`{"type":"object","properties":{
		"s":{"type":"string","minLength":1},"t":{"type":"string","maxLength":2},
		"a":{"type":"array","minItems":1},"o":{"type":"object","minProperties":1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := Decode([]byte(`{"s":"","t":"abc","a":[],"o":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `invalid arguments for tool "t":
- /a: must have at least 1 item (got 0)
- /o: must have at least 1 property (got 0)
- /s: must be at least 1 character long (got 0)
- /t: must be at most 2 characters long (got 3)`
	if got := InvalidArguments("t", v.Check(inst)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestWriteViolationsCap: at most 50 violations are listed, then how many
// more there are.
func TestWriteViolationsCap(t *testing.T) {
	var vs []Violation
	for i := range 53 {
		vs = append(vs, Violation{Ptr: "/" + strings.Repeat("a", i+1), Msg: "bad"})
	}
	got := InvalidArguments("t", vs)
	if n := strings.Count(got, "\n- /"); n != 50 || !strings.HasSuffix(got, "\n- … and 3 more") {
		t.Errorf("%d violations listed, want 50 and a last line saying 3 more:\n%s", n, got)
	}
}

// The integer formats are asserted: the value lies in the format's range.
func TestIntegerFormats(t *testing.T) {
	v, err := Compile([]byte(`{"type":"integer","format":"int32"}`))
	if err != nil {
		t.Fatal(err)
	}
	for text, ok := range map[string]bool{"0": true, "2147483647": true, "-2147483648": true, "2147483648": false, "-2147483649": false, "1e10": false} {
		inst, err := Decode([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if got := len(v.Check(inst)) == 0; got != ok {
			t.Errorf("int32 %s: valid %v, want %v", text, got, ok)
		}
	}
}
