package findings

import (
	"bytes"
	"testing"
)

func TestGitHubActionsEscapes(t *testing.T) {
	var buf bytes.Buffer
	WriteGitHubActions(&buf, []Finding{{Rule: "R", File: "a,b:c.yaml", Line: 0, Column: 2, Message: "100% sure\nsecond line"}}, "warning")
	want := "::warning file=a%2Cb%3Ac.yaml,line=1,col=2,title=R::100%25 sure%0Asecond line\n"
	if buf.String() != want {
		t.Errorf("got  %q\nwant %q", buf.String(), want)
	}
}

func TestSortAndFormat(t *testing.T) {
	fs := Sort([]Finding{
		{Rule: "B", File: "x", Line: 2, Column: 1, Message: "m"},
		{Rule: "A", File: "x", Line: 0, Column: 0, Message: "m"},
		{Rule: "B", File: "x", Line: 2, Column: 1, Message: "m"},
	})
	if len(fs) != 2 || fs[0].String() != "x:1:1: A: m" || fs[1].String() != "x:2:1: B: m" {
		t.Errorf("%v", fs)
	}
	for in, want := range map[string]Format{"": Text, "gcc": Text, "json": JSON, "github-actions": GitHubActions} {
		if got, err := ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseFormat("junit"); err == nil {
		t.Error("junit accepted")
	}
}
