package breaking

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/mcpgen/mcpgen/spec"
)

type direction int

const (
	input  direction = iota // clients send it: tightening breaks them
	output                  // clients read it: loosening breaks them
)

// schemaCtx compares the schemas of one tool input, tool output or
// template variable, old against new, through $refs.
type schemaCtx struct {
	d        *differ
	tool     string // the tool, for inputs and outputs
	template string // the template, for variables
	dir      direction
	// seen holds the pairs of resolved schemas already compared, so that
	// recursive types end.
	seen map[[2]*spec.Schema]bool
}

// what names the value at path in messages.
func (c *schemaCtx) what(path string) string {
	switch {
	case c.template != "":
		return fmt.Sprintf("variable %q of resource template %q", path, c.template)
	case path == "" && c.dir == input:
		return fmt.Sprintf("the input of tool %q", c.tool)
	case path == "":
		return fmt.Sprintf("the output of tool %q", c.tool)
	case c.dir == input:
		return fmt.Sprintf("input property %q of tool %q", path, c.tool)
	}
	return fmt.Sprintf("output property %q of tool %q", path, c.tool)
}

func (c *schemaCtx) typeRule() string {
	switch {
	case c.template != "":
		return "RESOURCE_TEMPLATE_SAME_VARIABLES"
	case c.dir == input:
		return "TOOL_INPUT_PROPERTY_SAME_TYPE"
	}
	return "TOOL_OUTPUT_PROPERTY_SAME_TYPE"
}

// resolve follows $refs; it returns the schema they end at and the last
// named type passed (nil when s is not a $ref).
func resolve(types map[string]*spec.NamedType, s *spec.Schema) (*spec.Schema, *spec.NamedType) {
	var last *spec.NamedType
	for i := 0; s != nil && s.Kind == spec.KindRef; i++ {
		nt := types[s.Ref]
		if nt == nil || i > len(types) {
			return nil, nil
		}
		last, s = nt, nt.Schema
	}
	return s, last
}

// kindName names the type of a resolved schema in messages.
func kindName(s *spec.Schema) string {
	switch s.Kind {
	case spec.KindGoType:
		return "Go type " + s.GoType.ImportPath + "." + s.GoType.Name
	case spec.KindMap:
		return "map"
	}
	return string(s.Kind)
}

// compatible reports whether a kind change is harmless in this direction:
// an input may widen (integer → number, anything → any), an output may
// narrow (number → integer, any → anything).
func (c *schemaCtx) compatible(from, to spec.Kind) bool {
	if c.dir == output {
		from, to = to, from
	}
	return to == spec.KindAny || from == spec.KindInteger && to == spec.KindNumber
}

// compare compares the values at path; here is the new element's position
// (a property's key, the root schema).
func (c *schemaCtx) compare(path string, o, n *spec.Schema, here spec.Pos) {
	if o == nil || n == nil {
		return
	}
	ro, _ := resolve(c.d.oldTypes, o)
	rn, named := resolve(c.d.newTypes, n)
	if ro == nil || rn == nil {
		return
	}
	what := c.what(path)
	oNull, nNull := o.Nullable || ro.Nullable, n.Nullable || rn.Nullable
	switch {
	case c.dir == input && oNull && !nNull:
		c.d.at(c.typeRule(), here, "%s no longer accepts null; clients that send null are refused", what)
	case c.dir == output && !oNull && nNull:
		c.d.at(c.typeRule(), here, "%s may now be null; clients that expect a value break", what)
	}
	if ko, kn := kindName(ro), kindName(rn); ko != kn {
		if !c.compatible(ro.Kind, rn.Kind) {
			c.d.at(c.typeRule(), here, "%s changed type from %s to %s", what, ko, kn)
		}
		return
	}
	key := [2]*spec.Schema{ro, rn}
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	// Inside a named type, what was removed is placed at the type.
	inner := here
	if named != nil {
		inner = named.Pos
	}
	if c.dir == input {
		c.enum(what, ro, rn, here)
		c.bounds(what, ro, rn, here)
	}
	switch ro.Kind {
	case spec.KindObject:
		c.object(path, ro, rn, inner)
	case spec.KindArray:
		if ro.Items != nil && rn.Items != nil {
			c.compare(path+"[]", ro.Items, rn.Items, rn.Items.Pos)
		}
	case spec.KindMap:
		if ro.Values != nil && rn.Values != nil {
			c.compare(path+"{}", ro.Values, rn.Values, rn.Values.Pos)
		}
	case spec.KindUnion:
		c.union(path, ro, rn, here)
	}
}

// union compares the variants of two unions, matched by what they are (the
// type a $ref names, else the kind), in order. An input that loses a
// variant refuses what it accepted; an output that gains one sends what
// clients do not expect; a variant kept is compared as any value is.
func (c *schemaCtx) union(path string, o, n *spec.Schema, here spec.Pos) {
	what := c.what(path)
	if c.dir == input && o.UnionKeyword != spec.UnionOneOf && n.UnionKeyword == spec.UnionOneOf {
		c.d.at(c.typeRule(), here, "%s is now a oneOf; a value that matches two variants is refused", what)
	}
	matched := map[int]bool{}
	match := func(v *spec.Schema, in []*spec.Schema) int {
		for i, w := range in {
			if !matched[i] && variantKey(v) == variantKey(w) {
				matched[i] = true
				return i
			}
		}
		return -1
	}
	for i, ov := range o.Variants {
		j := match(ov, n.Variants)
		switch {
		case j >= 0:
			c.compare(fmt.Sprintf("%s|%d", path, j+1), ov, n.Variants[j], orPos(n.Variants[j].Pos, here))
		case c.dir == input:
			c.d.at(c.typeRule(), here, "%s no longer accepts its variant %d (%s); clients that send it are refused", what, i+1, variantKey(ov))
		}
	}
	if c.dir == output {
		for j, nv := range n.Variants {
			if !matched[j] {
				c.d.at(c.typeRule(), orPos(nv.Pos, here), "%s may now be %s (a new variant); clients that do not expect it break", what, variantKey(nv))
			}
		}
	}
}

// variantKey says what a variant is, to match it across versions.
func variantKey(s *spec.Schema) string {
	if s.Kind == spec.KindRef {
		return "$ref " + s.Ref
	}
	return kindName(s)
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (c *schemaCtx) object(path string, o, n *spec.Schema, anchor spec.Pos) {
	newProps := map[string]*spec.Property{}
	for _, p := range n.Properties {
		newProps[p.Name] = p
	}
	oldProps := map[string]bool{}
	for _, op := range o.Properties {
		oldProps[op.Name] = true
		p := join(path, op.Name)
		np := newProps[op.Name]
		switch {
		case np == nil && c.dir == input:
			c.d.gone("TOOL_INPUT_PROPERTY_NO_DELETE", anchor, op.Pos, "%s was deleted; clients that send it are refused", c.what(p))
			continue
		case np == nil:
			c.d.gone("TOOL_OUTPUT_PROPERTY_NO_DELETE", anchor, op.Pos, "%s was deleted; clients that read it get nothing", c.what(p))
			continue
		case c.dir == input && np.Required && !op.Required:
			c.d.at("TOOL_INPUT_NO_NEW_REQUIRED", np.Pos, "%s is now required; clients that leave it out are refused", c.what(p))
		case c.dir == output && op.Required && !np.Required:
			c.d.at("TOOL_OUTPUT_NO_NEW_OPTIONAL", np.Pos, "%s is no longer required; clients that read it may get nothing", c.what(p))
		}
		c.compare(p, op.Schema, np.Schema, np.Pos)
	}
	if c.dir != input {
		return
	}
	for _, np := range n.Properties {
		if !oldProps[np.Name] && np.Required {
			c.d.at("TOOL_INPUT_NO_NEW_REQUIRED", np.Pos, "%s is new and required; clients that leave it out are refused", c.what(join(path, np.Name)))
		}
	}
	if o.AdditionalProperties && !n.AdditionalProperties {
		c.d.at("BOUND_NO_TIGHTEN", orPos(n.Fields["additionalProperties"], anchor), "%s no longer accepts unknown keys", c.what(path))
	}
}

// enum reports input enum values that are no longer accepted, and an enum
// put on a value that was free.
func (c *schemaCtx) enum(what string, o, n *spec.Schema, here spec.Pos) {
	if len(n.Enum) == 0 {
		return
	}
	if len(o.Enum) == 0 {
		var vals []string
		for _, v := range n.Enum {
			vals = append(vals, string(v.JSON))
		}
		c.d.at("BOUND_NO_TIGHTEN", orPos(n.Fields["enum"], here), "%s is now restricted to %s", what, strings.Join(vals, ", "))
		return
	}
	for _, ov := range o.Enum {
		found := false
		for _, nv := range n.Enum {
			if sameJSON(ov.JSON, nv.JSON) {
				found = true
				break
			}
		}
		if !found {
			c.d.gone("ENUM_VALUE_NO_DELETE", orPos(n.Fields["enum"], here), ov.Pos, "%s no longer accepts %s", what, string(ov.JSON))
		}
	}
}

// sameJSON compares two scalar JSON values, numbers by value (1 = 1.0).
func sameJSON(a, b []byte) bool {
	if string(a) == string(b) {
		return true
	}
	x, okx := new(big.Rat).SetString(string(a))
	y, oky := new(big.Rat).SetString(string(b))
	return okx && oky && x.Cmp(y) == 0
}

// bounds reports the input constraints that were added or tightened.
func (c *schemaCtx) bounds(what string, o, n *spec.Schema, here spec.Pos) {
	at := func(key string) spec.Pos { return orPos(n.FieldValues[key], orPos(n.Fields[key], here)) }
	report := func(key, format string, args ...any) {
		c.d.at("BOUND_NO_TIGHTEN", at(key), "%s: %s", what, fmt.Sprintf(format, args...))
	}
	intBound := func(key string, ov, nv *int64, lower bool) {
		switch {
		case nv == nil:
		case ov == nil:
			report(key, "%s %d added", key, *nv)
		case lower && *nv > *ov, !lower && *nv < *ov:
			report(key, "%s tightened from %d to %d", key, *ov, *nv)
		}
	}
	intBound("minLength", o.MinLength, n.MinLength, true)
	intBound("maxLength", o.MaxLength, n.MaxLength, false)
	intBound("minItems", o.MinItems, n.MinItems, true)
	intBound("maxItems", o.MaxItems, n.MaxItems, false)
	switch {
	case n.Pattern == "" || n.Pattern == o.Pattern:
	case o.Pattern == "":
		report("pattern", "pattern %s added", n.Pattern)
	default:
		report("pattern", "pattern changed from %s to %s", o.Pattern, n.Pattern)
	}
	switch {
	case n.Format == "" || n.Format == o.Format:
	case o.Format == "":
		report("format", "format %s added", n.Format)
	default:
		report("format", "format changed from %s to %s", o.Format, n.Format)
	}
	if n.UniqueItems && !o.UniqueItems {
		report("uniqueItems", "uniqueItems added")
	}
	numberBound("lower", o.Minimum, o.ExclusiveMinimum, n.Minimum, n.ExclusiveMinimum, true, report)
	numberBound("upper", o.Maximum, o.ExclusiveMaximum, n.Maximum, n.ExclusiveMaximum, false, report)
	switch {
	case n.MultipleOf == nil:
	case o.MultipleOf == nil:
		report("multipleOf", "multipleOf %s added", *n.MultipleOf)
	case !divides(*n.MultipleOf, *o.MultipleOf):
		report("multipleOf", "multipleOf changed from %s to %s", *o.MultipleOf, *n.MultipleOf)
	}
}

// bound is a numeric bound and whether it excludes its value.
type bound struct {
	v         *big.Rat
	exclusive bool
	text      string
	key       string
}

// effective combines an inclusive and an exclusive bound into the tighter.
func effective(incl, excl *spec.Number, lower bool) *bound {
	var out *bound
	for _, cand := range []struct {
		n         *spec.Number
		exclusive bool
		key       string
	}{{incl, false, "minimum"}, {excl, true, "exclusiveMinimum"}} {
		if cand.n == nil {
			continue
		}
		key := cand.key
		if !lower {
			key = strings.NewReplacer("minimum", "maximum", "Minimum", "Maximum").Replace(key)
		}
		r, ok := new(big.Rat).SetString(string(*cand.n))
		if !ok {
			continue
		}
		b := &bound{v: r, exclusive: cand.exclusive, text: string(*cand.n), key: key}
		if out == nil || tighter(b, out, lower) {
			out = b
		}
	}
	return out
}

// tighter reports whether bound a excludes more than b.
func tighter(a, b *bound, lower bool) bool {
	cmp := a.v.Cmp(b.v)
	if !lower {
		cmp = -cmp
	}
	return cmp > 0 || cmp == 0 && a.exclusive && !b.exclusive
}

func numberBound(side string, oIncl, oExcl, nIncl, nExcl *spec.Number, lower bool, report func(key, format string, args ...any)) {
	ob, nb := effective(oIncl, oExcl, lower), effective(nIncl, nExcl, lower)
	switch {
	case nb == nil:
	case ob == nil:
		report(nb.key, "%s %s added", nb.key, nb.text)
	case tighter(nb, ob, lower):
		report(nb.key, "%s bound tightened from %s %s to %s %s", side, ob.key, ob.text, nb.key, nb.text)
	}
}

// divides reports whether every multiple of old is a multiple of new (new
// divides old), so that the change accepts all it accepted.
func divides(newN, oldN spec.Number) bool {
	n, ok1 := new(big.Rat).SetString(string(newN))
	o, ok2 := new(big.Rat).SetString(string(oldN))
	if !ok1 || !ok2 || n.Sign() == 0 {
		return false
	}
	return new(big.Rat).Quo(o, n).IsInt()
}
