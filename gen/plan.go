package gen

import (
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/naming"
	"github.com/mcpgen/mcpgen/spec"
)

// A plan decides, before any code is emitted, the Go name of everything the
// spec produces: declared types, struct fields, enum constants, handler
// methods. Emitting then only reads the plan. Doing it first means that a
// collision (two spec names with one Go name) is reported as a spec finding
// with both positions, instead of as a compile error in generated code.
type plan struct {
	spec *spec.Spec
	// decls are the Go types to declare, in emission order.
	decls []*decl
	// declOf maps a schema that needs a declared type to it.
	declOf map[*spec.Schema]*decl
	// named maps a spec type name to its declaration.
	named map[string]*decl
	// tools are the planned tools, in spec order.
	tools []*toolPlan

	resources []*resourcePlan
	templates []*templatePlan
	prompts   []*promptPlan

	taken   map[string]taker // package-level Go names → what took them
	methods map[string]taker // Handler method names → what took them
	diags   spec.Diagnostics
	// collisions are the findings of diags a goName (or goNames) settles,
	// as data for importers (see Collision).
	collisions []Collision
}

// A Collision is a Go name the plan could not give because something
// else has it (or generated code reserves it): the finding's data, for
// importers that settle names by writing goName instead of reading the
// message. The finding itself is in the plan's diagnostics too.
type Collision struct {
	// At is where the fix goes: the position of the schema's mapping
	// (goName of a type or a property's field, goNames of an enum) or of
	// the item's key (goName of a tool, resource, template or prompt).
	At spec.Pos
	// Fix is "goName", or "goNames" for an enum value's constant.
	Fix string
	// GoName is the Go name that was taken; EnumValue is the enum value's
	// text (the key under goNames).
	GoName, EnumValue string
	// Base is what the fix replaces: the goName of a property names its
	// field (and so the types inside), an enum value's goNames entry the
	// constant after the type's name (ColorAB: AB). Another name made from
	// Base (Base2) settles the collision if nothing else has it.
	Base string
	// Reserved: no spec element took the name first; generated methods
	// use it (a field named JSONSchema).
	Reserved bool
}

// collide reports a collision: a finding at pos, and its data.
func (p *plan) collide(c Collision, pos spec.Pos, format string, args ...any) {
	p.errorf(pos, format, args...)
	if c.At != (spec.Pos{}) {
		p.collisions = append(p.collisions, c)
	}
}

// declKind says what Go declaration a decl becomes.
type declKind int

const (
	declStruct declKind = iota // type X struct{...}
	declEnum                   // type X string|int64 + constants
	declScalar                 // type X string|int64|float64|bool (constrained)
	declSlice                  // type X []T
	declMap                    // type X map[string]T
	declAlias                  // type X = T (any, Go types: no methods can be declared)
	declUnion                  // type X struct{ A *A; B *B } with exactly one field set
)

type decl struct {
	name   string
	kind   declKind
	schema *spec.Schema
	// pos is where the spec writes the schema; origin says what spec
	// element the type serves (for diff's Go-API rules, api.go).
	pos    spec.Pos
	origin origin
	// specName is the types: key for named types, "" for derived ones.
	specName string
	// what says, for doc comments, where the type comes from.
	what   string
	fields []*field        // declStruct
	consts []*enumConstant // declEnum
	// declUnion: one field per variant, and the property whose const
	// value tells the variants apart ("" when none does).
	variants      []*unionVariant
	discriminator string
}

// unionVariant is one variant of a union, a pointer field of its struct.
type unionVariant struct {
	name   string // Go field name
	schema *spec.Schema
	// tag is the discriminator's value for this variant, as compact JSON.
	tag string
}

type field struct {
	name string // Go field name
	prop *spec.Property
}

// fieldName is the Go name of a property of this struct.
func (d *decl) fieldName(prop *spec.Property) string {
	for _, f := range d.fields {
		if f.prop == prop {
			return f.name
		}
	}
	return ""
}

type enumConstant struct {
	name   string
	suffix string // the name without the type's
	value  *spec.Value
}

// origin is the spec element a declared type serves: subject is the
// position of the key that asks for it (a property, a named type, an
// item…) and item the top-level spec item ("tool:lookup_order",
// "type:Money", "resource:…", "template:…", "prompt:…").
type origin struct {
	subject spec.Pos
	item    string
}

// taker is what took a Go name first, for collision messages.
type taker struct {
	pos  spec.Pos
	what string
}

type toolPlan struct {
	tool   *spec.Tool
	method string
	// nameConst is the Go constant holding the name clients call it by
	// (ToolLookupOrder); resources, templates and prompts have one too.
	nameConst string
	input     *spec.Schema // nil: no arguments
	output    *spec.Schema // nil: returns content
}

type resourcePlan struct {
	res       *spec.Resource
	base      string // the Go spelling of its name
	method    string
	nameConst string
	content   *spec.Schema // the typed value of a json content, else nil
}

type templatePlan struct {
	tmpl        *spec.ResourceTemplate
	base        string
	method      string
	nameConst   string
	params      *spec.Schema    // an object schema synthesized from the variables
	optional    map[string]bool // variables a URI may leave out ({?q}, {&q})
	content     *spec.Schema
	completions []*completionPlan
}

type promptPlan struct {
	prompt      *spec.Prompt
	base        string
	method      string // "" for a declarative prompt
	nameConst   string
	args        *spec.Schema // an object schema synthesized from the arguments; nil without any
	completions []*completionPlan
}

// completionPlan says how one argument (or template variable) completes:
// from its enum values, through a generated handler method, or not at all.
type completionPlan struct {
	arg    string
	method string   // the handler method, when the spec says complete: true
	enum   []string // the values of an enum
}

// reservedNames are package-level names the generator itself declares.
var reservedNames = []string{"Handler", "ToolsHandler", "UnimplementedHandler", "Register", "NewServer", "Info", "Instructions"}

// reservedFields are method names of generated types; a field may not take them.
var reservedFields = map[string]bool{"JSONSchemaExtend": true, "JSONSchemaAlias": true, "JSONSchema": true, "ApplyDefaults": true}

func newPlan(s *spec.Spec) *plan {
	p := &plan{
		spec:   s,
		declOf: map[*spec.Schema]*decl{},
		named:  map[string]*decl{},
		taken:  map[string]taker{},
	}
	for _, n := range reservedNames {
		p.taken[n] = taker{what: "mcpgen itself (a name the generated code declares)"}
	}
	if hasUpstream(s) {
		for _, n := range upstreamNames {
			p.taken[n] = taker{what: "mcpgen itself (a name the generated code declares for the upstream section)"}
		}
	}
	// Named types first, so that derived names never take a name the user
	// chose: a user's type wins and the derived one is reported.
	for _, nt := range s.Types {
		d := p.declare(goNameOr(nt.Schema, naming.Exported(nt.Name)), goNameOr(nt.Schema, naming.Exported(nt.Name)), nt.Schema, nt.Pos, origin{nt.Pos, "type:" + nt.Name}, fmt.Sprintf("type %q", nt.Name))
		if d == nil {
			continue
		}
		d.specName = nt.Name
		p.named[nt.Name] = d
		if nt.Schema.Nullable {
			p.errorf(nt.Pos, "type %q: nullable belongs where the type is used, not on the named type (write nullable: true on the property)", nt.Name)
		}
	}
	p.methods = map[string]taker{}
	if hasUpstream(s) {
		// UpstreamHandler implements Handler and has the field Client: a
		// method of that name would not compile.
		p.methods["Client"] = taker{what: "UpstreamHandler's field Client (the upstream section)"}
	}
	for _, t := range s.Tools {
		tp := &toolPlan{tool: t, input: t.Input, output: t.Output}
		tp.method = p.method(itemGoName(&t.Item), itemGoName(&t.Item), t.Pos, fmt.Sprintf("tool %q", t.Name))
		p.tools = append(p.tools, tp)
	}
	for _, r := range s.Resources {
		base := itemGoName(&r.Item)
		rp := &resourcePlan{res: r, base: base}
		if !embedsHTML(r) { // an embedded view needs no handler
			rp.method = p.method("Read"+base, base, r.Pos, fmt.Sprintf("resource %q", r.Name))
		}
		p.resources = append(p.resources, rp)
	}
	for _, t := range s.ResourceTemplates {
		base := itemGoName(&t.Item)
		tp := &templatePlan{tmpl: t, base: base, optional: optionalVariables(t.URITemplate)}
		tp.method = p.method("Read"+base, base, t.Pos, fmt.Sprintf("resource template %q", t.Name))
		tp.params = templateParamsSchema(t, tp.optional)
		for _, v := range t.Variables {
			tp.completions = append(tp.completions, p.completion(base, v.Name, v.Complete, enumStrings(p.resolvedSchema(v.Schema)), v.Pos,
				fmt.Sprintf("variable %q of resource template %q", v.Name, t.Name)))
		}
		p.templates = append(p.templates, tp)
	}
	for _, pr := range s.Prompts {
		base := itemGoName(&pr.Item)
		pp := &promptPlan{prompt: pr, base: base}
		if len(pr.Messages) == 0 {
			pp.method = p.method("Prompt"+base, base, pr.Pos, fmt.Sprintf("prompt %q", pr.Name))
		}
		if len(pr.Arguments) > 0 {
			pp.args = promptArgsSchema(pr)
		}
		for _, a := range pr.Arguments {
			pp.completions = append(pp.completions, p.completion(base, a.Name, a.Complete, a.Enum, a.Pos,
				fmt.Sprintf("argument %q of prompt %q", a.Name, pr.Name)))
		}
		p.prompts = append(p.prompts, pp)
	}
	p.nameConstants()
	for _, nt := range s.Types {
		if d := p.named[nt.Name]; d != nil {
			p.planInside(d.name, nt.Schema, true, true, d.origin.item)
		}
	}
	for _, tp := range p.tools {
		p.declareRoot(tp.input, tp.method+"Input", tp.tool.Pos, "tool:"+tp.tool.Name, fmt.Sprintf("the input of tool %q", tp.tool.Name))
		p.declareRoot(tp.output, tp.method+"Output", tp.tool.Pos, "tool:"+tp.tool.Name, fmt.Sprintf("the output of tool %q", tp.tool.Name))
	}
	for _, rp := range p.resources {
		if c := rp.res.Content; c != nil && c.Kind == spec.ContentJSON {
			rp.content = c.Schema
			p.declareRoot(c.Schema, rp.base+"Content", rp.res.Pos, "resource:"+rp.res.Name, fmt.Sprintf("the content of resource %q", rp.res.Name))
		}
	}
	for _, tp := range p.templates {
		p.declareRoot(tp.params, tp.base+"Params", tp.tmpl.Pos, "template:"+tp.tmpl.Name, fmt.Sprintf("the set of variables of resource template %q", tp.tmpl.Name))
		if c := tp.tmpl.Content; c != nil && c.Kind == spec.ContentJSON {
			tp.content = c.Schema
			p.declareRoot(c.Schema, tp.base+"Content", tp.tmpl.Pos, "template:"+tp.tmpl.Name, fmt.Sprintf("the content of resource template %q", tp.tmpl.Name))
		}
	}
	for _, pp := range p.prompts {
		p.declareRoot(pp.args, pp.base+"Args", pp.prompt.Pos, "prompt:"+pp.prompt.Name, fmt.Sprintf("the set of arguments of prompt %q", pp.prompt.Name))
	}
	return p
}

// nameConstants names the constants that hold each tool's, resource's,
// template's and prompt's name (ToolLookupOrder = "lookup_order"), so that
// code refers to a primitive by an identifier the compiler checks.
func (p *plan) nameConstants() {
	// methodRefused is true when the primitive's handler method name was
	// refused: the same clash of names is reported once, there.
	claim := func(prefix, base string, methodRefused bool, pos spec.Pos, what string) string {
		if base == "" || methodRefused {
			return ""
		}
		name := prefix + base
		if first, dup := p.taken[name]; dup {
			p.collide(Collision{At: pos, Fix: "goName", GoName: name, Base: base}, pos, "%s gets the Go constant name %s for its name, already used by %s; give one another Go name with goName (the wire name stays)", what, name, p.describe(first))
			return ""
		}
		p.taken[name] = taker{pos: pos, what: "the name constant of " + what}
		return name
	}
	for _, tp := range p.tools {
		tp.nameConst = claim("Tool", itemGoName(&tp.tool.Item), tp.method == "", tp.tool.Pos, fmt.Sprintf("tool %q", tp.tool.Name))
	}
	for _, rp := range p.resources {
		rp.nameConst = claim("Resource", rp.base, rp.method == "" && !embedsHTML(rp.res), rp.res.Pos, fmt.Sprintf("resource %q", rp.res.Name))
	}
	for _, tp := range p.templates {
		tp.nameConst = claim("Template", tp.base, tp.method == "", tp.tmpl.Pos, fmt.Sprintf("resource template %q", tp.tmpl.Name))
	}
	for _, pp := range p.prompts {
		pp.nameConst = claim("Prompt", pp.base, pp.method == "" && len(pp.prompt.Messages) == 0, pp.prompt.Pos, fmt.Sprintf("prompt %q", pp.prompt.Name))
	}
}

// method records a Handler method name, or reports a collision.
// A goName of the item at pos, instead of base, would settle a collision.
func (p *plan) method(name, base string, pos spec.Pos, what string) string {
	return p.methodAt(name, base, pos, pos, what)
}

// methodAt is method, where a goName at fixAt would settle a collision
// (the zero Pos: none would).
func (p *plan) methodAt(name, base string, pos, fixAt spec.Pos, what string) string {
	if name == "" || name == "Read" || name == "Prompt" {
		p.errorf(pos, "%s has no letter or digit to make a Go method name from; give it one with goName", what)
		return ""
	}
	if first, dup := p.methods[name]; dup {
		p.collide(Collision{At: fixAt, Fix: "goName", GoName: name, Base: base}, pos, "%s gets the Go method name %s, already used by %s; give one another Go name with goName (the wire name stays)", what, name, p.describe(first))
		return ""
	}
	p.methods[name] = taker{pos: pos, what: what}
	return name
}

// completion plans the completion of one argument or variable.
func (p *plan) completion(base, arg string, complete bool, enum []string, pos spec.Pos, what string) *completionPlan {
	c := &completionPlan{arg: arg, enum: enum}
	if complete && len(enum) == 0 {
		c.method = p.methodAt("Complete"+base+naming.Exported(arg), "", pos, spec.Pos{}, "the completion of "+what)
	}
	return c
}

// declareRoot declares the type of a tool input or output, a template's
// params, a prompt's args or a resource's content, unless it is a $ref (the
// named type serves) or absent.
func (p *plan) declareRoot(s *spec.Schema, name string, pos spec.Pos, item, what string) {
	if s == nil || s.Kind == spec.KindRef {
		return
	}
	name = goNameOr(s, name)
	if p.declare(name, name, s, pos, origin{pos, item}, what) != nil {
		p.planInside(name, s, true, true, item)
	}
}

// resolvedSchema follows $refs through the named types.
func (p *plan) resolvedSchema(s *spec.Schema) *spec.Schema {
	for i := 0; s != nil && s.Kind == spec.KindRef && i < 100; i++ {
		var next *spec.Schema
		for _, nt := range p.spec.Types {
			if nt.Name == s.Ref {
				next = nt.Schema
			}
		}
		if next == nil {
			return s
		}
		s = next
	}
	return s
}

// declare records a Go type for schema s under name, or reports a
// collision, which a goName of s instead of base would settle.
func (p *plan) declare(name, base string, s *spec.Schema, pos spec.Pos, o origin, what string) *decl {
	if name == "" {
		p.errorf(pos, "%s has no letter or digit to make a Go type name from", what)
		return nil
	}
	if first, dup := p.taken[name]; dup {
		p.collide(Collision{At: s.Pos, Fix: "goName", GoName: name, Base: base}, pos, "%s gets the Go name %s, already used by %s; rename one, or give it another with goName", what, name, p.describe(first))
		return nil
	}
	p.taken[name] = taker{pos: pos, what: what}
	d := &decl{name: name, schema: s, what: what, kind: kindOfDecl(s), pos: pos, origin: o}
	p.decls = append(p.decls, d)
	p.declOf[s] = d
	return d
}

// where is the full position of an earlier finding's subject, with the spec
// file's path as the finding itself prints it (an editor jumps to either).
func (p *plan) where(pos spec.Pos) string {
	file := p.spec.File
	if file == "" {
		file = "mcpgen.yaml"
	}
	return fmt.Sprintf("%s:%d:%d", file, pos.Line, pos.Column)
}

func (p *plan) describe(t taker) string {
	if t.pos == (spec.Pos{}) {
		return t.what
	}
	return fmt.Sprintf("%s at %s", t.what, p.where(t.pos))
}

func kindOfDecl(s *spec.Schema) declKind {
	switch {
	case s.Kind == spec.KindUnion:
		return declUnion
	case len(s.Enum) > 0:
		return declEnum
	case s.IsFreeObject():
		return declMap
	case s.Kind == spec.KindObject:
		return declStruct
	case s.Kind == spec.KindArray:
		return declSlice
	case s.Kind == spec.KindMap:
		return declMap
	case s.Kind == spec.KindAny, s.Kind == spec.KindGoType, s.Kind == spec.KindRef:
		return declAlias
	default:
		return declScalar
	}
}

// planInside walks the schema of a declared type and declares what its parts
// need: inline objects, enums, and constrained array items or map values.
// Names are the owner's name plus the property's (OrderLines, OrderLinesItem).
// describesItems says that the Go type of an array s (a declared slice, or
// the struct holding it as a field) describes its items' constraints in
// its JSONSchemaExtend, so that constrained scalar items stay plain Go
// types ([]string, not []TagsItem) and handlers need no conversions.
func (p *plan) planInside(owner string, s *spec.Schema, isDecl, describesItems bool, item string) {
	switch s.Kind {
	case spec.KindObject:
		d := p.declOf[s]
		seen := map[string]*spec.Property{}
		for _, prop := range s.Properties {
			fname := goNameOr(prop.Schema, naming.Exported(prop.Name))
			switch {
			case fname == "":
				p.errorf(prop.Pos, "property %q has no letter or digit to make a Go field name from", prop.Name)
				continue
			case reservedFields[fname]:
				p.collide(Collision{At: prop.Schema.Pos, Fix: "goName", GoName: fname, Base: fname, Reserved: true}, prop.Pos, "property %q gets the Go field name %s, which generated methods use; give it another with goName", prop.Name, fname)
				continue
			case seen[fname] != nil:
				p.collide(Collision{At: prop.Schema.Pos, Fix: "goName", GoName: fname, Base: fname}, prop.Pos, "property %q gets the Go field name %s, already used by property %q at %s; give one another with goName (the wire name stays)",
					prop.Name, fname, seen[fname].Name, p.where(seen[fname].Pos))
				continue
			}
			seen[fname] = prop
			if d != nil {
				d.fields = append(d.fields, &field{name: fname, prop: prop})
			}
			p.planPart(owner+fname, prop.Schema, fmt.Sprintf("property %q of %s", prop.Name, owner), fname, origin{prop.Pos, item})
		}
	case spec.KindArray:
		if s.Items != nil && !(describesItems && plainItems(s.Items)) {
			p.planPart(owner+"Item", s.Items, fmt.Sprintf("the items of %s", owner), "", origin{s.Items.Pos, item})
		}
	case spec.KindMap:
		if s.Values != nil {
			p.planPart(owner+"Value", s.Values, fmt.Sprintf("the values of %s", owner), "", origin{s.Values.Pos, item})
		}
	case spec.KindUnion:
		p.planUnion(owner, s, item)
	}
	if d := p.declOf[s]; d != nil && d.kind == declEnum && isDecl {
		p.planConstants(d)
	}
}

// planPart decides whether a part of a type (a property, an item, a map
// value) needs its own declared type, and walks into it. A property's scalar
// constraints live in its struct tag; an item or a map value has no tag, so
// a constrained one gets a declared type that carries them.
//
// field is the Go name of the field s is the schema of ("" for an item or
// a map value).
func (p *plan) planPart(name string, s *spec.Schema, what, field string, o origin) {
	isField := field != ""
	if s == nil {
		return
	}
	if only := soleVariant(s); only != nil {
		// anyOf: [T, {type: null}] is a nullable T in Go: no union type.
		p.planPart(name, only, what, field, o)
		return
	}
	if !isField {
		name = goNameOr(s, name) // a property's goName names its field (and so this)
	}
	declared := s.Kind == spec.KindObject || s.Kind == spec.KindUnion || len(s.Enum) > 0 || (!isField && needsDecl(s))
	switch {
	case declared:
		base := name
		if isField {
			base = field // a goName of the property names its field
		}
		if p.declare(name, base, s, s.Pos, o, what) != nil {
			p.planInside(name, s, true, true, o.item)
		}
	case s.Kind == spec.KindArray || s.Kind == spec.KindMap:
		// A nullable field's reflected schema wraps the array, out of its
		// struct's reach: its items keep a declared type.
		p.planInside(name, s, false, isField && !s.Nullable, o.item)
	}
}

// plainItems reports whether the items of an array can stay a plain Go
// scalar, their constraints and annotations written into the schema by
// the array's carrier: a scalar that is neither an enum (whose constants
// need a type) nor nullable.
func plainItems(items *spec.Schema) bool {
	switch items.Kind {
	case spec.KindString, spec.KindInteger, spec.KindNumber, spec.KindBoolean:
		return len(items.Enum) == 0 && !items.Nullable
	}
	return false
}

// needsDecl reports whether an item or map value must be a declared type to
// carry its constraints (a struct tag can only describe a field).
func needsDecl(s *spec.Schema) bool {
	switch s.Kind {
	case spec.KindObject:
		return true
	case spec.KindString, spec.KindInteger, spec.KindNumber, spec.KindBoolean:
		return len(s.Enum) > 0 || hasKeywords(s, func(*spec.Keyword) bool { return true })
	case spec.KindMap:
		return hasKeywords(s, func(*spec.Keyword) bool { return true })
	}
	return false
}

// itemGoName is the Go spelling of a tool's, resource's, template's or
// prompt's name: its goName, else derived from the name.
func itemGoName(it *spec.Item) string {
	if it.GoName != "" {
		return it.GoName
	}
	return naming.Exported(it.Name)
}

// goNameOr is the goName the spec gives s, else derived.
func goNameOr(s *spec.Schema, derived string) string {
	if s != nil && s.GoName != "" {
		return s.GoName
	}
	return derived
}

// planConstants names the constants of an enum: type name + value.
func (p *plan) planConstants(d *decl) {
	for i, v := range d.schema.Enum {
		suffix := naming.Exported(enumText(v))
		if chosen := d.schema.EnumGoNames[enumText(v)]; chosen != "" {
			suffix = chosen
		}
		if suffix == "" {
			suffix = fmt.Sprintf("Value%d", i)
		}
		name := d.name + suffix
		if first, dup := p.taken[name]; dup {
			p.collide(Collision{At: d.schema.Pos, Fix: "goNames", GoName: name, EnumValue: enumText(v), Base: suffix}, v.Pos, "enum value %s of %s gets the Go constant name %s, already used by %s; name its constant with goNames: {%s: …}",
				string(v.JSON), d.what, name, p.describe(first), strconv.Quote(enumText(v)))
			continue
		}
		p.taken[name] = taker{pos: v.Pos, what: fmt.Sprintf("enum value %s of %s", string(v.JSON), d.what)}
		d.consts = append(d.consts, &enumConstant{name: name, suffix: suffix, value: v})
	}
}

func (p *plan) errorf(pos spec.Pos, format string, args ...any) {
	p.diags = append(p.diags, spec.Diagnostic{File: p.spec.File, Pos: pos, Message: fmt.Sprintf(format, args...)})
}
