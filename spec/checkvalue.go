package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonformat"
)

// decodeJSON reads one JSON value as encoding/json does, with numbers as
// json.Number (their text, so that no bound is rounded): nil, bool,
// json.Number, string, []any or map[string]any.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return x, nil
}

// render writes x as compact JSON for messages (object keys sorted), cut
// at about max bytes.
func render(x any, max int) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(x) // a decoded JSON value always encodes
	s := strings.TrimSuffix(b.String(), "\n")
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return s[:cut] + "…"
	}
	return s
}

// canonical is a key under which equal JSON values (as JSON Schema defines
// equality: 1 and 1.0 are equal, object key order does not matter) are
// identical, for enum and uniqueItems checks.
func canonical(x any) string {
	var b strings.Builder
	canonicalTo(&b, x)
	return b.String()
}

func canonicalTo(b *strings.Builder, x any) {
	switch x := x.(type) {
	case json.Number:
		if r, ok := ratOf(string(x)); ok {
			b.WriteString("n" + r.RatString())
		} else {
			b.WriteString("N" + string(x))
		}
	case map[string]any:
		b.WriteByte('{')
		for _, k := range slices.Sorted(maps.Keys(x)) {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			canonicalTo(b, x[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for _, item := range x {
			canonicalTo(b, item)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	default:
		b.WriteString(render(x, 1<<30))
	}
}

// checker checks a JSON value against a spec schema the way the generated
// validator will: type, nullable, enum, array items, object properties,
// and the constraint of each value keyword (keywords.go: lengths,
// pattern, bounds, multipleOf, an integer format's range, uniqueItems).
// Other formats are not checked (JSON Schema makes them annotations), nor
// are Go types, whose schema only reflection can tell.
type checker struct {
	v        *validator
	withEnum bool // false when checking the enum values themselves
}

// check returns why x (as decodeJSON reads it) does not match s, prefixed
// with the JSON pointer of the offending part, or "" if it matches. hops
// counts $refs followed without descending into the value, to stop on a
// loop of $refs.
func (c checker) check(s *Schema, x any, path string, hops int) string {
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
	if x == nil && s.Nullable {
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
	if x == nil {
		return fail("null is not allowed (the schema is not nullable)")
	}
	if !fitsKind(s.Kind, x) {
		if n, ok := x.(json.Number); ok && s.Kind == KindInteger {
			return fail("%s is not an integer", n)
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
	for _, k := range ValueKeywords {
		if k.check != nil && k.Present(s) {
			if why := k.check(c, k, s, x); why != "" {
				return fail("%s", why)
			}
		}
	}
	switch x := x.(type) {
	case []any:
		for i, item := range x {
			if why := c.check(s.Items, item, path+"/"+strconv.Itoa(i), 0); why != "" {
				return why
			}
		}
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x)) // a problem per run, the same one
		if s.Kind == KindMap {
			for _, k := range keys {
				if why := c.check(s.Values, x[k], path+"/"+pointerEscape(k), 0); why != "" {
					return why
				}
			}
			return ""
		}
		var names []string
		for _, p := range s.Properties {
			names = append(names, p.Name)
			val, ok := x[p.Name]
			if !ok {
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
			for _, k := range keys {
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
func (c checker) union(s *Schema, x any, path string, hops int, fail func(string, ...any) string) string {
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
	case len(matched) == 0 && x == nil:
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

func (c checker) inEnum(s *Schema, x any) bool {
	key := canonical(x)
	for _, e := range s.Enum {
		if e == nil {
			continue
		}
		if ev, err := decodeJSON(e.JSON); err == nil && canonical(ev) == key {
			return true
		}
	}
	return false
}

// fitsKind reports whether x has the JSON type of kind k.
func fitsKind(k Kind, x any) bool {
	switch k {
	case KindString:
		_, ok := x.(string)
		return ok
	case KindInteger:
		n, ok := x.(json.Number)
		if !ok {
			return false
		}
		r, ok := ratOf(string(n))
		return !ok || r.IsInt() // a number too large to parse is integral anyway
	case KindNumber:
		_, ok := x.(json.Number)
		return ok
	case KindBoolean:
		_, ok := x.(bool)
		return ok
	case KindArray:
		_, ok := x.([]any)
		return ok
	case KindObject, KindMap:
		_, ok := x.(map[string]any)
		return ok
	}
	return true
}

// The checks of the value keywords' constraints (Keyword.check): each
// judges only the values its keyword applies to.

// lengthCheck checks a string's length in characters against the bound
// of its keyword.
func lengthCheck(tooFar func(n, b int64) bool, what string) keywordCheck {
	return func(_ checker, k *Keyword, s *Schema, x any) string {
		str, ok := x.(string)
		if b := k.count(s); ok && tooFar(int64(utf8.RuneCountInString(str)), b) {
			return fmt.Sprintf("%s is %s %s %d", render(x, 40), what, k.Name, b)
		}
		return ""
	}
}

// countCheck checks an array's number of items against the bound of its
// keyword.
func countCheck(tooFar func(n, b int64) bool, what string) keywordCheck {
	return func(_ checker, k *Keyword, s *Schema, x any) string {
		a, ok := x.([]any)
		if b := k.count(s); ok && tooFar(int64(len(a)), b) {
			return fmt.Sprintf("the array has %s, %s %s %d", items(int64(len(a))), what, k.Name, b)
		}
		return ""
	}
}

// boundCheck checks a number against the bound of its keyword: bad says
// which comparisons of the value with the bound break it.
func boundCheck(bad func(cmp int) bool, what string) keywordCheck {
	return func(_ checker, k *Keyword, s *Schema, x any) string {
		n, ok := x.(json.Number)
		if !ok {
			return ""
		}
		bound := k.Text(s)
		r, ok := ratOf(string(n))
		b, bok := ratOf(bound)
		if ok && bok && bad(r.Cmp(b)) {
			return fmt.Sprintf("%s %s %s %s", n, what, k.Name, bound)
		}
		return ""
	}
}

func patternCheck(c checker, _ *Keyword, s *Schema, x any) string {
	str, ok := x.(string)
	if re, err := c.v.regexp(s); ok && err == nil && !re.MatchString(str) {
		return fmt.Sprintf("%s does not match the pattern %s", render(x, 40), s.Pattern)
	}
	return ""
}

// formatCheck checks an integer against the range of its format.
func formatCheck(_ checker, _ *Keyword, s *Schema, x any) string {
	n, ok := x.(json.Number)
	f, known := jsonformat.Integer(s.Format)
	if !ok || !known || s.Kind != KindInteger {
		return ""
	}
	if r, ok := ratOf(string(n)); ok && (!r.IsInt() || !r.Num().IsInt64() || r.Num().Int64() < f.Min || r.Num().Int64() > f.Max) {
		return fmt.Sprintf("%s is out of the range of format %s", n, f.Name)
	}
	return ""
}

func multipleOfCheck(_ checker, _ *Keyword, s *Schema, x any) string {
	n, ok := x.(json.Number)
	if !ok {
		return ""
	}
	r, ok := ratOf(string(n))
	m, mok := ratOf(string(*s.MultipleOf))
	if ok && mok && m.Sign() > 0 && !new(big.Rat).Quo(r, m).IsInt() {
		return fmt.Sprintf("%s is not a multiple of %s", n, *s.MultipleOf)
	}
	return ""
}

func uniqueCheck(_ checker, _ *Keyword, s *Schema, x any) string {
	a, _ := x.([]any)
	first := map[string]int{}
	for i, item := range a {
		k := canonical(item)
		if j, dup := first[k]; dup {
			return fmt.Sprintf("items %d and %d are equal, and uniqueItems is set", j, i)
		}
		first[k] = i
	}
	return ""
}

// jsonKind is the JSON type a kind is sent as (a map is an object).
func jsonKind(k Kind) Kind {
	if k == KindMap {
		return KindObject
	}
	return k
}

// jsonPhrase names the JSON type of x with its article.
func jsonPhrase(x any) string {
	switch x.(type) {
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
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
