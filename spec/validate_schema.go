package spec

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/internal/jsonformat"
)

// numberFormats are the formats of integers and numbers that OpenAPI and
// the schemas of MCP servers in the field write: on an integer, int32 and
// int64 bound the value (jsonformat); float and double are not checked.
var numberFormats = append(jsonformat.IntegerNames(), "float", "double")

// format checks s.Format: JSON Schema says an unknown format is an
// annotation, so one is advertised as written (servers in the field write
// "json", "int32"…), unless it is a near miss of a known one, which is
// taken for a typo.
func (v *validator) format(s *Schema) {
	known := jsonformat.Strings
	if s.Kind != KindString {
		known = numberFormats
	}
	if slices.Contains(known, s.Format) {
		return
	}
	if hint := didYouMean(s.Format, known); hint != "" {
		v.errorf(valuePos(s, "format"), "unknown format %q%s", s.Format, hint)
	}
}

// schema checks s and the schemas inside it.
func (v *validator) schema(s *Schema) {
	if s == nil || v.seen[s] {
		return
	}
	v.seen[s] = true
	if !v.skip[s] {
		v.schemaSelf(s)
	}
	if s.Items != nil {
		v.schema(s.Items)
	}
	seen := map[string]*Property{}
	for _, p := range s.Properties {
		if p == nil {
			continue
		}
		if first, dup := seen[p.Name]; dup {
			v.errorf(p.Pos, "duplicate property %q (first defined at %s)", p.Name, at(v.s.File, first.Pos))
			continue
		}
		seen[p.Name] = p
		if p.Name == "" {
			v.errorf(orPos(p.Pos, s.Pos), "a property name must not be empty")
		}
		v.schema(p.Schema)
	}
	if s.Values != nil {
		v.schema(s.Values)
	}
	for _, variant := range s.Variants {
		v.schema(variant)
	}
}

// keyPos is the position of key in s (the key itself), else of s.
func keyPos(s *Schema, key string) Pos {
	return orPos(s.Fields[key], s.Pos)
}

// valuePos is the position of key's value in s, else of the key, else of s.
func valuePos(s *Schema, key string) Pos {
	return orPos(s.FieldValues[key], keyPos(s, key))
}

// presentKeys lists the keys s holds: those written in the file when it was
// loaded, else those its fields say (a schema built in Go).
func presentKeys(s *Schema) []string {
	if s.Fields != nil {
		keys := make([]string, 0, len(s.Fields))
		for _, f := range schemaFields {
			if _, ok := s.Fields[f.key]; ok {
				keys = append(keys, f.key)
			}
		}
		return keys
	}
	var keys []string
	add := func(k string, present bool) {
		if present {
			keys = append(keys, k)
		}
	}
	add("$ref", s.Ref != "")
	add("goType", s.GoType != nil)
	add("enum", s.Enum != nil && !s.Const)
	add("const", s.Const)
	add("items", s.Items != nil)
	add("properties", s.Properties != nil)
	add("additionalProperties", s.AdditionalProperties)
	add("values", s.Values != nil)
	add(s.UnionKeyword, s.UnionKeyword == UnionAnyOf || s.UnionKeyword == UnionOneOf)
	add("discriminator", s.Discriminator != "")
	add("goName", s.GoName != "")
	add("goNames", s.EnumGoNames != nil)
	for _, k := range ValueKeywords {
		add(k.Name, k.Present(s))
	}
	return keys
}

// schemaSelf checks s itself, not the schemas inside it.
func (v *validator) schemaSelf(s *Schema) {
	if !slices.Contains(typeNames, string(s.Kind)) && s.Kind != KindRef && s.Kind != KindGoType && s.Kind != KindUnion {
		v.errorf(s.Pos, "unknown schema kind %q", s.Kind)
		return
	}
	// A constraint that does not apply to the kind is an error, never kept
	// silently: `minLength` on an integer is a mistake about the type.
	misplaced := map[string]bool{}
	valid := validKeys(s.Kind)
	for _, k := range presentKeys(s) {
		if slices.Contains(valid, k) {
			continue
		}
		misplaced[k] = true
		switch s.Kind {
		case KindRef, KindGoType:
			v.errorf(keyPos(s, k), "%s cannot be used with %s; only title, description, nullable, default and examples can", k, kindLabel(s.Kind))
		default:
			v.errorf(keyPos(s, k), "%s applies to %s, not %s", k, keyDomain(k), s.Kind)
		}
	}
	for _, k := range schemaKeys {
		if k.place != nil && !misplaced[k.Name] && k.Present(s) {
			v.placed[k] = append(v.placed[k], s)
		}
	}
	if s.Kind == KindMap && s.AdditionalProperties && !misplaced["additionalProperties"] {
		// additionalProperties: {schema} spells a map; true is an object's.
		v.errorf(keyPos(s, "additionalProperties"), "additionalProperties applies to objects, not map")
	}

	switch s.Kind {
	case KindRef:
		v.ref(s)
	case KindGoType:
		v.goType(s)
	case KindArray:
		if s.Items == nil {
			v.errorf(s.Pos, "an array schema needs items, the schema of every item")
		}
	case KindMap:
		if s.Values == nil && s.Fields["additionalProperties"] == (Pos{}) {
			v.errorf(s.Pos, "a map schema needs values, the schema of every value")
		}
	}
	if !misplaced["pattern"] && s.Pattern != "" {
		if _, err := v.regexp(s); err != nil {
			v.errorf(valuePos(s, "pattern"), "pattern does not compile: %v", err)
		}
	}
	if !misplaced["format"] && s.Format != "" {
		v.format(s)
	}
	v.lengths(s, "minLength", s.MinLength, "maxLength", s.MaxLength, misplaced)
	v.lengths(s, "minItems", s.MinItems, "maxItems", s.MaxItems, misplaced)
	v.bounds(s, misplaced)
	if !misplaced["enum"] && !misplaced["const"] {
		v.enum(s)
	}
	if !misplaced["goNames"] {
		v.enumGoNames(s)
	}
	if !misplaced["discriminator"] && s.Discriminator != "" {
		v.discriminator(s)
	}
	if s.Default != nil {
		v.value(s, s.Default, "default", true)
	}
	for _, e := range s.Examples {
		if e != nil {
			v.value(s, e, "example", true)
		}
	}
}

// regexp compiles the pattern of s once. The value checker needs it too,
// perhaps before s itself is validated (a default that refers to a type
// declared further down).
func (v *validator) regexp(s *Schema) (*regexp.Regexp, error) {
	if re, ok := v.patterns[s]; ok {
		return re, nil
	}
	re, err := regexp.Compile(s.Pattern)
	if err == nil {
		v.patterns[s] = re
	}
	return re, err
}

func (v *validator) ref(s *Schema) {
	p := orPos(s.RefPos, keyPos(s, "$ref"))
	switch {
	case s.Ref == "":
		v.errorf(p, "$ref must name a type")
	case v.types[s.Ref] == nil:
		v.errorf(p, "unknown type %q in $ref%s", s.Ref, didYouMean(s.Ref, v.typeNames))
	}
}

// goType checks "import/path.Name": a plausible import path and an exported
// identifier. Whether the package exists is the Go compiler's business.
func (v *validator) goType(s *Schema) {
	g := s.GoType
	if g == nil {
		v.errorf(s.Pos, "a goType schema needs a Go type")
		return
	}
	if validImportPath(g.ImportPath) && isExported(g.Name) {
		return
	}
	text := g.Name
	if g.ImportPath != "" {
		text = g.ImportPath + "." + g.Name
	}
	v.errorf(orPos(g.Pos, valuePos(s, "goType")), "goType %q must be an import path and an exported type name, such as time.Time or github.com/acme/orders/model.Order", text)
}

// isExported reports whether name is an exported Go identifier.
func isExported(name string) bool {
	r := []rune(name)
	if len(r) == 0 || !unicode.IsUpper(r[0]) {
		return false
	}
	for _, c := range r {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '_' {
			return false
		}
	}
	return true
}

// validImportPath accepts what `go` accepts in an import path element:
// letters, digits and -._~+, elements separated by single slashes.
func validImportPath(p string) bool {
	if p == "" {
		return false
	}
	for _, elem := range strings.Split(p, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
		for _, c := range elem {
			if !(c < unicode.MaxASCII && (unicode.IsLetter(c) || unicode.IsDigit(c)) || strings.ContainsRune("-._~+", c)) {
				return false
			}
		}
	}
	return true
}

// lengths checks a pair of length bounds: not negative, min ≤ max.
func (v *validator) lengths(s *Schema, minKey string, min *int64, maxKey string, max *int64, misplaced map[string]bool) {
	if misplaced[minKey] || misplaced[maxKey] {
		return
	}
	ok := true
	for _, b := range []struct {
		key string
		n   *int64
	}{{minKey, min}, {maxKey, max}} {
		if b.n != nil && *b.n < 0 {
			v.errorf(valuePos(s, b.key), "%s must not be negative", b.key)
			ok = false
		}
	}
	if ok && min != nil && max != nil && *min > *max {
		v.errorf(valuePos(s, maxKey), "%s %d is less than %s %d", maxKey, *max, minKey, *min)
	}
}

// bounds checks the numeric constraints: JSON numbers, integers for an
// integer schema, multipleOf > 0, and a range that is not empty.
func (v *validator) bounds(s *Schema, misplaced map[string]bool) {
	nums := map[string]*big.Rat{}
	for _, b := range []struct {
		key string
		n   *Number
	}{
		{"minimum", s.Minimum}, {"maximum", s.Maximum},
		{"exclusiveMinimum", s.ExclusiveMinimum}, {"exclusiveMaximum", s.ExclusiveMaximum},
		{"multipleOf", s.MultipleOf},
	} {
		if b.n == nil || misplaced[b.key] {
			continue
		}
		p := valuePos(s, b.key)
		text := string(*b.n)
		if !isJSONNumber(text) {
			v.errorf(p, "%s %q is not a number", b.key, text)
			continue
		}
		r, ok := ratOf(text)
		if !ok {
			continue // too large to compare; nothing sensible to say
		}
		switch {
		case s.Kind == KindInteger && !r.IsInt():
			v.errorf(p, "%s of an integer schema must be an integer, not %s", b.key, text)
		case b.key == "multipleOf" && r.Sign() <= 0:
			v.errorf(p, "multipleOf must be greater than 0")
		default:
			nums[b.key] = r
		}
	}
	for _, c := range []struct {
		lo, hi string
		strict bool // the range is empty when lo == hi too
	}{
		{"minimum", "maximum", false},
		{"minimum", "exclusiveMaximum", true},
		{"exclusiveMinimum", "maximum", true},
		{"exclusiveMinimum", "exclusiveMaximum", true},
	} {
		lo, hi := nums[c.lo], nums[c.hi]
		if lo == nil || hi == nil {
			continue
		}
		switch cmp := hi.Cmp(lo); {
		case cmp < 0 && !c.strict:
			v.errorf(valuePos(s, c.hi), "%s %s is less than %s %s", c.hi, *numberOf(s, c.hi), c.lo, *numberOf(s, c.lo))
		case cmp <= 0 && c.strict:
			v.errorf(valuePos(s, c.hi), "%s %s is not greater than %s %s", c.hi, *numberOf(s, c.hi), c.lo, *numberOf(s, c.lo))
		}
	}
}

func numberOf(s *Schema, key string) *Number {
	switch key {
	case "minimum":
		return s.Minimum
	case "maximum":
		return s.Maximum
	case "exclusiveMinimum":
		return s.ExclusiveMinimum
	case "exclusiveMaximum":
		return s.ExclusiveMaximum
	}
	return s.MultipleOf
}

// enum checks that every enum value fits the schema (its type and other
// constraints: a value that breaks them could never be sent) and that no
// value is listed twice.
func (v *validator) enum(s *Schema) {
	first := map[string]*Value{}
	for _, e := range s.Enum {
		if e == nil {
			continue
		}
		what := "enum value"
		if s.Const {
			what = "const value"
		}
		x, ok := v.value(s, e, what, false)
		if !ok {
			continue
		}
		key := canonical(x)
		if f, dup := first[key]; dup {
			v.errorf(orPos(e.Pos, s.Pos), "duplicate enum value %s (first listed at %s)", render(x, 40), at(v.s.File, orPos(f.Pos, s.Pos)))
			continue
		}
		first[key] = e
	}
}

// discriminator checks that the discriminator of a union tells its
// variants apart: every variant an object with the property required and
// one const (or single enum) value, a different one in each.
func (v *validator) discriminator(s *Schema) {
	p := valuePos(s, "discriminator")
	first := map[string]int{}
	for i, variant := range s.Variants {
		o, _ := v.resolve(variant)
		if o == nil || o.Kind != KindObject {
			v.errorf(p, "discriminator %q: variant %d is not an object", s.Discriminator, i+1)
			return
		}
		var value string
		for _, prop := range o.Properties {
			if prop.Name != s.Discriminator || !prop.Required {
				continue
			}
			if ps, _ := v.resolve(prop.Schema); ps != nil && len(ps.Enum) == 1 && ps.Enum[0] != nil {
				value = string(ps.Enum[0].JSON)
			}
		}
		if value == "" {
			v.errorf(p, "discriminator %q: variant %d has no required property %q with a const value", s.Discriminator, i+1, s.Discriminator)
			return
		}
		if j, dup := first[value]; dup {
			v.errorf(p, "discriminator %q: variants %d and %d both have the value %s", s.Discriminator, j, i+1, value)
			return
		}
		first[value] = i + 1
	}
}

// enumGoNames checks that goNames names values of the enum.
func (v *validator) enumGoNames(s *Schema) {
	if s.EnumGoNames == nil {
		return
	}
	var values []string
	for _, e := range s.Enum {
		if e != nil {
			values = append(values, enumValueText(e))
		}
	}
	if len(values) == 0 {
		v.errorf(keyPos(s, "goNames"), "goNames names the constants of an enum; add enum")
		return
	}
	var keys []string
	for k := range s.EnumGoNames {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(values, k) {
			v.errorf(orPos(s.FieldValues["goNames."+k], keyPos(s, "goNames")), "goNames: %q is not a value of the enum%s", k, didYouMean(k, values))
		}
	}
}

// enumValueText is the text of an enum value as goNames writes it: a
// string's own text, a number's JSON.
func enumValueText(e *Value) string {
	var str string
	if json.Unmarshal(e.JSON, &str) == nil {
		return str
	}
	return string(e.JSON)
}

// value checks a JSON value written in the spec against schema s, and
// returns it parsed. withEnum is false for the enum values themselves.
func (v *validator) value(s *Schema, val *Value, what string, withEnum bool) (any, bool) {
	p := orPos(val.Pos, s.Pos)
	x, err := decodeJSON(val.JSON)
	if err != nil {
		v.errorf(p, "%s is not valid JSON", what)
		return nil, false
	}
	c := checker{v: v, withEnum: withEnum}
	if why := c.check(s, x, "", 0); why != "" {
		v.errorf(p, "%s is invalid: %s", what, why)
		return x, false
	}
	return x, true
}

// ratOf parses a JSON number exactly. Numbers with huge exponents are
// refused (ok=false) rather than expanded: 1e1000000000 would take gigabytes.
func ratOf(text string) (*big.Rat, bool) {
	if !isJSONNumber(text) || len(text) > 1000 {
		return nil, false
	}
	if i := strings.IndexAny(text, "eE"); i >= 0 {
		var exp int
		if _, err := fmt.Sscan(strings.TrimPrefix(text[i+1:], "+"), &exp); err != nil || exp > 1000 || exp < -1000 {
			return nil, false
		}
	}
	return new(big.Rat).SetString(text)
}

// placements refuses a keyword written outside its place (Keyword.place):
// x-mcp-header off a property of a tool's input, a root-only keyword
// inside a schema.
func (v *validator) placements() {
	for _, k := range schemaKeys {
		if k.place == nil || len(v.placed[k]) == 0 {
			continue
		}
		at := map[*Schema]bool{}
		for _, s := range k.place.schemas(v.s) {
			at[s] = true
		}
		for _, s := range v.placed[k] {
			if !at[s] {
				v.errorf(keyPos(s, k.Name), "%s belongs %s, not here", k.Name, k.place.words)
			}
		}
	}
}
