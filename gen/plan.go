package gen

import (
	"fmt"

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

	taken map[string]taker // package-level Go names → what took them
	diags spec.Diagnostics
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
)

type decl struct {
	name   string
	kind   declKind
	schema *spec.Schema
	// specName is the types: key for named types, "" for derived ones.
	specName string
	// what says, for doc comments, where the type comes from.
	what   string
	fields []*field        // declStruct
	consts []*enumConstant // declEnum
}

type field struct {
	name string // Go field name
	prop *spec.Property
}

type enumConstant struct {
	name  string
	value *spec.Value
}

// taker is what took a Go name first, for collision messages.
type taker struct {
	pos  spec.Pos
	what string
}

type toolPlan struct {
	tool   *spec.Tool
	method string
	input  *spec.Schema // nil: no arguments
	output *spec.Schema // nil: returns content
}

// reservedNames are package-level names the generator itself declares.
var reservedNames = []string{"Handler", "ToolsHandler", "UnimplementedHandler", "Register", "NewServer", "Info", "Instructions"}

// reservedFields are method names of generated types; a field may not take them.
var reservedFields = map[string]bool{"JSONSchemaExtend": true, "JSONSchemaAlias": true, "JSONSchema": true}

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
	// Named types first, so that derived names never take a name the user
	// chose: a user's type wins and the derived one is reported.
	for _, nt := range s.Types {
		d := p.declare(naming.Exported(nt.Name), nt.Schema, nt.Pos, fmt.Sprintf("type %q", nt.Name))
		if d == nil {
			continue
		}
		d.specName = nt.Name
		p.named[nt.Name] = d
		if nt.Schema.Nullable {
			p.errorf(nt.Pos, "type %q: nullable belongs where the type is used, not on the named type (write nullable: true on the property)", nt.Name)
		}
	}
	methods := map[string]spec.Pos{}
	for _, t := range s.Tools {
		tp := &toolPlan{tool: t, method: naming.Exported(t.Name), input: t.Input, output: t.Output}
		if tp.method == "" {
			p.errorf(t.Pos, "tool %q has no letter or digit to make a Go method name from", t.Name)
		} else if first, dup := methods[tp.method]; dup {
			p.errorf(t.Pos, "tool %q gets the Go method name %s, already used by the tool at %s; rename one", t.Name, tp.method, p.where(first))
		} else {
			methods[tp.method] = t.Pos
		}
		p.tools = append(p.tools, tp)
	}
	for _, nt := range s.Types {
		if d := p.named[nt.Name]; d != nil {
			p.planInside(d.name, nt.Schema, true)
		}
	}
	for _, tp := range p.tools {
		if tp.input != nil && tp.input.Kind != spec.KindRef {
			p.declare(tp.method+"Input", tp.input, tp.tool.Pos, fmt.Sprintf("the input of tool %q", tp.tool.Name))
			p.planInside(tp.method+"Input", tp.input, true)
		}
		if tp.output != nil && tp.output.Kind != spec.KindRef {
			p.declare(tp.method+"Output", tp.output, tp.tool.Pos, fmt.Sprintf("the output of tool %q", tp.tool.Name))
			p.planInside(tp.method+"Output", tp.output, true)
		}
	}
	return p
}

// declare records a Go type for schema s under name, or reports a collision.
func (p *plan) declare(name string, s *spec.Schema, pos spec.Pos, what string) *decl {
	if name == "" {
		p.errorf(pos, "%s has no letter or digit to make a Go type name from", what)
		return nil
	}
	if first, dup := p.taken[name]; dup {
		p.errorf(pos, "%s gets the Go name %s, already used by %s; rename one", what, name, p.describe(first))
		return nil
	}
	p.taken[name] = taker{pos: pos, what: what}
	d := &decl{name: name, schema: s, what: what, kind: kindOfDecl(s)}
	p.decls = append(p.decls, d)
	p.declOf[s] = d
	return d
}

func (p *plan) where(pos spec.Pos) string {
	return fmt.Sprintf("%s:%d:%d", baseName(p.spec.File), pos.Line, pos.Column)
}

func (p *plan) describe(t taker) string {
	if t.pos == (spec.Pos{}) {
		return t.what
	}
	return fmt.Sprintf("%s at %s", t.what, p.where(t.pos))
}

func kindOfDecl(s *spec.Schema) declKind {
	switch {
	case len(s.Enum) > 0:
		return declEnum
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
func (p *plan) planInside(owner string, s *spec.Schema, isDecl bool) {
	switch s.Kind {
	case spec.KindObject:
		d := p.declOf[s]
		seen := map[string]*spec.Property{}
		for _, prop := range s.Properties {
			fname := naming.Exported(prop.Name)
			switch {
			case fname == "":
				p.errorf(prop.Pos, "property %q has no letter or digit to make a Go field name from", prop.Name)
				continue
			case reservedFields[fname]:
				p.errorf(prop.Pos, "property %q gets the Go field name %s, which generated methods use; rename it", prop.Name, fname)
				continue
			case seen[fname] != nil:
				p.errorf(prop.Pos, "property %q gets the Go field name %s, already used by property %q at %s; rename one",
					prop.Name, fname, seen[fname].Name, p.where(seen[fname].Pos))
				continue
			}
			seen[fname] = prop
			if d != nil {
				d.fields = append(d.fields, &field{name: fname, prop: prop})
			}
			p.planPart(owner+fname, prop.Schema, fmt.Sprintf("property %q of %s", prop.Name, owner), true)
		}
	case spec.KindArray:
		if s.Items != nil {
			p.planPart(owner+"Item", s.Items, fmt.Sprintf("the items of %s", owner), false)
		}
	case spec.KindMap:
		if s.Values != nil {
			p.planPart(owner+"Value", s.Values, fmt.Sprintf("the values of %s", owner), false)
		}
	}
	if d := p.declOf[s]; d != nil && d.kind == declEnum && isDecl {
		p.planConstants(d)
	}
}

// planPart decides whether a part of a type (a property, an item, a map
// value) needs its own declared type, and walks into it. A property's scalar
// constraints live in its struct tag; an item or a map value has no tag, so
// a constrained one gets a declared type that carries them.
func (p *plan) planPart(name string, s *spec.Schema, what string, isField bool) {
	if s == nil {
		return
	}
	declared := s.Kind == spec.KindObject || len(s.Enum) > 0 || (!isField && needsDecl(s))
	switch {
	case declared:
		if p.declare(name, s, s.Pos, what) != nil {
			p.planInside(name, s, true)
		}
	case s.Kind == spec.KindArray || s.Kind == spec.KindMap:
		p.planInside(name, s, false)
	}
}

// needsDecl reports whether an item or map value must be a declared type to
// carry its constraints (a struct tag can only describe a field).
func needsDecl(s *spec.Schema) bool {
	switch s.Kind {
	case spec.KindObject:
		return true
	case spec.KindString, spec.KindInteger, spec.KindNumber, spec.KindBoolean:
		return len(s.Enum) > 0 || hasScalarConstraints(s) || s.Default != nil || len(s.Examples) > 0 ||
			s.Description != "" || s.Title != ""
	}
	return false
}

func hasScalarConstraints(s *spec.Schema) bool {
	return s.Pattern != "" || s.Format != "" || s.MinLength != nil || s.MaxLength != nil ||
		s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil || s.MultipleOf != nil
}

// planConstants names the constants of an enum: type name + value.
func (p *plan) planConstants(d *decl) {
	for i, v := range d.schema.Enum {
		suffix := naming.Exported(enumText(v))
		if suffix == "" {
			suffix = fmt.Sprintf("Value%d", i)
		}
		name := d.name + suffix
		if first, dup := p.taken[name]; dup {
			p.errorf(v.Pos, "enum value %s of %s gets the Go constant name %s, already used by %s; rename one",
				string(v.JSON), d.what, name, p.describe(first))
			continue
		}
		p.taken[name] = taker{pos: v.Pos, what: fmt.Sprintf("enum value %s of %s", string(v.JSON), d.what)}
		d.consts = append(d.consts, &enumConstant{name: name, value: v})
	}
}

func (p *plan) errorf(pos spec.Pos, format string, args ...any) {
	p.diags = append(p.diags, spec.Diagnostic{File: p.spec.File, Pos: pos, Message: fmt.Sprintf(format, args...)})
}
