package gen

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/internal/specschema"
	"github.com/mcpgen/mcpgen/spec"
)

// registerFile declares the server's identity (Info, Instructions) and the
// glue that registers every tool of the spec against the runtime.
func (g *generator) registerFile(f *jen.File) {
	srv := g.spec.Server
	f.Line()
	f.Add(doc(fmt.Sprintf("Info is the MCP implementation info of the %q server %s.", srv.Name, g.at(srv.Pos))))
	f.Func().Id("Info").Params().Qual(runtimePkg, "Implementation").Block(
		jen.Return(jen.Qual(runtimePkg, "Implementation").Values(ordered(func(d *fields) {
			d.set("Name", jen.Lit(srv.Name))
			if srv.Title != "" {
				d.set("Title", jen.Lit(srv.Title))
			}
			d.set("Version", jen.Lit(srv.Version))
			if srv.Description != "" {
				d.set("Description", textLit(srv.Description))
			}
			if srv.WebsiteURL != "" {
				d.set("WebsiteURL", jen.Lit(srv.WebsiteURL))
			}
			if len(srv.Icons) > 0 {
				d.set("Icons", iconList(srv.Icons))
			}
		}))),
	)

	opts := jen.Id("opts")
	var defaults []jen.Code // options the spec sets, which the caller's opts override
	if srv.Instructions != "" {
		f.Line()
		f.Comment("Instructions tell the client how to use the server (server.instructions in the spec).")
		f.Const().Id("Instructions").Op("=").Add(textLit(srv.Instructions))
		defaults = append(defaults, jen.Qual(runtimePkg, "WithInstructions").Call(jen.Id("Instructions")))
	}
	defaults = append(defaults, cachingOptions(srv.Caching)...)
	if srv.RateLimit != nil {
		defaults = append(defaults, jen.Qual(runtimePkg, "WithRateLimit").Call(rateLimitValue(srv.RateLimit)))
	}
	defaults = append(defaults, g.toolsetOptions()...)
	if srv.Exposure == "search" {
		defaults = append(defaults, jen.Qual(runtimePkg, "WithToolExposure").Call(jen.Qual(runtimePkg, "ExposeSearch")))
	}
	if srv.InjectedArguments == "reject" {
		defaults = append(defaults, jen.Qual(runtimePkg, "WithInjectedArguments").Call(jen.Qual(runtimePkg, "RejectInjected")))
	}
	if len(defaults) > 0 {
		list := defaults
		if len(defaults) > 1 { // one a line
			list = nil
			for _, o := range defaults {
				list = append(list, jen.Line().Add(o))
			}
			list = append(list, jen.Line())
		}
		opts = jen.Append(jen.Index().Qual(runtimePkg, "Option").Values(list...), jen.Id("opts").Op("..."))
	}

	g.nameConstants(f)
	g.embedHTML(f)

	f.Line()
	f.Comment("NewServer returns a server for h with everything the spec declares registered.")
	f.Func().Id("NewServer").Params(jen.Id("h").Id("Handler"), jen.Id("opts").Op("...").Qual(runtimePkg, "Option")).
		Op("*").Qual(runtimePkg, "Server").Block(
		jen.Id("s").Op(":=").Qual(runtimePkg, "NewServer").Call(jen.Id("Info").Call(), opts.Clone().Op("...")),
		jen.Id("Register").Call(jen.Id("s"), jen.Id("h")),
		jen.Return(jen.Id("s")),
	)

	f.Line()
	f.Comment("Register adds everything the spec declares to s, served by h, in spec order.")
	f.Comment("Schemas (of tool inputs and outputs, of template variables) and prompt arguments")
	f.Comment("are computed from the spec by the generator; tests prove they equal the reflection")
	f.Comment("of the types in types" + Suffix + ".")
	g.sharedSchemas = nil
	f.Func().Id("Register").Params(jen.Id("s").Op("*").Qual(runtimePkg, "Server"), jen.Id("h").Id("Handler")).BlockFunc(func(gr *jen.Group) {
		for _, tp := range g.plan.tools {
			gr.Id("s").Dot("AddTool").Call(g.appTool(tp, g.typedTool(tp)))
		}
		for _, rp := range g.plan.resources {
			if rp.res.IsApp() {
				gr.Id("s").Dot("AddResource").Call(g.appResource(rp))
				continue
			}
			res := jen.Qual(runtimePkg, "TypedResource").Call(
				jen.Line().Add(g.resourceLiteral(rp)), jen.Line().Id("h").Dot(rp.method).Op(",").Line())
			if rp.res.AsTemplate == "" {
				gr.Id("s").Dot("AddResource").Call(res)
				continue
			}
			// Listed as a template too: one value, registered twice.
			gr.Block(
				jen.Id("r").Op(":=").Add(res),
				jen.Id("s").Dot("AddResource").Call(jen.Id("r")),
				jen.Id("s").Dot("AddResourceTemplate").Call(jen.Qual(runtimePkg, "FixedTemplate").Call(jen.Id("r"), jen.Lit(rp.res.AsTemplate))),
			)
		}
		for _, tp := range g.plan.templates {
			gr.Id("s").Dot("AddResourceTemplate").Call(g.templateRegistration(tp))
		}
		for _, pp := range g.plan.prompts {
			gr.Id("s").Dot("AddPrompt").Call(g.promptRegistration(pp))
		}
	})
	for _, sc := range g.sharedSchemas {
		f.Line()
		f.Add(doc(sc.name + " is the schema of " + sc.what))
		f.Const().Id(sc.name).Op("=").Add(g.layoutSchema(sc.schema, sc.of, false))
	}
	g.namedSchemaConsts(f)
}

func (g *generator) resourceLiteral(rp *resourcePlan) jen.Code {
	r := rp.res
	return jen.Qual(runtimePkg, "Resource").Values(ordered(func(d *fields) {
		d.set("Name", jen.Id(rp.nameConst))
		d.set("URI", jen.Lit(r.URI))
		g.describe(d, r.Title, r.Description, r.MimeType, r.Annotations, r.Icons, r.Meta)
		requires(d, r.Requires)
		if r.Size != nil {
			d.set("Size", jen.New(jen.Int64().Call(jen.Lit(*r.Size))))
		}
		g.ownCache(d, r.Cache)
	}))
}

func (g *generator) templateLiteral(tp *templatePlan) jen.Code {
	t := tp.tmpl
	return jen.Qual(runtimePkg, "ResourceTemplate").Values(ordered(func(d *fields) {
		d.set("Name", jen.Id(tp.nameConst))
		d.set("URITemplate", jen.Id(tp.base+"URITemplate"))
		g.describe(d, t.Title, t.Description, t.MimeType, t.Annotations, t.Icons, t.Meta)
		requires(d, t.Requires)
		if c := g.completeFunc(tp.completions); c != nil {
			d.set("Complete", c)
		}
		g.ownCache(d, t.Cache)
	}))
}

// requires sets the Requires of an item that declares `requires:`: the
// runtime lists and serves it only to clients that declared them.
func requires(d *fields, r *spec.Requires) {
	if r == nil {
		return
	}
	d.set("Requires", jen.Op("&").Qual(runtimePkg, "Requires").Values(ordered(func(rd *fields) {
		if len(r.Capabilities) > 0 {
			rd.set("Capabilities", stringList(r.Capabilities))
		}
		if len(r.Extensions) > 0 {
			rd.set("Extensions", stringList(r.Extensions))
		}
	})))
}

// describe fills the fields that resources and templates share.
func (g *generator) describe(d *fields, title, description, mimeType string, a *spec.Annotations, icons []*spec.Icon, meta *spec.Value) {
	if title != "" {
		d.set("Title", jen.Lit(title))
	}
	if description != "" {
		d.set("Description", textLit(description))
	}
	if mimeType != "" {
		d.set("MimeType", jen.Lit(mimeType))
	}
	if a != nil {
		d.set("Annotations", annotations(a))
	}
	if len(icons) > 0 {
		d.set("Icons", iconList(icons))
	}
	if meta != nil {
		d.set("Meta", rawJSON(meta))
	}
}

func annotations(a *spec.Annotations) jen.Code {
	return jen.Op("&").Qual(runtimePkg, "Annotations").Values(ordered(func(d *fields) {
		if len(a.Audience) > 0 {
			d.set("Audience", jen.Index().String().ValuesFunc(func(gr *jen.Group) {
				for _, au := range a.Audience {
					gr.Lit(au)
				}
			}))
		}
		if a.Priority != nil {
			d.set("Priority", jen.New(jen.Float64().Call(jen.Op(string(*a.Priority)))))
		}
		if a.LastModified != "" {
			d.set("LastModified", jen.Lit(a.LastModified))
		}
	}))
}

// completeFunc is the Complete handler of a template or prompt: enum
// arguments complete from their values, arguments marked complete: true
// through their handler method. Nil when nothing completes.
func (g *generator) completeFunc(cs []*completionPlan) jen.Code {
	var cases []jen.Code
	for _, c := range cs {
		switch {
		case c.method != "":
			cases = append(cases, jen.Case(jen.Lit(c.arg)).Block(jen.Return(jen.Qual(genimplPkg, "CompleteList").Call(
				jen.Id("h").Dot(c.method).Call(jen.Id("ctx"), jen.Id("req").Dot("Value"), jen.Id("req").Dot("Context"))))))
		case len(c.enum) > 0:
			args := []jen.Code{jen.Id("req").Dot("Value")}
			for _, v := range c.enum {
				args = append(args, jen.Lit(v))
			}
			cases = append(cases, jen.Case(jen.Lit(c.arg)).Block(jen.Return(jen.Qual(runtimePkg, "CompleteValues").Call(args...), jen.Nil())))
		}
	}
	if len(cases) == 0 {
		return nil
	}
	return jen.Func().Params(jen.Id("ctx").Qual(contextPkg, "Context"), jen.Id("req").Op("*").Qual(runtimePkg, "CompleteRequest")).
		Params(jen.Op("*").Qual(runtimePkg, "Completion"), jen.Error()).Block(
		jen.Switch(jen.Id("req").Dot("Argument")).Block(cases...),
		jen.Return(jen.Nil(), jen.Nil()),
	)
}

// promptRegistration is runtime.TypedPrompt(…, h.PromptX) for a prompt with
// a handler, or runtime.DeclarativePrompt(…, messages) for one whose
// messages the spec writes out.
func (g *generator) promptRegistration(pp *promptPlan) jen.Code {
	pr := pp.prompt
	lit := jen.Qual(runtimePkg, "Prompt").Values(ordered(func(d *fields) {
		d.set("Name", jen.Id(pp.nameConst))
		if pr.Title != "" {
			d.set("Title", jen.Lit(pr.Title))
		}
		d.set("Description", textLit(pr.Description))
		if len(pr.Arguments) > 0 {
			d.set("Arguments", jen.Index().Qual(runtimePkg, "PromptArgument").ValuesFunc(func(gr *jen.Group) {
				for _, a := range pr.Arguments {
					gr.Values(ordered(func(ad *fields) {
						ad.set("Name", jen.Lit(a.Name))
						if a.Title != "" {
							ad.set("Title", jen.Lit(a.Title))
						}
						if a.Description != "" {
							ad.set("Description", textLit(a.Description))
						}
						if a.Required {
							ad.set("Required", jen.True())
						}
						if a.ExplicitOptional {
							ad.set("ExplicitOptional", jen.True())
						}
						if len(a.Enum) > 0 {
							ad.set("Enum", jen.Index().String().ValuesFunc(func(eg *jen.Group) {
								for _, e := range a.Enum {
									eg.Lit(e)
								}
							}))
						}
					}))
				}
			}))
		} else if pr.EmptyArguments {
			d.set("EmptyArguments", jen.True())
		}
		if len(pr.Icons) > 0 {
			d.set("Icons", iconList(pr.Icons))
		}
		if pr.Meta != nil {
			d.set("Meta", rawJSON(pr.Meta))
		}
		requires(d, pr.Requires)
		if c := g.completeFunc(pp.completions); c != nil {
			d.set("Complete", c)
		}
	}))
	if pp.method == "" {
		msgs := jen.Index().Qual(runtimePkg, "MessageTemplate").ValuesFunc(func(gr *jen.Group) {
			for _, m := range pr.Messages {
				gr.Line().Values(ordered(func(d *fields) {
					d.set("Role", jen.Lit(m.Role))
					switch {
					case m.Text != "":
						d.set("Text", textLit(m.Text))
					case m.Resource != "":
						d.set("Resource", jen.Lit(m.Resource))
					case m.Image != nil:
						d.set("Content", jen.Qual(runtimePkg, "ImageBase64").Call(jen.Lit(base64Text(m.Image.Data)), jen.Lit(m.Image.MimeType)))
					case m.Audio != nil:
						d.set("Content", jen.Qual(runtimePkg, "AudioBase64").Call(jen.Lit(base64Text(m.Audio.Data)), jen.Lit(m.Audio.MimeType)))
					}
				}))
			}
			gr.Line()
		})
		return jen.Qual(runtimePkg, "DeclarativePrompt").Call(jen.Line().Add(lit), jen.Line().Add(msgs).Op(",").Line())
	}
	fn := jen.Id("h").Dot(pp.method)
	if pp.args == nil {
		fn = jen.Func().Params(jen.Id("ctx").Qual(contextPkg, "Context"), jen.Id("_").Op("*").Qual(runtimePkg, "NoArgs")).
			Params(jen.Op("*").Qual(runtimePkg, "GetPromptResult"), jen.Error()).Block(jen.Return(jen.Id("h").Dot(pp.method).Call(jen.Id("ctx"))))
	}
	// The arguments are written out above: nothing to reflect.
	return jen.Qual(genimplPkg, "GeneratedPrompt").Call(jen.Line().Add(lit), jen.Line().Add(fn).Op(",").Line())
}

// templateRegistration is genimpl.GeneratedTemplate(…, schema, h.ReadX) with
// the schema of the template's params computed here, or
// runtime.TypedTemplate(…, h.ReadX) when a variable's schema reaches an
// existing Go type, whose schema only reflection knows.
func (g *generator) templateRegistration(tp *templatePlan) jen.Code {
	read := jen.Id("h").Dot(tp.method)
	if schema := g.toolSchema(tp.params); schema != nil {
		return jen.Qual(genimplPkg, "GeneratedTemplate").Call(jen.Line().Add(g.templateLiteral(tp)),
			jen.Line().Add(g.schemaLiteral(schema, tp.params)), jen.Line().Add(read).Op(",").Line())
	}
	return jen.Qual(runtimePkg, "TypedTemplate").Call(jen.Line().Add(g.templateLiteral(tp)), jen.Line().Add(read).Op(",").Line())
}

// typedTool is genimpl.GeneratedTool(runtime.Tool{…}, decodeXInput, h.Method), or its variant
// for tools that return a whole result. Tools without arguments, and tools
// with a raw inputSchema or outputSchema, get a small adapter closure.
func (g *generator) typedTool(tp *toolPlan) jen.Code {
	t := tp.tool
	hasOutput := tp.output != nil || t.OutputSchema != nil
	adapter := "GeneratedTool"
	if !hasOutput {
		adapter = "GeneratedToolResult"
	}
	fn := jen.Id("h").Dot(tp.method)
	if tp.input == nil || t.InputSchema != nil || t.OutputSchema != nil {
		var inType jen.Code = jen.Qual(runtimePkg, "NoArgs")
		var call []jen.Code = []jen.Code{jen.Id("ctx")}
		switch {
		case t.InputSchema != nil:
			inType = jen.Qual(jsonPkg, "RawMessage")
			call = append(call, jen.Op("*").Id("in"))
		case tp.input != nil:
			inType = g.typeOf(tp.input)
			call = append(call, jen.Id("in"))
		}
		inName := "in"
		if tp.input == nil && t.InputSchema == nil {
			inName = "_"
		}
		var body []jen.Code
		var out jen.Code = jen.Op("*").Qual(runtimePkg, "CallToolResult")
		switch {
		case t.OutputSchema != nil:
			out = jen.Op("*").Qual(jsonPkg, "RawMessage")
			body = []jen.Code{
				jen.List(jen.Id("out"), jen.Err()).Op(":=").Id("h").Dot(tp.method).Call(call...),
				jen.If(jen.Err().Op("!=").Nil().Op("||").Id("out").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.Return(jen.Op("&").Id("out"), jen.Nil()),
			}
		case tp.output != nil:
			out = jen.Op("*").Add(g.typeOf(tp.output))
			fallthrough
		default:
			body = []jen.Code{jen.Return(jen.Id("h").Dot(tp.method).Call(call...))}
		}
		fn = jen.Func().Params(jen.Id("ctx").Qual(contextPkg, "Context"), jen.Id(inName).Op("*").Add(inType)).
			Params(out, jen.Error()).Block(body...)
	}
	return jen.Qual(genimplPkg, adapter).Call(g.toolLiteral(tp), g.decoderTable(tp), fn)
}

// decoderTable is the decoding table of a tool's input type (decoders.go),
// or nil when it has none.
func (g *generator) decoderTable(tp *toolPlan) jen.Code {
	if tp.input != nil && tp.tool.InputSchema == nil && tp.tool.OutputSchema == nil {
		if d := g.declFor(tp.input); d != nil && g.decodedDecls()[d] && g.decodedInputs[d] {
			return jen.Id(tableName(d))
		}
	}
	return jen.Nil()
}

// toolLiteral is the runtime.Tool of a tool, its fields in the order of the
// spec reference: what the tool is, who may see and call it, how calls are
// handled, and last its schemas.
func (g *generator) toolLiteral(tp *toolPlan) jen.Code {
	t := tp.tool
	return jen.Qual(runtimePkg, "Tool").Values(ordered(func(d *fields) {
		d.set("Name", jen.Id(tp.nameConst))
		if t.Title != "" {
			d.set("Title", jen.Lit(t.Title))
		}
		d.set("Description", textLit(t.Description))
		if a := t.Annotations; a != nil {
			d.set("Annotations", jen.Op("&").Qual(runtimePkg, "ToolAnnotations").Values(ordered(func(ad *fields) {
				if a.Title != "" {
					ad.set("Title", jen.Lit(a.Title))
				}
				for _, h := range []struct {
					name string
					v    *bool
				}{{"ReadOnlyHint", a.ReadOnlyHint}, {"DestructiveHint", a.DestructiveHint},
					{"IdempotentHint", a.IdempotentHint}, {"OpenWorldHint", a.OpenWorldHint}} {
					if h.v != nil {
						ad.set(h.name, jen.New(jen.Lit(*h.v)))
					}
				}
				if len(a.Extra) > 0 { // keys outside MCP's hints, as written
					ad.set("Extra", jen.Map(jen.String()).Qual("encoding/json", "RawMessage").Values(jen.DictFunc(func(ed jen.Dict) {
						for _, x := range a.Extra {
							ed[jen.Lit(x.Key)] = jen.Qual("encoding/json", "RawMessage").Call(jen.Lit(string(x.Value.JSON)))
						}
					})))
				}
			})))
		}
		if x := t.Execution; x != nil {
			d.set("Execution", jen.Op("&").Qual(runtimePkg, "ToolExecution").Values(ordered(func(xd *fields) {
				if x.TaskSupport != "" {
					xd.set("TaskSupport", jen.Lit(x.TaskSupport))
				}
				if x.InputFirst {
					xd.set("InputFirst", jen.True())
				}
			})))
		}
		if len(t.Icons) > 0 {
			d.set("Icons", iconList(t.Icons))
		}
		if t.Meta != nil {
			d.set("Meta", rawJSON(t.Meta))
		}
		if len(t.Keywords) > 0 {
			d.set("Keywords", stringList(t.Keywords))
		}
		requires(d, t.Requires)
		// The server's default scopes are resolved here: the runtime
		// knows only what each tool needs.
		if scopes := g.spec.ToolScopes(t); len(scopes) > 0 {
			d.set("Scopes", stringList(scopes))
		}
		if id := t.Idempotency; id != nil {
			d.set("Idempotency", jen.Op("&").Qual(runtimePkg, "Idempotency").Values(ordered(func(f *fields) {
				f.set("Key", jen.Lit(id.Key))
				if id.TTL > 0 {
					f.set("TTL", durationCode(id.TTL))
				}
			})))
		}
		if b := t.ResultBudget; b != nil && b.MaxBytes > 0 {
			d.set("MaxResultBytes", jen.Lit(int(b.MaxBytes)))
			if b.OnOverflow == "link" {
				d.set("Overflow", jen.Qual(runtimePkg, "OverflowLink"))
			}
			if b.TTL > 0 {
				d.set("ResultTTL", durationCode(b.TTL))
			}
		}
		if t.RateLimit != nil {
			d.set("RateLimit", jen.Op("&").Add(rateLimitValue(t.RateLimit)))
		}
		if t.InputSchema != nil {
			d.set("InputSchema", g.rawSchemaLiteral(t.InputSchema))
		}
		if t.OutputSchema != nil {
			d.set("OutputSchema", g.rawSchemaLiteral(t.OutputSchema))
		}
		g.generatedSchemas(d, tp)
	}))
}

// generatedSchemas sets the schemas of a typed input and output as constants
// (specschema.Wire), so that registering the tool reflects nothing. When the
// input and output schemas are the same bytes, they are written once, as an
// unexported constant (sharedSchemas) that both fields name.
func (g *generator) generatedSchemas(d *fields, tp *toolPlan) {
	t := tp.tool
	var in, out []byte
	if t.Input != nil {
		in = g.toolSchema(t.Input)
	}
	if t.Output != nil {
		out = g.toolSchema(t.Output)
	}
	if in != nil {
		// The server validates against in; under server.schemaProfile it
		// advertises the profile's rewrite of it.
		if listed, _ := specschema.AdvertisedInput(g.spec, t.Input); !bytes.Equal(listed, in) {
			d.set("AdvertisedInputSchema", g.schemaLiteral(listed, t.Input))
		}
	}
	if in != nil && bytes.Equal(in, out) {
		name := "schema" + tp.nameConst
		g.sharedSchemas = append(g.sharedSchemas, sharedSchema{name, in, t.Input, "both the input and the output of a tool."})
		d.set("InputSchema", jen.Qual(jsonPkg, "RawMessage").Call(jen.Id(name)))
		d.set("OutputSchema", jen.Qual(jsonPkg, "RawMessage").Call(jen.Id(name)))
		return
	}
	if in != nil {
		d.set("InputSchema", g.schemaLiteral(in, t.Input))
	}
	if out != nil {
		if name := g.boundOutputConst(tp, out); name != "" {
			g.sharedSchemas = append(g.sharedSchemas, sharedSchema{name, out, t.Output, "the output of tool " + strconv.Quote(t.Name) + ", which its upstream call checks too."})
			d.set("OutputSchema", jen.Qual(jsonPkg, "RawMessage").Call(jen.Id(name)))
			return
		}
		d.set("OutputSchema", g.schemaLiteral(out, t.Output))
	}
}

// boundOutputConst is the constant that holds the output schema out of a
// tool bound to an upstream call, which registration and the call's check
// both name, or "" when the tool is not bound or out is a named type's
// constant already. Written twice, stripe.com's 450 tools' $defs took its
// package's compile past 3.6 GB (issue 32).
func (g *generator) boundOutputConst(tp *toolPlan, out []byte) string {
	t := tp.tool
	if t.HTTP == nil || tp.output == nil || t.OutputSchema != nil {
		return ""
	}
	if ns := g.rootType(t.Output); ns != nil && constFor(ns, out) != "" {
		return ""
	}
	return "outputSchema" + tp.nameConst
}

// sharedSchema is a schema that two places use (a tool's input and output,
// or a bound tool's output and its upstream call), written once as the
// constant name.
type sharedSchema struct {
	name   string
	schema []byte
	of     *spec.Schema
	what   string // the doc comment's end: "both the input and the output of a tool."
}

// schemaLiteral is json.RawMessage of the JSON text of the compact schema
// of spec schema of (layoutSchema). The runtime compacts it once at
// registration: clients receive the compact bytes.
func (g *generator) schemaLiteral(compact []byte, of *spec.Schema) jen.Code {
	return jen.Qual(jsonPkg, "RawMessage").Call(g.layoutSchema(compact, of, false))
}

// rawSchemaLiteral is a schema the spec writes out in full. The runtime
// advertises it byte for byte after compacting, so it is indented only when
// compacting gives back exactly the spec's bytes.
func (g *generator) rawSchemaLiteral(v *spec.Value) jen.Code {
	var b bytes.Buffer
	if json.Compact(&b, v.JSON) != nil || !bytes.Equal(b.Bytes(), v.JSON) {
		return rawJSON(v)
	}
	return jen.Qual(jsonPkg, "RawMessage").Call(g.layoutSchema(v.JSON, nil, false))
}

func iconList(list []*spec.Icon) jen.Code {
	return jen.Index().Qual(runtimePkg, "Icon").ValuesFunc(func(gr *jen.Group) {
		for _, ic := range list {
			gr.Values(ordered(func(d *fields) {
				d.set("Src", jen.Lit(ic.Src))
				if ic.MimeType != "" {
					d.set("MimeType", jen.Lit(ic.MimeType))
				}
				if len(ic.Sizes) > 0 {
					d.set("Sizes", jen.Index().String().ValuesFunc(func(sg *jen.Group) {
						for _, sz := range ic.Sizes {
							sg.Lit(sz)
						}
					}))
				}
				if ic.Theme != "" {
					d.set("Theme", jen.Lit(ic.Theme))
				}
			}))
		}
	})
}

func base64Text(data []byte) string { return base64.StdEncoding.EncodeToString(data) }

// nameConstants declares the constant holding the name of every tool,
// resource, template and prompt; the registration below uses them.
func (g *generator) nameConstants(f *jen.File) {
	var defs []jen.Code
	add := func(name, value string, pos spec.Pos, what string) {
		defs = append(defs, doc(fmt.Sprintf("%s is the name of %s %s.", name, what, g.at(pos))),
			jen.Id(name).Op("=").Lit(value))
	}
	for _, tp := range g.plan.tools {
		add(tp.nameConst, tp.tool.Name, tp.tool.Pos, "tool "+strconv.Quote(tp.tool.Name))
	}
	for _, rp := range g.plan.resources {
		add(rp.nameConst, rp.res.Name, rp.res.Pos, "resource "+strconv.Quote(rp.res.Name))
	}
	for _, tp := range g.plan.templates {
		add(tp.nameConst, tp.tmpl.Name, tp.tmpl.Pos, "resource template "+strconv.Quote(tp.tmpl.Name))
	}
	for _, pp := range g.plan.prompts {
		add(pp.nameConst, pp.prompt.Name, pp.prompt.Pos, "prompt "+strconv.Quote(pp.prompt.Name))
	}
	if len(defs) > 0 {
		f.Line()
		f.Const().Defs(defs...)
	}
}

// toolSchema is the schema of a tool's input or output, or of a template's
// variables, as compact JSON (specschema.Wire), or nil when it reaches a Go
// type reference (goType): only reflection knows the schema of an existing
// Go type, so the runtime reflects those.
func (g *generator) toolSchema(root *spec.Schema) []byte {
	b, reachesGoType := g.wire(root)
	if reachesGoType {
		return nil
	}
	return b
}

// wire is specschema.Wire of root, through one Wirer per generator: the
// spec does not change while it generates.
func (g *generator) wire(root *spec.Schema) ([]byte, bool) {
	if g.wirer == nil {
		g.wirer = specschema.NewWirer(g.spec)
	}
	return g.wirer.Wire(root)
}

// rateLimitValue is a runtime.RateLimit literal of r.
func rateLimitValue(r *spec.RateLimit) jen.Code {
	return jen.Qual(runtimePkg, "RateLimit").Values(ordered(func(d *fields) {
		d.set("Requests", jen.Lit(int(r.Requests)))
		d.set("Per", durationCode(r.Per))
		if r.Burst > 0 {
			d.set("Burst", jen.Lit(int(r.Burst)))
		}
	}))
}
