package openapi

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	oyaml "github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/internal/naming"
)

// componentPrefix starts every reference to a named schema.
const componentPrefix = "#/components/schemas/"

// maxDepth bounds how deep an inline schema is followed: a description
// whose inline schemas nest deeper (or loop through a non-component
// reference) gets `type: any` there instead of a stack overflow.
const maxDepth = 48

// jsonSchemaFormats are the formats the spec accepts (JSON Schema's own);
// OpenAPI's int32, int64, float, double, binary… say nothing a JSON value
// can be checked against, so they are dropped.
var jsonSchemaFormats = []string{
	"date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
	"ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
	"json-pointer", "relative-json-pointer", "regex",
}

// converter turns OpenAPI schemas into spec schemas. It writes a reference
// to a component as `$ref: TypeName` without following it, so circular
// references cost nothing here; cycles held by value are broken later (see
// breakCycles).
type converter struct {
	typeNames      map[string]string // component name → spec type name
	discriminators []*pendingDiscriminator
	notes          *notes

	// names are the type names taken; inlineNames the Go names gen makes
	// for the components' inline schemas (see inlineTypeNames).
	names       *nameSet
	inlineNames map[string]string
	// Shared schemas that are not components (see hoist.go).
	targets       map[*oyaml.Node]string
	hoisted       map[*oyaml.Node]*hoisted
	hoistedByName map[string]*hoisted
	hoistOrder    []string
}

// ref is the spec type name of a component reference, or "" for a
// reference elsewhere (another file, a path), which is then inlined.
func (c *converter) ref(sp *base.SchemaProxy) string {
	if !sp.IsReference() {
		return ""
	}
	name, ok := strings.CutPrefix(sp.GetReference(), componentPrefix)
	if !ok {
		return ""
	}
	return c.typeNames[name]
}

// schema converts one schema; where says where it is, for the notes.
func (c *converter) schema(sp *base.SchemaProxy, where string, depth int) ymap {
	m := newMap()
	if sp == nil {
		m.Set("type", str("any"))
		return m
	}
	if t := c.ref(sp); t != "" {
		m.Set("$ref", str(t))
		return m
	}
	if t := c.hoist(sp); t != "" {
		m.Set("$ref", str(t))
		return m
	}
	return c.inline(sp, where, depth)
}

// inline converts a schema without writing a component reference as $ref
// (the schema of a named type, or a body whose properties become inputs).
func (c *converter) inline(sp *base.SchemaProxy, where string, depth int) ymap {
	m := newMap()
	s := sp.Schema()
	if s == nil || depth > maxDepth {
		if err := sp.GetBuildError(); err != nil {
			c.notes.add("%s: unreadable schema (%v); written as type: any", where, err)
		}
		m.Set("type", str("any"))
		return m
	}
	c.describe(m, s)
	types, nullable := typesOf(s)
	switch {
	case len(types) == 0 && nullable && len(s.Type) > 0:
		m.Set("type", str("null")) // 3.1's {type: "null"}, a union's null variant
		return m
	case len(s.AllOf) > 0:
		c.allOf(m, s, where, depth)
	case len(s.OneOf) > 0 || len(s.AnyOf) > 0:
		c.union(m, s, where, depth)
	case s.Const != nil:
		c.constant(m, s, where)
	case len(types) > 1:
		m.Set("type", strList(types))
	default:
		t := ""
		if len(types) == 1 {
			t = types[0]
		}
		c.typed(m, s, t, where, depth)
	}
	// Title and description read best after what the value is.
	for _, k := range []string{"title", "description"} {
		if v := m.Get(k); v != nil {
			m.Del(k)
			m.Set(k, v)
		}
	}
	if nullable && m.Get("$ref") == nil {
		if t := m.Get("type"); t == nil || t.Value != "any" {
			m.Set("nullable", boolean(true))
		}
	}
	return m
}

// typesOf reads type (a list in 3.1) and nullability (3.0's nullable, 3.1's
// "null" in the list).
func typesOf(s *base.Schema) ([]string, bool) {
	nullable := s.Nullable != nil && *s.Nullable
	var types []string
	for _, t := range s.Type {
		if t == "null" {
			nullable = true
			continue
		}
		types = append(types, t)
	}
	return types, nullable
}

func (c *converter) describe(m ymap, s *base.Schema) {
	if s.Title != "" {
		m.Set("title", str(s.Title))
	}
	if d := strings.TrimSpace(s.Description); d != "" {
		m.Set("description", str(d))
	}
}

// typed converts a schema of one type (or none written).
func (c *converter) typed(m ymap, s *base.Schema, t, where string, depth int) {
	if t == "" {
		switch {
		case s.Properties != nil && s.Properties.Len() > 0, s.AdditionalProperties != nil:
			t = "object"
		case s.Items != nil:
			t = "array"
		case len(s.Enum) > 0:
			t = enumType(s.Enum)
		}
	}
	switch t {
	case "string":
		m.Set("type", str("string"))
		if s.Format != "" && slices.Contains(jsonSchemaFormats, s.Format) {
			m.Set("format", str(s.Format))
		}
		if s.Pattern != "" {
			if _, err := regexp.Compile(s.Pattern); err == nil {
				m.Set("pattern", str(s.Pattern))
			} else {
				c.notes.add("%s: pattern %q is not RE2; left out", where, s.Pattern)
			}
		}
		setInt(m, "minLength", s.MinLength)
		setInt(m, "maxLength", s.MaxLength)
	case "integer", "number":
		m.Set("type", str(t))
		setNum(m, "minimum", s.Minimum)
		setNum(m, "maximum", s.Maximum)
		c.exclusive(m, "exclusiveMinimum", "minimum", s.ExclusiveMinimum, s.Minimum)
		c.exclusive(m, "exclusiveMaximum", "maximum", s.ExclusiveMaximum, s.Maximum)
		if s.MultipleOf != nil && *s.MultipleOf > 0 {
			setNum(m, "multipleOf", s.MultipleOf)
		}
	case "boolean":
		m.Set("type", str("boolean"))
	case "array":
		m.Set("type", str("array"))
		if s.Items != nil && s.Items.IsA() {
			m.Set("items", flow(c.schema(s.Items.A, where+"[]", depth+1)))
		} else {
			m.Set("items", flow(anyMap()))
		}
		setInt(m, "minItems", s.MinItems)
		setInt(m, "maxItems", s.MaxItems)
		if s.UniqueItems != nil && *s.UniqueItems {
			m.Set("uniqueItems", boolean(true))
		}
	case "object":
		c.object(m, s, where, depth)
	default:
		m.Set("type", str("any"))
		return
	}
	c.enum(m, s, t, where)
	c.defaultValue(m, s, t)
}

// object converts properties; an object without properties is a map.
func (c *converter) object(m ymap, s *base.Schema, where string, depth int) {
	if s.Properties == nil || s.Properties.Len() == 0 {
		m.Set("type", str("object"))
		values := anyMap()
		if ap := s.AdditionalProperties; ap != nil && ap.IsA() {
			values = c.schema(ap.A, where+"{}", depth+1)
		}
		m.Set("additionalProperties", flow(values))
		return
	}
	props := newMap()
	goNames := map[string]string{}
	open := s.AdditionalProperties == nil || s.AdditionalProperties.IsA() || s.AdditionalProperties.B
	for name, p := range s.Properties.FromOldest() {
		if !c.addProperty(props, goNames, name, c.schema(p, where+"."+name, depth+1), where) {
			open = true
		}
	}
	m.Set("properties", props.N)
	var required []string
	for _, r := range s.Required {
		if props.Get(r) != nil && !slices.Contains(required, r) {
			required = append(required, r)
		}
	}
	if len(required) > 0 {
		m.Set("required", strList(required))
	}
	if open {
		// OpenAPI objects accept unknown keys unless they say otherwise;
		// the spec's are closed by default.
		m.Set("additionalProperties", boolean(true))
	}
}

// addProperty adds a property unless its Go field name is already taken
// (+1 and -1 are both N1) or it has none; such a property is left out,
// noted, and the object accepts it as an unknown key instead.
func (c *converter) addProperty(props ymap, goNames map[string]string, name string, sch ymap, where string) bool {
	g := naming.Exported(name)
	if g == "" {
		c.notes.add("%s: property %q has no Go field name; left out (accepted as an unknown key)", where, name)
		return false
	}
	if first, ok := goNames[g]; ok {
		c.notes.add("%s: property %q has the Go field name of %q; left out (accepted as an unknown key)", where, name, first)
		return false
	}
	goNames[g] = name
	props.Set(name, flow(sch))
	return true
}

// allOf merges the properties and required lists of every part (and of
// their own allOf) into one object. A part that is not an object makes the
// whole `type: any`.
func (c *converter) allOf(m ymap, s *base.Schema, where string, depth int) {
	var parts []*base.Schema
	ok := true
	var collect func(s *base.Schema, d int)
	collect = func(s *base.Schema, d int) {
		if d > maxDepth {
			ok = false
			return
		}
		parts = append(parts, s)
		for _, p := range s.AllOf {
			ps := p.Schema()
			if ps == nil {
				ok = false
				return
			}
			collect(ps, d+1)
		}
	}
	collect(s, depth)
	if len(s.AllOf) == 1 && (s.Properties == nil || s.Properties.Len() == 0) {
		// allOf: [$ref: X] is how 3.0 adds a description to a reference.
		if t := c.ref(s.AllOf[0]); t != "" {
			m.Set("$ref", str(t))
			m.Del("title")
			m.Del("description")
			return
		}
	}
	props := newMap()
	goNames := map[string]string{}
	var required []string
	open := false
	for _, p := range parts {
		if len(p.OneOf) > 0 || len(p.AnyOf) > 0 || (len(p.Type) > 0 && !slices.Contains(p.Type, "object")) {
			ok = false
		}
		if p.Properties != nil {
			for name, ps := range p.Properties.FromOldest() {
				if props.Get(name) != nil {
					continue // a later part narrowing a property: the first one stays
				}
				if !c.addProperty(props, goNames, name, c.schema(ps, where+"."+name, depth+1), where) {
					open = true
				}
			}
		}
		required = append(required, p.Required...)
		if p.AdditionalProperties == nil || p.AdditionalProperties.IsA() || p.AdditionalProperties.B {
			open = true
		}
	}
	if !ok || props.Len() == 0 {
		m.Set("type", str("any"))
		return
	}
	m.Set("properties", props.N)
	var req []string
	for _, r := range required {
		if props.Get(r) != nil && !slices.Contains(req, r) {
			req = append(req, r)
		}
	}
	if len(req) > 0 {
		m.Set("required", strList(req))
	}
	if open {
		m.Set("additionalProperties", boolean(true))
	}
}

// union writes oneOf/anyOf as the spec spells them: a list of schemas,
// each converted as any other (a $ref stays a reference).
func (c *converter) union(m ymap, s *base.Schema, where string, depth int) {
	key, list := "oneOf", s.OneOf
	if len(list) == 0 {
		key, list = "anyOf", s.AnyOf
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for i, p := range list {
		seq.Content = append(seq.Content, flow(c.schema(p, fmt.Sprintf("%s.%s[%d]", where, key, i), depth+1)))
	}
	m.Set(key, seq)
	c.noteDiscriminator(m, s.Discriminator, where)
}

// constant writes a scalar const as the spec's const; a const object or
// list says nothing the spec can hold and is `type: any`.
func (c *converter) constant(m ymap, s *base.Schema, where string) {
	if s.Const.Kind == oyaml.ScalarNode && s.Const.Tag != "!!null" && s.Const.Tag != "!!bool" {
		m.Set("const", scalar(s.Const.Tag, s.Const.Value))
		return
	}
	c.notes.add("%s: const %s is not a string or number; written as type: any", where, s.Const.Value)
	m.Set("type", str("any"))
}

// enum keeps an enum the spec can turn into Go constants: all strings (or
// all integers), each with a distinct constant name. Others are left out
// and noted; null in an enum makes the schema nullable.
func (c *converter) enum(m ymap, s *base.Schema, t, where string) {
	if len(s.Enum) == 0 {
		return
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	consts := map[string]bool{}
	for _, v := range s.Enum {
		switch {
		case v.Tag == "!!null":
			m.Set("nullable", boolean(true))
			continue
		case t == "string" && v.Tag == "!!str", t == "integer" && v.Tag == "!!int", t == "number" && (v.Tag == "!!int" || v.Tag == "!!float"):
		default:
			c.notes.add("%s: enum value %q does not match type %s; enum left out", where, v.Value, t)
			return
		}
		k := naming.Exported(v.Value)
		if t == "string" && (k == "" || consts[k]) {
			c.notes.add("%s: enum value %q has no distinct Go constant name; enum left out", where, v.Value)
			return
		}
		consts[k] = true
		seq.Content = append(seq.Content, scalar(v.Tag, v.Value))
	}
	if len(seq.Content) > 0 {
		m.Set("enum", seq)
	}
}

// defaultValue keeps a scalar default of the schema's own type that its
// enum and pattern accept; anything else is documentation the description
// already carries.
func (c *converter) defaultValue(m ymap, s *base.Schema, t string) {
	d := s.Default
	if d == nil || d.Kind != oyaml.ScalarNode {
		return
	}
	switch {
	case t == "string" && d.Tag == "!!str", t == "integer" && d.Tag == "!!int", t == "number" && (d.Tag == "!!int" || d.Tag == "!!float"), t == "boolean" && d.Tag == "!!bool":
	default:
		return
	}
	if e := m.Get("enum"); e != nil && !slices.ContainsFunc(e.Content, func(n *yaml.Node) bool { return n.Value == d.Value }) {
		return
	}
	if p := m.Get("pattern"); p != nil {
		if re, err := regexp.Compile(p.Value); err != nil || !re.MatchString(d.Value) {
			return
		}
	}
	if t == "string" {
		if ml := m.Get("minLength"); ml != nil {
			if n, _ := strconv.Atoi(ml.Value); len([]rune(d.Value)) < n {
				return
			}
		}
		if f := m.Get("format"); f != nil {
			return // whether the value is a valid date-time, uri… is not worth a guess
		}
	}
	if t == "integer" || t == "number" {
		v, err := strconv.ParseFloat(d.Value, 64)
		if err != nil || (s.Minimum != nil && v < *s.Minimum) || (s.Maximum != nil && v > *s.Maximum) {
			return
		}
	}
	m.Set("default", scalar(d.Tag, d.Value))
}

// exclusive writes exclusiveMinimum/Maximum: a number in 3.1, a flag on
// minimum/maximum in 3.0.
func (c *converter) exclusive(m ymap, key, bound string, v *base.DynamicValue[bool, float64], b *float64) {
	switch {
	case v == nil:
	case v.IsB():
		setNum(m, key, &v.B)
	case v.A && b != nil:
		m.Del(bound)
		setNum(m, key, b)
	}
}

func enumType(values []*oyaml.Node) string {
	switch values[0].Tag {
	case "!!int":
		return "integer"
	case "!!float":
		return "number"
	case "!!bool":
		return "boolean"
	}
	return "string"
}

func anyMap() ymap {
	m := newMap()
	m.Set("type", str("any"))
	return m
}

func setInt(m ymap, key string, v *int64) {
	if v != nil && *v >= 0 {
		m.Set(key, scalar("!!int", strconv.FormatInt(*v, 10)))
	}
}

func setNum(m ymap, key string, v *float64) {
	if v != nil {
		m.Set(key, scalar("!!float", strconv.FormatFloat(*v, 'f', -1, 64)))
	}
}
