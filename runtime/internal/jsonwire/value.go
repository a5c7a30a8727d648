package jsonwire

import (
	"encoding/json"
	"unicode/utf8"
)

// ParseValue decodes JSON into what the schema validator works on:
// map[string]any, []any, string, json.Number, bool and nil. It does what
// json.Decoder with UseNumber does, for a fraction of the allocations: it runs
// twice per tool call (arguments in, output out), so it is on the hot path.
func ParseValue(data []byte) (any, error) {
	p := valueParser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i != len(p.data) {
		return nil, ErrSyntax
	}
	return v, nil
}

type valueParser struct {
	data []byte
	i    int
}

func (p *valueParser) skipSpace() { p.i = SkipSpace(p.data, p.i) }

func (p *valueParser) value(depth int) (any, error) {
	if p.i >= len(p.data) {
		return nil, ErrSyntax
	}
	switch c := p.data[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.string()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, ErrSyntax
}

func (p *valueParser) literal(lit string) (err error) {
	p.i, err = skipLiteral(p.data, p.i, lit)
	return err
}

func (p *valueParser) object(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, ErrTooDeep
	}
	p.i++ // {
	m := make(map[string]any)
	p.skipSpace()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, ErrSyntax
		}
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, ErrSyntax
		}
		p.i++
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v // the last of duplicate keys wins, as in encoding/json
		p.skipSpace()
		if p.i >= len(p.data) {
			return nil, ErrSyntax
		}
		switch p.data[p.i] {
		case ',':
			p.i++
			p.skipSpace()
		case '}':
			p.i++
			return m, nil
		default:
			return nil, ErrSyntax
		}
	}
}

func (p *valueParser) array(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, ErrTooDeep
	}
	p.i++ // [
	a := []any{}
	p.skipSpace()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return a, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.skipSpace()
		if p.i >= len(p.data) {
			return nil, ErrSyntax
		}
		switch p.data[p.i] {
		case ',':
			p.i++
			p.skipSpace()
		case ']':
			p.i++
			return a, nil
		default:
			return nil, ErrSyntax
		}
	}
}

// string decodes a string token. Plain strings (no escapes, valid UTF-8) are
// sliced directly; others go through encoding/json so escapes, surrogates and
// invalid UTF-8 are handled exactly as when the arguments are later decoded
// into Go values.
func (p *valueParser) string() (string, error) {
	start := p.i
	p.i++ // "
	plain := true
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			tok := p.data[start:p.i]
			if plain {
				return string(tok[1 : len(tok)-1]), nil
			}
			var s string
			if err := json.Unmarshal(tok, &s); err != nil {
				return "", ErrSyntax
			}
			return s, nil
		case c == '\\':
			plain = false
			p.i += 2
		case c < 0x20:
			return "", ErrSyntax
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(p.data[p.i:])
			if r == utf8.RuneError && size == 1 {
				plain = false
			}
			p.i += size
		default:
			p.i++
		}
	}
	return "", ErrSyntax
}

func (p *valueParser) number() (any, error) {
	start := p.i
	if !p.skipNumber() {
		return nil, ErrSyntax
	}
	return json.Number(p.data[start:p.i]), nil
}

// skipNumber advances past a JSON number and reports whether there was a
// well-formed one (without building a value: skipValue must not allocate).
func (p *valueParser) skipNumber() bool {
	if p.data[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.data) && p.data[p.i] == '0':
		p.i++
	case p.digits() == 0:
		return false
	}
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return false
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return false
		}
	}
	return true
}

func (p *valueParser) digits() int {
	n := 0
	for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

// NumberEnd returns the end of the JSON number starting at data[i] (which
// must exist), and whether a well-formed one starts there.
func NumberEnd(data []byte, i int) (end int, ok bool) {
	p := valueParser{data: data, i: i}
	ok = p.skipNumber()
	return p.i, ok
}

// IsNumber reports whether s is exactly a JSON number.
func IsNumber(s string) bool {
	if s == "" || s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	p := valueParser{data: []byte(s)}
	_, err := p.number()
	return err == nil && p.i == len(s)
}
