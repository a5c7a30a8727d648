package spec

import (
	"slices"
	"strings"
	"testing"
)

// FuzzLoad: Load never panics, and what it says is well-formed. Run it with
// `go test -fuzz FuzzLoad ./spec`; the seeds are in testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(fullSpec))
	for _, c := range diagnosticCases {
		if c.noBase {
			f.Add([]byte(c.src))
		} else {
			f.Add([]byte(base + c.src))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, diags := Load("f.yaml", data)
		if s == nil {
			t.Fatal("Load returned a nil spec")
		}
		if !slices.IsSortedFunc(diags, func(a, b Diagnostic) int {
			return compareDiag(a, b)
		}) {
			t.Errorf("diagnostics not sorted:\n%v", diags)
		}
		for _, d := range diags {
			m := d.Message
			if m == "" || strings.HasPrefix(m, "yaml:") || d.File != "f.yaml" {
				t.Errorf("bad diagnostic %q", d.String())
			}
			// No Go type may leak into a message.
			for _, leak := range []string{"unmarshal", "spec.", "yaml.Node", "reflect", "interface {}", "map[string]", "*spec", "<nil>", "%!"} {
				if strings.Contains(m, leak) {
					t.Errorf("diagnostic leaks %q: %s", leak, d.String())
				}
			}
		}
		// Loading is deterministic.
		_, again := Load("f.yaml", data)
		if diags.Error() != again.Error() {
			t.Errorf("two loads differ:\n%v\n---\n%v", diags, again)
		}
		// A spec Load accepts passes Validate.
		if len(diags) == 0 {
			if v := Validate(s); len(v) > 0 {
				t.Errorf("Load accepted what Validate refuses:\n%v", v)
			}
		}
	})
}

func compareDiag(a, b Diagnostic) int {
	switch {
	case a.Pos.Line != b.Pos.Line:
		return a.Pos.Line - b.Pos.Line
	case a.Pos.Column != b.Pos.Column:
		return a.Pos.Column - b.Pos.Column
	}
	return strings.Compare(a.Message, b.Message)
}
