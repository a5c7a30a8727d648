package gen

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

// textWidth is about where generated prose is wrapped: descriptions,
// instructions and doc comments break near it, so that no generated line
// runs far past what a reviewer reads at once.
const textWidth = 100

// textLit is a string literal for prose (a description, instructions, a
// message): short text stays one literal; longer text is a sum of literals
// broken after spaces and newlines, one a line. The value is unchanged.
func textLit(s string) jen.Code {
	pieces := splitText(s, textWidth)
	if len(pieces) == 1 {
		return jen.Lit(s)
	}
	code := jen.Line().Lit(pieces[0])
	for _, p := range pieces[1:] {
		code = code.Op("+").Line().Lit(p)
	}
	return code
}

// splitText cuts s into pieces that concatenate back to s: after every
// newline, and after the last space before width in a longer line. A word
// longer than width stays whole.
func splitText(s string, width int) []string {
	var pieces []string
	for s != "" {
		end := len(s)
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			end = i + 1
		}
		if end > width {
			if i := strings.LastIndexByte(s[:width], ' '); i > 0 {
				end = i + 1
			} else if i := strings.IndexByte(s[width:end], ' '); i >= 0 {
				end = width + i + 1
			}
		}
		pieces = append(pieces, s[:end])
		s = s[end:]
	}
	if len(pieces) == 0 {
		return []string{""}
	}
	return pieces
}

// wrapLine breaks one line of a doc comment near width, at spaces.
func wrapLine(line string, width int) []string {
	var out []string
	for len(line) > width {
		i := strings.LastIndexByte(line[:width], ' ')
		if i <= 0 {
			j := strings.IndexByte(line[width:], ' ')
			if j < 0 {
				break
			}
			i = width + j
		}
		out = append(out, line[:i])
		line = strings.TrimLeft(line[i:], " ")
	}
	return append(out, line)
}

// fields are the fields of a composite literal in the order they are set,
// which is the order the spec reference lists them (jen.Dict sorts them by
// name): a reviewer reads a tool's name, then its title, description, ...
type fields []jen.Code

// set adds the field name: v.
func (f *fields) set(name string, v jen.Code) {
	*f = append(*f, jen.Id(name).Op(":").Add(v))
}

// ordered is the fields that fill sets, for Values: one field on the
// literal's line, more one a line.
func ordered(fill func(f *fields)) jen.Code {
	var f fields
	fill(&f)
	if len(f) <= 1 {
		return jen.List(f...)
	}
	list := make([]jen.Code, 0, 2*len(f)+1)
	for _, c := range f {
		list = append(list, jen.Line().Add(c).Op(","))
	}
	return jen.Add(append(list, jen.Line())...)
}
