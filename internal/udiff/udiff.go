// Package udiff renders the unified diff of two texts, for `mcpgen check`
// (which shows how a stale generated file differs from what the spec gives).
package udiff

import (
	"fmt"
	"strings"
)

// Unified returns the unified diff (3 lines of context) that turns a into b,
// with the given file labels, or "" when the texts are equal.
func Unified(aLabel, bLabel, a, b string) string {
	if a == b {
		return ""
	}
	al, bl := splitLines(a), splitLines(b)
	ops := diffLines(al, bl)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aLabel, bLabel)
	const context = 3
	// Group edits into hunks separated by more than 2*context equal lines.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := i - context
		if start < 0 {
			start = 0
		}
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end += min(context, run-end)
				break
			}
			end = run
		}
		writeHunk(&out, ops[start:end])
		i = end
	}
	return out.String()
}

type op struct {
	kind rune // ' ', '-', '+'
	line string
	a, b int // 1-based line numbers in a and b before this op
}

func writeHunk(out *strings.Builder, ops []op) {
	aStart, bStart := ops[0].a, ops[0].b
	var aN, bN int
	for _, o := range ops {
		if o.kind != '+' {
			aN++
		}
		if o.kind != '-' {
			bN++
		}
	}
	if aN == 0 {
		aStart--
	}
	if bN == 0 {
		bStart--
	}
	fmt.Fprintf(out, "@@ -%d,%d +%d,%d @@\n", aStart, aN, bStart, bN)
	for _, o := range ops {
		out.WriteRune(o.kind)
		out.WriteString(o.line)
		if !strings.HasSuffix(o.line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines is a longest-common-subsequence diff. Generated files are at
// most a few thousand lines, so the quadratic table is cheap enough; common
// prefix and suffix are trimmed first, which is the usual case for a stale
// file.
func diffLines(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(am), len(bm)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if am[i] == bm[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []op
	ai, bi := 1, 1
	emit := func(kind rune, line string) {
		ops = append(ops, op{kind: kind, line: line, a: ai, b: bi})
		if kind != '+' {
			ai++
		}
		if kind != '-' {
			bi++
		}
	}
	for _, l := range a[:pre] {
		emit(' ', l)
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && am[i] == bm[j]:
			emit(' ', am[i])
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] > lcs[i+1][j]):
			emit('+', bm[j])
			j++
		default:
			emit('-', am[i])
			i++
		}
	}
	for _, l := range a[len(a)-suf:] {
		emit(' ', l)
	}
	return ops
}
