package gen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestLayoutKeepsBytes: the JSON text of a schema compacts back to the
// bytes it was laid out from (the runtime compacts it and sends those), and
// no laid-out line runs past schemaWidth unless one value alone does.
func TestLayoutKeepsBytes(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for _, compact := range []string{
		`{}`, `[]`, `{"type":"string"}`,
		`{"type":"object","properties":{"a":{"type":"string","description":"` + long + `"},"b":{"type":"array","items":{"type":"integer","minimum":-1.5e3}}},"required":["a"],"additionalProperties":false}`,
		`{"enum":["a\"b","c\\d","\u00e9<>&",null,true,0]}`,
		`{"$defs":{"X":{"type":"object","properties":{}}},"type":"object","properties":{"x":{"$ref":"#/$defs/X"}},"default":{"k":[1,2,{"z":[]}]}}`,
		// The root's members run on; one too long for what is left of a line starts its own.
		`{"type":"object","description":"` + strings.Repeat("a", 80) + `","properties":{"a":{"type":"string","description":"` + long + `"}},"required":["` + strings.Repeat("b", 70) + `","` + strings.Repeat("c", 20) + `"],"additionalProperties":false}`,
		`{"type":"object","properties":{"` + long + `":{"type":"string"}},"required":["a"]}`,
	} {
		root, err := parseCompact([]byte(compact))
		if err != nil {
			t.Fatalf("%s: %v", compact, err)
		}
		st := &layout{}
		st.root(root)
		if len(st.parts) != 1 {
			t.Fatalf("%s: %d parts, want 1 (no constants)", compact, len(st.parts))
		}
		text := st.parts[0].text
		var b bytes.Buffer
		if err := json.Compact(&b, []byte(text)); err != nil || b.String() != compact {
			t.Errorf("laid out\n%s\ncompacts to %s (%v), want %s", text, b.String(), err, compact)
		}
		for _, line := range strings.Split(text, "\n") {
			if w := len(strings.ReplaceAll(line, "\t", "    ")); w > schemaWidth && !strings.Contains(line, long) {
				t.Errorf("line of %d columns: %s", w, line)
			}
		}
	}
}

// TestLayoutRunsRootOn: a schema's own object keeps its short members on
// the lines of its braces, its properties one a line.
func TestLayoutRunsRootOn(t *testing.T) {
	compact := `{"type":"object","properties":{"query":{"type":"string","description":"What to look for.","minLength":1,"maxLength":200},` +
		`"limit":{"type":"integer","minimum":1,"maximum":100}},"required":["query"],"additionalProperties":false}`
	want := `{"type": "object", "properties": {
	"query": {"type": "string", "description": "What to look for.", "minLength": 1, "maxLength": 200},
	"limit": {"type": "integer", "minimum": 1, "maximum": 100}
}, "required": ["query"], "additionalProperties": false}`
	root, err := parseCompact([]byte(compact))
	if err != nil {
		t.Fatal(err)
	}
	st := &layout{}
	st.root(root)
	if got := st.parts[0].text; got != want {
		t.Errorf("laid out\n%s\nwant\n%s", got, want)
	}
}

// TestParseCompactRefuses: what is not compact JSON is an error, not a
// silent cut.
func TestParseCompactRefuses(t *testing.T) {
	for _, bad := range []string{``, `{`, `{"a":1`, `{"a" :1}`, `[1 ,2]`, `"abc`, `{"a":1}x`, `{1:2}`} {
		if _, err := parseCompact([]byte(bad)); err == nil {
			t.Errorf("parseCompact(%q) accepted it", bad)
		}
	}
}

// TestLayoutIndentsMemberOnItsOwnLine: a member of the root that starts a
// line of its own starts it at the root's column, and a broken one has its
// members one level deeper.
func TestLayoutIndentsMemberOnItsOwnLine(t *testing.T) {
	desc := strings.Repeat("d", 90)
	compact := `{"type":"object","description":"` + desc + `","properties":{"a":{"type":"string","description":"` + strings.Repeat("x ", 29) + `"}},"required":["a"]}`
	want := `{"type": "object",
"description": "` + desc + `",
"properties": {
	"a": {"type": "string", "description": "` + strings.Repeat("x ", 29) + `"}
}, "required": ["a"]}`
	root, err := parseCompact([]byte(compact))
	if err != nil {
		t.Fatal(err)
	}
	st := &layout{}
	st.root(root)
	if got := st.parts[0].text; got != want {
		t.Errorf("laid out\n%s\nwant\n%s", got, want)
	}
}
