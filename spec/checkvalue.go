package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonformat"
)

// jvalue is a parsed JSON value that keeps the key order of objects, so that
// the checker reports problems in the order of the file.
type jvalue struct {
	kind  jkind
	b     bool
	num   string // a JSON number, as written
	str   string
	items []*jvalue // arrays
	keys  []string  // objects: keys and values, in order
	vals  []*jvalue
}

type jkind int

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

func (x *jvalue) get(key string) *jvalue {
	if i := slices.Index(x.keys, key); i >= 0 {
		return x.vals[i]
	}
	return nil
}

// parseJSON parses one JSON value with numbers kept as text. It is a small
// recursive-descent parser: encoding/json's token API is several times
// slower, and values written with YAML anchors can be large.
func parseJSON(data []byte) (*jvalue, error) {
	p := &jsonParser{data: data}
	x, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.skipSpace(); p.i != len(p.data) {
		return nil, errors.New("trailing data")
	}
	return x, nil
}

type jsonParser struct {
	data []byte
	i    int
}

var errJSON = errors.New("invalid JSON")

func (p *jsonParser) skipSpace() {
	for p.i < len(p.data) && strings.IndexByte(" \t\r\n", p.data[p.i]) >= 0 {
		p.i++
	}
}

func (p *jsonParser) value(depth int) (*jvalue, error) {
	if depth > 10000 {
		return nil, errors.New("JSON nested too deeply")
	}
	p.skipSpace()
	if p.i >= len(p.data) {
		return nil, errJSON
	}
	switch c := p.data[p.i]; {
	case c == '{':
		p.i++
		x := &jvalue{kind: jObject}
		for first := true; ; first = false {
			p.skipSpace()
			if p.i < len(p.data) && p.data[p.i] == '}' && first {
				p.i++
				return x, nil
			}
			if !first {
				if p.i >= len(p.data) || p.data[p.i] != ',' {
					if p.i < len(p.data) && p.data[p.i] == '}' {
						p.i++
						return x, nil
					}
					return nil, errJSON
				}
				p.i++
				p.skipSpace()
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			if p.skipSpace(); p.i >= len(p.data) || p.data[p.i] != ':' {
				return nil, errJSON
			}
			p.i++
			val, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			x.keys = append(x.keys, k)
			x.vals = append(x.vals, val)
		}
	case c == '[':
		p.i++
		x := &jvalue{kind: jArray}
		for first := true; ; first = false {
			p.skipSpace()
			if p.i < len(p.data) && p.data[p.i] == ']' && first {
				p.i++
				return x, nil
			}
			if !first {
				if p.i >= len(p.data) || p.data[p.i] != ',' {
					if p.i < len(p.data) && p.data[p.i] == ']' {
						p.i++
						return x, nil
					}
					return nil, errJSON
				}
				p.i++
			}
			item, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			x.items = append(x.items, item)
		}
	case c == '"':
		s, err := p.str()
		return &jvalue{kind: jString, str: s}, err
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []struct {
			word string
			x    jvalue
		}{{"true", jvalue{kind: jBool, b: true}}, {"false", jvalue{kind: jBool}}, {"null", jvalue{kind: jNull}}} {
			if bytes.HasPrefix(p.data[p.i:], []byte(lit.word)) {
				p.i += len(lit.word)
				x := lit.x
				return &x, nil
			}
		}
		return nil, errJSON
	default:
		start := p.i
		for p.i < len(p.data) && strings.IndexByte("+-.eE0123456789", p.data[p.i]) >= 0 {
			p.i++
		}
		num := string(p.data[start:p.i])
		if !isJSONNumber(num) {
			return nil, errJSON
		}
		return &jvalue{kind: jNumber, num: num}, nil
	}
}

// str reads a JSON string; escapes are left to encoding/json.
func (p *jsonParser) str() (string, error) {
	if p.i >= len(p.data) || p.data[p.i] != '"' {
		return "", errJSON
	}
	start, escaped := p.i, false
	for p.i++; p.i < len(p.data); p.i++ {
		switch c := p.data[p.i]; {
		case c == '\\':
			escaped = true
			p.i++
		case c == '"':
			p.i++
			raw := p.data[start:p.i]
			if !escaped {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			err := json.Unmarshal(raw, &s)
			return s, err
		case c < 0x20:
			return "", errJSON
		}
	}
	return "", errJSON
}

// render writes x as compact JSON for messages, cut at about max bytes.
func render(x *jvalue, max int) string {
	var b strings.Builder
	renderTo(&b, x, max)
	if b.Len() > max {
		s := b.String()
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return s[:cut] + "…"
	}
	return b.String()
}

func renderTo(b *strings.Builder, x *jvalue, max int) {
	if b.Len() > max {
		return // the rest will be cut anyway
	}
	switch x.kind {
	case jNull:
		b.WriteString("null")
	case jBool:
		b.WriteString(strconv.FormatBool(x.b))
	case jNumber:
		b.WriteString(x.num)
	case jString:
		var buf bytes.Buffer
		writeJSONString(&buf, x.str)
		b.Write(buf.Bytes())
	case jArray:
		b.WriteByte('[')
		for i, item := range x.items {
			if i > 0 {
				b.WriteByte(',')
			}
			renderTo(b, item, max)
		}
		b.WriteByte(']')
	case jObject:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			var buf bytes.Buffer
			writeJSONString(&buf, k)
			b.Write(buf.Bytes())
			b.WriteByte(':')
			renderTo(b, x.vals[i], max)
		}
		b.WriteByte('}')
	}
}

// canonical is a key under which equal JSON values (as JSON Schema defines
// equality: 1 and 1.0 are equal, object key order does not matter) are
// identical, for enum and uniqueItems checks.
func canonical(x *jvalue) string {
	var b strings.Builder
	canonicalTo(&b, x)
	return b.String()
}

func canonicalTo(b *strings.Builder, x *jvalue) {
	switch x.kind {
	case jNumber:
		if r, ok := ratOf(x.num); ok {
			b.WriteString("n" + r.RatString())
		} else {
			b.WriteString("N" + x.num)
		}
	case jObject:
		order := make([]int, len(x.keys))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(i, j int) int { return strings.Compare(x.keys[i], x.keys[j]) })
		b.WriteByte('{')
		for _, i := range order {
			b.WriteString(strconv.Quote(x.keys[i]))
			b.WriteByte(':')
			canonicalTo(b, x.vals[i])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case jArray:
		b.WriteByte('[')
		for _, item := range x.items {
			canonicalTo(b, item)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	default:
		b.WriteString(render(x, 1<<30))
	}
}

// checker checks a JSON value against a spec schema the way the generated
// validator will: type, nullable, enum, string length and pattern, numeric
// bounds and multipleOf, array items, object properties. Formats are not
// checked (JSON Schema makes them annotations), nor are Go types, whose
// schema only reflection can tell.
type checker struct {
	v        *validator
	withEnum bool // false when checking the enum values themselves
}

// check returns why x does not match s, prefixed with the JSON pointer of the
// offending part, or "" if it matches. hops counts $refs followed without
// descending into the value, to stop on a loop of $refs.
func (c checker) check(s *Schema, x *jvalue, path string, hops int) string {
	if s == nil || c.v.skip[s] {
		return "" // cannot be judged; its problem is reported elsewhere
	}
	fail := func(format string, args ...any) string {
		msg := fmt.Sprintf(format, args...)
		if path != "" {
			return path + ": " + msg
		}
		return msg
	}
	if x.kind == jNull && s.Nullable {
		return ""
	}
	switch s.Kind {
	case KindAny, KindGoType:
		return ""
	case KindRef:
		nt := c.v.types[s.Ref]
		if nt == nil || hops > len(c.v.types) {
			return ""
		}
		return c.check(nt.Schema, x, path, hops+1)
	case KindUnion:
		return c.union(s, x, path, hops, fail)
	}
	if x.kind == jNull {
		return fail("null is not allowed (the schema is not nullable)")
	}
	if !fitsKind(s.Kind, x) {
		if x.kind == jNumber && s.Kind == KindInteger {
			return fail("%s is not an integer", x.num)
		}
		return fail("%s is %s, not %s", render(x, 40), jsonPhrase(x), kindPhrase(jsonKind(s.Kind)))
	}
	if c.withEnum && s.Const && len(s.Enum) == 1 && !c.inEnum(s, x) {
		return fail("%s is not the const value %s", render(x, 40), s.Enum[0].JSON)
	}
	if c.withEnum && len(s.Enum) > 0 && !c.inEnum(s, x) {
		var vals []string
		for i, e := range s.Enum {
			if i == 10 {
				vals = append(vals, "…")
				break
			}
			vals = append(vals, string(e.JSON))
		}
		return fail("%s is not one of %s", render(x, 40), strings.Join(vals, ", "))
	}
	c.withEnum = true // only the top value of an enum check skips the enum
	switch x.kind {
	case jString:
		n := int64(utf8.RuneCountInString(x.str))
		switch {
		case s.MinLength != nil && n < *s.MinLength:
			return fail("%s is shorter than minLength %d", render(x, 40), *s.MinLength)
		case s.MaxLength != nil && n > *s.MaxLength:
			return fail("%s is longer than maxLength %d", render(x, 40), *s.MaxLength)
		}
		if re, err := c.v.regexp(s); s.Pattern != "" && err == nil && !re.MatchString(x.str) {
			return fail("%s does not match the pattern %s", render(x, 40), s.Pattern)
		}
	case jNumber:
		return c.number(s, x, fail)
	case jArray:
		n := int64(len(x.items))
		switch {
		case s.MinItems != nil && n < *s.MinItems:
			return fail("the array has %s, fewer than minItems %d", items(n), *s.MinItems)
		case s.MaxItems != nil && n > *s.MaxItems:
			return fail("the array has %s, more than maxItems %d", items(n), *s.MaxItems)
		}
		if s.UniqueItems {
			first := map[string]int{}
			for i, item := range x.items {
				k := canonical(item)
				if j, dup := first[k]; dup {
					return fail("items %d and %d are equal, and uniqueItems is set", j, i)
				}
				first[k] = i
			}
		}
		for i, item := range x.items {
			if why := c.check(s.Items, item, path+"/"+strconv.Itoa(i), 0); why != "" {
				return why
			}
		}
	case jObject:
		if s.Kind == KindMap {
			for i, k := range x.keys {
				if why := c.check(s.Values, x.vals[i], path+"/"+pointerEscape(k), 0); why != "" {
					return why
				}
			}
			return ""
		}
		var names []string
		for _, p := range s.Properties {
			names = append(names, p.Name)
			val := x.get(p.Name)
			if val == nil {
				if p.Required {
					return fail("missing required property %q", p.Name)
				}
				continue
			}
			if why := c.check(p.Schema, val, path+"/"+pointerEscape(p.Name), 0); why != "" {
				return why
			}
		}
		if !s.AdditionalProperties {
			for _, k := range x.keys {
				if !slices.Contains(names, k) {
					return fail("unknown property %q%s", k, didYouMean(k, names))
				}
			}
		}
	}
	return ""
}

// union checks x against the variants of a union: at least one must
// accept it, and exactly one for oneOf.
func (c checker) union(s *Schema, x *jvalue, path string, hops int, fail func(string, ...any) string) string {
	var matched []int
	var first string // why the first variant refuses x
	for i, variant := range s.Variants {
		why := c.check(variant, x, path, hops+1)
		if why == "" {
			matched = append(matched, i+1)
		}
		if i == 0 {
			first = why
		}
	}
	switch {
	case len(matched) == 0 && x.kind == jNull:
		return fail("null is not allowed (the schema is not nullable)")
	case len(matched) == 0 && len(s.Variants) == 1:
		return first
	case len(matched) == 0:
		return fail("%s matches none of the %d variants of %s (variant 1: %s)", render(x, 40), len(s.Variants), unionWord(s), first)
	case len(matched) > 1 && s.UnionKeyword == UnionOneOf:
		return fail("%s matches variants %d and %d of oneOf, which wants exactly one", render(x, 40), matched[0], matched[1])
	}
	return ""
}

// unionWord names how a union was written, for messages.
func unionWord(s *Schema) string {
	if s.UnionKeyword == UnionTypeList {
		return "the list of types"
	}
	return s.UnionKeyword
}

func (c checker) number(s *Schema, x *jvalue, fail func(string, ...any) string) string {
	r, ok := ratOf(x.num)
	if !ok {
		return "" // too large to compare exactly
	}
	for _, b := range []struct {
		key  string
		n    *Number
		bad  func(cmp int) bool
		what string
	}{
		{"minimum", s.Minimum, func(c int) bool { return c < 0 }, "is less than"},
		{"maximum", s.Maximum, func(c int) bool { return c > 0 }, "is greater than"},
		{"exclusiveMinimum", s.ExclusiveMinimum, func(c int) bool { return c <= 0 }, "is not greater than"},
		{"exclusiveMaximum", s.ExclusiveMaximum, func(c int) bool { return c >= 0 }, "is not less than"},
	} {
		if b.n == nil {
			continue
		}
		if bound, ok := ratOf(string(*b.n)); ok && b.bad(r.Cmp(bound)) {
			return fail("%s %s %s %s", x.num, b.what, b.key, *b.n)
		}
	}
	if f, ok := jsonformat.Integer(s.Format); ok && s.Kind == KindInteger && (!r.IsInt() || !r.Num().IsInt64() || r.Num().Int64() < f.Min || r.Num().Int64() > f.Max) {
		return fail("%s is out of the range of format %s", x.num, f.Name)
	}
	if s.MultipleOf != nil {
		if m, ok := ratOf(string(*s.MultipleOf)); ok && m.Sign() > 0 && !new(big.Rat).Quo(r, m).IsInt() {
			return fail("%s is not a multiple of %s", x.num, *s.MultipleOf)
		}
	}
	return ""
}

func (c checker) inEnum(s *Schema, x *jvalue) bool {
	key := canonical(x)
	for _, e := range s.Enum {
		if e == nil {
			continue
		}
		if ev, err := parseJSON(e.JSON); err == nil && canonical(ev) == key {
			return true
		}
	}
	return false
}

// fitsKind reports whether x has the JSON type of kind k.
func fitsKind(k Kind, x *jvalue) bool {
	switch k {
	case KindString:
		return x.kind == jString
	case KindInteger:
		if x.kind != jNumber {
			return false
		}
		r, ok := ratOf(x.num)
		return !ok || r.IsInt() // a number too large to parse is integral anyway
	case KindNumber:
		return x.kind == jNumber
	case KindBoolean:
		return x.kind == jBool
	case KindArray:
		return x.kind == jArray
	case KindObject, KindMap:
		return x.kind == jObject
	}
	return true
}

// jsonKind is the JSON type a kind is sent as (a map is an object).
func jsonKind(k Kind) Kind {
	if k == KindMap {
		return KindObject
	}
	return k
}

// jsonPhrase names the JSON type of x with its article.
func jsonPhrase(x *jvalue) string {
	switch x.kind {
	case jBool:
		return "a boolean"
	case jNumber:
		return "a number"
	case jString:
		return "a string"
	case jArray:
		return "an array"
	case jObject:
		return "an object"
	}
	return "null"
}

// items is "1 item", "2 items".
func items(n int64) string {
	if n == 1 {
		return "1 item"
	}
	return strconv.FormatInt(n, 10) + " items"
}

// pointerEscape escapes a key for a JSON pointer (RFC 6901).
func pointerEscape(k string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}
