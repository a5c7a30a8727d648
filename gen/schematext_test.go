package gen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestLayoutKeepsBytes: the JSON text of a schema compacts back to the
// bytes it was laid out from (the runtime compacts it and sends those), and
// no laid-out line runs past textWidth unless one value alone does.
func TestLayoutKeepsBytes(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for _, compact := range []string{
		`{}`, `[]`, `{"type":"string"}`,
		`{"type":"object","properties":{"a":{"type":"string","description":"` + long + `"},"b":{"type":"array","items":{"type":"integer","minimum":-1.5e3}}},"required":["a"],"additionalProperties":false}`,
		`{"enum":["a\"b","c\\d","\u00e9<>&",null,true,0]}`,
		`{"$defs":{"X":{"type":"object","properties":{}}},"type":"object","properties":{"x":{"$ref":"#/$defs/X"}},"default":{"k":[1,2,{"z":[]}]}}`,
	} {
		root, err := parseCompact([]byte(compact))
		if err != nil {
			t.Fatalf("%s: %v", compact, err)
		}
		st := &layout{}
		st.value(root, 0, 0)
		if len(st.parts) != 1 {
			t.Fatalf("%s: %d parts, want 1 (no constants)", compact, len(st.parts))
		}
		text := st.parts[0].text
		var b bytes.Buffer
		if err := json.Compact(&b, []byte(text)); err != nil || b.String() != compact {
			t.Errorf("laid out\n%s\ncompacts to %s (%v), want %s", text, b.String(), err, compact)
		}
		for _, line := range strings.Split(text, "\n") {
			if w := len(strings.ReplaceAll(line, "\t", "    ")); w > textWidth && !strings.Contains(line, long) {
				t.Errorf("line of %d columns: %s", w, line)
			}
		}
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
