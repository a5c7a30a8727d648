package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// handlerFile declares the interface the user implements — one method per
// tool, in spec order — and UnimplementedHandler, which users may embed so
// that a spec that grows does not break their build until they choose.
func (g *generator) handlerFile(f *jen.File) {
	name := g.spec.Server.Name
	f.Line()
	f.Add(doc(fmt.Sprintf("Handler implements the %q MCP server. Pass it to Register or NewServer.\n\n"+
		"Assert that your type implements it with: var _ %s.Handler = (*MyServer)(nil)", name, g.spec.Go.Package)))
	f.Type().Id("Handler").Interface(jen.Id("ToolsHandler"))

	f.Line()
	f.Add(doc("ToolsHandler has one method per tool of the spec, in spec order."))
	f.Type().Id("ToolsHandler").InterfaceFunc(func(gr *jen.Group) {
		for i, tp := range g.plan.tools {
			if i > 0 {
				gr.Line()
			}
			gr.Add(doc(g.toolDoc(tp)))
			gr.Id(tp.method).Add(g.toolSignature(tp, true))
		}
	})

	f.Line()
	f.Add(doc("UnimplementedHandler answers every call with a runtime.NotImplementedError.\n" +
		"Embed it in your handler to keep compiling while the spec grows; leave it out to\n" +
		"have the compiler list what is missing."))
	f.Type().Id("UnimplementedHandler").Struct()
	f.Line()
	f.Var().Id("_").Id("Handler").Op("=").Id("UnimplementedHandler").Values()
	for _, tp := range g.plan.tools {
		f.Line()
		f.Comment(fmt.Sprintf("%s reports that tool %q is not implemented.", tp.method, tp.tool.Name))
		f.Func().Params(jen.Id("UnimplementedHandler")).Id(tp.method).Add(g.toolSignature(tp, false)).Block(
			jen.Return(jen.Nil(), jen.Op("&").Qual(runtimePkg, "NotImplementedError").Values(jen.Dict{
				jen.Id("Kind"): jen.Lit("tool"),
				jen.Id("Name"): jen.Lit(tp.tool.Name),
			})),
		)
	}
}

func (g *generator) toolDoc(tp *toolPlan) string {
	text := fmt.Sprintf("%s serves tool %q %s.", tp.method, tp.tool.Name, g.at(tp.tool.Pos))
	if tp.tool.Description != "" {
		text += "\n\n" + tp.tool.Description
	}
	return text
}

// toolSignature is (ctx, *Input) (*Output, error): the input is left out
// for tools without arguments, and tools without a declared output return
// the whole *runtime.CallToolResult.
func (g *generator) toolSignature(tp *toolPlan, named bool) jen.Code {
	params := []jen.Code{jen.Qual(contextPkg, "Context")}
	if named {
		params[0] = jen.Id("ctx").Add(params[0])
	}
	if tp.input != nil {
		in := jen.Op("*").Add(g.typeOf(tp.input))
		if named {
			in = jen.Id("in").Add(in)
		}
		params = append(params, in)
	}
	out := jen.Op("*").Qual(runtimePkg, "CallToolResult")
	if tp.output != nil {
		out = jen.Op("*").Add(g.typeOf(tp.output))
	}
	return jen.Params(params...).Params(out, jen.Error())
}
