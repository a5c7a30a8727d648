package spec

import (
	"fmt"
	"sort"
	"strings"
)

// Diagnostic is one finding about a spec file, printed as file:line:col: message.
type Diagnostic struct {
	File    string
	Pos     Pos
	Message string
	// Source is the line the finding is about, shown under it with a caret
	// at the column. Only syntax errors carry it: their message is about
	// the text, not about a spec element that the message can name.
	Source string
}

func (d Diagnostic) String() string {
	s := fmt.Sprintf("%s:%d:%d: %s", d.File, atLeast1(d.Pos.Line), atLeast1(d.Pos.Column), d.Message)
	if d.Source == "" {
		return s
	}
	// The caret keeps the line's tabs so that it lines up under them.
	var caret strings.Builder
	for i, r := range []rune(d.Source) {
		if i >= atLeast1(d.Pos.Column)-1 {
			break
		}
		if r == '\t' {
			caret.WriteRune('\t')
		} else {
			caret.WriteRune(' ')
		}
	}
	num := fmt.Sprint(atLeast1(d.Pos.Line))
	pad := strings.Repeat(" ", len(num))
	return fmt.Sprintf("%s\n    %s | %s\n    %s | %s^", s, num, d.Source, pad, caret.String())
}

func atLeast1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// Diagnostics is every finding of a spec file. As an error it prints one
// finding per line, sorted by position.
type Diagnostics []Diagnostic

func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Sort orders the findings by file, line, column, then message, and drops
// exact duplicates.
func (ds Diagnostics) Sort() Diagnostics {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column < b.Pos.Column
		}
		return a.Message < b.Message
	})
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && d == ds[i-1] {
			continue
		}
		out = append(out, d)
	}
	return out
}
