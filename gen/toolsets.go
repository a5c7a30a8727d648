package gen

import (
	"github.com/dave/jennifer/jen"
)

// toolsetOptions are the runtime options of the spec's toolsets
// (`toolsets:`, `server.toolsets:`) and of server.listByScope.
func (g *generator) toolsetOptions() []jen.Code {
	s := g.spec
	var opts []jen.Code
	if len(s.Toolsets) > 0 {
		uriOf := map[string]string{}
		for _, r := range s.Resources {
			uriOf[r.Name] = r.URI
		}
		var sets []jen.Code
		for _, ts := range s.Toolsets {
			sets = append(sets, jen.Line().Qual(runtimePkg, "Toolset").Values(ordered(func(d *fields) {
				d.set("Name", jen.Lit(ts.Name))
				if ts.Title != "" {
					d.set("Title", jen.Lit(ts.Title))
				}
				if ts.Description != "" {
					d.set("Description", textLit(ts.Description))
				}
				if ts.Exposure == "search" {
					d.set("Exposure", jen.Qual(runtimePkg, "ExposeSearch"))
				}
				uris := make([]string, len(ts.Resources))
				for i, r := range ts.Resources {
					uris[i] = uriOf[r]
				}
				for _, m := range []struct {
					field string
					names []string
				}{{"Tools", ts.Tools}, {"Prompts", ts.Prompts}, {"Resources", uris}, {"Templates", ts.Templates}} {
					if len(m.names) > 0 {
						d.set(m.field, stringList(m.names))
					}
				}
			})))
		}
		opts = append(opts, jen.Qual(runtimePkg, "WithToolsets").Call(append(sets, jen.Line())...))
	}
	if st := s.Server.Toolsets; st != nil {
		if st.HasEnabled {
			opts = append(opts, jen.Qual(runtimePkg, "WithEnabledToolsets").Call(stringLits(st.Enabled)...))
		}
		if st.Dynamic {
			opts = append(opts, jen.Qual(runtimePkg, "WithDynamicToolsets").Call(jen.Qual(runtimePkg, "DynamicToolsets").Values(ordered(func(d *fields) {
				if st.ListTool != "" {
					d.set("ListTool", jen.Lit(st.ListTool))
				}
				if st.EnableTool != "" {
					d.set("EnableTool", jen.Lit(st.EnableTool))
				}
			}))))
		}
	}
	if s.Server.ListByScope {
		opts = append(opts, jen.Qual(runtimePkg, "WithListsByScope").Call())
	}
	if len(s.Server.Capabilities) > 0 {
		opts = append(opts, jen.Qual(runtimePkg, "WithCapabilities").Call(stringLits(s.Server.Capabilities)...))
	}
	return opts
}

// stringList is a []string literal of names.
func stringList(names []string) jen.Code {
	return jen.Index().String().Values(stringLits(names)...)
}

func stringLits(names []string) []jen.Code {
	out := make([]jen.Code, len(names))
	for i, n := range names {
		out[i] = jen.Lit(n)
	}
	return out
}
