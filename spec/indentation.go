package spec

import (
	"fmt"
	"regexp"
	"strings"
)

// YAML nests by indentation, and yaml.v3 reports a misplaced line in its
// parser's words: an over-indented key is "mapping values are not allowed
// in this context" (the key reads as the continuation of the value above),
// an under-indented one "did not find expected key" at the line where the
// enclosing mapping began. After such an error, findIndentation walks the
// block-style lines and finds the first one whose indentation fits no
// level above it, so the finding can say "indentation" and point there.

// indentationErrors are the yaml.v3 messages that a misindented line gives.
var indentationErrors = []string{
	"mapping values are not allowed in this context",
	"did not find expected key",
	"did not find expected '-' indicator",
	"block sequence entries are not allowed in this context",
	"could not find expected ':'",
}

// indentProblem is a misindented line: where, and what to say.
type indentProblem struct {
	pos Pos
	msg string
}

// keyLineRE matches a line that starts with a mapping key (plain or
// quoted), possibly as the first entry of a sequence item ("- key: v").
var keyLineRE = regexp.MustCompile(`^(- +)?("[^"]*"|'[^']*'|[^\s#:{}\[\],&*!|>'"%@` + "`" + `-][^#]*?|-[^\s#][^#]*?)\s*:(\s|$)`)

// blockScalarRE matches a value that starts a literal or folded block scalar.
var blockScalarRE = regexp.MustCompile(`:\s+[|>][-+0-9]*$`)

// level is an indentation at which keys stand, and the latest key there.
type level struct {
	indent int
	key    string
}

// findIndentation returns the first misindented line at or after line
// from (1-based), or false when every line fits.
func findIndentation(data []byte, from int) (indentProblem, bool) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var levels []level
	opened := false    // the previous line ends in "key:" or "-": a deeper block may follow
	scalarIndent := -1 // inside a block scalar owned by a key at this indent
	flowDepth := 0     // inside a multi-line { } or [ ]
	for n, raw := range lines {
		lineNo := n + 1
		content := strings.TrimLeft(raw, " ")
		indent := len(raw) - len(content)
		content = strings.TrimSpace(stripComment(content))
		if content == "" || strings.HasPrefix(content, "---") || strings.HasPrefix(content, "%") {
			continue
		}
		if scalarIndent >= 0 {
			if indent > scalarIndent {
				continue
			}
			scalarIndent = -1
		}
		if flowDepth > 0 {
			flowDepth += flowBalance(content)
			continue
		}
		isKey := keyLineRE.MatchString(content)
		switch top := len(levels) - 1; {
		case top < 0:
			levels = append(levels, level{indent: indent})
		case indent > levels[top].indent:
			switch {
			case opened:
				levels = append(levels, level{indent: indent})
			case !isKey && !strings.HasPrefix(content, "- "):
				continue // a plain scalar continued on the next line
			case lineNo >= from:
				return indentProblem{
					pos: Pos{Line: lineNo, Column: indent + 1},
					msg: fmt.Sprintf("indentation: this line is indented %d spaces, under %s (%d spaces), which has a value already; indent it %d spaces to make it a sibling of %s",
						indent, quoteKey(levels[top].key), levels[top].indent, levels[top].indent, quoteKey(levels[top].key)),
				}, true
			default:
				continue
			}
		case indent < levels[top].indent:
			deeper := levels[top]
			for len(levels) > 0 && levels[len(levels)-1].indent > indent {
				deeper = levels[len(levels)-1]
				levels = levels[:len(levels)-1]
			}
			if len(levels) == 0 || levels[len(levels)-1].indent != indent {
				if lineNo < from {
					levels = append(levels, level{indent: indent})
					break
				}
				msg := fmt.Sprintf("indentation: this line is indented %d spaces, which matches no key above it: use %d to put it beside %s", indent, deeper.indent, quoteKey(deeper.key))
				if len(levels) > 0 {
					outer := levels[len(levels)-1]
					msg += fmt.Sprintf(", or %d to put it beside %s", outer.indent, quoteKey(outer.key))
				}
				return indentProblem{pos: Pos{Line: lineNo, Column: indent + 1}, msg: msg}, true
			}
		}
		cur := &levels[len(levels)-1]
		if isKey {
			cur.key = keyName(content)
		}
		// "- key: v" starts a mapping whose other keys stand under "key".
		rest, isItem := strings.CutPrefix(content, "- ")
		if isItem || content == "-" {
			rest = strings.TrimLeft(rest, " ")
			if keyLineRE.MatchString(rest) {
				levels = append(levels, level{indent: indent + len(content) - len(rest), key: keyName(rest)})
				content = rest
			}
		}
		opened = content == "-" || strings.HasSuffix(content, ":")
		if blockScalarRE.MatchString(content) || content == "|" || content == ">" {
			scalarIndent = levels[len(levels)-1].indent
		}
		if isKey {
			_, value, _ := strings.Cut(content[len(keyNamePrefix(content)):], ":")
			flowDepth = flowBalance(value)
		} else {
			flowDepth = flowBalance(content)
		}
		if flowDepth < 0 {
			flowDepth = 0
		}
	}
	return indentProblem{}, false
}

// keyNamePrefix is the key of a key line up to (not including) its colon.
func keyNamePrefix(content string) string {
	m := keyLineRE.FindStringSubmatchIndex(content)
	if m == nil {
		return ""
	}
	return content[:m[5]]
}

// keyName is the key of a key line, without a "- " or quotes.
func keyName(content string) string {
	k := strings.TrimSpace(strings.TrimPrefix(strings.TrimLeft(keyNamePrefix(content), " "), "- "))
	return strings.Trim(k, `"'`)
}

func quoteKey(k string) string {
	if k == "" {
		return "the line above"
	}
	return fmt.Sprintf("%q", k)
}

// flowBalance counts the { and [ that a line opens and does not close,
// outside quoted scalars.
func flowBalance(s string) int {
	depth := 0
	forUnquoted(s, func(i int, r rune) bool {
		switch r {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		return true
	})
	return depth
}

// stripComment removes a trailing "# comment" outside quoted scalars.
func stripComment(s string) string {
	end := len(s)
	forUnquoted(s, func(i int, r rune) bool {
		if r == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
			end = i
			return false
		}
		return true
	})
	return s[:end]
}

// forUnquoted calls f for each rune of a line outside quoted scalars, until
// f returns false. A quote opens a scalar only where a token starts (so the
// apostrophe of "an order's id" is plain text).
func forUnquoted(s string, f func(i int, r rune) bool) {
	var quote rune
	prev := ' '
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case (r == '"' || r == '\'') && strings.ContainsRune(" \t:[{,-", prev):
			quote = r
		default:
			if !f(i, r) {
				return
			}
		}
		prev = r
	}
}
