package gen

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/spec"
)

const (
	upstreamPkg = "github.com/mcpgen/mcpgen/runtime/upstream"
	osPkg       = "os"
)

// upstreamNames are the package-level names upstreamFile declares, taken
// only in a spec with an upstream section.
var upstreamNames = []string{"UpstreamConfig", "UpstreamHandler", "NewUpstreamHandler"}

// hasUpstream reports whether the spec gets an upstream file.
func hasUpstream(s *spec.Spec) bool { return s.Upstream != nil }

// upstreamFile declares UpstreamConfig (the spec's upstream section as a
// runtime/upstream Config) and UpstreamHandler, whose methods serve the
// tools with an http binding by calling the API. UpstreamHandler embeds
// UnimplementedHandler, so it is a whole Handler; a person's handler that
// embeds *UpstreamHandler serves the rest, and replaces a generated call by
// declaring the method itself (Go's method promotion: the outer method
// wins). No registration changes: the generated call is just the default
// implementation of the handler method.
func (g *generator) upstreamFile(f *jen.File) {
	f.ImportName(upstreamPkg, "upstream")
	u := g.spec.Upstream
	f.Line()
	text := fmt.Sprintf("UpstreamConfig is the upstream API of the spec's upstream section %s.", g.at(u.Pos))
	if u.BaseURLEnv != "" {
		text += fmt.Sprintf(" The environment variable %s, when set, replaces the base URL.", u.BaseURLEnv)
	}
	f.Add(doc(text))
	f.Func().Id("UpstreamConfig").Params().Qual(upstreamPkg, "Config").BlockFunc(func(b *jen.Group) {
		b.Id("cfg").Op(":=").Qual(upstreamPkg, "Config").Values(jen.DictFunc(func(d jen.Dict) {
			if u.BaseURL != "" {
				d[jen.Id("BaseURL")] = jen.Lit(u.BaseURL)
			}
			if u.Timeout > 0 {
				d[jen.Id("Timeout")] = durationCode(u.Timeout)
			}
			if u.MaxResponseBytes > 0 {
				d[jen.Id("MaxResponseBytes")] = jen.Lit(u.MaxResponseBytes)
			}
			if a := upstreamAuth(u.Auth); a != nil {
				d[jen.Id("Auth")] = a
			}
		}))
		if u.BaseURLEnv != "" {
			b.If(jen.Id("v").Op(":=").Qual(osPkg, "Getenv").Call(jen.Lit(u.BaseURLEnv)), jen.Id("v").Op("!=").Lit("")).Block(
				jen.Id("cfg").Dot("BaseURL").Op("=").Id("v"))
		}
		b.Return(jen.Id("cfg"))
	})

	f.Line()
	f.Add(doc("UpstreamHandler serves the tools with an http binding by calling the upstream API, and\n" +
		"answers everything else as not implemented. Serve it as it is, or embed *UpstreamHandler in\n" +
		"your own handler to implement the rest; declaring a bound tool's method on your handler\n" +
		"replaces its generated call."))
	f.Type().Id("UpstreamHandler").Struct(
		jen.Id("UnimplementedHandler"),
		jen.Comment("Client calls the upstream API."),
		jen.Id("Client").Op("*").Qual(upstreamPkg, "Client"),
	)
	f.Line()
	f.Var().Id("_").Id("Handler").Op("=").Parens(jen.Op("*").Id("UpstreamHandler")).Parens(jen.Nil())
	f.Line()
	f.Add(doc("NewUpstreamHandler returns an UpstreamHandler calling the API cfg describes, such as\nUpstreamConfig()."))
	f.Func().Id("NewUpstreamHandler").Params(jen.Id("cfg").Qual(upstreamPkg, "Config")).
		Params(jen.Op("*").Id("UpstreamHandler"), jen.Error()).Block(
		jen.List(jen.Id("c"), jen.Err()).Op(":=").Qual(upstreamPkg, "New").Call(jen.Id("cfg")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Op("&").Id("UpstreamHandler").Values(jen.Dict{jen.Id("Client"): jen.Id("c")}), jen.Nil()),
	)
	methods := g.toolMethods()
	for i, tp := range g.plan.tools {
		if h := tp.tool.HTTP; h != nil {
			g.upstreamCall(f, tp, methods[i], h)
		}
	}
}

// upstreamCall is the method of UpstreamHandler that serves one bound tool.
func (g *generator) upstreamCall(f *jen.File, tp *toolPlan, m *handlerMethod, h *spec.HTTPBinding) {
	output := g.upstreamOutput(tp)
	outputVar := "upstreamOutput" + m.name
	if output != nil {
		f.Line()
		f.Add(doc(fmt.Sprintf("%s is the output schema of tool %q, which %s checks each answer against.", outputVar, tp.tool.Name, m.name)))
		f.Var().Id(outputVar).Op("=").Qual(upstreamPkg, "NewOutput").Call(output)
	}
	f.Line()
	f.Add(doc(fmt.Sprintf("%s serves tool %q with %s %s %s.", m.name, tp.tool.Name, h.Method, h.Path, g.at(h.Pos))))
	fields := g.inputFields(tp.input)
	f.Func().Params(jen.Id("u").Op("*").Id("UpstreamHandler")).Id(m.name).Add(m.signature(true)).BlockFunc(func(b *jen.Group) {
		b.Id("r").Op(":=").Qual(upstreamPkg, "NewRequest").Call(jen.Lit(h.Method), jen.Lit(h.Path))
		switch {
		case h.Form:
			b.Id("r").Dot("Form").Call()
		case h.Multipart:
			b.Id("r").Dot("Multipart").Call()
			if len(h.Files) > 0 {
				b.Id("r").Dot("Files").Call(stringLits(h.Files)...)
			}
		case h.ContentType != "":
			b.Id("r").Dot("Raw").Call(jen.Lit(h.ContentType))
		}
		if q := h.AWSQuery; q != nil {
			b.Id("r").Dot("AWSQuery").Call(awsQueryCode(q))
		}
		place := func(prop string, call func(v jen.Code) jen.Code) {
			fl := fields[prop]
			if fl == nil {
				return // the validator reported it
			}
			if g.isOpt(fl.prop) {
				b.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Id("in").Dot(fl.name).Dot("Get").Call(), jen.Id("ok")).Block(call(jen.Id("v")))
				return
			}
			b.Add(call(jen.Id("in").Dot(fl.name)))
		}
		for _, p := range h.Params {
			method := map[string]string{"path": "Path", "query": "Query", "header": "Header", "cookie": "Cookie", "body": "BodyField"}[p.In]
			name := p.WireName()
			switch {
			case p.In == "query" && h.AWSQuery != nil: // named AWS's way, whatever its style
			case p.In == "query" && p.Style == "deepObject":
				method = "QueryDeep"
			case p.In == "query" && (p.Style == "spaceDelimited" || p.Style == "pipeDelimited"):
				style := map[string]string{"spaceDelimited": "SpaceDelimited", "pipeDelimited": "PipeDelimited"}[p.Style]
				explode := p.Exploded()
				place(p.Property, func(v jen.Code) jen.Code {
					return jen.Id("r").Dot("QueryStyle").Call(jen.Lit(name), jen.Qual(upstreamPkg, style), jen.Lit(explode), v)
				})
				continue
			case p.In == "query" && !p.Exploded():
				method = "QueryJoined"
			}
			place(p.Property, func(v jen.Code) jen.Code { return jen.Id("r").Dot(method).Call(jen.Lit(name), v) })
		}
		if h.Body != "" {
			place(h.Body, func(v jen.Code) jen.Code { return jen.Id("r").Dot("Body").Call(v) })
		}
		if tp.output == nil {
			b.Return(jen.Id("u").Dot("Client").Dot("CallResult").Call(jen.Id("ctx"), jen.Id("r")))
			return
		}
		b.Id("out").Op(":=").New(g.typeOf(tp.output))
		call := jen.Id("u").Dot("Client").Dot("Call").Call(jen.Id("ctx"), jen.Id("r"), jen.Id("out"))
		if output != nil {
			call = jen.Id("u").Dot("Client").Dot("CallOutput").Call(jen.Id("ctx"), jen.Id("r"), jen.Id(outputVar), jen.Id("out"))
		}
		b.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err()))
		b.Return(jen.Id("out"), jen.Nil())
	})
}

// awsQueryCode is the runtime/upstream AWSQuery of a binding's awsQuery
// tables, each written only when set.
func awsQueryCode(q *spec.AWSQueryNames) jen.Code {
	table := func(m map[string]string) jen.Code {
		keys := slices.Sorted(maps.Keys(m))
		return jen.Map(jen.String()).String().Values(jen.DictFunc(func(d jen.Dict) {
			for _, k := range keys {
				d[jen.Lit(k)] = jen.Lit(m[k])
			}
		}))
	}
	return jen.Qual(upstreamPkg, "AWSQuery").Values(jen.DictFunc(func(d jen.Dict) {
		if len(q.Names) > 0 {
			d[jen.Id("Names")] = table(q.Names)
		}
		if len(q.Members) > 0 {
			d[jen.Id("Members")] = table(q.Members)
		}
		if len(q.Flattened) > 0 {
			d[jen.Id("Flattened")] = stringList(q.Flattened)
		}
		if len(q.Maps) > 0 {
			d[jen.Id("Maps")] = stringList(q.Maps)
		}
	}))
}

// upstreamOutput is the tool's output schema as its registration writes
// it (the same constants), for checking the upstream's answers; nil for a
// tool without a typed output or whose schema only reflection knows.
func (g *generator) upstreamOutput(tp *toolPlan) jen.Code {
	t := tp.tool
	if tp.output == nil || t.Output == nil || t.OutputSchema != nil {
		return nil
	}
	out := g.toolSchema(t.Output)
	if out == nil {
		return nil
	}
	if t.Input != nil && bytes.Equal(g.toolSchema(t.Input), out) {
		// Registration wrote it once, as a constant both fields name.
		return jen.Qual(jsonPkg, "RawMessage").Call(jen.Id("schema" + tp.nameConst))
	}
	if name := g.boundOutputConst(tp, out); name != "" {
		return jen.Qual(jsonPkg, "RawMessage").Call(jen.Id(name))
	}
	return g.schemaLiteral(out, t.Output)
}

// inputFields maps each property of a tool's input to its struct field.
func (g *generator) inputFields(in *spec.Schema) map[string]*field {
	out := map[string]*field{}
	d := g.declFor(in)
	if d == nil {
		return out
	}
	for _, fl := range d.fields {
		out[fl.prop.Name] = fl
	}
	return out
}

// isOpt reports whether fieldType wraps a property in runtime.Opt.
func (g *generator) isOpt(prop *spec.Property) bool {
	return !prop.Required && (!g.isNilable(prop.Schema) || prop.Schema.Nullable)
}

// upstreamAuth is the runtime/upstream Auth of the spec's auth, or nil.
func upstreamAuth(a *spec.UpstreamAuth) jen.Code {
	switch {
	case a == nil:
		return nil
	case a.APIKey != nil:
		return jen.Op("&").Qual(upstreamPkg, "APIKey").Values(jen.Dict{
			jen.Id("In"): jen.Lit(a.APIKey.In), jen.Id("Name"): jen.Lit(a.APIKey.Name), jen.Id("Env"): jen.Lit(a.APIKey.Env)})
	case a.Bearer != nil:
		return jen.Op("&").Qual(upstreamPkg, "Bearer").Values(jen.Dict{jen.Id("Env"): jen.Lit(a.Bearer.Env)})
	case a.ClientCredentials != nil:
		c := a.ClientCredentials
		return jen.Op("&").Qual(upstreamPkg, "ClientCredentials").Values(jen.DictFunc(func(d jen.Dict) {
			d[jen.Id("TokenURL")] = jen.Lit(c.TokenURL)
			d[jen.Id("ClientIDEnv")] = jen.Lit(c.ClientIDEnv)
			d[jen.Id("ClientSecretEnv")] = jen.Lit(c.ClientSecretEnv)
			if len(c.Scopes) > 0 {
				d[jen.Id("Scopes")] = stringList(c.Scopes)
			}
		}))
	}
	return nil
}
