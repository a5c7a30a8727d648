package breaking

import (
	"path"
	"strings"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

// goAPI runs the GO rules: the generated API of old against new.
func (d *differ) goAPI() {
	oa, na := buildGoAPI(d.old), buildGoAPI(d.new)
	og, ng := d.old.Go, d.new.Go
	if og.Package != ng.Package {
		d.at("GO_PACKAGE_SAME", orPos(ng.PackagePos, ng.Pos), "go.package changed from %s to %s; every file that imports the generated package breaks", og.Package, ng.Package)
	}
	if cleanDir(og.Output) != cleanDir(ng.Output) {
		d.at("GO_PACKAGE_SAME", orPos(ng.OutputPos, ng.Pos), "go.output changed from %q to %q; the generated package moves, and its import path with it", cleanDir(og.Output), cleanDir(ng.Output))
	}

	// A type whose place on the wire now holds a type that did not exist,
	// while it no longer exists itself, was renamed.
	renames := map[string]string{}
	for _, p := range oa.wireOrder {
		x := oa.wire[p]
		y, ok := na.wire[p]
		if !ok || x == y || na.types[x] != nil || oa.types[y] != nil {
			continue
		}
		if _, done := renames[x]; !done {
			renames[x] = y
		}
	}
	rename := func(t string) string { return renameIdents(t, renames) }

	for _, x := range oa.typeOrder {
		ot := oa.types[x]
		y := x
		if r, ok := renames[x]; ok {
			y = r
			nt := na.types[y]
			d.at("GO_NAME_SAME", nt.Pos, "Go type %s is now named %s (%s); code that names %s breaks", x, y, nt.What, x)
		}
		nt := na.types[y]
		if nt == nil {
			d.typeDeleted(ot)
			continue
		}
		if od, nd := rename(ot.Definition), nt.Definition; od != nd {
			d.at("GO_TYPE_SAME_KIND", nt.Pos, "Go type %s changed from %s to %s (%s)", y, describeDef(od), describeDef(nd), nt.What)
			continue
		}
		d.fields(ot, nt, rename)
		for _, oc := range ot.Consts {
			found := false
			for _, nc := range nt.Consts {
				found = found || nc.Suffix == oc.Suffix
			}
			if !found {
				d.gone("GO_CONST_NO_DELETE", nt.Pos, oc.Pos, "constant %s (of %s) is no longer generated; code that names it breaks", oc.Name, nt.What)
			}
		}
	}

	newByKey := map[string]*gen.APIMethod{}
	for _, m := range na.methods {
		if m.Key != "" {
			newByKey[m.Key] = m
		}
	}
	for _, name := range oa.methodOrder {
		om := oa.methods[name]
		nm := na.methods[name]
		if nm == nil {
			// A deleted method breaks no implementation; a method that
			// serves the same thing under another name does.
			if r := newByKey[om.Key]; om.Key != "" && r != nil && oa.methods[r.Name] == nil {
				d.at("GO_NAME_SAME", r.Pos, "handler method %s is now %s (%s kept its uri); implementations must rename it", om.Name, r.Name, r.What)
				nm = r
			} else {
				continue
			}
		}
		if os, ns := rename(om.Signature), nm.Signature; os != ns {
			d.at("GO_METHOD_SAME_SIGNATURE", nm.Pos, "handler method %s changed from %s%s to %s%s%s; implementations must change", nm.Name, om.Name, om.Signature, nm.Name, ns, signatureHint(os, ns))
		}
	}
}

func cleanDir(dir string) string {
	if dir == "" {
		return "."
	}
	return path.Clean(dir)
}

// typeDeleted reports a Go type that is gone, unless the spec item it
// belonged to is gone too (a WIRE rule reports that).
func (d *differ) typeDeleted(ot *gen.APIType) {
	kind, name, _ := strings.Cut(ot.Item, ":")
	if kind != "type" && itemPos(d.new, kind, name) == (spec.Pos{}) {
		return
	}
	d.gone("GO_TYPE_NO_DELETE", itemPos(d.new, kind, name), ot.Subject, "Go type %s (%s) is no longer generated; code that names it breaks", ot.Name, ot.What)
}

// itemPos is the position of a top-level item of s, zero when s has none.
func itemPos(s *spec.Spec, kind, name string) spec.Pos {
	switch kind {
	case "tool":
		for _, t := range s.Tools {
			if t.Name == name {
				return t.Pos
			}
		}
	case "type":
		for _, t := range s.Types {
			if t.Name == name {
				return t.Pos
			}
		}
	case "resource":
		for _, r := range s.Resources {
			if r.Name == name {
				return r.Pos
			}
		}
	case "template":
		for _, t := range s.ResourceTemplates {
			if t.Name == name {
				return t.Pos
			}
		}
	case "prompt":
		for _, p := range s.Prompts {
			if p.Name == name {
				return p.Pos
			}
		}
	}
	return spec.Pos{}
}

func (d *differ) fields(ot, nt *gen.APIType, rename func(string) string) {
	for _, of := range ot.Fields {
		var nf *gen.APIField
		for _, f := range nt.Fields {
			if f.Name == of.Name {
				nf = f
			}
		}
		if nf == nil {
			d.gone("GO_FIELD_NO_DELETE", nt.Pos, of.Prop.Pos, "field %s.%s is no longer generated; code that reads or sets it breaks", nt.Name, of.Name)
			continue
		}
		if o, n := rename(of.Type), nf.Type; o != n {
			d.at("GO_FIELD_SAME_TYPE", nf.Prop.Pos, "field %s.%s changed type from %s to %s%s; code that reads or sets it breaks", nt.Name, nf.Name, o, n, fieldHint(o, n))
		}
	}
}

// unwrap takes runtime.Opt[…] and * off a field type.
func unwrap(t string) (base string, optional, pointer bool) {
	if inner, ok := strings.CutPrefix(t, "runtime.Opt["); ok {
		t, optional = strings.TrimSuffix(inner, "]"), true
	}
	if inner, ok := strings.CutPrefix(t, "*"); ok {
		t, pointer = inner, true
	}
	return t, optional, pointer
}

// fieldHint says why a field type changed when the reason is an
// optional or nullable flip.
func fieldHint(o, n string) string {
	ob, oo, op := unwrap(o)
	nb, no, np := unwrap(n)
	if ob != nb {
		return ""
	}
	var why []string
	switch {
	case oo && !no:
		why = append(why, "the property became required")
	case !oo && no:
		why = append(why, "the property became optional")
	}
	switch {
	case op && !np:
		why = append(why, "it is no longer nullable")
	case !op && np:
		why = append(why, "it became nullable")
	}
	if len(why) == 0 {
		return ""
	}
	return " (" + strings.Join(why, ", ") + ")"
}

// signatureHint explains a handler signature change: arguments or a
// declared output gained or lost.
func signatureHint(o, n string) string {
	oIn, oOut, _ := strings.Cut(o, ") (")
	nIn, nOut, _ := strings.Cut(n, ") (")
	var why []string
	switch oHas, nHas := strings.Contains(oIn, ","), strings.Contains(nIn, ","); {
	case !oHas && nHas:
		why = append(why, "it now takes an input")
	case oHas && !nHas:
		why = append(why, "it no longer takes an input")
	}
	const content = "*runtime.CallToolResult"
	switch oc, nc := strings.HasPrefix(oOut, content), strings.HasPrefix(nOut, content); {
	case oc && !nc:
		why = append(why, "it now declares an output")
	case !oc && nc:
		why = append(why, "it no longer declares an output")
	}
	if len(why) == 0 {
		return ""
	}
	return " (" + strings.Join(why, ", ") + ")"
}

func describeDef(def string) string {
	if def == "struct" {
		return "a struct"
	}
	if t, ok := strings.CutPrefix(def, "= "); ok {
		return "an alias of " + t
	}
	return def
}

// renameIdents replaces the type names of renames in a Go type expression,
// leaving qualified names (json.RawMessage, time.Time) alone.
func renameIdents(t string, renames map[string]string) string {
	if len(renames) == 0 {
		return t
	}
	var b strings.Builder
	for i := 0; i < len(t); {
		c := t[i]
		if !isIdentByte(c) {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(t) && isIdentByte(t[j]) {
			j++
		}
		word := t[i:j]
		qualified := i > 0 && (t[i-1] == '.' || t[i-1] == '/') || j < len(t) && (t[j] == '.' || t[j] == '/')
		if r, ok := renames[word]; ok && !qualified {
			word = r
		}
		b.WriteString(word)
		i = j
	}
	return b.String()
}

func isIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
