// Package findings is what `mcpgen lint` and `mcpgen diff` report: a rule
// ID, a place in a spec file and a message, printed in one of the formats
// CI systems read (buf's --error-format, reduced to three).
package findings

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Finding is one rule's report about one place of a spec file.
type Finding struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// Format is an output format: text, json or github-actions.
type Format string

const (
	Text          Format = "text"
	JSON          Format = "json"
	GitHubActions Format = "github-actions"
)

// Formats lists the formats, for usage messages.
var Formats = []Format{Text, JSON, GitHubActions}

// ParseFormat reads a --format value; "gcc" is an alias of text, as in buf.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case Text, "gcc", "":
		return Text, nil
	case JSON, GitHubActions:
		return Format(s), nil
	}
	return "", fmt.Errorf("unknown format %q; use text, json or github-actions", s)
}

// Sort orders findings by file, line, column, rule and message, and drops
// exact duplicates. Line and column are clamped to at least 1.
func Sort(fs []Finding) []Finding {
	for i := range fs {
		fs[i].Line, fs[i].Column = max(fs[i].Line, 1), max(fs[i].Column, 1)
	}
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Column != b.Column:
			return a.Column < b.Column
		case a.Rule != b.Rule:
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
	out := fs[:0]
	for i, f := range fs {
		if i > 0 && f == fs[i-1] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// String is the text form: file:line:col: RULE_ID: message.
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", f.File, max(f.Line, 1), max(f.Column, 1), f.Rule, f.Message)
}

// WriteText writes one finding per line.
func WriteText(w io.Writer, fs []Finding) {
	for _, f := range fs {
		fmt.Fprintln(w, f.String())
	}
}

// WriteGitHubActions writes GitHub Actions workflow commands, which the
// runner turns into annotations on the pull request's diff; level is
// "warning", "error" or "notice".
func WriteGitHubActions(w io.Writer, fs []Finding, level string) {
	for _, f := range fs {
		fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", level,
			escapeProperty(f.File), max(f.Line, 1), max(f.Column, 1), escapeProperty(f.Rule), escapeData(f.Message))
	}
}

// escapeData and escapeProperty follow the runner's rules for workflow
// command values (actions/toolkit, command.ts).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// NonNil returns fs, or an empty slice for nil, so that JSON says [] and
// never null.
func NonNil(fs []Finding) []Finding {
	if fs == nil {
		return []Finding{}
	}
	return fs
}

// WriteJSON writes v as indented JSON followed by a newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
