package specschema

import (
	"bytes"
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/naming"
	"github.com/mcpgen/mcpgen/spec"
)

// Wire is the JSON Schema of root (a tool's input or output, a template's
// variables) as the runtime advertises it, in compact JSON. The root is
// expanded, not a $ref: MCP wants "type":"object" at the top. Named object
// types go to "$defs" under their Go names, as reflection of the generated
// types puts them; named scalar, array and map types are written out where
// they are used; keys and properties keep the spec's order.
//
// The generator writes this into the registration code, so that a server
// reflects nothing when it starts (gen/reflect_agree_test.go proves that it
// equals what github.com/invopop/jsonschema reflects from the generated Go
// types); lint's context budget and diff's wire rules read it too.
//
// reachesGoType reports a Go type reference (goType:): only reflection
// knows the schema of an existing Go type, so its place holds the marker
// {"x-go-type": "import/path.Name"} and the document is not what a client
// receives; the generator then leaves the schema to the runtime.
func Wire(s *spec.Spec, root *spec.Schema) (doc []byte, reachesGoType bool) {
	return NewWirer(s).Wire(root)
}

// Wirer writes Wire's documents for one spec, each named object type's
// $defs entry once: every tool's schema carries all the types it reaches,
// and on a large spec writing them again for each tool dominated generate
// (issue 32). The spec must not change while a Wirer is in use, and a
// Wirer is not safe for concurrent use.
type Wirer struct {
	named map[string]*spec.Schema
	defs  map[string]*wiredDef
}

// wiredDef is a named type's $defs entry as Wire writes it, with the named
// types it references in order of first reference.
type wiredDef struct {
	json   []byte
	refs   []string
	goType bool
}

// NewWirer is a Wirer for s.
func NewWirer(s *spec.Spec) *Wirer {
	wr := &Wirer{named: map[string]*spec.Schema{}, defs: map[string]*wiredDef{}}
	for _, nt := range s.Types {
		wr.named[nt.Name] = nt.Schema
	}
	return wr
}

// Wire is specschema.Wire for the Wirer's spec.
func (wr *Wirer) Wire(root *spec.Schema) (doc []byte, reachesGoType bool) {
	w := wr.writer()
	for i := 0; root != nil && root.Kind == spec.KindRef && !root.Nullable && i < len(w.named); i++ {
		next := w.named[root.Ref]
		if next == nil {
			break
		}
		root = next
	}
	o := w.schema(root)
	if len(w.order) == 0 {
		return mustMarshal(o), w.goType
	}
	// {"$defs":{...}, then o's members}: what marshaling the object with
	// $defs first writes, with each entry's bytes written once.
	b := []byte(`{"$defs":{`)
	goType := w.goType
	for i := 0; i < len(w.order); i++ { // w.order grows while definitions reach others
		name := w.order[i]
		d := wr.def(name)
		for _, r := range d.refs {
			if !w.reached[r] {
				w.reached[r] = true
				w.order = append(w.order, r)
			}
		}
		goType = goType || d.goType
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, mustMarshal(w.goName(name))...), ':'), d.json...)
	}
	b = append(b, '}')
	for _, m := range o {
		b = append(append(append(append(b, ','), mustMarshal(m.key)...), ':'), mustMarshal(m.val)...)
	}
	return append(b, '}'), goType
}

// def is the $defs entry of the named type name, written on first use.
func (wr *Wirer) def(name string) *wiredDef {
	if d := wr.defs[name]; d != nil {
		return d
	}
	w := wr.writer()
	d := &wiredDef{json: mustMarshal(w.schema(w.named[name])), refs: w.order, goType: w.goType}
	wr.defs[name] = d
	return d
}

func (wr *Wirer) writer() *schemaWriter {
	return &schemaWriter{named: wr.named, reached: map[string]bool{}, inlining: map[string]bool{}}
}

func mustMarshal(v any) []byte {
	b, err := marshal(v)
	if err != nil {
		panic("specschema: encoding a schema: " + err.Error()) // only JSON values go in
	}
	return b
}

// marshal is json.Marshal without HTML escaping: patterns are clearer with
// < and > as they are.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// schemaWriter turns spec schemas into JSON Schema documents, collecting the
// named types they reference.
type schemaWriter struct {
	named   map[string]*spec.Schema
	reached map[string]bool
	// inlining holds the named non-object types being written out in
	// place (a type reaching itself again gets a $ref instead).
	inlining map[string]bool
	order    []string // named types referenced, in order of first reference
	goType   bool     // a Go type reference was reached
}

func (w *schemaWriter) schema(s *spec.Schema) object {
	var o object
	add := func(k string, v any) { o = o.set(k, v) }
	switch s.Kind {
	case spec.KindRef:
		if target := w.named[s.Ref]; target != nil && target.Kind != spec.KindObject && !w.inlining[s.Ref] {
			// Reflection defines only structs in $defs: a named scalar,
			// array or map type is written out where it is used, with the
			// keywords written beside the $ref taking precedence.
			w.inlining[s.Ref] = true
			o = append(o, w.schema(target)...)
			delete(w.inlining, s.Ref)
			break
		}
		if !w.reached[s.Ref] {
			w.reached[s.Ref] = true
			w.order = append(w.order, s.Ref)
		}
		add("$ref", "#/$defs/"+w.goName(s.Ref))
	case spec.KindGoType:
		w.goType = true
		add("x-go-type", s.GoType.ImportPath+"."+s.GoType.Name)
	case spec.KindAny:
	case spec.KindString, spec.KindInteger, spec.KindNumber, spec.KindBoolean:
		if s.NullSpelling == spec.UnionTypeList {
			add("type", withNull(s, []any{string(s.Kind)}, "null"))
			break
		}
		add("type", string(s.Kind))
	case spec.KindUnion:
		var variants []any
		for _, v := range s.Variants {
			if s.UnionKeyword == spec.UnionTypeList {
				variants = append(variants, string(v.Kind))
			} else {
				variants = append(variants, w.schema(v))
			}
		}
		if s.UnionKeyword == spec.UnionTypeList {
			add("type", withNull(s, variants, "null"))
		} else {
			add(s.UnionKeyword, withNull(s, variants, object{{"type", "null"}}))
		}
	case spec.KindArray:
		add("type", typeWithNull(s))
		if s.Items != nil {
			add("items", w.schema(s.Items))
		}
	case spec.KindObject:
		add("type", typeWithNull(s))
		var props object
		var required []string
		for _, p := range s.Properties {
			props = append(props, member{p.Name, w.schema(p.Schema)})
			if p.Required {
				required = append(required, p.Name)
			}
		}
		if len(props) > 0 || s.Fields["properties"] != (spec.Pos{}) {
			add("properties", props) // properties: {} is kept when written
		}
		if len(required) > 0 || s.Fields["required"] != (spec.Pos{}) {
			add("required", append([]string{}, required...)) // required: [] is kept when written
		}
		// Closed must be said (JSON Schema's objects are open); open is
		// said as the spec says it: true when written, {}, or not (null).
		switch {
		case !s.AdditionalProperties:
			add("additionalProperties", false)
		case s.OpenAs == spec.OpenEmpty:
			add("additionalProperties", object{})
		case s.OpenAs == spec.OpenTrue && s.Fields["additionalProperties"] != (spec.Pos{}):
			add("additionalProperties", true)
		}
	case spec.KindMap:
		add("type", "object")
		if s.Values != nil {
			add("additionalProperties", w.schema(s.Values))
		}
	}
	// The value keywords (spec/keywords.go): the constraints and the
	// annotations reflection writes first, the enum, then those it
	// writes last.
	values := func(last bool) {
		for _, k := range spec.ValueKeywords {
			if v, ok := k.Value(s); ok && k.Last() == last {
				add(k.Name, v)
			}
		}
	}
	values(false)
	switch {
	case s.Const && len(s.Enum) == 1:
		add("const", json.RawMessage(s.Enum[0].JSON))
	case len(s.Enum) > 0:
		add("enum", jsonValues(s.Enum))
	}
	values(true)
	if s.Nullable && s.NullSpelling == "" {
		return object{{"oneOf", []object{o, {{"type", "null"}}}}}
	}
	return o
}

// typeWithNull is the type of an object or array: with null in a list of
// types where the spec wrote it so ([object, null]).
func typeWithNull(s *spec.Schema) any {
	if s.NullSpelling == spec.UnionTypeList {
		return withNull(s, []any{string(s.Kind)}, "null")
	}
	return string(s.Kind)
}

// withNull puts null among a union's variants where the spec wrote it, when
// it was written there (not as nullable: true).
func withNull(s *spec.Schema, variants []any, null any) []any {
	if !s.Nullable || s.NullSpelling == "" {
		return variants
	}
	at := min(max(s.NullAt, 0), len(variants))
	return append(variants[:at:at], append([]any{null}, variants[at:]...)...)
}

// goName is the Go name of a named type, under which reflection puts it in
// $defs: its goName, else the one derived from its spec name.
func (w *schemaWriter) goName(name string) string {
	if s := w.named[name]; s != nil && s.GoName != "" {
		return s.GoName
	}
	return naming.Exported(name)
}

func jsonValues(vs []*spec.Value) []json.RawMessage {
	out := make([]json.RawMessage, len(vs))
	for i, v := range vs {
		out[i] = v.JSON
	}
	return out
}

// object is a JSON object that keeps its keys in order.
type object []member

type member struct {
	key string
	val any
}

// set replaces the value of key k, or appends it.
func (o object) set(k string, v any) object {
	for i := range o {
		if o[i].key == k {
			o[i].val = v
			return o
		}
	}
	return append(o, member{k, v})
}

func (o object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := marshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := marshal(m.val)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}
