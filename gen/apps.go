package gen

import (
	"fmt"
	"io/fs"
	"path"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/spec"
)

// MCP Apps: a ui:// resource is registered with runtime.AppResource, its
// HTML either embedded from a copy of the spec's file (no handler method)
// or returned by a handler method; a tool with ui: is wrapped in
// runtime.AppTool.

// HTMLSuffix ends the name of the copies of views' HTML files that the
// generator writes beside the Go files, for //go:embed: a package can only
// embed files in its own directory, and the spec's directory is usually its
// parent.
const HTMLSuffix = "_mcpgen.html"

// htmlCopyName is the file name of the embedded copy of a view's HTML.
func htmlCopyName(r *spec.Resource) string { return "ui_" + r.Name + HTMLSuffix }

// htmlVar is the unexported variable that holds a view's embedded HTML.
func htmlVar(rp *resourcePlan) string { return "htmlOf" + rp.base }

// embedsHTML reports whether the view's HTML comes from a file (no handler
// method).
func embedsHTML(r *spec.Resource) bool { return r.UI != nil && r.UI.HTML != "" }

// htmlFiles reads the HTML files of the views that embed one, from the
// spec's directory, and returns their copies. A file that cannot be read is
// a finding at its html: value.
func (g *generator) htmlFiles(dir fs.FS) ([]File, spec.Diagnostics) {
	var files []File
	var diags spec.Diagnostics
	for _, rp := range g.plan.resources {
		r := rp.res
		if !embedsHTML(r) {
			continue
		}
		name := path.Clean(r.UI.HTML)
		var data []byte
		err := fmt.Errorf("no spec directory to read it from")
		if dir != nil {
			data, err = fs.ReadFile(dir, name)
		}
		if err != nil {
			diags = append(diags, spec.Diagnostic{File: g.spec.File, Pos: r.UI.HTMLPos,
				Message: fmt.Sprintf("html %q of resource %q cannot be read: %v", r.UI.HTML, r.Name, unwrapPathError(err))})
			continue
		}
		files = append(files, File{Path: htmlCopyName(r), Bytes: data})
	}
	return files, diags
}

// unwrapPathError drops the path that fs.ReadFile repeats in its error.
func unwrapPathError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// embedHTML declares, in the register file, the variables that hold the
// embedded HTML of views.
func (g *generator) embedHTML(f *jen.File) {
	for _, rp := range g.plan.resources {
		if !embedsHTML(rp.res) {
			continue
		}
		f.Anon("embed")
		f.Line()
		f.Add(doc(fmt.Sprintf("%s is the HTML of view %q, a copy of %s %s.", htmlVar(rp), rp.res.Name, rp.res.UI.HTML, g.at(rp.res.UI.HTMLPos))))
		f.Comment("")
		f.Comment("//go:embed " + htmlCopyName(rp.res))
		f.Var().Id(htmlVar(rp)).String()
	}
}

// appResource is runtime.AppResource(resource, ui, html) for a view.
func (g *generator) appResource(rp *resourcePlan) jen.Code {
	html := jen.Id("h").Dot(rp.method)
	if embedsHTML(rp.res) {
		html = jen.Qual(genimplPkg, "StaticHTML").Call(jen.Id(htmlVar(rp)))
	}
	return jen.Qual(runtimePkg, "AppResource").Call(
		jen.Line().Add(g.resourceLiteral(rp)),
		jen.Line().Add(appUI(rp.res.UI)),
		jen.Line().Add(html).Op(",").Line())
}

// appUI is the runtime.AppUI literal of a view's _meta.ui.
func appUI(u *spec.ResourceUI) jen.Code {
	return jen.Qual(runtimePkg, "AppUI").Values(ordered(func(d *fields) {
		if u == nil {
			return
		}
		if c := u.CSP; c != nil {
			d.set("CSP", jen.Op("&").Qual(runtimePkg, "AppCSP").Values(ordered(func(cd *fields) {
				for _, l := range []struct {
					field string
					list  []spec.Origin
				}{{"ConnectDomains", c.ConnectDomains}, {"ResourceDomains", c.ResourceDomains}, {"FrameDomains", c.FrameDomains}, {"BaseURIDomains", c.BaseURIDomains}} {
					if len(l.list) == 0 {
						continue
					}
					cd.set(l.field, jen.Index().String().ValuesFunc(func(gr *jen.Group) {
						for _, o := range l.list {
							gr.Lit(o.Value)
						}
					}))
				}
			})))
		}
		if len(u.Permissions) > 0 {
			permField := map[string]string{"camera": "Camera", "microphone": "Microphone", "geolocation": "Geolocation", "clipboardWrite": "ClipboardWrite"}
			d.set("Permissions", jen.Op("&").Qual(runtimePkg, "AppPermissions").Values(ordered(func(pd *fields) {
				for _, p := range u.Permissions {
					pd.set(permField[p], jen.True())
				}
			})))
		}
		if u.Domain != "" {
			d.set("Domain", jen.Lit(u.Domain))
		}
		if u.PrefersBorder != nil {
			d.set("PrefersBorder", jen.New(jen.Lit(*u.PrefersBorder)))
		}
	}))
}

// appTool wraps a tool's registration in runtime.AppTool when the spec
// links it to a view.
func (g *generator) appTool(tp *toolPlan, tool jen.Code) jen.Code {
	u := tp.tool.UI
	if u == nil {
		return tool
	}
	var uri string
	for _, r := range g.spec.Resources {
		if r.Name == u.Resource {
			uri = r.URI
			break
		}
	}
	link := jen.Qual(runtimePkg, "ToolUI").Values(ordered(func(d *fields) {
		d.set("ResourceURI", jen.Lit(uri))
		if len(u.Visibility) > 0 {
			d.set("Visibility", jen.Index().String().ValuesFunc(func(gr *jen.Group) {
				for _, v := range u.Visibility {
					gr.Lit(v)
				}
			}))
		}
	}))
	return jen.Qual(runtimePkg, "AppTool").Call(jen.Line().Add(tool), jen.Line().Add(link).Op(",").Line())
}
