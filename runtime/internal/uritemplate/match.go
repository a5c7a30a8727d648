package uritemplate

import (
	"fmt"
	"regexp"
	"strings"

	rfc6570 "github.com/yosida95/uritemplate/v3"
)

// Values are the variables a URI matched, percent-decoded: each has V, the
// list of its items (one for a single value).
type Values = rfc6570.Values

// Template is a URI template parsed once, at registration, for matching.
type Template struct {
	raw     string
	t       *rfc6570.Template
	re      *regexp.Regexp // what t matches, loosely: a cheap test before Match, or nil
	prefix  string         // the literal text before the first expression…
	suffix  string         // …and after the last: a URI must start and end with them
	literal bool           // no expression: matches raw only
	vars    []Var          // each variable once, in order of appearance
	seps    string         // the bytes that separate list items in its expressions
}

// maxListSeparators bounds the list separators (see Template.seps) in a
// URI matched against a template. The library's matcher copies every capture
// so far at each byte, so its cost grows with length × list items: 8 000
// commas took seconds. Within the runtime's URI length limit (1 KiB) and
// this bound it takes milliseconds; a URI with more does not match.
const maxListSeparators = 32

// Var is a variable of a template.
type Var struct {
	Name    string
	Capture string // Match's key for it: the name, or "name:3" with a prefix modifier
	Sep     string // joins the items of a list value back into one string
}

// Parse parses raw (RFC 6570) for matching.
func Parse(raw string) (*Template, error) {
	t, err := rfc6570.New(raw)
	if err != nil {
		return nil, fmt.Errorf("the URI template does not parse: %v", err)
	}
	ut := &Template{raw: raw, t: t}
	seen := map[string]bool{}
	first, last := -1, 0
	for i := 0; i < len(raw); {
		open, end, err := nextExpr(raw, i)
		if err != nil {
			return nil, err
		}
		if open < 0 {
			break
		}
		if first < 0 {
			first = open
		}
		last, i = end, end
		op, list, err := splitExpr(raw[open+1 : end-1])
		if err != nil {
			return nil, err
		}
		for _, sep := range []string{",", op.sep} {
			if !strings.Contains(ut.seps, sep) {
				ut.seps += sep
			}
		}
		for _, spec := range strings.Split(list, ",") {
			v, err := parseVarspec(spec)
			if err != nil {
				return nil, err
			}
			if seen[v.name] {
				continue // RFC 6570 allows it; Match then captures a list
			}
			seen[v.name] = true
			tv := Var{Name: v.name, Capture: v.name, Sep: ","}
			if v.maxlen > 0 {
				tv.Capture = fmt.Sprintf("%s:%d", v.name, v.maxlen)
			}
			if v.explode {
				tv.Sep = op.sep
			}
			ut.vars = append(ut.vars, tv)
		}
	}
	if first < 0 {
		ut.literal = true
		return ut, nil
	}
	ut.prefix, ut.suffix = raw[:first], raw[last:]
	ut.re = looseRegexp(t)
	return ut, nil
}

// looseRegexp is the library's regular expression for t: it accepts every
// URI that Match accepts (and some it does not), in linear time and without
// allocating, where Match takes microseconds per byte. nil if it cannot be
// built (a thousand variables in one expression).
func looseRegexp(t *rfc6570.Template) (re *regexp.Regexp) {
	defer func() {
		if recover() != nil {
			re = nil
		}
	}()
	return t.Regexp()
}

// Match returns the variables of uri, or nil when uri does not match.
func (t *Template) Match(uri string) Values {
	if t.literal {
		if uri == t.raw {
			return Values{}
		}
		return nil
	}
	if len(uri) < len(t.prefix)+len(t.suffix) || !strings.HasPrefix(uri, t.prefix) || !strings.HasSuffix(uri, t.suffix) {
		return nil
	}
	if countAny(uri[len(t.prefix):len(uri)-len(t.suffix)], t.seps) > maxListSeparators {
		return nil
	}
	if t.re != nil && !t.re.MatchString(uri) {
		return nil
	}
	return t.t.Match(uri)
}

// countAny counts the bytes of s that are in set.
func countAny(s, set string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) >= 0 {
			n++
		}
	}
	return n
}

// HasVar reports whether name is a variable of the template.
func (t *Template) HasVar(name string) bool {
	for _, v := range t.vars {
		if v.Name == name {
			return true
		}
	}
	return false
}

// Raw returns the template as it was parsed.
func (t *Template) Raw() string { return t.raw }

// Vars returns each variable of the template once, in order of appearance.
func (t *Template) Vars() []Var { return t.vars }
