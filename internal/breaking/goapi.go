package breaking

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/internal/naming"
	"github.com/mcpgen/mcpgen/spec"
)

// goAPI is the Go API a spec generates, computed from the spec alone: the
// package, every declared type with its fields or constants, every handler
// method with its signature, each tied to the spec element it comes from.
//
// It follows package gen's plan (gen/plan.go) and the type mapping of
// gen/types.go and gen/handler.go; TestGoAPIAgreesWithGen compares it with
// the generated code of every golden case and example, so the two cannot
// drift apart unnoticed.
type goAPI struct {
	s           *spec.Spec
	types       map[string]*goType
	typeOrder   []string
	methods     map[string]*goMethod
	methodOrder []string

	declOf    map[*spec.Schema]*goType
	named     map[string]*goType // by spec type name
	specTypes map[string]*spec.NamedType
	// taken holds the package-level names given so far: types and enum
	// constants share one namespace.
	taken map[string]bool

	// wire maps where a value is on the wire ("tool lookup_order output",
	// "… output.lines[]") to the Go type declared for it, so that a type
	// whose name changed while clients see the same thing is a rename.
	wire      map[string]string
	wireOrder []string
}

type goType struct {
	name   string
	kind   string // struct, enum, scalar, slice, map, alias
	schema *spec.Schema
	pos    spec.Pos // where the spec writes it
	// subject is the spec element the type is for (a property's key, a
	// named type's key, …), for giving way to WIRE findings.
	subject spec.Pos
	item    string // the top-level spec item: "tool:x", "type:X", "resource:x", …
	what    string
	fields  []*goField
	consts  []*goConst
}

type goField struct {
	name string
	prop *spec.Property
	typ  string
}

type goConst struct {
	name   string
	suffix string // the name without the type's
	pos    spec.Pos
}

type goMethod struct {
	name string
	sig  string
	pos  spec.Pos
	what string
	// key identifies what the method serves across a rename of its spec
	// name: a resource's uri. Empty for the others.
	key string
}

// Package-level names and struct fields the generator reserves.
var (
	reservedNames  = []string{"Handler", "ToolsHandler", "UnimplementedHandler", "Register", "NewServer", "Info", "Instructions"}
	reservedFields = map[string]bool{"JSONSchemaExtend": true, "JSONSchemaAlias": true, "JSONSchema": true, "ApplyDefaults": true}
)

func buildGoAPI(s *spec.Spec) *goAPI {
	a := &goAPI{
		s:         s,
		types:     map[string]*goType{},
		methods:   map[string]*goMethod{},
		declOf:    map[*spec.Schema]*goType{},
		named:     map[string]*goType{},
		specTypes: map[string]*spec.NamedType{},
		taken:     map[string]bool{},
		wire:      map[string]string{},
	}
	for _, n := range reservedNames {
		a.taken[n] = true
	}
	for _, nt := range s.Types {
		a.specTypes[nt.Name] = nt
		if d := a.declare(naming.Exported(nt.Name), nt.Schema, nt.Pos, nt.Pos, "type:"+nt.Name, fmt.Sprintf("the spec's type %q", nt.Name)); d != nil {
			a.named[nt.Name] = d
		}
	}
	for _, nt := range s.Types {
		if d := a.named[nt.Name]; d != nil {
			a.planInside(d.name, nt.Schema, true, "type:"+nt.Name)
		}
	}
	for _, t := range s.Tools {
		m := naming.Exported(t.Name)
		item := "tool:" + t.Name
		a.root(t.Input, m+"Input", t.Pos, item, fmt.Sprintf("the input of tool %q", t.Name))
		a.root(t.Output, m+"Output", t.Pos, item, fmt.Sprintf("the output of tool %q", t.Name))
	}
	for _, r := range s.Resources {
		if c := r.Content; c != nil && c.Kind == spec.ContentJSON {
			a.root(c.Schema, naming.Exported(r.Name)+"Content", r.Pos, "resource:"+r.Name, fmt.Sprintf("the content of resource %q", r.Name))
		}
	}
	for _, t := range s.ResourceTemplates {
		base, item := naming.Exported(t.Name), "template:"+t.Name
		a.root(templateParams(t), base+"Params", t.Pos, item, fmt.Sprintf("the variables of resource template %q", t.Name))
		if c := t.Content; c != nil && c.Kind == spec.ContentJSON {
			a.root(c.Schema, base+"Content", t.Pos, item, fmt.Sprintf("the content of resource template %q", t.Name))
		}
	}
	for _, p := range s.Prompts {
		if len(p.Arguments) > 0 {
			a.root(promptArgs(p), naming.Exported(p.Name)+"Args", p.Pos, "prompt:"+p.Name, fmt.Sprintf("the arguments of prompt %q", p.Name))
		}
	}
	for _, name := range a.typeOrder {
		for _, f := range a.types[name].fields {
			f.typ = a.fieldType(f.prop)
		}
	}
	a.handlerMethods()
	a.wirePaths()
	return a
}

func (a *goAPI) declare(name string, s *spec.Schema, pos, subject spec.Pos, item, what string) *goType {
	if name == "" || a.taken[name] {
		return nil // the generator refuses the spec; nothing to compare
	}
	a.taken[name] = true
	d := &goType{name: name, kind: declKind(s), schema: s, pos: pos, subject: subject, item: item, what: what}
	a.types[name] = d
	a.typeOrder = append(a.typeOrder, name)
	a.declOf[s] = d
	return d
}

func (a *goAPI) root(s *spec.Schema, name string, pos spec.Pos, item, what string) {
	if s == nil || s.Kind == spec.KindRef {
		return
	}
	if a.declare(name, s, pos, pos, item, what) != nil {
		a.planInside(name, s, true, item)
	}
}

func declKind(s *spec.Schema) string {
	switch {
	case len(s.Enum) > 0:
		return "enum"
	case s.Kind == spec.KindObject:
		return "struct"
	case s.Kind == spec.KindArray:
		return "slice"
	case s.Kind == spec.KindMap:
		return "map"
	case s.Kind == spec.KindAny, s.Kind == spec.KindGoType, s.Kind == spec.KindRef:
		return "alias"
	}
	return "scalar"
}

func (a *goAPI) planInside(owner string, s *spec.Schema, isDecl bool, item string) {
	switch s.Kind {
	case spec.KindObject:
		d := a.declOf[s]
		seen := map[string]bool{}
		for _, prop := range s.Properties {
			fname := naming.Exported(prop.Name)
			if fname == "" || reservedFields[fname] || seen[fname] {
				continue
			}
			seen[fname] = true
			if d != nil {
				d.fields = append(d.fields, &goField{name: fname, prop: prop})
			}
			a.planPart(owner+fname, prop.Schema, true, prop.Pos, item, fmt.Sprintf("property %q of %s", prop.Name, owner))
		}
	case spec.KindArray:
		if s.Items != nil {
			a.planPart(owner+"Item", s.Items, false, s.Items.Pos, item, "the items of "+owner)
		}
	case spec.KindMap:
		if s.Values != nil {
			a.planPart(owner+"Value", s.Values, false, s.Values.Pos, item, "the values of "+owner)
		}
	}
	if d := a.declOf[s]; d != nil && d.kind == "enum" && isDecl {
		for i, v := range d.schema.Enum {
			suffix := naming.Exported(enumText(v))
			if suffix == "" {
				suffix = fmt.Sprintf("Value%d", i)
			}
			if a.taken[d.name+suffix] {
				continue
			}
			a.taken[d.name+suffix] = true
			d.consts = append(d.consts, &goConst{name: d.name + suffix, suffix: suffix, pos: v.Pos})
		}
	}
}

func (a *goAPI) planPart(name string, s *spec.Schema, isField bool, subject spec.Pos, item, what string) {
	if s == nil {
		return
	}
	switch {
	case s.Kind == spec.KindObject || len(s.Enum) > 0 || (!isField && needsDecl(s)):
		if a.declare(name, s, s.Pos, subject, item, what) != nil {
			a.planInside(name, s, true, item)
		}
	case s.Kind == spec.KindArray || s.Kind == spec.KindMap:
		a.planInside(name, s, false, item)
	}
}

func needsDecl(s *spec.Schema) bool {
	switch s.Kind {
	case spec.KindObject:
		return true
	case spec.KindString, spec.KindInteger, spec.KindNumber, spec.KindBoolean:
		return len(s.Enum) > 0 || s.Pattern != "" || s.Format != "" || s.MinLength != nil || s.MaxLength != nil ||
			s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil || s.MultipleOf != nil ||
			s.Default != nil || len(s.Examples) > 0 || s.Description != "" || s.Title != ""
	}
	return false
}

func enumText(v *spec.Value) string {
	var str string
	if err := json.Unmarshal(v.JSON, &str); err == nil {
		return str
	}
	return string(v.JSON)
}

// typeOf is the Go type of a value of schema s where it is used.
func (a *goAPI) typeOf(s *spec.Schema) string {
	if d := a.declOf[s]; d != nil {
		return d.name
	}
	return a.underlying(s)
}

// underlying is the Go type s maps to, ignoring its own declaration. An
// existing Go type is written with its full import path.
func (a *goAPI) underlying(s *spec.Schema) string {
	switch s.Kind {
	case spec.KindRef:
		if d := a.named[s.Ref]; d != nil {
			return d.name
		}
		return "invalidRef"
	case spec.KindGoType:
		return s.GoType.ImportPath + "." + s.GoType.Name
	case spec.KindString:
		return "string"
	case spec.KindInteger:
		return "int64"
	case spec.KindNumber:
		return "float64"
	case spec.KindBoolean:
		return "bool"
	case spec.KindArray:
		return "[]" + a.typeOf(s.Items)
	case spec.KindMap:
		return "map[string]" + a.typeOf(s.Values)
	case spec.KindObject:
		return "struct{}"
	}
	return "json.RawMessage"
}

// definition is what a declared type is defined as: struct, or its
// underlying type (= T for an alias).
func (a *goAPI) definition(d *goType) string {
	switch d.kind {
	case "struct":
		return "struct"
	case "alias":
		return "= " + a.underlying(d.schema)
	}
	return a.underlying(d.schema)
}

func (a *goAPI) resolved(s *spec.Schema) *spec.Schema {
	for i := 0; s != nil && s.Kind == spec.KindRef && i < 100; i++ {
		d := a.named[s.Ref]
		if d == nil {
			return s
		}
		s = d.schema
	}
	return s
}

// fieldType follows gen's one rule: optional values are runtime.Opt[T],
// nullable ones *T; slices, maps and raw JSON use their own nil.
func (a *goAPI) fieldType(p *spec.Property) string {
	s := p.Schema
	base := a.typeOf(s)
	k := a.resolved(s).Kind
	nilable := k == spec.KindArray || k == spec.KindMap || k == spec.KindAny
	opt := func(t string) string {
		if p.Required {
			return t
		}
		return "runtime.Opt[" + t + "]"
	}
	switch {
	case nilable && !s.Nullable:
		return base
	case nilable:
		return opt(base)
	case s.Nullable:
		return opt("*" + base)
	}
	return opt(base)
}

func (a *goAPI) method(name, sig string, pos spec.Pos, what, key string) {
	if name == "" || name == "Read" || name == "Prompt" || a.methods[name] != nil {
		return
	}
	a.methods[name] = &goMethod{name: name, sig: sig, pos: pos, what: what, key: key}
	a.methodOrder = append(a.methodOrder, name)
}

func signature(params, results []string) string {
	return "(" + strings.Join(append([]string{"context.Context"}, params...), ", ") + ") (" + strings.Join(append(results, "error"), ", ") + ")"
}

func (a *goAPI) contentResult(c *spec.Content) string {
	kind := spec.ContentText
	if c != nil {
		kind = c.Kind
	}
	switch kind {
	case spec.ContentBinary:
		return "[]byte"
	case spec.ContentContents:
		return "[]runtime.ResourceContents"
	case spec.ContentJSON:
		return "*" + a.typeOf(c.Schema)
	}
	return "string"
}

func (a *goAPI) handlerMethods() {
	for _, t := range a.s.Tools {
		var params []string
		switch {
		case t.InputSchema != nil:
			params = []string{"json.RawMessage"}
		case t.Input != nil:
			params = []string{"*" + a.typeOf(t.Input)}
		}
		results := []string{"*runtime.CallToolResult"}
		switch {
		case t.OutputSchema != nil:
			results = []string{"json.RawMessage"}
		case t.Output != nil:
			results = []string{"*" + a.typeOf(t.Output)}
		}
		a.method(naming.Exported(t.Name), signature(params, results), t.Pos, fmt.Sprintf("tool %q", t.Name), "")
	}
	completion := signature([]string{"string", "map[string]string"}, []string{"[]string"})
	for _, r := range a.s.Resources {
		a.method("Read"+naming.Exported(r.Name), signature(nil, []string{a.contentResult(r.Content)}), r.Pos,
			fmt.Sprintf("resource %q", r.Name), "resource "+r.URI)
	}
	for _, t := range a.s.ResourceTemplates {
		base := naming.Exported(t.Name)
		a.method("Read"+base, signature([]string{"*" + base + "Params"}, []string{a.contentResult(t.Content)}), t.Pos,
			fmt.Sprintf("resource template %q", t.Name), "")
		for _, v := range t.Variables {
			if v.Complete && len(a.resolved(v.Schema).Enum) == 0 {
				a.method("Complete"+base+naming.Exported(v.Name), completion, v.Pos,
					fmt.Sprintf("the completion of variable %q of resource template %q", v.Name, t.Name), "")
			}
		}
	}
	for _, p := range a.s.Prompts {
		base := naming.Exported(p.Name)
		if len(p.Messages) == 0 {
			var params []string
			if len(p.Arguments) > 0 {
				params = []string{"*" + base + "Args"}
			}
			a.method("Prompt"+base, signature(params, []string{"*runtime.GetPromptResult"}), p.Pos, fmt.Sprintf("prompt %q", p.Name), "")
		}
		for _, arg := range p.Arguments {
			if arg.Complete && len(arg.Enum) == 0 {
				a.method("Complete"+base+naming.Exported(arg.Name), completion, arg.Pos,
					fmt.Sprintf("the completion of argument %q of prompt %q", arg.Name, p.Name), "")
			}
		}
	}
}

// templateParams and promptArgs synthesize the objects gen declares for a
// template's variables and a prompt's arguments (gen/synth.go).
func templateParams(t *spec.ResourceTemplate) *spec.Schema {
	optional := queryVariables(t.URITemplate)
	obj := &spec.Schema{Pos: t.Pos, Kind: spec.KindObject}
	for _, v := range t.Variables {
		obj.Properties = append(obj.Properties, &spec.Property{Pos: v.Pos, Name: v.Name, Schema: v.Schema, Required: !optional[v.Name]})
	}
	return obj
}

func promptArgs(p *spec.Prompt) *spec.Schema {
	obj := &spec.Schema{Pos: p.Pos, Kind: spec.KindObject}
	for _, arg := range p.Arguments {
		s := &spec.Schema{Pos: arg.Pos, Kind: spec.KindString, Description: arg.Description, Title: arg.Title}
		for i, e := range arg.Enum {
			js, _ := json.Marshal(e)
			pos := arg.Pos
			if i < len(arg.EnumPos) {
				pos = arg.EnumPos[i]
			}
			s.Enum = append(s.Enum, &spec.Value{Pos: pos, JSON: js})
		}
		obj.Properties = append(obj.Properties, &spec.Property{Pos: arg.Pos, Name: arg.Name, Schema: s, Required: arg.Required})
	}
	return obj
}

// maxWirePaths bounds the walk of wirePaths on specs whose types reach
// each other many ways.
const maxWirePaths = 20000

// wirePaths records the Go type declared at each place of the wire.
func (a *goAPI) wirePaths() {
	var walk func(path string, s *spec.Schema, stack []string)
	walk = func(path string, s *spec.Schema, stack []string) {
		if s == nil || len(a.wireOrder) >= maxWirePaths {
			return
		}
		name := ""
		if d := a.declOf[s]; d != nil {
			name = d.name
		} else if s.Kind == spec.KindRef && a.named[s.Ref] != nil {
			name = a.named[s.Ref].name
		}
		if name != "" {
			if _, dup := a.wire[path]; !dup {
				a.wire[path] = name
				a.wireOrder = append(a.wireOrder, path)
			}
		}
		if s.Kind == spec.KindRef {
			for _, n := range stack {
				if n == s.Ref {
					return
				}
			}
			stack = append(stack, s.Ref)
			if nt := a.specTypes[s.Ref]; nt != nil {
				s = nt.Schema
			} else {
				return
			}
		}
		switch s.Kind {
		case spec.KindObject:
			for _, p := range s.Properties {
				walk(path+"."+p.Name, p.Schema, stack)
			}
		case spec.KindArray:
			walk(path+"[]", s.Items, stack)
		case spec.KindMap:
			walk(path+"{}", s.Values, stack)
		}
	}
	for _, t := range a.s.Tools {
		walk("tool "+t.Name+" input", t.Input, nil)
		walk("tool "+t.Name+" output", t.Output, nil)
	}
	for _, r := range a.s.Resources {
		if c := r.Content; c != nil && c.Kind == spec.ContentJSON {
			walk("resource "+r.URI+" content", c.Schema, nil)
		}
	}
	for _, t := range a.s.ResourceTemplates {
		for _, v := range t.Variables {
			walk("template "+t.Name+" variable "+v.Name, v.Schema, nil)
		}
		if c := t.Content; c != nil && c.Kind == spec.ContentJSON {
			walk("template "+t.Name+" content", c.Schema, nil)
		}
	}
}
