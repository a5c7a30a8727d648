package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/spec"
)

// A handlerMethod is one method of the Handler interface, whatever spec
// item it serves; the interface, UnimplementedHandler and the docs are all
// built from this one list.
type handlerMethod struct {
	name    string
	doc     string
	params  []jen.Code // after ctx, as (name type) pairs
	results []jen.Code // before error
	zero    jen.Code   // the zero value of the first result
	kind    string     // tool, resource, resource template, prompt, completion
	item    string     // the spec name, for NotImplementedError
}

// handlerFile declares the interface the user implements — one method per
// tool, resource, template, prompt and completion, in spec order — and
// UnimplementedHandler, which users may embed so that a spec that grows
// does not break their build until they choose.
func (g *generator) handlerFile(f *jen.File) {
	groups := []struct {
		name, doc string
		methods   []*handlerMethod
	}{
		{"ToolsHandler", "ToolsHandler has one method per tool of the spec, in spec order.", g.toolMethods()},
		{"ResourcesHandler", "ResourcesHandler reads the resources and resource templates of the spec, in spec order,\nand completes template variables marked complete: true.", g.resourceMethods()},
		{"PromptsHandler", "PromptsHandler builds the prompts of the spec that have no declarative messages, and\ncompletes prompt arguments marked complete: true.", g.promptMethods()},
	}
	var embedded []jen.Code
	for _, gr := range groups {
		if len(gr.methods) > 0 { // a group without methods would be an empty interface
			embedded = append(embedded, jen.Id(gr.name))
		}
	}
	f.Line()
	f.Add(doc(fmt.Sprintf("Handler implements the %q MCP server. Pass it to Register or NewServer.\n\n"+
		"Assert that your type implements it with: var _ %s.Handler = (*MyServer)(nil)", g.spec.Server.Name, g.spec.Go.Package)))
	f.Type().Id("Handler").Interface(embedded...)

	var all []*handlerMethod
	for _, gr := range groups {
		if len(gr.methods) == 0 {
			continue
		}
		f.Line()
		f.Add(doc(gr.doc))
		f.Type().Id(gr.name).InterfaceFunc(func(ig *jen.Group) {
			for i, m := range gr.methods {
				if i > 0 {
					ig.Line()
				}
				ig.Add(doc(m.doc))
				ig.Id(m.name).Add(m.signature(true))
			}
		})
		all = append(all, gr.methods...)
	}

	f.Line()
	f.Add(doc("UnimplementedHandler answers every call with a runtime.NotImplementedError.\n" +
		"Embed it in your handler to keep compiling while the spec grows; leave it out to\n" +
		"have the compiler list what is missing."))
	f.Type().Id("UnimplementedHandler").Struct()
	f.Line()
	f.Var().Id("_").Id("Handler").Op("=").Id("UnimplementedHandler").Values()
	for _, m := range all {
		f.Line()
		f.Add(doc(fmt.Sprintf("%s reports that %s %q is not implemented.", m.name, m.kind, m.item)))
		f.Func().Params(jen.Id("UnimplementedHandler")).Id(m.name).Add(m.signature(false)).Block(
			jen.Return(m.zero, jen.Op("&").Qual(runtimePkg, "NotImplementedError").Values(
				jen.Id("Kind").Op(":").Lit(m.kind), jen.Id("Name").Op(":").Lit(m.item))),
		)
	}
}

// signature renders (ctx, params…) (results…, error); unnamed for the
// Unimplemented methods, which ignore their arguments.
func (m *handlerMethod) signature(named bool) jen.Code {
	params := []jen.Code{jen.Qual(contextPkg, "Context")}
	if named {
		params[0] = jen.Id("ctx").Add(params[0])
	}
	for i := 0; i+1 < len(m.params); i += 2 {
		if named {
			params = append(params, jen.Add(m.params[i]).Add(m.params[i+1]))
		} else {
			params = append(params, m.params[i+1])
		}
	}
	return jen.Params(params...).Params(append(append([]jen.Code{}, m.results...), jen.Error())...)
}

func (g *generator) toolMethods() []*handlerMethod {
	var ms []*handlerMethod
	for _, tp := range g.plan.tools {
		description := tp.tool.Description
		if u := tp.tool.UI; u != nil {
			description += fmt.Sprintf("\n\nShown in MCP App view %q. Hosts without MCP Apps show only the text\n"+
				"content, so the result must hold a text block (give a typed output a\nTextSummary method).", u.Resource)
		}
		m := &handlerMethod{name: tp.method, kind: "tool", item: tp.tool.Name, zero: jen.Nil(),
			doc: g.itemDoc(tp.method, "serves tool", tp.tool.Name, tp.tool.Pos, description)}
		if id := tp.tool.Idempotency; id != nil {
			m.doc += fmt.Sprintf("\n\nIdempotent by %s: the runtime calls this method once per value of it and answers retries with the first successful result.", id.Key)
		}
		switch {
		case tp.tool.InputSchema != nil:
			m.params = []jen.Code{jen.Id("args"), jen.Qual(jsonPkg, "RawMessage")}
		case tp.input != nil:
			m.params = []jen.Code{jen.Id("in"), jen.Op("*").Add(g.typeOf(tp.input))}
		}
		m.results = []jen.Code{jen.Op("*").Qual(runtimePkg, "CallToolResult")}
		switch {
		case tp.tool.OutputSchema != nil:
			m.results = []jen.Code{jen.Qual(jsonPkg, "RawMessage")}
		case tp.output != nil:
			m.results = []jen.Code{jen.Op("*").Add(g.typeOf(tp.output))}
		}
		ms = append(ms, m)
	}
	return ms
}

func (g *generator) resourceMethods() []*handlerMethod {
	var ms []*handlerMethod
	for _, rp := range g.plan.resources {
		r := rp.res
		if rp.method == "" {
			continue // a view whose HTML is embedded
		}
		res, zero := g.contentResult(r.Content, rp.content)
		description := r.URI + "\n\n" + r.Description
		if r.IsApp() {
			description += "\n\nAn MCP App view: return its HTML document."
		}
		ms = append(ms, &handlerMethod{name: rp.method, kind: "resource", item: r.Name, results: []jen.Code{res}, zero: zero,
			doc: g.itemDoc(rp.method, "reads resource", r.Name, r.Pos, description)})
	}
	for _, tp := range g.plan.templates {
		t := tp.tmpl
		res, zero := g.contentResult(t.Content, tp.content)
		ms = append(ms, &handlerMethod{name: tp.method, kind: "resource template", item: t.Name, results: []jen.Code{res}, zero: zero,
			params: []jen.Code{jen.Id("p"), jen.Op("*").Id(tp.base + "Params")},
			doc:    g.itemDoc(tp.method, "reads resource template", t.Name, t.Pos, t.URITemplate+"\n\n"+t.Description)})
		ms = append(ms, g.completionMethods(tp.completions, fmt.Sprintf("variable %%q of resource template %q", t.Name), t.Name)...)
	}
	return ms
}

func (g *generator) promptMethods() []*handlerMethod {
	var ms []*handlerMethod
	for _, pp := range g.plan.prompts {
		pr := pp.prompt
		if pp.method != "" {
			m := &handlerMethod{name: pp.method, kind: "prompt", item: pr.Name, zero: jen.Nil(),
				results: []jen.Code{jen.Op("*").Qual(runtimePkg, "GetPromptResult")},
				doc:     g.itemDoc(pp.method, "builds prompt", pr.Name, pr.Pos, pr.Description)}
			if pp.args != nil {
				m.params = []jen.Code{jen.Id("args"), jen.Op("*").Id(pp.base + "Args")}
			}
			ms = append(ms, m)
		}
		ms = append(ms, g.completionMethods(pp.completions, fmt.Sprintf("argument %%q of prompt %q", pr.Name), pr.Name)...)
	}
	return ms
}

// completionMethods are the methods of arguments marked complete: true.
// They get what the user typed so far and the arguments already filled.
func (g *generator) completionMethods(cs []*completionPlan, whatFormat, item string) []*handlerMethod {
	var ms []*handlerMethod
	for _, c := range cs {
		if c.method == "" {
			continue
		}
		ms = append(ms, &handlerMethod{name: c.method, kind: "completion of", item: item + "." + c.arg, zero: jen.Nil(),
			params:  []jen.Code{jen.Id("prefix"), jen.String(), jen.Id("filled"), jen.Map(jen.String()).String()},
			results: []jen.Code{jen.Index().String()},
			doc: fmt.Sprintf("%s completes %s: the values that start with prefix, given the arguments\n"+
				"already filled. The runtime sends at most 100 and says how many there were.", c.method, fmt.Sprintf(whatFormat, c.arg))})
	}
	return ms
}

// contentResult is the Go type a resource handler returns for its content
// kind, and that type's zero value: string → text, []byte → a base64 blob,
// []runtime.ResourceContents → as is, a typed value → its JSON.
func (g *generator) contentResult(c *spec.Content, typed *spec.Schema) (jen.Code, jen.Code) {
	kind := spec.ContentText
	if c != nil {
		kind = c.Kind
	}
	switch kind {
	case spec.ContentBinary:
		return jen.Index().Byte(), jen.Nil()
	case spec.ContentContents:
		return jen.Index().Qual(runtimePkg, "ResourceContents"), jen.Nil()
	case spec.ContentJSON:
		return jen.Op("*").Add(g.typeOf(typed)), jen.Nil()
	}
	return jen.String(), jen.Lit("")
}

func (g *generator) itemDoc(method, verb, name string, pos spec.Pos, description string) string {
	text := fmt.Sprintf("%s %s %q %s.", method, verb, name, g.at(pos))
	if description != "" {
		text += "\n\n" + description
	}
	return text
}
