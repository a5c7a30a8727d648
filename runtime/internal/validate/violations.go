package validate

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/safetext"
	jsonschema "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// A model that sent bad arguments gets every violation at once, each with the
// JSON pointer of the offending value and a sentence saying what would be
// accepted (SEP-1303: input errors are tool results the model can act on).
// The validator's own messages ("minLength: got 1, want 3") are rewritten.

// Violation is one way an instance breaks its schema.
type Violation struct {
	Ptr string // JSON pointer of the value; "" is the whole input
	Msg string // "must …"
	// Unknown marks a property that additionalProperties: false refuses
	// (decoding into a Go struct drops it).
	Unknown bool
	want    []string // for type mismatches: the accepted types, to merge alternatives
}

// maxViolations caps the list: hostile input may break a schema in thousands
// of places, and the answer must stay small.
const maxViolations = 50

// explain flattens a validation error into violations sorted by location
// (the validator walks maps in random order).
func explain(e *jsonschema.ValidationError, inst, doc any) []Violation {
	var out []Violation
	collect(e, inst, doc, &out)
	slices.SortStableFunc(out, func(a, b Violation) int {
		return cmp.Or(strings.Compare(a.Ptr, b.Ptr), strings.Compare(a.Msg, b.Msg))
	})
	return slices.CompactFunc(out, func(a, b Violation) bool { return a.Ptr == b.Ptr && a.Msg == b.Msg })
}

// collect appends the violations under e. The error tree has a level per
// level of the instance, so the pointer is rendered only where a violation is
// reported: rendering it at every level cost O(depth²) on deep trees.
func collect(e *jsonschema.ValidationError, inst, doc any, out *[]Violation) {
	switch e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range e.Causes {
			collect(c, inst, doc, out)
		}
		if len(e.Causes) == 0 {
			*out = append(*out, Violation{Ptr: pointer(e.InstanceLocation), Msg: "is invalid"})
		}
		return
	}
	ptr := pointer(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, name := range k.Missing {
			*out = append(*out, Violation{Ptr: ptr + "/" + token(name), Msg: "is required but missing"})
		}
	case *kind.AdditionalProperties:
		allowed := allowedProperties(doc, e.SchemaURL)
		for _, name := range k.Properties {
			*out = append(*out, Violation{Ptr: ptr + "/" + token(name), Msg: "is not allowed: unknown property" + allowed, Unknown: true})
		}
	case *kind.OneOf:
		if len(k.Subschemas) >= 2 {
			*out = append(*out, Violation{Ptr: ptr, Msg: fmt.Sprintf(
				"must match exactly one of the allowed alternatives, but matches alternatives %d and %d", k.Subschemas[0], k.Subschemas[1])})
			return
		}
		*out = append(*out, alternatives(e, ptr, inst, doc))
	case *kind.AnyOf:
		*out = append(*out, alternatives(e, ptr, inst, doc))
	case *kind.Type:
		*out = append(*out, Violation{Ptr: ptr, Msg: "must be " + typeNames(k.Want) + " (got " + display(valueAt(inst, e.InstanceLocation)) + ")", want: k.Want})
	default:
		*out = append(*out, Violation{Ptr: ptr, Msg: describe(e.ErrorKind, valueAt(inst, e.InstanceLocation))})
	}
}

// alternatives explains an anyOf/oneOf that nothing matched by what each
// alternative wanted: "must be a string or null (got 5)" when they only
// disagree on the type, "must …, or must …" otherwise.
func alternatives(e *jsonschema.ValidationError, ptr string, inst, doc any) Violation {
	var want []string
	var parts []string
	typesOnly := true
	for _, c := range e.Causes {
		var sub []Violation
		collect(c, inst, doc, &sub)
		if len(sub) != 1 || sub[0].want == nil || sub[0].Ptr != ptr {
			typesOnly = false
		} else {
			want = append(want, sub[0].want...)
		}
		texts := make([]string, 0, len(sub))
		for _, s := range sub {
			if rel := strings.TrimPrefix(s.Ptr, ptr); rel != "" {
				texts = append(texts, rel+" "+s.Msg)
			} else {
				texts = append(texts, s.Msg)
			}
		}
		parts = append(parts, strings.Join(texts, " and "))
	}
	if typesOnly && len(want) > 0 {
		return Violation{Ptr: ptr, Msg: "must be " + typeNames(slices.Compact(want)) + " (got " + display(valueAt(inst, e.InstanceLocation)) + ")"}
	}
	return Violation{Ptr: ptr, Msg: strings.Join(parts, ", or ")}
}

// describe words one violation. got is the offending value.
func describe(k jsonschema.ErrorKind, got any) string {
	g := " (got " + display(got) + ")"
	switch k := k.(type) {
	case *kind.Enum:
		if len(k.Want) == 1 {
			return "must be " + display(k.Want[0]) + g
		}
		vals := make([]string, 0, min(len(k.Want), 20))
		for i, w := range k.Want {
			if i == 20 {
				vals = append(vals, "…")
				break
			}
			vals = append(vals, display(w))
		}
		return "must be one of " + strings.Join(vals, ", ") + g
	case *kind.Const:
		return "must be " + display(k.Want) + g
	case *kind.Format:
		return "must be a valid " + safetext.Sanitize(k.Want, safetext.MaxLen) + g
	case *kind.Pattern:
		return "must match pattern " + safetext.QuoteN(k.Want, 200) + " (got " + safetext.Quote(k.Got) + ")"
	case *kind.MinLength:
		return fmt.Sprintf("must be at least %s long (got %d)", count(k.Want, "character"), k.Got)
	case *kind.MaxLength:
		return fmt.Sprintf("must be at most %s long (got %d)", count(k.Want, "character"), k.Got)
	case *kind.Minimum:
		return "must be greater than or equal to " + rat(k.Want) + g
	case *kind.Maximum:
		return "must be less than or equal to " + rat(k.Want) + g
	case *kind.ExclusiveMinimum:
		return "must be greater than " + rat(k.Want) + g
	case *kind.ExclusiveMaximum:
		return "must be less than " + rat(k.Want) + g
	case *kind.MultipleOf:
		return "must be a multiple of " + rat(k.Want) + g
	case *kind.MinItems:
		return fmt.Sprintf("must have at least %s (got %d)", count(k.Want, "item"), k.Got)
	case *kind.MaxItems:
		return fmt.Sprintf("must have at most %s (got %d)", count(k.Want, "item"), k.Got)
	case *kind.UniqueItems:
		return fmt.Sprintf("must not contain duplicates (items %d and %d are equal)", k.Duplicates[0], k.Duplicates[1])
	case *kind.MinProperties:
		return fmt.Sprintf("must have at least %s (got %d)", count(k.Want, "property"), k.Got)
	case *kind.MaxProperties:
		return fmt.Sprintf("must have at most %s (got %d)", count(k.Want, "property"), k.Got)
	case *kind.DependentRequired:
		return "property " + safetext.Quote(k.Prop) + " also requires " + quotedList(k.Missing)
	case *kind.Dependency:
		return "property " + safetext.Quote(k.Prop) + " also requires " + quotedList(k.Missing)
	case *kind.PropertyNames:
		return "property name " + safetext.Quote(k.Property) + " is not allowed"
	case *kind.Not:
		return "must not match the schema under \"not\"" + g
	case *kind.FalseSchema:
		return "is not allowed"
	case *kind.AdditionalItems:
		return fmt.Sprintf("has %s more than allowed", count(k.Count, "item"))
	case *kind.Contains:
		return "must contain an item matching the schema under \"contains\""
	case *kind.MinContains:
		return fmt.Sprintf("must contain at least %d items matching the schema under \"contains\" (got %d)", k.Want, len(k.Got))
	case *kind.MaxContains:
		return fmt.Sprintf("must contain at most %d items matching the schema under \"contains\" (got %d)", k.Want, len(k.Got))
	case *kind.ContentEncoding:
		return "must be " + safetext.Sanitize(k.Want, safetext.MaxLen) + "-encoded"
	case *kind.ContentMediaType:
		return "must be of media type " + safetext.Sanitize(k.Want, safetext.MaxLen)
	case *kind.ContentSchema:
		return "must have content matching the schema under \"contentSchema\""
	}
	return "does not match the schema"
}

// allowedProperties names the properties the schema at schemaURL declares,
// so that a model that wrote "orderId" learns it meant "order_id".
func allowedProperties(doc any, schemaURL string) string {
	_, frag, _ := strings.Cut(schemaURL, "#")
	node := doc
	for _, tok := range strings.Split(frag, "/")[1:] {
		if t, err := url.PathUnescape(tok); err == nil {
			tok = t
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch n := node.(type) {
		case map[string]any:
			node = n[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) {
				return ""
			}
			node = n[i]
		default:
			return ""
		}
	}
	obj, _ := node.(map[string]any)
	props, _ := obj["properties"].(map[string]any)
	if len(props) == 0 {
		return "; this object takes no properties"
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range props {
			if !yield(k) {
				return
			}
		}
	})
	if len(names) > 30 {
		names = append(names[:30], "…")
	}
	return "; allowed properties: " + strings.Join(names, ", ")
}

// InvalidArguments is the text of the isError result for arguments that do
// not match the input schema.
func InvalidArguments(tool string, vs []Violation) string {
	var b strings.Builder
	b.WriteString("invalid arguments for tool ")
	b.WriteString(safetext.Quote(tool))
	b.WriteByte(':')
	WriteViolations(&b, vs)
	return b.String()
}

func WriteViolations(b *strings.Builder, vs []Violation) {
	for i, v := range vs {
		if i == maxViolations {
			fmt.Fprintf(b, "\n- … and %d more", len(vs)-i)
			return
		}
		b.WriteString("\n- ")
		if v.Ptr == "" {
			b.WriteString("(root)")
		} else {
			b.WriteString(v.Ptr)
		}
		b.WriteString(": ")
		b.WriteString(v.Msg)
	}
}

// Pointers into deep trees are shortened to their first and last tokens
// around "…": /root/children/…/children/0/name still says where to look, and
// a 5 000-level path does not turn into a 50 KB message.
const (
	pointerHead = 2 // tokens kept at the start of a long pointer
	pointerTail = 5 // and at its end
)

// pointer renders an instance location as a JSON pointer, with each token
// capped and sanitized (property names come from the client), and long
// paths shortened.
func pointer(tokens []string) string {
	var b strings.Builder
	if len(tokens) > pointerHead+pointerTail+1 {
		writeTokens(&b, tokens[:pointerHead])
		b.WriteString("/…")
		tokens = tokens[len(tokens)-pointerTail:]
	}
	writeTokens(&b, tokens)
	return b.String()
}

func writeTokens(b *strings.Builder, tokens []string) {
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(token(t))
	}
}

func token(t string) string {
	t = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
	return safetext.Sanitize(t, safetext.MaxLen)
}

func valueAt(inst any, tokens []string) any {
	for _, t := range tokens {
		switch n := inst.(type) {
		case map[string]any:
			inst = n[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(n) {
				return nil
			}
			inst = n[i]
		default:
			return nil
		}
	}
	return inst
}

// display shows a JSON value briefly: scalars as written (capped), containers
// by kind.
func display(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return safetext.Quote(v)
	case json.Number:
		return safetext.Sanitize(string(v), safetext.MaxLen)
	case bool:
		return strconv.FormatBool(v)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return safetext.Sanitize(fmt.Sprint(v), safetext.MaxLen)
}

func typeNames(types []string) string {
	names := make([]string, len(types))
	for i, t := range types {
		switch t {
		case "integer", "array", "object":
			names[i] = "an " + t
		case "null":
			names[i] = "null"
		default:
			names[i] = "a " + t
		}
	}
	return strings.Join(names, " or ")
}

func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = safetext.Quote(n)
	}
	return strings.Join(q, ", ")
}

func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// count is "1 character", "2 characters": n and noun, plural unless n is 1.
func count(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "y"):
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
