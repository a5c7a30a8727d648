package runtime

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"text/template"
	"text/template/parse"

	"github.com/mcpgen/mcpgen/runtime/internal/uritemplate"
)

// MessageTemplate is one message of a declarative prompt: exactly one of
// Text, Resource and Content.
type MessageTemplate struct {
	Role string // "user" (the default) or "assistant"
	// Text is a text/template: {{.name}} is the argument name, "" when an
	// optional argument is absent.
	Text string
	// Resource is a URI in the same syntax. Arguments are inserted as they
	// are (an argument may be a whole URI); {{escape .name}} percent-encodes
	// one as a URI component, as a {name} template variable would be. The
	// URI is read through the server's own resources (static, then
	// templates) and each of its contents embedded as a resource block.
	Resource string
	// Content is a fixed block: an image, audio…
	Content Content
}

// DeclarativePrompt returns p with its Handler set to build messages from
// templates: the templates are parsed once, here, and may only refer to
// p's arguments. A resource that cannot be read fails the prompt with the
// read's error, prefixed with the prompt and message: invalid params for a
// URI the arguments made invalid, resource not found (-32002) for one
// nothing serves. The result's description is p.Description. It panics on
// a message that is not exactly one of Text, Resource and Content, a role
// other than user or assistant, a template that does not parse or one that
// names an unknown argument.
func DeclarativePrompt(p Prompt, messages []MessageTemplate) Prompt {
	where := fmt.Sprintf("runtime: DeclarativePrompt(%q)", p.Name)
	declared := map[string]bool{}
	for _, a := range p.Arguments {
		declared[a.Name] = true
	}
	type compiled struct {
		role     string
		text     *template.Template
		resource *template.Template
		content  Content
	}
	cs := make([]compiled, len(messages))
	for i, m := range messages {
		what := fmt.Sprintf("%s: message %d", where, i+1)
		c := compiled{role: m.Role, content: m.Content}
		if c.role == "" {
			c.role = "user"
		}
		if c.role != "user" && c.role != "assistant" {
			panic(fmt.Sprintf("%s: role %q must be user or assistant", what, m.Role))
		}
		n := 0
		for _, set := range []bool{m.Text != "", m.Resource != "", m.Content != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			panic(what + ": set exactly one of Text, Resource and Content")
		}
		if m.Text != "" {
			c.text = parsePromptTemplate(what, m.Text, declared)
		}
		if m.Resource != "" {
			c.resource = parsePromptTemplate(what, m.Resource, declared)
		}
		cs[i] = c
	}
	name, description := p.Name, p.Description
	p.Handler = func(ctx context.Context, req *GetPromptRequest) (*GetPromptResult, error) {
		args := req.Arguments
		if args == nil {
			args = map[string]string{}
		}
		res := &GetPromptResult{Description: description, Messages: make([]PromptMessage, 0, len(cs))}
		for i, c := range cs {
			switch {
			case c.content != nil:
				res.Messages = append(res.Messages, PromptMessage{Role: c.role, Content: c.content})
			case c.text != nil:
				text, err := render(c.text, args)
				if err != nil {
					return nil, err
				}
				res.Messages = append(res.Messages, PromptMessage{Role: c.role, Content: TextContent{Text: text}})
			default:
				uri, err := render(c.resource, args)
				if err != nil {
					return nil, err
				}
				contents, e := embed(ctx, name, i, uri)
				if e != nil {
					return nil, e
				}
				for _, rc := range contents {
					res.Messages = append(res.Messages, PromptMessage{Role: c.role, Content: EmbeddedResource{Resource: rc}})
				}
			}
		}
		return res, nil
	}
	return p
}

// promptFuncs are the functions message templates may call, besides
// text/template's own.
var promptFuncs = template.FuncMap{
	"escape": uritemplate.Escape,
}

func parsePromptTemplate(what, src string, declared map[string]bool) *template.Template {
	t, err := template.New("").Option("missingkey=zero").Funcs(promptFuncs).Parse(src)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", what, err))
	}
	for _, tt := range t.Templates() {
		fieldsOf(tt.Root, func(name string) {
			if !declared[name] {
				panic(fmt.Sprintf("%s: {{.%s}} is not an argument of the prompt", what, name))
			}
		})
	}
	return t
}

// fieldsOf calls f with the first name of each field the template reads
// from its data ({{.name}}), outside the bodies of range and with (where
// the dot is something else).
func fieldsOf(n parse.Node, f func(string)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				fieldsOf(c, f)
			}
		}
	case *parse.ActionNode:
		fieldsOf(n.Pipe, f)
	case *parse.IfNode:
		fieldsOf(n.Pipe, f)
		fieldsOf(n.List, f)
		fieldsOf(n.ElseList, f)
	case *parse.RangeNode:
		fieldsOf(n.Pipe, f)
		fieldsOf(n.ElseList, f)
	case *parse.WithNode:
		fieldsOf(n.Pipe, f)
		fieldsOf(n.ElseList, f)
	case *parse.TemplateNode:
		fieldsOf(n.Pipe, f)
	case *parse.PipeNode:
		if n != nil {
			for _, c := range n.Cmds {
				fieldsOf(c, f)
			}
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			fieldsOf(a, f)
		}
	case *parse.ChainNode:
		fieldsOf(n.Node, f)
	case *parse.FieldNode:
		f(n.Ident[0])
	}
}

func render(t *template.Template, args map[string]string) (string, error) {
	var b strings.Builder
	if err := t.Execute(&b, args); err != nil {
		return "", fmt.Errorf("rendering a message: %v", err)
	}
	return b.String(), nil
}

// embed reads uri through the server serving ctx, for message i of prompt.
func embed(ctx context.Context, prompt string, i int, uri string) ([]ResourceContents, *Error) {
	c := reqFrom(ctx)
	if c == nil {
		return nil, errorf(CodeInternalError, "internal error: prompt %s reads resources through the server serving it; get it through a session", quote(prompt))
	}
	if !validURI(uri) {
		return nil, errorf(CodeInvalidParams, "invalid params: prompt %s: message %d embeds %s, which is not an absolute URI; check the arguments", quote(prompt), i+1, quote(uri))
	}
	res, e := c.ss.read(ctx, &ReadResourceRequest{URI: uri})
	if e != nil {
		return nil, &Error{Code: e.Code, Message: fmt.Sprintf("prompt %s: message %d: %s", quote(prompt), i+1, e.Message), Data: e.Data}
	}
	return res.Contents, nil
}

// ImageBase64 returns an image block from base64 (standard encoding) data.
// It panics if data is not valid base64: generated code passes data the
// generator validated.
func ImageBase64(data, mimeType string) Content {
	return ImageContent{Data: mustBase64("ImageBase64", data), MimeType: mimeType}
}

// AudioBase64 returns an audio block from base64 (standard encoding) data.
// It panics if data is not valid base64.
func AudioBase64(data, mimeType string) Content {
	return AudioContent{Data: mustBase64("AudioBase64", data), MimeType: mimeType}
}

func mustBase64(fn, data string) []byte {
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		panic(fmt.Sprintf("runtime: %s: invalid base64: %v", fn, err))
	}
	return b
}
