package spec

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"text/template/parse"

	"github.com/yosida95/uritemplate/v3"
)

// This file reads the two template languages of the spec: RFC 6570 URI
// templates (resourceTemplates) and the {{.name}} placeholders of
// declarative prompt messages.

// schemeRE matches the scheme at the start of a URI (RFC 3986 §3.1).
var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// uriTemplate is a parsed RFC 6570 template.
type uriTemplate struct {
	tmpl *uritemplate.Template
	// vars lists every use of a variable in template order; a name may be
	// used more than once.
	vars []uriVar
}

// uriVar is one use of a variable in a URI template.
type uriVar struct {
	name    string
	op      string // the expression's operator: "", "+", "#", ".", "/", ";", "?" or "&"
	explode bool   // written name*
}

// spelled is the use as written in an expression of its own, e.g. {/path*}.
func (u uriVar) spelled() string {
	if u.explode {
		return "{" + u.op + u.name + "*}"
	}
	return "{" + u.op + u.name + "}"
}

// parseURITemplate parses s with uritemplate (levels 1 to 4 of RFC 6570)
// and lists the variables it uses. The error reads as the end of a sentence
// ("incomplete expression at the end").
func parseURITemplate(s string) (t *uriTemplate, err error) {
	defer func() {
		// Regexp panics when Go's regexp refuses what the library built
		// (an expression of more than 1000 variables has a repeat count
		// above regexp's limit). The template is refused, not the file.
		if r := recover(); r != nil {
			t, err = nil, errors.New("too large to match URIs with")
		}
	}()
	tmpl, err := uritemplate.New(s)
	if err != nil {
		return nil, errors.New(uriTemplateError(err.Error(), s))
	}
	tmpl.Regexp() // compiled once here, where a panic is caught
	t = &uriTemplate{tmpl: tmpl}
	// The library keeps its expressions to itself; once it has accepted s,
	// every { opens an expression that the next } closes.
	rest := s
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			break
		}
		expr := rest[open+1 : open+end]
		rest = rest[open+end+1:]
		op := ""
		if expr != "" && strings.ContainsRune("+#./;?&", rune(expr[0])) {
			op, expr = expr[:1], expr[1:]
		}
		for _, spec := range strings.Split(expr, ",") {
			u := uriVar{op: op}
			u.name, u.explode = strings.CutSuffix(spec, "*")
			if i := strings.IndexByte(u.name, ':'); i >= 0 {
				u.name = u.name[:i] // a prefix modifier, {name:3}
			}
			t.vars = append(t.vars, u)
		}
	}
	return t, nil
}

// uriTemplateError rewrites a uritemplate error, "<what>: <the text read so
// far><a marker>", as "<what> after <the text read so far>". (<what> may
// itself hold ": ": the split is the first one after which comes a prefix
// of s.)
func uriTemplateError(msg, s string) string {
	if msg == "" {
		return msg
	}
	body := msg[:len(msg)-1] // without the marker, _ or |
	for i := 0; ; {
		j := strings.Index(body[i:], ": ")
		if j < 0 {
			return msg
		}
		what, read := body[:i+j], body[i+j+2:]
		i += j + 2
		if what == "" || !strings.HasPrefix(s, read) {
			continue
		}
		what = strings.Replace(what, "incomplete pct-encodeed", "incomplete %-escape", 1)
		switch len(read) {
		case len(s):
			return what + " at the end"
		case 0:
			return what + " at the start"
		}
		if r := []rune(read); len(r) > 40 {
			read = "…" + string(r[len(r)-39:])
		}
		return fmt.Sprintf("%s after %q", what, read)
	}
}

// promptPiece is a piece of a message text: literal text, or a placeholder
// naming an argument.
type promptPiece struct {
	text string // the literal text
	arg  string // the argument a placeholder names; "" for text
}

// Placeholders returns the arguments the {{.name}} placeholders of a
// message's text or resource name, in order, once each; nil for a text
// that spec.Load would refuse. It is for tools that read a loaded spec
// (lint), so that they parse placeholders the way the loader does.
func Placeholders(text string) []string {
	pieces, problem := parsePlaceholders(text)
	if problem != "" {
		return nil
	}
	var names []string
	for _, pc := range pieces {
		if pc.arg != "" && !slices.Contains(names, pc.arg) {
			names = append(names, pc.arg)
		}
	}
	return names
}

// parsePlaceholders splits a message text into literal text and {{.name}}
// placeholders. It uses text/template's parser, so that what it accepts is
// what a template would, and refuses every other action: problem then says
// what the text holds instead ("holds {{if …}}").
func parsePlaceholders(text string) (pieces []promptPiece, problem string) {
	tree := parse.New("message")
	tree.Mode = parse.ParseComments | parse.SkipFuncCheck
	set := map[string]*parse.Tree{}
	if _, err := tree.Parse(text, "{{", "}}", set); err != nil {
		msg := templateErrorRE.ReplaceAllString(err.Error(), "")
		if line := templateErrorRE.FindStringSubmatch(err.Error()); line != nil && strings.Contains(text, "\n") {
			msg += " (line " + line[1] + ")"
		}
		return nil, "is not a valid template: " + msg
	}
	var defined []string
	for name := range set {
		if name != "message" {
			defined = append(defined, name)
		}
	}
	if len(defined) > 0 {
		return nil, fmt.Sprintf("holds {{define %q}}", slices.Min(defined))
	}
	if tree.Root == nil {
		return nil, ""
	}
	for _, n := range tree.Root.Nodes {
		switch n := n.(type) {
		case *parse.TextNode:
			pieces = append(pieces, promptPiece{text: string(n.Text)})
			continue
		case *parse.ActionNode:
			name, trimmed := placeholder(text, n)
			switch {
			case trimmed:
				return nil, "holds a trim marker ({{- or -}})"
			case name != "":
				pieces = append(pieces, promptPiece{arg: name})
				continue
			}
			return nil, "holds " + shorten(n.String(), 40)
		case *parse.CommentNode:
			return nil, "holds a comment {{/* … */}}"
		case *parse.IfNode:
			return nil, "holds {{if …}}"
		case *parse.RangeNode:
			return nil, "holds {{range …}}"
		case *parse.WithNode:
			return nil, "holds {{with …}}"
		case *parse.TemplateNode:
			return nil, "holds {{template …}}"
		default:
			return nil, "holds " + shorten(n.String(), 40)
		}
	}
	return pieces, ""
}

// templateErrorRE matches the head of a text/template parse error,
// "template: message:3: ", capturing the line.
var templateErrorRE = regexp.MustCompile(`^template: message:(\d+): `)

// placeholder returns the argument an action names if it is exactly
// {{.name}} (spaces allowed inside the braces), and whether it is such a
// placeholder written with a trim marker, which would change the text around
// it.
func placeholder(text string, n *parse.ActionNode) (name string, trimmed bool) {
	p := n.Pipe
	if p == nil || len(p.Decl) > 0 || len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		return "", false
	}
	f, ok := p.Cmds[0].Args[0].(*parse.FieldNode)
	if !ok || len(f.Ident) != 1 {
		return "", false
	}
	at, end := int(f.Pos), int(f.Pos)+1+len(f.Ident[0])
	if at < 0 || end > len(text) || text[at:end] != "."+f.Ident[0] {
		return "", false
	}
	before := strings.TrimRight(text[:at], " \t\r\n")
	after := strings.TrimLeft(text[end:], " \t\r\n")
	if !strings.HasSuffix(before, "{{") || !strings.HasPrefix(after, "}}") {
		return "", true
	}
	return f.Ident[0], false
}

// shorten cuts s to at most n runes, marking the cut with "…".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
