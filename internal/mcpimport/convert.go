package mcpimport

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/internal/naming"
	"github.com/mcpgen/mcpgen/spec"
)

// untypable is why a schema cannot be written in the spec's schema
// language: the keyword that forced the raw fallback, and where it is.
type untypable struct {
	keyword, where string
}

func (u *untypable) Error() string {
	return fmt.Sprintf("%s: %s cannot be typed", u.where, u.keyword)
}

// The keywords each kind of schema keeps, beside the ones every schema
// keeps (annotations). Anything else forces the raw fallback.
var (
	commonKeys = []string{"type", "title", "description", "default", "examples", "enum", "const"}
	kindKeys   = map[string][]string{
		"string":  {"pattern", "format", "minLength", "maxLength", "x-mcp-header"},
		"integer": {"format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "x-mcp-header"},
		"number":  {"format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
		"array":   {"items", "minItems", "maxItems", "uniqueItems"},
		"object":  {"properties", "required", "additionalProperties"},
		"boolean": {"x-mcp-header"},
		"any":     {},
		"union":   {"anyOf", "oneOf"},
		"list":    {"pattern", "format", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
	}
	// rootOnly are keywords of a document's root that say nothing a value
	// is checked against here: the dialect and the definitions (which
	// become named types).
	rootOnly = []string{"$schema", "$id", "$defs", "definitions"}
)

// converter turns the JSON Schemas a server advertises (parsed as YAML
// nodes, which keep key order) into schemas of the spec language. One
// converter serves a whole import, so that the named types of all tools
// share one namespace.
type converter struct {
	types     ymap              // the spec's types:, in order of creation
	typeSrc   map[string]string // type name → the compact JSON of its source, to share equal definitions
	defs      map[string]*yaml.Node
	defNames  map[string]string // the current document's definition → type name
	converted map[string]bool   // type names whose schema is written (or being written)
	// nullable are the named types whose definition allows null: the
	// spec says nullable where a type is used, so the null moves from the
	// definition to every reference (markNullableRefs).
	nullable map[string]bool
}

func newConverter() *converter {
	return &converter{types: newMap(), typeSrc: map[string]string{}, nullable: map[string]bool{}}
}

// document converts the root of one schema document (a tool's input or
// output): its $defs become named types. It returns the spec schema, or an
// *untypable.
func (c *converter) document(root *yaml.Node, where string) (*yaml.Node, error) {
	c.defs, c.defNames, c.converted = map[string]*yaml.Node{}, map[string]string{}, map[string]bool{}
	// The names are taken before any conversion, so that definitions may
	// refer to each other (and themselves) in any order.
	for ref, def := range orderedDefs(root) {
		c.defs[ref] = def
		name := c.typeName(ref[strings.LastIndex(ref, "/")+1:], def)
		c.defNames[ref] = name
		if _, exists := c.typeSrc[name]; !exists {
			c.typeSrc[name] = compact(def)
		}
	}
	return c.schema(root, where, true)
}

// mark is the state of the named types before a document is converted;
// reset goes back to it when the document falls back to a raw schema, so
// that its definitions do not linger as unused types.
type mark struct {
	types int
	names map[string]bool
}

func (c *converter) mark() mark {
	names := map[string]bool{}
	for n := range c.typeSrc {
		names[n] = true
	}
	return mark{len(c.types.N.Content), names}
}

func (c *converter) reset(m mark) {
	c.types.N.Content = c.types.N.Content[:m.types]
	for n := range c.typeSrc {
		if !m.names[n] {
			delete(c.typeSrc, n)
		}
	}
}

// check loads a spec holding the named types and one tool with s as its
// input or output, and returns the first finding, if any: the spec's own
// rules (formats it knows, RE2 patterns, Go names) decide what stays typed.
func (c *converter) check(tool, key string, s *yaml.Node) string {
	t := newMap()
	t.Set("description", str("check"))
	t.Set(key, s)
	tools := newMap()
	tools.Set(tool, t.N)
	root := newMap()
	root.Set("mcpgen", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"})
	server := newMap()
	server.Set("name", str("check"))
	server.Set("version", str("1"))
	root.Set("server", server.N)
	goSec := newMap()
	goSec.Set("package", str("check"))
	root.Set("go", goSec.N)
	if c.types.Len() > 0 {
		root.Set("types", c.types.N)
	}
	root.Set("tools", tools.N)
	b, err := encode(root.N)
	if err != nil {
		return err.Error()
	}
	if _, diags := spec.Load("check.yaml", b); len(diags) > 0 {
		return diags[0].Message
	}
	return ""
}

// orderedDefs yields a document's definitions in the order written.
func orderedDefs(root *yaml.Node) func(yield func(string, *yaml.Node) bool) {
	return func(yield func(string, *yaml.Node) bool) {
		if root.Kind != yaml.MappingNode {
			return
		}
		for _, key := range []string{"$defs", "definitions"} {
			d := (ymap{N: root}).Get(key)
			if d == nil || d.Kind != yaml.MappingNode {
				continue
			}
			for i := 0; i+1 < len(d.Content); i += 2 {
				if !yield("#/"+key+"/"+d.Content[i].Value, d.Content[i+1]) {
					return
				}
			}
		}
	}
}

var typeNameRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// typeName is the type name of a definition: its own name when the spec
// allows it, else its Go spelling; a name another document already uses
// for a different schema gets 2, 3…
func (c *converter) typeName(def string, src *yaml.Node) string {
	base := def
	if !typeNameRe.MatchString(base) {
		base = naming.Exported(def)
		if base == "" {
			base = "Type"
		}
	}
	want := compact(src)
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = base + strconv.Itoa(i)
		}
		if got, ok := c.typeSrc[name]; !ok || got == want {
			return name
		}
	}
}

// compact is the JSON of a node, for comparing two schemas.
func compact(n *yaml.Node) string {
	var v any
	if err := n.Decode(&v); err != nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// schema converts one schema. root allows the document-level keywords.
func (c *converter) schema(n *yaml.Node, where string, root bool) (*yaml.Node, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		if n.Value == "true" {
			return typeOnly("any"), nil
		}
		return nil, &untypable{"the schema false", where}
	}
	if n.Kind != yaml.MappingNode {
		return nil, &untypable{"a schema that is not an object", where}
	}
	src := ymap{N: n}
	noOps := src.Len() > 0 && withoutNoOps(src)
	if bad := unknownKeywords(src, root); len(bad) > 0 {
		label := "the keyword " + bad[0]
		if len(bad) > 1 {
			label = "the keywords " + strings.Join(bad, ", ")
		}
		return nil, &untypable{label, where}
	}
	if ref := src.Get("$ref"); ref != nil {
		return c.ref(src, ref.Value, where)
	}
	kind, err := kindOf(src, where)
	if err != nil {
		return nil, err
	}
	out := newMap()
	var failed error
	src.Each(func(key string, v *yaml.Node) {
		if failed != nil {
			return
		}
		if root && slices.Contains(rootOnly, key) {
			return
		}
		if !slices.Contains(commonKeys, key) && !slices.Contains(kindKeys[kind], key) {
			failed = &untypable{keywordLabel(key), where}
			return
		}
		failed = c.keyword(out, src, kind, key, v, where)
	})
	if failed != nil {
		return nil, failed
	}
	if kind == "object" {
		if err := c.closeObject(out, src, where); err != nil {
			return nil, err
		}
		if noOps {
			out.Set("propertyNames", typeOnly("string")) // kept, to be advertised as written
		}
	}
	if kind == "any" && out.Get("type") == nil {
		out.Set("type", str("any"))
	}
	return flowSmall(out.N), nil
}

// withoutNoOps takes out of a schema the keywords that constrain nothing:
// propertyNames: {type: string} (every property name is a string), which
// an object or a map then says again (the spec's propertyNames), and other
// kinds leave out. It reports whether it took any; the comparison of a
// round trip (EquivalentForm) drops them alike.
func withoutNoOps(src ymap) bool {
	pn := src.Get("propertyNames")
	if pn == nil || !isTypeOnly(pn, "string") {
		return false
	}
	kept := src.N.Content[:0:0]
	for i := 0; i+1 < len(src.N.Content); i += 2 {
		if src.N.Content[i].Value != "propertyNames" {
			kept = append(kept, src.N.Content[i], src.N.Content[i+1])
		}
	}
	src.N.Content = kept
	return true
}

// isTypeOnly reports whether n is the schema {type: t}.
func isTypeOnly(n *yaml.Node, t string) bool {
	return n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "type" && n.Content[1].Value == t
}

// unknownKeywords are the keywords of a schema that no kind of spec schema
// keeps (allOf, if, then, not…), all of them, for the note.
func unknownKeywords(src ymap, root bool) []string {
	var bad []string
	src.Each(func(key string, _ *yaml.Node) {
		known := slices.Contains(commonKeys, key) || key == "$ref" || root && slices.Contains(rootOnly, key)
		for _, keys := range kindKeys {
			known = known || slices.Contains(keys, key)
		}
		if !known {
			bad = append(bad, key)
		}
	})
	return bad
}

func keywordLabel(key string) string {
	if key == "const" {
		return "const of this type"
	}
	return "the keyword " + key
}

// kindOf tells what a schema is: a union (anyOf, oneOf), a list of scalar
// types, one of JSON's types, or any.
func kindOf(src ymap, where string) (string, error) {
	if src.Get("anyOf") != nil || src.Get("oneOf") != nil {
		if src.Get("anyOf") != nil && src.Get("oneOf") != nil {
			return "", &untypable{"anyOf beside oneOf", where}
		}
		if src.Get("type") != nil {
			return "", &untypable{"type beside anyOf/oneOf", where}
		}
		return "union", nil
	}
	t := src.Get("type")
	switch {
	case t == nil:
	case t.Kind == yaml.SequenceNode:
		for _, e := range t.Content {
			if !slices.Contains([]string{"string", "integer", "number", "boolean", "null"}, e.Value) {
				if (e.Value == "object" || e.Value == "array") && len(t.Content) == 2 && slices.ContainsFunc(t.Content, func(n *yaml.Node) bool { return n.Value == "null" }) {
					return e.Value, nil // [object, null]: a nullable object, as the spec writes it
				}
				return "", &untypable{"a list of types with " + e.Value, where}
			}
		}
		if len(t.Content) == 1 {
			if t.Content[0].Value == "null" {
				return "", &untypable{"type [null]", where}
			}
			return t.Content[0].Value, nil
		}
		return "list", nil
	case t.Value == "null":
		return "", &untypable{"type null outside a union", where}
	case kindKeys[t.Value] != nil && t.Value != "any" && t.Value != "union" && t.Value != "list":
		return t.Value, nil
	default:
		return "", &untypable{fmt.Sprintf("type %q", t.Value), where}
	}
	// No type written: what the keywords say.
	switch {
	case src.Get("properties") != nil || src.Get("additionalProperties") != nil || src.Get("required") != nil:
		return "object", nil
	case src.Get("items") != nil:
		return "array", nil
	}
	for _, key := range []string{"enum", "const"} {
		if v := src.Get(key); v != nil {
			if v.Kind == yaml.SequenceNode && len(v.Content) > 0 {
				v = v.Content[0]
			}
			switch v.Tag {
			case "!!str":
				return "string", nil
			case "!!int":
				return "integer", nil
			case "!!float":
				return "number", nil
			case "!!bool":
				if key == "const" {
					return "boolean", nil
				}
			}
			return "", &untypable{key + " without type", where}
		}
	}
	return "any", nil
}

// ref converts {$ref: "#/$defs/X"} into {$ref: TypeName}, converting the
// definition the first time.
func (c *converter) ref(src ymap, target, where string) (*yaml.Node, error) {
	def, ok := c.defs[target]
	if !ok {
		return nil, &untypable{fmt.Sprintf("$ref %q (only #/$defs/… and #/definitions/… of the same document are followed)", target), where}
	}
	out := newMap()
	var failed error
	src.Each(func(key string, v *yaml.Node) {
		switch {
		case failed != nil:
		case key == "$ref":
			out.Set("$ref", str(c.defNames[target]))
		case key == "title" || key == "description":
			out.Set(key, plain(v))
		default:
			failed = &untypable{"the keyword " + key + " beside $ref", where}
		}
	})
	if failed != nil {
		return nil, failed
	}
	name := c.defNames[target]
	if !c.converted[name] && c.types.Get(name) == nil {
		c.converted[name] = true
		s, err := c.schema(def, "$defs."+target[strings.LastIndex(target, "/")+1:], false)
		if err != nil {
			return nil, err
		}
		if withoutNull(s) {
			c.nullable[name] = true
		}
		c.types.Set(name, s)
	}
	return flowSmall(out.N), nil
}

// keyword converts one keyword of a schema of the given kind.
func (c *converter) keyword(out, src ymap, kind, key string, v *yaml.Node, where string) error {
	switch key {
	case "type":
		if kind == "any" {
			return nil
		}
		out.Set("type", plain(v))
	case "anyOf", "oneOf":
		if v.Kind != yaml.SequenceNode {
			return &untypable{key + " that is not a list", where}
		}
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for i, variant := range v.Content {
			if isNullSchema(variant) {
				seq.Content = append(seq.Content, typeOnly("null"))
				continue
			}
			s, err := c.schema(variant, fmt.Sprintf("%s.%s[%d]", where, key, i), false)
			if err != nil {
				return err
			}
			seq.Content = append(seq.Content, s)
		}
		out.Set(key, seq)
	case "const":
		if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "!!int" && v.Tag != "!!float" && v.Tag != "!!bool") {
			return &untypable{"const " + compact(v) + " (the spec's const takes a string, a number or a boolean)", where}
		}
		out.Set(key, plain(v))
	case "enum":
		return c.enum(out, kind, v, where)
	case "items":
		if v.Kind == yaml.SequenceNode {
			return &untypable{"items as a list (a tuple)", where}
		}
		s, err := c.schema(v, where+"[]", false)
		if err != nil {
			return err
		}
		out.Set("items", s)
	case "properties":
		if v.Kind != yaml.MappingNode {
			return &untypable{"properties that is not an object", where}
		}
		props := newMap()
		goNames := map[string]bool{}
		var failed error
		ymap{N: v}.Each(func(name string, p *yaml.Node) {
			if failed != nil {
				return
			}
			s, err := c.schema(p, where+"."+name, false)
			if err != nil {
				failed = err
				return
			}
			if g := naming.Exported(name); g == "" || goNames[g] {
				// +1 and -1 are both N1: the wire name stays, the Go
				// field gets its own.
				s = withGoName(s, fmt.Sprintf("Field%d", props.Len()+1))
			} else {
				goNames[g] = true
			}
			props.Set(name, s)
		})
		if failed != nil {
			return failed
		}
		out.Set("properties", props.N)
	case "required":
		v = plain(v) // required: [] too: the wire says it
		v.Style = yaml.FlowStyle
		out.Set("required", v)
	case "additionalProperties":
		// closeObject decides, with properties in view.
	default:
		out.Set(key, plain(v))
	}
	return nil
}

// withGoName adds goName to a converted schema.
func withGoName(s *yaml.Node, goName string) *yaml.Node {
	m := ymap{N: s}
	m.Set("goName", str(goName))
	return flowSmall(s)
}

func isNullSchema(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		return false
	}
	return n.Content[0].Value == "type" && n.Content[1].Value == "null"
}

// enum keeps an enum of strings, integers or numbers; string values whose
// Go constant names collide or are empty get goNames.
func (c *converter) enum(out ymap, kind string, v *yaml.Node, where string) error {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return &untypable{"an enum that is not a list of values", where}
	}
	goNames := newMap()
	seen := map[string]bool{}
	for i, e := range v.Content {
		ok := e.Kind == yaml.ScalarNode && (e.Tag == "!!str" && (kind == "string" || kind == "list") ||
			e.Tag == "!!int" && (kind == "integer" || kind == "number" || kind == "list") ||
			e.Tag == "!!float" && (kind == "number" || kind == "list"))
		if !ok {
			return &untypable{"an enum value " + compact(e) + " of a " + kind + " schema", where}
		}
		if e.Tag == "!!str" {
			if g := naming.Exported(e.Value); g == "" || seen[g] {
				goNames.Set(e.Value, str(fmt.Sprintf("Value%d", i+1)))
			} else {
				seen[g] = true
			}
		}
	}
	seq := plain(v)
	seq.Style = yaml.FlowStyle
	out.Set("enum", seq)
	if goNames.Len() > 0 {
		out.Set("goNames", flowSmall(goNames.N))
	}
	return nil
}

// closeObject writes what additionalProperties says, in the spec's terms:
// its objects are closed unless they say additionalProperties: true (or
// null, when the server said nothing), and an
// object of free keys with one value schema is a map.
func (c *converter) closeObject(out, src ymap, where string) error {
	ap := src.Get("additionalProperties")
	props := src.Get("properties")
	// {} accepts any value, as true does.
	open := ap == nil || (ap.Kind == yaml.ScalarNode && ap.Value == "true") || (ap.Kind == yaml.MappingNode && len(ap.Content) == 0)
	nullable := false
	if t := src.Get("type"); t != nil && t.Kind == yaml.SequenceNode {
		nullable = true // [object, null]: out has the type as written
	}
	closed := ap != nil && ap.Kind == yaml.ScalarNode && ap.Value == "false"
	emptySchema := ap != nil && ap.Kind == yaml.MappingNode && len(ap.Content) == 0
	switch {
	case props == nil && open && !nullable && emptySchema:
		// {additionalProperties: {}}: a map of any values, which the
		// spec advertises so.
		out.Set("type", str("map"))
		out.Set("values", typeOnly("any"))
	case props == nil && open:
		if !nullable {
			out.Set("type", str("object")) // any object
		}
		if ap != nil && !emptySchema {
			out.Set("additionalProperties", boolean(true)) // as written
		}
	case open && emptySchema:
		out.Set("additionalProperties", flowSmall(newMap().N)) // {}, as written
	case open && ap == nil:
		// Open, as the server's JSON Schema is by saying nothing; the spec
		// says so with null, which advertises nothing either.
		out.Set("additionalProperties", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"})
	case open:
		out.Set("additionalProperties", boolean(true))
	case closed && props == nil:
		// No key at all, as written: {type: object, additionalProperties:
		// false} (properties: {} would be advertised too).
		if out.Get("type") == nil {
			out.Set("type", str("object"))
		}
		out.Set("additionalProperties", boolean(false))
	case closed:
	case props != nil:
		return &untypable{"additionalProperties as a schema beside properties", where}
	case nullable:
		return &untypable{"type [object, null] with additionalProperties as a schema (a nullable map)", where}
	default:
		values, err := c.schema(ap, where+"{}", false)
		if err != nil {
			return err
		}
		out.Set("type", str("map"))
		out.Set("values", values)
	}
	return nil
}

// typeOnly is {type: t}.
func typeOnly(t string) *yaml.Node {
	m := newMap()
	m.Set("type", str(t))
	return flowSmall(m.N)
}

// withoutNull takes null out of a converted schema that allows it (a
// {type: null} variant, or null in a list of types) and reports whether
// it did; a union left with one variant becomes that variant, with the
// keywords written beside the union.
func withoutNull(s *yaml.Node) bool {
	m := ymap{N: s}
	if t := m.Get("type"); t != nil && t.Kind == yaml.SequenceNode {
		kept := slices.DeleteFunc(slices.Clone(t.Content), func(n *yaml.Node) bool { return n.Value == "null" })
		if len(kept) == len(t.Content) {
			return false
		}
		if len(kept) == 1 {
			m.Set("type", kept[0])
		} else {
			t.Content = kept
		}
		return true
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		list := m.Get(key)
		if list == nil {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(list.Content), isNullSchema)
		if len(kept) == len(list.Content) {
			return false
		}
		if len(kept) > 1 {
			list.Content = kept
			return true
		}
		// T or null: T, with what was written beside the union.
		merged := newMap()
		ymap{N: kept[0]}.Each(func(k string, v *yaml.Node) { merged.Set(k, v) })
		m.Each(func(k string, v *yaml.Node) {
			if k != key {
				merged.Set(k, v)
			}
		})
		s.Content = merged.N.Content
		s.Style = 0
		return true
	}
	return false
}

// markNullableRefs writes nullable: true beside every $ref to a type whose
// definition allowed null.
func (c *converter) markNullableRefs(n *yaml.Node) {
	if len(c.nullable) == 0 {
		return
	}
	if n.Kind == yaml.MappingNode {
		m := ymap{N: n}
		if r := m.Get("$ref"); r != nil && c.nullable[r.Value] && m.Get("nullable") == nil {
			m.Set("nullable", boolean(true))
		}
	}
	for _, k := range n.Content {
		c.markNullableRefs(k)
	}
}
