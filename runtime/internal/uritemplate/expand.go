// Package uritemplate expands RFC 6570 URI templates and matches URIs
// against them, for resource templates. Expansion is done here rather than
// by github.com/yosida95/uritemplate, whose Expand percent-encodes a
// non-ASCII character as its code point ("é" → "%E9") instead of its UTF-8
// bytes ("%C3%A9"), which its own Match does not decode back; matching uses
// that library behind bounds that keep its cost linear.
package uritemplate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// uriOp is an expression's operator (RFC 6570 appendix A).
type uriOp struct {
	first, sep string
	named      bool
	ifemp      string
	reserved   bool // reserved characters and pct-encoded triplets are kept
}

var (
	opSimple   = uriOp{sep: ","}
	opReserved = uriOp{sep: ",", reserved: true}
	opFragment = uriOp{first: "#", sep: ",", reserved: true}
	opLabel    = uriOp{first: ".", sep: "."}
	opPath     = uriOp{first: "/", sep: "/"}
	opParam    = uriOp{first: ";", sep: ";", named: true}
	opQuery    = uriOp{first: "?", sep: "&", named: true, ifemp: "="}
	opQueryCon = uriOp{first: "&", sep: "&", named: true, ifemp: "="}
)

// splitExpr returns the operator of an expression (the text between the
// braces) and its variable list.
func splitExpr(expr string) (uriOp, string, error) {
	if expr == "" {
		return uriOp{}, "", errors.New("empty expression {}")
	}
	op := opSimple
	switch expr[0] {
	case '+':
		op = opReserved
	case '#':
		op = opFragment
	case '.':
		op = opLabel
	case '/':
		op = opPath
	case ';':
		op = opParam
	case '?':
		op = opQuery
	case '&':
		op = opQueryCon
	case '=', ',', '!', '@', '|':
		return uriOp{}, "", fmt.Errorf("operator %q is reserved for future extensions", expr[0])
	default:
		return op, expr, nil
	}
	return op, expr[1:], nil
}

type varspec struct {
	name    string
	maxlen  int // prefix modifier {x:3}; 0 without
	explode bool
}

// parseVarspec reads one varspec: name, then :maxlen or *.
func parseVarspec(s string) (varspec, error) {
	var v varspec
	if name, ok := strings.CutSuffix(s, "*"); ok {
		v.explode, s = true, name
	} else if name, n, ok := strings.Cut(s, ":"); ok {
		maxlen, err := strconv.Atoi(n)
		if err != nil || maxlen < 1 || maxlen > 9999 || n[0] == '+' {
			return v, fmt.Errorf("invalid prefix length in %q (1 to 9999)", s)
		}
		v.maxlen, s = maxlen, name
	}
	if s == "" {
		return v, errors.New("missing variable name")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '%') {
			return v, fmt.Errorf("invalid variable name %q", s)
		}
	}
	v.name = s
	return v, nil
}

// nextExpr finds the next expression of template from i: the literal text
// before it ends at open, the expression is template[open+1:end-1]. open
// is -1 when there is none.
func nextExpr(template string, i int) (open, end int, err error) {
	o := strings.IndexByte(template[i:], '{')
	if o < 0 {
		return -1, len(template), nil
	}
	open = i + o
	c := strings.IndexByte(template[open:], '}')
	if c < 0 {
		return open, 0, fmt.Errorf("unclosed expression at byte %d", open)
	}
	return open, open + c + 1, nil
}

// Expand expands an RFC 6570 template (levels 1 to 3, plus the prefix {x:3}
// and explode {x*} modifiers) with vars. Values are string, bool, int, int64,
// float64 or []string; an absent or nil value, or an empty list, is
// undefined and skipped as the RFC says. The error is for a malformed
// template or a value of another type.
func Expand(template string, vars map[string]any) (string, error) {
	b := make([]byte, 0, len(template)+32)
	for i := 0; i < len(template); {
		open, end, err := nextExpr(template, i)
		if err != nil {
			return "", err
		}
		if open < 0 {
			b = append(b, template[i:]...)
			break
		}
		b = append(b, template[i:open]...)
		if b, err = expandExpr(b, template[open+1:end-1], vars); err != nil {
			return "", err
		}
		i = end
	}
	return string(b), nil
}

// Escape percent-encodes every byte of s outside the unreserved set, as a
// simple {var} expansion does.
func Escape(s string) string { return string(pctEncode(nil, s, false)) }

func expandExpr(b []byte, expr string, vars map[string]any) ([]byte, error) {
	op, list, err := splitExpr(expr)
	if err != nil {
		return b, err
	}
	first := true
	for more := true; more; {
		var spec string
		spec, list, more = strings.Cut(list, ",")
		v, err := parseVarspec(spec)
		if err != nil {
			return b, err
		}
		s, items, defined, err := templateValue(v.name, vars[v.name])
		if err != nil {
			return b, err
		}
		if !defined {
			continue
		}
		if first {
			b = append(b, op.first...)
			first = false
		} else {
			b = append(b, op.sep...)
		}
		switch {
		case items == nil:
			if op.named {
				b = append(b, v.name...)
				if s == "" {
					b = append(b, op.ifemp...)
					break
				}
				b = append(b, '=')
			}
			if v.maxlen > 0 {
				s = prefixRunes(s, v.maxlen)
			}
			b = pctEncode(b, s, op.reserved)
		case v.explode:
			for j, it := range items {
				if j > 0 {
					b = append(b, op.sep...)
				}
				if op.named {
					b = append(b, v.name...)
					if it == "" {
						b = append(b, op.ifemp...)
						continue
					}
					b = append(b, '=')
				}
				b = pctEncode(b, it, op.reserved)
			}
		default:
			if op.named {
				b = append(b, v.name...)
				b = append(b, '=')
			}
			for j, it := range items {
				if j > 0 {
					b = append(b, ',')
				}
				b = pctEncode(b, it, op.reserved)
			}
		}
	}
	return b, nil
}

// templateValue converts a variable's value: a string s, or items for a
// list; defined is false for an undefined value.
func templateValue(name string, v any) (s string, items []string, defined bool, err error) {
	switch x := v.(type) {
	case nil:
		return "", nil, false, nil
	case string:
		return x, nil, true, nil
	case bool:
		return strconv.FormatBool(x), nil, true, nil
	case int:
		return strconv.Itoa(x), nil, true, nil
	case int64:
		return strconv.FormatInt(x, 10), nil, true, nil
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), nil, true, nil
	case []string:
		return "", x, len(x) > 0, nil
	}
	return "", nil, false, fmt.Errorf("variable %q has unsupported type %T (want string, bool, int, int64, float64 or []string)", name, v)
}

// prefixRunes returns the first n characters of s.
func prefixRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// pctEncode appends s with every byte outside the unreserved set (and, with
// reserved, the reserved set and existing pct-encoded triplets)
// percent-encoded as UTF-8 bytes.
func pctEncode(b []byte, s string, reserved bool) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUnreserved(c):
			b = append(b, c)
		case reserved && isReserved(c):
			b = append(b, c)
		case reserved && c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, s[i:i+3]...)
			i += 2
		default:
			b = append(b, '%', upperHex[c>>4], upperHex[c&0xf])
		}
	}
	return b
}

const upperHex = "0123456789ABCDEF"

func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func isReserved(c byte) bool {
	return c < utf8.RuneSelf && strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
