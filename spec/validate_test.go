package spec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// goSpec is a small valid spec built in Go, without positions.
func goSpec() *Spec {
	return &Spec{
		File:    "built.yaml",
		Version: 1,
		Server:  Server{Name: "s", Version: "1.0.0"},
		Go:      GoOptions{Package: "p"},
		Types: []*NamedType{
			{Name: "ID", Schema: &Schema{Kind: KindString, Pattern: "^[a-z]+$"}},
		},
		Tools: []*Tool{{
			Item: Item{Name: "get", Description: "Gets."},
			Input: &Schema{Kind: KindObject, Properties: []*Property{
				{Name: "id", Required: true, Schema: &Schema{Kind: KindRef, Ref: "ID"}},
			}},
		}},
	}
}

func TestValidateGoSpec(t *testing.T) {
	if diags := Validate(goSpec()); len(diags) > 0 {
		t.Fatalf("valid spec: %v", diags)
	}
	for _, c := range []struct {
		name   string
		change func(s *Spec)
		want   []string
	}{
		{"empty spec", func(s *Spec) { *s = Spec{File: "built.yaml"} }, []string{
			`built.yaml:1:1: missing required key "go" (the Go options; write go: {package: name})`,
			`built.yaml:1:1: missing required key "mcpgen" (the spec format version; write mcpgen: 1)`,
			`built.yaml:1:1: missing required key "server" (write server: {name: …, version: …})`,
		}},
		{"version", func(s *Spec) { s.Version = 2 }, []string{
			`built.yaml:1:1: mcpgen must be 1, the only version of the spec format`,
		}},
		{"server name", func(s *Spec) { s.Server.Name = "" }, []string{
			`built.yaml:1:1: missing required key "name" in server`,
		}},
		{"package", func(s *Spec) { s.Go.Package = "9lives" }, []string{
			`built.yaml:1:1: package "9lives" is not a valid Go package name; use letters, digits and _, starting with a letter (such as ordersmcp)`,
		}},
		{"duplicate tools and types keep both positions", func(s *Spec) {
			s.Tools[0].Pos = Pos{3, 3}
			s.Tools = append(s.Tools, &Tool{Item: Item{Pos: Pos{9, 3}, Name: "get", Description: "Again."}})
			s.Types[0].Pos = Pos{2, 3}
			s.Types = append(s.Types, &NamedType{Pos: Pos{5, 3}, Name: "ID", Schema: &Schema{Kind: KindInteger}})
		}, []string{
			`built.yaml:5:3: duplicate type "ID" (first defined at built.yaml:2:3)`,
			`built.yaml:9:3: duplicate tool "get" (first defined at built.yaml:3:3)`,
		}},
		{"duplicate property", func(s *Spec) {
			in := s.Tools[0].Input
			in.Properties = append(in.Properties, &Property{Pos: Pos{7, 7}, Name: "id", Schema: &Schema{Kind: KindString}})
		}, []string{
			`built.yaml:7:7: duplicate property "id" (first defined at built.yaml:1:1)`,
		}},
		{"no description", func(s *Spec) { s.Tools[0].Description = " " }, []string{
			`built.yaml:1:1: missing required key "description" in tool "get"`,
		}},
		{"constraints from fields", func(s *Spec) {
			n := int64(3)
			s.Types[0].Schema = &Schema{Kind: KindInteger, MinLength: &n, Pattern: "("}
		}, []string{
			`built.yaml:1:1: minLength applies to strings, not integer`,
			`built.yaml:1:1: pattern applies to strings, not integer`,
		}},
		{"unknown kind", func(s *Spec) { s.Types[0].Schema = &Schema{} }, []string{
			`built.yaml:1:1: unknown schema kind ""`,
		}},
		{"bad JSON", func(s *Spec) { s.Types[0].Schema.Default = &Value{JSON: []byte("{")} }, []string{
			`built.yaml:1:1: default is not valid JSON`,
		}},
		{"number text", func(s *Spec) {
			n := Number("ten")
			s.Types[0].Schema = &Schema{Kind: KindInteger, Minimum: &n}
		}, []string{
			`built.yaml:1:1: minimum "ten" is not a number`,
		}},
		{"meta", func(s *Spec) { s.Tools[0].Meta = &Value{JSON: []byte(`[1]`)} }, []string{
			`built.yaml:1:1: _meta must be a mapping`,
		}},
		{"map additionalProperties", func(s *Spec) {
			s.Types[0].Schema = &Schema{Kind: KindMap, Values: &Schema{Kind: KindAny}, AdditionalProperties: true}
		}, []string{
			`built.yaml:1:1: additionalProperties applies to objects, not map`,
		}},
		{"missing items and values", func(s *Spec) {
			s.Types = append(s.Types, &NamedType{Name: "A", Schema: &Schema{Kind: KindArray}}, &NamedType{Name: "M", Schema: &Schema{Kind: KindMap}})
		}, []string{
			`built.yaml:1:1: a map schema needs values, the schema of every value`,
			`built.yaml:1:1: an array schema needs items, the schema of every item`,
		}},
		{"resources, templates and prompts built in Go", func(s *Spec) {
			s.Resources = []*Resource{
				{Item: Item{Name: "cfg"}, URI: "config://app"}, // no Content: text
				{Item: Item{Name: "bad"}, URI: "config://x", Size: ptr[int64](-1), Content: &Content{Kind: "yaml"}, Annotations: &Annotations{Audience: []string{"bot"}}},
			}
			s.ResourceTemplates = []*ResourceTemplate{{
				Item: Item{Name: "repo"}, URITemplate: "github://{owner}/{repo}",
				Variables: []*Variable{{Name: "owner", Schema: &Schema{Kind: KindString}}, {Name: "owner", Schema: &Schema{Kind: KindString}}, {Name: "x"}},
				Content:   &Content{Kind: ContentJSON},
			}}
			s.Prompts = []*Prompt{{Item: Item{Name: "p", Description: "d"}, Messages: []*PromptMessage{
				{Role: "user", Image: &Media{MimeType: "image/png"}},
				{Role: "user", Text: "{{.who}}"},
			}}}
		}, []string{
			`built.yaml:1:1: content json needs the schema of the value`,
			`built.yaml:1:1: duplicate variable "owner" (first defined at built.yaml:1:1)`,
			`built.yaml:1:1: missing required key "data" in image`,
			`built.yaml:1:1: placeholder {{.who}} names no argument; prompt "p" has no arguments`,
			`built.yaml:1:1: size must not be negative`,
			`built.yaml:1:1: the uriTemplate variable {repo} is missing from the variables of resource template "repo"`,
			`built.yaml:1:1: unknown audience "bot"; use user or assistant`,
			`built.yaml:1:1: unknown content "yaml"; use text, binary, contents or json`,
			`built.yaml:1:1: variable "x" has no schema`,
			`built.yaml:1:1: variable "x" is declared but the uriTemplate has no {x}`,
		}},
		{"goType", func(s *Spec) {
			s.Types[0].Schema = &Schema{Kind: KindGoType, GoType: &GoTypeRef{ImportPath: "time", Name: "time"}}
		}, []string{
			`built.yaml:1:1: goType "time.time" must be an import path and an exported type name, such as time.Time or github.com/acme/orders/model.Order`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := goSpec()
			c.change(s)
			var got []string
			for _, d := range Validate(s) {
				got = append(got, d.String())
			}
			if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidateSelfContainingSchema: a schema built in Go may point at
// itself; validation must still end.
func TestValidateSelfContainingSchema(t *testing.T) {
	s := goSpec()
	arr := &Schema{Kind: KindArray}
	arr.Items = arr
	obj := &Schema{Kind: KindObject}
	obj.Properties = []*Property{{Name: "self", Schema: obj}}
	s.Types = append(s.Types, &NamedType{Name: "A", Schema: arr}, &NamedType{Name: "O", Schema: obj})
	Validate(s) // must return
}
