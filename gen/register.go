package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/spec"
)

// registerFile declares the server's identity (Info, Instructions) and the
// glue that registers every tool of the spec against the runtime.
func (g *generator) registerFile(f *jen.File) {
	srv := g.spec.Server
	f.Line()
	f.Add(doc(fmt.Sprintf("Info is the MCP implementation info of the %q server %s.", srv.Name, g.at(srv.Pos))))
	f.Func().Id("Info").Params().Qual(runtimePkg, "Implementation").Block(
		jen.Return(jen.Qual(runtimePkg, "Implementation").Values(jen.DictFunc(func(d jen.Dict) {
			d[jen.Id("Name")] = jen.Lit(srv.Name)
			d[jen.Id("Version")] = jen.Lit(srv.Version)
			if srv.Title != "" {
				d[jen.Id("Title")] = jen.Lit(srv.Title)
			}
			if srv.Description != "" {
				d[jen.Id("Description")] = jen.Lit(srv.Description)
			}
			if srv.WebsiteURL != "" {
				d[jen.Id("WebsiteURL")] = jen.Lit(srv.WebsiteURL)
			}
			if len(srv.Icons) > 0 {
				d[jen.Id("Icons")] = icons(srv.Icons)
			}
		}))),
	)

	opts := jen.Id("opts")
	if srv.Instructions != "" {
		f.Line()
		f.Comment("Instructions tell the client how to use the server (server.instructions in the spec).")
		f.Const().Id("Instructions").Op("=").Lit(srv.Instructions)
		opts = jen.Append(jen.Index().Qual(runtimePkg, "Option").Values(
			jen.Qual(runtimePkg, "WithInstructions").Call(jen.Id("Instructions"))), jen.Id("opts").Op("..."))
	}

	f.Line()
	f.Comment("NewServer returns a server for h with everything the spec declares registered.")
	f.Func().Id("NewServer").Params(jen.Id("h").Id("Handler"), jen.Id("opts").Op("...").Qual(runtimePkg, "Option")).
		Op("*").Qual(runtimePkg, "Server").Block(
		jen.Id("s").Op(":=").Qual(runtimePkg, "NewServer").Call(jen.Id("Info").Call(), opts.Clone().Op("...")),
		jen.Id("Register").Call(jen.Id("s"), jen.Id("h")),
		jen.Return(jen.Id("s")),
	)

	f.Line()
	f.Comment("Register adds every tool of the spec to s, served by h. Input and output")
	f.Comment("schemas are reflected once, here, from the types in types" + Suffix + ".")
	f.Func().Id("Register").Params(jen.Id("s").Op("*").Qual(runtimePkg, "Server"), jen.Id("h").Id("Handler")).BlockFunc(func(gr *jen.Group) {
		for _, tp := range g.plan.tools {
			gr.Id("s").Dot("AddTool").Call(g.typedTool(tp))
		}
	})
}

// typedTool is runtime.TypedTool(runtime.Tool{…}, h.Method) or its variant
// for tools that return a whole result.
func (g *generator) typedTool(tp *toolPlan) jen.Code {
	adapter := "TypedTool"
	if tp.output == nil {
		adapter = "TypedToolResult"
	}
	fn := jen.Id("h").Dot(tp.method)
	if tp.input == nil {
		out := jen.Op("*").Qual(runtimePkg, "CallToolResult")
		if tp.output != nil {
			out = jen.Op("*").Add(g.typeOf(tp.output))
		}
		fn = jen.Func().Params(jen.Id("ctx").Qual(contextPkg, "Context"), jen.Id("_").Op("*").Qual(runtimePkg, "NoArgs")).
			Params(out, jen.Error()).Block(jen.Return(jen.Id("h").Dot(tp.method).Call(jen.Id("ctx"))))
	}
	return jen.Qual(runtimePkg, adapter).Call(jen.Line().Add(g.toolLiteral(tp.tool)), jen.Line().Add(fn).Op(",").Line())
}

func (g *generator) toolLiteral(t *spec.Tool) jen.Code {
	return jen.Qual(runtimePkg, "Tool").Values(jen.DictFunc(func(d jen.Dict) {
		d[jen.Id("Name")] = jen.Lit(t.Name)
		if t.Title != "" {
			d[jen.Id("Title")] = jen.Lit(t.Title)
		}
		d[jen.Id("Description")] = jen.Lit(t.Description)
		if a := t.Annotations; a != nil {
			d[jen.Id("Annotations")] = jen.Op("&").Qual(runtimePkg, "ToolAnnotations").Values(jen.DictFunc(func(ad jen.Dict) {
				if a.Title != "" {
					ad[jen.Id("Title")] = jen.Lit(a.Title)
				}
				for _, h := range []struct {
					name string
					v    *bool
				}{{"ReadOnlyHint", a.ReadOnlyHint}, {"DestructiveHint", a.DestructiveHint},
					{"IdempotentHint", a.IdempotentHint}, {"OpenWorldHint", a.OpenWorldHint}} {
					if h.v != nil {
						ad[jen.Id(h.name)] = jen.Qual(runtimePkg, "Bool").Call(jen.Lit(*h.v))
					}
				}
			}))
		}
		if len(t.Icons) > 0 {
			d[jen.Id("Icons")] = icons(t.Icons)
		}
		if t.Meta != nil {
			d[jen.Id("Meta")] = rawJSON(t.Meta)
		}
	}))
}

func icons(list []*spec.Icon) jen.Code {
	return jen.Index().Qual(runtimePkg, "Icon").ValuesFunc(func(gr *jen.Group) {
		for _, ic := range list {
			gr.Values(jen.DictFunc(func(d jen.Dict) {
				d[jen.Id("Src")] = jen.Lit(ic.Src)
				if ic.MimeType != "" {
					d[jen.Id("MimeType")] = jen.Lit(ic.MimeType)
				}
				if len(ic.Sizes) > 0 {
					d[jen.Id("Sizes")] = jen.Index().String().ValuesFunc(func(sg *jen.Group) {
						for _, sz := range ic.Sizes {
							sg.Lit(sz)
						}
					})
				}
				if ic.Theme != "" {
					d[jen.Id("Theme")] = jen.Lit(ic.Theme)
				}
			}))
		}
	})
}
