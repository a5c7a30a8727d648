package genimpl

import (
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/validate"
)

// Generated validating decoders (issue 20): for a tool input whose schema
// the generator fully understands, it writes a decoding table (table.go:
// an Object per struct, a rule per property) and passes the input's table
// to the tool's registration; the runtime hands each call's arguments to
// Object.Decode, which checks the arguments against the schema while it
// decodes them, in one pass
// over the JSON and without building the map[string]any the general
// validator needs. This file is the scanner and the scalar rules; table.go
// reads the tables.
//
// A decoder only ever says yes or "not me": anything it does not accept
// (a violation, but also a duplicate key, an escaped key, an integer
// written 1e2, …) makes it refuse, and the runtime then runs the general
// path on the same arguments: the general validator (the oracle) words
// the violations, so they are the same as without decoders, and what the
// decoder is unsure of is decided by the oracle. What a decoder accepts,
// the oracle accepts, with the same decoded value: the differential test
// and fuzz target in runtime (decoders_test.go) hold it to that.

// decoder is the state of one decoding: the arguments, the position in
// them, the nesting depth, and whether the decoder refused.
type decoder struct {
	data    []byte
	i       int
	depth   int
	refused bool
	// text is data as a string, copied on the first string value when
	// data is at most maxSharedText long: the decoded strings are its
	// substrings, so a call's strings cost one allocation, not one each.
	text string
}

// maxSharedText is the longest arguments whose strings share one copy of
// them: a kept string keeps the whole copy alive, which for small
// arguments costs less than an allocation per string; larger arguments
// copy each string on its own.
const maxSharedText = 4 << 10

// maxDepth is the nesting the decoder accepts: beyond it the general path
// decides (it refuses at 1 000 levels, a screening rule of its own).
const maxDepth = 500

// maxNumberLength is the longest number text the decoder reads: the
// general path screens longer ones.
const maxNumberLength = 100

func (d *decoder) space() { d.i = jsonwire.SkipSpace(d.data, d.i) }

// peek is the next byte after whitespace, 0 at the end.
func (d *decoder) peek() byte {
	d.space()
	if d.i >= len(d.data) {
		return 0
	}
	return d.data[d.i]
}

// open starts an object: it reports whether one starts here (else the
// decoder refuses).
func (d *decoder) open() bool { return d.enter('{') }

// enter starts an object or array, whose first byte is c: it reports
// whether one starts here and is not nested too deep (else the decoder
// refuses).
func (d *decoder) enter(c byte) bool {
	if d.refused || d.peek() != c {
		d.refused = true
		return false
	}
	d.depth++
	if d.depth > maxDepth {
		d.refused = true
		return false
	}
	d.i++
	return true
}

// next moves to the next member of the object open started (first says
// whether it is the first) and returns its key, or ok false at the end of
// the object or on refusal. The key aliases the arguments: it is compared,
// never kept.
func (d *decoder) next(first bool) (key string, ok bool) {
	if d.refused {
		return "", false
	}
	c := d.peek()
	if c == '}' {
		d.i++
		d.depth--
		return "", false
	}
	if !first {
		if c != ',' {
			d.refused = true
			return "", false
		}
		d.i++
		c = d.peek()
	}
	if c != '"' {
		d.refused = true
		return "", false
	}
	start := d.i + 1
	end, plain := d.stringEnd()
	if !plain || d.refused { // an escaped key: the general path decides
		d.refused = true
		return "", false
	}
	d.i = end
	if d.peek() != ':' {
		d.refused = true
		return "", false
	}
	d.i++
	d.space()
	if end-1 == start {
		return "", true
	}
	return unsafe.String(&d.data[start], end-1-start), true
}

// stringEnd scans the string at d.i: the index after its closing quote,
// and whether it is plain (no escapes, valid UTF-8). It refuses on a
// control character or no closing quote.
func (d *decoder) stringEnd() (end int, plain bool) {
	plain = true
	for i := d.i + 1; i < len(d.data); {
		c := d.data[i]
		switch {
		case c == '"':
			return i + 1, plain
		case c == '\\':
			plain = false
			i += 2
		case c < 0x20:
			d.refused = true
			return i, false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d.data[i:])
			if r == utf8.RuneError && size == 1 {
				plain = false
			}
			i += size
		default:
			i++
		}
	}
	d.refused = true
	return len(d.data), false
}

// str reads a string value.
func (d *decoder) str() (string, bool) {
	if d.refused || d.peek() != '"' {
		d.refused = true
		return "", false
	}
	end, plain := d.stringEnd()
	if d.refused {
		return "", false
	}
	start := d.i
	tok := d.data[start:end]
	d.i = end
	if plain {
		if len(d.data) > maxSharedText {
			return string(tok[1 : len(tok)-1]), true
		}
		if d.text == "" {
			d.text = string(d.data)
		}
		return d.text[start+1 : end-1], true
	}
	var s string // escapes and invalid UTF-8 decode as the general path decodes them
	if json.Unmarshal(tok, &s) != nil {
		d.refused = true
		return "", false
	}
	return s, true
}

// number reads a number's text.
func (d *decoder) number() (string, bool) {
	if d.refused {
		return "", false
	}
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.refused = true
		return "", false
	}
	start := d.i
	end, ok := jsonwire.NumberEnd(d.data, start)
	if !ok || end-start > maxNumberLength {
		d.refused = true
		return "", false
	}
	d.i = end
	return unsafe.String(&d.data[start], d.i-start), true
}

// StringRule is what a string schema asks beyond the type. Enum, when set,
// lists the allowed values (const is an enum of one).
type StringRule struct {
	MinLength    int64 // 0: no bound
	MaxLength    int64 // when HasMaxLength
	HasMaxLength bool
	Pattern      string
	Format       string
	Enum         []string

	once sync.Once
	re   *regexp.Regexp // Pattern, compiled on first use
}

func (r *StringRule) accepts(s string) bool {
	if r.MinLength > 0 || r.HasMaxLength {
		n := int64(utf8.RuneCountInString(s))
		if n < r.MinLength || r.HasMaxLength && n > r.MaxLength {
			return false
		}
	}
	if r.Enum != nil {
		found := false
		for _, e := range r.Enum {
			if e == s {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if r.Pattern != "" {
		r.once.Do(func() { r.re, _ = regexp.Compile(r.Pattern) })
		if r.re == nil || !r.re.MatchString(s) {
			return false // a pattern Go cannot compile: the general path says why
		}
	}
	return r.Format == "" || validate.FormatValid(r.Format, s)
}

// decodeString decodes a string into *p, checked against r (nil: any
// string), and reports whether it did.
func decodeString(d *decoder, p *string, r *StringRule) bool {
	s, ok := d.str()
	if !ok {
		return false
	}
	if r != nil && !r.accepts(s) {
		d.refused = true
		return false
	}
	*p = s
	return true
}

// decodeBool decodes a boolean into *p and reports whether it did.
func decodeBool(d *decoder, p *bool) bool {
	if d.refused {
		return false
	}
	switch d.peek() {
	case 't':
		if len(d.data)-d.i >= 4 && string(d.data[d.i:d.i+4]) == "true" {
			d.i += 4
			*p = true
			return true
		}
	case 'f':
		if len(d.data)-d.i >= 5 && string(d.data[d.i:d.i+5]) == "false" {
			d.i += 5
			*p = false
			return true
		}
	}
	d.refused = true
	return false
}

// IntRule is what an integer schema asks beyond the type, with its bounds
// already rounded to integers by the generator (minimum 1.5 is Min 2).
type IntRule struct {
	HasMin, HasMax bool
	Min, Max       int64
	MultipleOf     int64 // 0: none
}

// decodeInt decodes an integer written as an integer literal into *p, checked
// against r (nil: none), and reports whether it did. 1e2 and 5.0 are
// integers to JSON Schema but not to encoding/json: the general path
// rewrites them, so the decoder refuses them.
func decodeInt(d *decoder, p *int64, r *IntRule) bool {
	text, ok := d.number()
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || r != nil && (r.HasMin && n < r.Min || r.HasMax && n > r.Max || r.MultipleOf != 0 && n%r.MultipleOf != 0) {
		d.refused = true
		return false
	}
	*p = n
	return true
}

// NumberRule is what a number schema asks beyond the type. The generator
// writes only bounds a float64 holds exactly, so comparing the decoded
// float64 is exact except when it equals the bound: then the number's
// text is compared exactly (1e-400 decodes to 0 but is not 0).
type NumberRule struct {
	Min, Max                   Bound
	ExclusiveMin, ExclusiveMax Bound
}

// Bound is one bound of a number; Set false means none.
type Bound struct {
	Set   bool
	Value float64
}

// decodeNumber decodes a number into *p, checked against r (nil: none),
// and reports whether it did.
func decodeNumber(d *decoder, p *float64, r *NumberRule) bool {
	text, ok := d.number()
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) || f == 0 && !isZero(text) {
		d.refused = true // out of float64's range: the general path words it
		return false
	}
	if r != nil && !r.accepts(f, text) {
		d.refused = true
		return false
	}
	*p = f
	return true
}

func (r *NumberRule) accepts(f float64, text string) bool {
	return r.Min.check(f, text, 1, true) && r.Max.check(f, text, -1, true) &&
		r.ExclusiveMin.check(f, text, 1, false) && r.ExclusiveMax.check(f, text, -1, false)
}

// check reports whether f (decoded from text) is on the allowed side of
// b: sign 1 for a lower bound, -1 for an upper; inclusive for minimum and
// maximum.
func (b Bound) check(f float64, text string, sign int, inclusive bool) bool {
	if !b.Set {
		return true
	}
	var c int
	switch {
	case f > b.Value:
		c = 1
	case f < b.Value:
		c = -1
	default: // rounding may have hidden the difference: compare exactly
		x, ok := new(big.Rat).SetString(text)
		if !ok {
			return false
		}
		c = x.Cmp(new(big.Rat).SetFloat64(b.Value))
	}
	c *= sign
	return c > 0 || c == 0 && inclusive
}

// isZero reports whether a number's text is a zero (0, -0.0, 0e5).
func isZero(text string) bool {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == 'e' || c == 'E':
			return true
		case c >= '1' && c <= '9':
			return false
		}
	}
	return true
}

// ArrayRule is what an array schema asks beyond its items.
type ArrayRule struct {
	MinItems    int64 // 0: no bound
	MaxItems    int64 // when HasMaxItems
	HasMaxItems bool
}

func (r *ArrayRule) accepts(n int) bool {
	return r == nil || int64(n) >= r.MinItems && (!r.HasMaxItems || int64(n) <= r.MaxItems)
}
