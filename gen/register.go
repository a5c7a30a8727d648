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
		jen.Return(jen.Qual(runtimePkg, "Implementation").Values(jen.DictFunc(func(d jen.Dict) {
			d[jen.Id("Name")] = jen.Lit(srv.Name)
			d[jen.Id("Version")] = jen.Lit(srv.Version)
			if srv.Title != "" {
				d[jen.Id("Title")] = jen.Lit(srv.Title)
			}
			if srv.Description != "" {
				d[jen.Id("Description")] = textLit(srv.Description)
			}
			if srv.WebsiteURL != "" {
				d[jen.Id("WebsiteURL")] = jen.Lit(srv.WebsiteURL)
			}
			if len(srv.Icons) > 0 {
				d[jen.Id("Icons")] = iconList(srv.Icons)
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
			gr.Id("s").Dot("AddResource").Call(jen.Qual(runtimePkg, "TypedResource").Call(
				jen.Line().Add(g.resourceLiteral(rp)), jen.Line().Id("h").Dot(rp.method).Op(",").Line()))
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
		f.Comment(sc.name + " is the schema of both the input and the output of a tool.")
		f.Const().Id(sc.name).Op("=").Add(schemaText(sc.schema))
	}
}

func (g *generator) resourceLiteral(rp *resourcePlan) jen.Code {
	r := rp.res
	return jen.Qual(runtimePkg, "Resource").Values(jen.DictFunc(func(d jen.Dict) {
		d[jen.Id("URI")] = jen.Lit(r.URI)
		d[jen.Id("Name")] = jen.Id(rp.nameConst)
		g.describe(d, r.Title, r.Description, r.MimeType, r.Annotations, r.Icons, r.Meta)
		requires(d, r.Requires)
		if r.Size != nil {
			d[jen.Id("Size")] = jen.New(jen.Int64().Call(jen.Lit(*r.Size)))
		}
		g.ownCache(d, r.Cache)
	}))
}

func (g *generator) templateLiteral(tp *templatePlan) jen.Code {
	t := tp.tmpl
	return jen.Qual(runtimePkg, "ResourceTemplate").Values(jen.DictFunc(func(d jen.Dict) {
		d[jen.Id("URITemplate")] = jen.Id(tp.base + "URITemplate")
		d[jen.Id("Name")] = jen.Id(tp.nameConst)
		g.describe(d, t.Title, t.Description, t.MimeType, t.Annotations, t.Icons, t.Meta)
		requires(d, t.Requires)
		if c := g.completeFunc(tp.completions); c != nil {
			d[jen.Id("Complete")] = c
		}
		g.ownCache(d, t.Cache)
	}))
}

// requires sets the Requires of an item that declares `requires:`: the
// runtime lists and serves it only to clients that declared them.
func requires(d jen.Dict, r *spec.Requires) {
	if r == nil {
		return
	}
	d[jen.Id("Requires")] = jen.Op("&").Qual(runtimePkg, "Requires").Values(jen.DictFunc(func(rd jen.Dict) {
		if len(r.Capabilities) > 0 {
			rd[jen.Id("Capabilities")] = stringList(r.Capabilities)
		}
		if len(r.Extensions) > 0 {
			rd[jen.Id("Extensions")] = stringList(r.Extensions)
		}
	}))
}

// describe fills the fields that resources and templates share.
func (g *generator) describe(d jen.Dict, title, description, mimeType string, a *spec.Annotations, icons []*spec.Icon, meta *spec.Value) {
	if title != "" {
		d[jen.Id("Title")] = jen.Lit(title)
	}
	if description != "" {
		d[jen.Id("Description")] = textLit(description)
	}
	if mimeType != "" {
		d[jen.Id("MimeType")] = jen.Lit(mimeType)
	}
	if a != nil {
		d[jen.Id("Annotations")] = annotations(a)
	}
	if len(icons) > 0 {
		d[jen.Id("Icons")] = iconList(icons)
	}
	if meta != nil {
		d[jen.Id("Meta")] = rawJSON(meta)
	}
}

func annotations(a *spec.Annotations) jen.Code {
	return jen.Op("&").Qual(runtimePkg, "Annotations").Values(jen.DictFunc(func(d jen.Dict) {
		if len(a.Audience) > 0 {
			d[jen.Id("Audience")] = jen.Index().String().ValuesFunc(func(gr *jen.Group) {
				for _, au := range a.Audience {
					gr.Lit(au)
				}
			})
		}
		if a.Priority != nil {
			d[jen.Id("Priority")] = jen.New(jen.Float64().Call(jen.Op(string(*a.Priority))))
		}
		if a.LastModified != "" {
			d[jen.Id("LastModified")] = jen.Lit(a.LastModified)
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
	lit := jen.Qual(runtimePkg, "Prompt").Values(jen.DictFunc(func(d jen.Dict) {
		d[jen.Id("Name")] = jen.Id(pp.nameConst)
		if pr.Title != "" {
			d[jen.Id("Title")] = jen.Lit(pr.Title)
		}
		d[jen.Id("Description")] = textLit(pr.Description)
		if len(pr.Arguments) > 0 {
			d[jen.Id("Arguments")] = jen.Index().Qual(runtimePkg, "PromptArgument").ValuesFunc(func(gr *jen.Group) {
				for _, a := range pr.Arguments {
					gr.Values(jen.DictFunc(func(ad jen.Dict) {
						ad[jen.Id("Name")] = jen.Lit(a.Name)
						if a.Title != "" {
							ad[jen.Id("Title")] = jen.Lit(a.Title)
						}
						if a.Description != "" {
							ad[jen.Id("Description")] = textLit(a.Description)
						}
						if a.Required {
							ad[jen.Id("Required")] = jen.True()
						}
						if a.ExplicitOptional {
							ad[jen.Id("ExplicitOptional")] = jen.True()
						}
						if len(a.Enum) > 0 {
							ad[jen.Id("Enum")] = jen.Index().String().ValuesFunc(func(eg *jen.Group) {
								for _, e := range a.Enum {
									eg.Lit(e)
								}
							})
						}
					}))
				}
			})
		}
		if len(pr.Icons) > 0 {
			d[jen.Id("Icons")] = iconList(pr.Icons)
		}
		if pr.Meta != nil {
			d[jen.Id("Meta")] = rawJSON(pr.Meta)
		}
		requires(d, pr.Requires)
		if c := g.completeFunc(pp.completions); c != nil {
			d[jen.Id("Complete")] = c
		}
	}))
	if pp.method == "" {
		msgs := jen.Index().Qual(runtimePkg, "MessageTemplate").ValuesFunc(func(gr *jen.Group) {
			for _, m := range pr.Messages {
				gr.Line().Values(jen.DictFunc(func(d jen.Dict) {
					d[jen.Id("Role")] = jen.Lit(m.Role)
					switch {
					case m.Text != "":
						d[jen.Id("Text")] = textLit(m.Text)
					case m.Resource != "":
						d[jen.Id("Resource")] = jen.Lit(m.Resource)
					case m.Image != nil:
						d[jen.Id("Content")] = jen.Qual(runtimePkg, "ImageBase64").Call(jen.Lit(base64Text(m.Image.Data)), jen.Lit(m.Image.MimeType))
					case m.Audio != nil:
						d[jen.Id("Content")] = jen.Qual(runtimePkg, "AudioBase64").Call(jen.Lit(base64Text(m.Audio.Data)), jen.Lit(m.Audio.MimeType))
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
			jen.Line().Add(schemaLiteral(schema)), jen.Line().Add(read).Op(",").Line())
	}
	return jen.Qual(runtimePkg, "TypedTemplate").Call(jen.Line().Add(g.templateLiteral(tp)), jen.Line().Add(read).Op(",").Line())
}

// typedTool is genimpl.GeneratedTool(runtime.Tool{…}, h.Method), or its variant
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
	return jen.Qual(genimplPkg, adapter).Call(jen.Line().Add(g.toolLiteral(tp)), jen.Line().Add(fn).Op(",").Line())
}

func (g *generator) toolLiteral(tp *toolPlan) jen.Code {
	t := tp.tool
	return jen.Qual(runtimePkg, "Tool").Values(jen.DictFunc(func(d jen.Dict) {
		d[jen.Id("Name")] = jen.Id(tp.nameConst)
		if t.Title != "" {
			d[jen.Id("Title")] = jen.Lit(t.Title)
		}
		d[jen.Id("Description")] = textLit(t.Description)
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
						ad[jen.Id(h.name)] = jen.New(jen.Lit(*h.v))
					}
				}
			}))
		}
		if x := t.Execution; x != nil {
			d[jen.Id("Execution")] = jen.Op("&").Qual(runtimePkg, "ToolExecution").Values(jen.DictFunc(func(xd jen.Dict) {
				if x.TaskSupport != "" {
					xd[jen.Id("TaskSupport")] = jen.Lit(x.TaskSupport)
				}
				if x.InputFirst {
					xd[jen.Id("InputFirst")] = jen.True()
				}
			}))
		}
		if len(t.Icons) > 0 {
			d[jen.Id("Icons")] = iconList(t.Icons)
		}
		if t.Meta != nil {
			d[jen.Id("Meta")] = rawJSON(t.Meta)
		}
		requires(d, t.Requires)
		if t.InputSchema != nil {
			d[jen.Id("InputSchema")] = rawSchemaLiteral(t.InputSchema)
		}
		if t.OutputSchema != nil {
			d[jen.Id("OutputSchema")] = rawSchemaLiteral(t.OutputSchema)
		}
		if id := t.Idempotency; id != nil {
			d[jen.Id("Idempotency")] = jen.Op("&").Qual(runtimePkg, "Idempotency").Values(jen.DictFunc(func(fields jen.Dict) {
				fields[jen.Id("Key")] = jen.Lit(id.Key)
				if id.TTL > 0 {
					fields[jen.Id("TTL")] = durationCode(id.TTL)
				}
			}))
		}
		if b := t.ResultBudget; b != nil && b.MaxBytes > 0 {
			d[jen.Id("MaxResultBytes")] = jen.Lit(int(b.MaxBytes))
			if b.OnOverflow == "link" {
				d[jen.Id("Overflow")] = jen.Qual(runtimePkg, "OverflowLink")
			}
			if b.TTL > 0 {
				d[jen.Id("ResultTTL")] = durationCode(b.TTL)
			}
		}
		if t.RateLimit != nil {
			d[jen.Id("RateLimit")] = jen.Op("&").Add(rateLimitValue(t.RateLimit))
		}
		if len(t.Keywords) > 0 {
			d[jen.Id("Keywords")] = stringList(t.Keywords)
		}
		// The server's default scopes are resolved here: the runtime
		// knows only what each tool needs.
		if scopes := g.spec.ToolScopes(t); len(scopes) > 0 {
			d[jen.Id("Scopes")] = stringList(scopes)
		}
		g.generatedSchemas(d, tp)
	}))
}

// generatedSchemas sets the schemas of a typed input and output as constants
// (specschema.Wire), so that registering the tool reflects nothing. When the
// input and output schemas are the same bytes, they are written once, as an
// unexported constant (sharedSchemas) that both fields name.
func (g *generator) generatedSchemas(d jen.Dict, tp *toolPlan) {
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
			d[jen.Id("AdvertisedInputSchema")] = schemaLiteral(listed)
		}
	}
	if in != nil && bytes.Equal(in, out) {
		name := "schema" + tp.nameConst
		g.sharedSchemas = append(g.sharedSchemas, sharedSchema{name, in})
		d[jen.Id("InputSchema")] = jen.Qual(jsonPkg, "RawMessage").Call(jen.Id(name))
		d[jen.Id("OutputSchema")] = jen.Qual(jsonPkg, "RawMessage").Call(jen.Id(name))
		return
	}
	if in != nil {
		d[jen.Id("InputSchema")] = schemaLiteral(in)
	}
	if out != nil {
		d[jen.Id("OutputSchema")] = schemaLiteral(out)
	}
}

// sharedSchema is a schema that a tool's input and output both use, written
// once as the constant name.
type sharedSchema struct {
	name   string
	schema []byte
}

// schemaText is a schema as indented JSON text, for a constant.
func schemaText(compact []byte) jen.Code {
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", "\t"); err != nil {
		panic("gen: indenting a schema: " + err.Error()) // marshal wrote it
	}
	text := b.String()
	if !canBeRaw(text) {
		return textLit(text)
	}
	return rawString(text)
}

// schemaLiteral writes a schema as indented JSON, one keyword a line, so that
// a spec edit shows in review as the few lines it changes. The runtime
// compacts it once at registration: clients receive the compact bytes.
func schemaLiteral(compact []byte) jen.Code {
	return jen.Qual(jsonPkg, "RawMessage").Call(schemaText(compact)) // raw, or one quoted line per JSON line
}

// rawSchemaLiteral is a schema the spec writes out in full. The runtime
// advertises it byte for byte after compacting, so it is indented only when
// compacting gives back exactly the spec's bytes.
func rawSchemaLiteral(v *spec.Value) jen.Code {
	var b bytes.Buffer
	if json.Compact(&b, v.JSON) != nil || !bytes.Equal(b.Bytes(), v.JSON) {
		return rawJSON(v)
	}
	return schemaLiteral(v.JSON)
}

func iconList(list []*spec.Icon) jen.Code {
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

func base64Text(data []byte) string { return base64.StdEncoding.EncodeToString(data) }

// nameConstants declares the constant holding the name of every tool,
// resource, template and prompt; the registration below uses them.
func (g *generator) nameConstants(f *jen.File) {
	var defs []jen.Code
	add := func(name, value string, pos spec.Pos, what string) {
		if len(defs) > 0 {
			defs = append(defs, jen.Line())
		}
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
	b, reachesGoType := specschema.Wire(g.spec, root)
	if reachesGoType {
		return nil
	}
	return b
}

// rateLimitValue is a runtime.RateLimit literal of r.
func rateLimitValue(r *spec.RateLimit) jen.Code {
	return jen.Qual(runtimePkg, "RateLimit").Values(jen.DictFunc(func(d jen.Dict) {
		d[jen.Id("Requests")] = jen.Lit(int(r.Requests))
		d[jen.Id("Per")] = durationCode(r.Per)
		if r.Burst > 0 {
			d[jen.Id("Burst")] = jen.Lit(int(r.Burst))
		}
	}))
}
