package breaking

import (
	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

// goAPI is the Go API a spec generates, as package gen plans it
// (gen.PlanAPI), indexed for the GO rules, with the Go type declared at
// each place of the wire.
type goAPI struct {
	s           *spec.Spec
	api         *gen.API
	types       map[string]*gen.APIType
	typeOrder   []string
	methods     map[string]*gen.APIMethod
	methodOrder []string

	specTypes map[string]*spec.NamedType

	// wire maps where a value is on the wire ("tool lookup_order output",
	// "… output.lines[]") to the Go type declared for it, so that a type
	// whose name changed while clients see the same thing is a rename.
	wire      map[string]string
	wireOrder []string
}

// buildGoAPI plans the Go API of s. A spec the generator refuses still
// gives the part of its API that could be named; the rest is not compared.
func buildGoAPI(s *spec.Spec) *goAPI {
	api, _ := gen.PlanAPI(s)
	a := &goAPI{
		s:         s,
		api:       api,
		types:     map[string]*gen.APIType{},
		methods:   map[string]*gen.APIMethod{},
		specTypes: map[string]*spec.NamedType{},
		wire:      map[string]string{},
	}
	for _, t := range api.Types {
		a.types[t.Name] = t
		a.typeOrder = append(a.typeOrder, t.Name)
	}
	for _, m := range api.Methods {
		a.methods[m.Name] = m
		a.methodOrder = append(a.methodOrder, m.Name)
	}
	for _, nt := range s.Types {
		a.specTypes[nt.Name] = nt
	}
	a.wirePaths()
	return a
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
		if t := a.api.TypeAt(s); t != nil {
			if _, dup := a.wire[path]; !dup {
				a.wire[path] = t.Name
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
