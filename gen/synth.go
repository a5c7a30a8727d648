package gen

import (
	"encoding/json"
	"strings"

	"github.com/mcpgen/mcpgen/spec"
)

// The generator types template variables and prompt arguments with the same
// machinery as tool inputs: it synthesizes an object schema from them, which
// becomes a params or args struct.

// templateParamsSchema is the object of a template's variables. Variables
// of form-style query expressions ({?q}, {&q}) are optional: a URI may leave
// them out.
func templateParamsSchema(t *spec.ResourceTemplate, optional map[string]bool) *spec.Schema {
	obj := &spec.Schema{Pos: t.Pos, Kind: spec.KindObject}
	for _, v := range t.Variables {
		obj.Properties = append(obj.Properties, &spec.Property{
			Pos: v.Pos, Name: v.Name, Schema: v.Schema, Required: !optional[v.Name],
		})
	}
	return obj
}

// promptArgsSchema is the object of a prompt's arguments: MCP prompt
// arguments are strings, restricted by an enum where the spec says so.
func promptArgsSchema(pr *spec.Prompt) *spec.Schema {
	obj := &spec.Schema{Pos: pr.Pos, Kind: spec.KindObject}
	for _, a := range pr.Arguments {
		s := &spec.Schema{Pos: a.Pos, Kind: spec.KindString, Description: a.Description, Title: a.Title}
		for _, e := range a.Enum {
			js, _ := json.Marshal(e)
			s.Enum = append(s.Enum, &spec.Value{Pos: a.Pos, JSON: js})
		}
		obj.Properties = append(obj.Properties, &spec.Property{Pos: a.Pos, Name: a.Name, Schema: s, Required: a.Required})
	}
	return obj
}

// optionalVariables scans an RFC 6570 template for the variables of
// form-style query expressions ({?a,b} and {&c}).
func optionalVariables(template string) map[string]bool {
	opt := map[string]bool{}
	for {
		open := strings.IndexByte(template, '{')
		if open < 0 {
			return opt
		}
		end := strings.IndexByte(template[open:], '}')
		if end < 0 {
			return opt
		}
		expr := template[open+1 : open+end]
		template = template[open+end+1:]
		if expr == "" || (expr[0] != '?' && expr[0] != '&') {
			continue
		}
		for _, v := range strings.Split(expr[1:], ",") {
			v = strings.TrimSuffix(v, "*")
			if i := strings.IndexByte(v, ':'); i >= 0 {
				v = v[:i]
			}
			opt[v] = true
		}
	}
}

// enumStrings is the text of each enum value of a scalar schema.
func enumStrings(s *spec.Schema) []string {
	if s == nil {
		return nil
	}
	var out []string
	for _, v := range s.Enum {
		out = append(out, enumText(v))
	}
	return out
}
