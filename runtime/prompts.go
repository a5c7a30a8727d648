package runtime

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"text/template"
	"text/template/parse"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/typeschema"
	"github.com/mcpgen/mcpgen/runtime/internal/uritemplate"
)

// Prompt is a prompt as registered with AddPrompt: what prompts/list
// advertises and the handler prompts/get runs.
type Prompt struct {
	Name        string
	Title       string
	Description string
	Arguments   []PromptArgument
	// EmptyArguments, on a prompt without Arguments, advertises
	// "arguments": [] instead of leaving the key out. Clients read both
	// alike; it lets a server keep the list a server it replaces wrote.
	EmptyArguments bool
	Icons          []Icon
	Meta           json.RawMessage // the prompt's _meta object, or nil
	// Requires, when set, lists it and serves it only to clients that
	// declared these capabilities (context.go); it is not advertised.
	Requires *Requires

	Handler  PromptHandler
	Complete CompleteHandler // optional: completes arguments without an Enum

	// generatedArgs is the arguments type of a prompt made by
	// genimpl.GeneratedPrompt.
	generatedArgs reflect.Type
}

// PromptArgument is an argument of a prompt. Arguments are strings.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
	// ExplicitOptional, on an argument that is not Required, advertises
	// "required": false instead of leaving the key out. Clients read both
	// alike; it lets a server keep the list a server it replaces wrote.
	ExplicitOptional bool `json:"-"`
	// Enum, when set, lists the allowed values: prompts/get refuses others,
	// and completion/complete offers these.
	Enum []string `json:"-"`
}

// MarshalJSON writes the argument as prompts/list advertises it: "required"
// when Required, or false when ExplicitOptional, else no key.
func (a PromptArgument) MarshalJSON() ([]byte, error) {
	var required *bool
	if a.Required || a.ExplicitOptional {
		required = &a.Required
	}
	return json.Marshal(struct {
		Name        string `json:"name"`
		Title       string `json:"title,omitempty"`
		Description string `json:"description,omitempty"`
		Required    *bool  `json:"required,omitempty"`
	}{a.Name, a.Title, a.Description, required})
}

// GetPromptRequest is a prompts/get request as a handler sees it, after the
// runtime checked the arguments against the prompt's.
type GetPromptRequest struct {
	Name      string
	Arguments map[string]string // never nil
	Meta      json.RawMessage   // the request's _meta object, or nil
}

// GetPromptResult is the result of prompts/get.
type GetPromptResult struct {
	Description string
	Messages    []PromptMessage
	Meta        json.RawMessage
}

// PromptMessage is one message of a prompt.
type PromptMessage struct {
	Role    string // "user" or "assistant"
	Content Content
}

// PromptHandler builds a prompt's messages. A returned *Error is answered as
// is; any other error is an internal error (-32603) with the error's text. A
// panic is recovered and answered with an internal error.
type PromptHandler func(ctx context.Context, req *GetPromptRequest) (*GetPromptResult, error)

type promptEntry struct {
	p    Prompt
	wire []byte // the prompts/list entry, encoded once at AddPrompt
}

func (pe *promptEntry) key() string         { return pe.p.Name }
func (pe *promptEntry) listJSON() []byte    { return pe.wire }
func (pe *promptEntry) requires() *Requires { return pe.p.Requires }
func (pe *promptEntry) kind() itemKind      { return kindPrompt }
func (pe *promptEntry) scopes() []string    { return nil }

// completes reports whether completion/complete offers anything for the
// prompt.
func (pe *promptEntry) completes() bool {
	return pe.p.Complete != nil || slices.ContainsFunc(pe.p.Arguments, func(a PromptArgument) bool { return len(a.Enum) > 0 })
}

func (pe *promptEntry) arg(name string) *PromptArgument {
	for i := range pe.p.Arguments {
		if pe.p.Arguments[i].Name == name {
			return &pe.p.Arguments[i]
		}
	}
	return nil
}

// AddPrompt registers p. It panics, as these are programming errors in the
// (generated) registration code: on an empty or duplicate name, a nil
// Handler, an argument without a name or named twice, or a _meta that is not
// a JSON object. Prompts are listed in the order they were added. AddPrompt
// may be called while serving: initialized sessions then get
// notifications/prompts/list_changed.
func (s *Server) AddPrompt(p Prompt) {
	if p.Name == "" {
		panic("runtime: AddPrompt: the prompt has no name")
	}
	where := fmt.Sprintf("AddPrompt(%q)", p.Name)
	if p.Handler == nil {
		panic("runtime: " + where + ": nil Handler")
	}
	for i, a := range p.Arguments {
		if a.Name == "" {
			panic(fmt.Sprintf("runtime: %s: argument %d has no name", where, i))
		}
		if slices.ContainsFunc(p.Arguments[:i], func(b PromptArgument) bool { return b.Name == a.Name }) {
			panic(fmt.Sprintf("runtime: %s: argument %q is declared twice", where, a.Name))
		}
	}
	if p.Meta != nil {
		p.Meta = mustObject(where, "Meta", p.Meta)
	}
	p.Arguments = slices.Clone(p.Arguments) // checked: the caller's slice is not ours
	var args *[]PromptArgument              // nil: no key
	if len(p.Arguments) > 0 || p.EmptyArguments {
		args = &p.Arguments
		if *args == nil {
			args = &[]PromptArgument{} // [], not null
		}
	}
	wire, err := json.Marshal(struct {
		Name        string            `json:"name"`
		Title       string            `json:"title,omitempty"`
		Description string            `json:"description,omitempty"`
		Arguments   *[]PromptArgument `json:"arguments,omitempty"`
		Icons       []Icon            `json:"icons,omitempty"`
		Meta        json.RawMessage   `json:"_meta,omitempty"`
	}{p.Name, p.Title, p.Description, args, p.Icons, p.Meta})
	if err != nil {
		panic(fmt.Sprintf("runtime: %s: %v", where, err))
	}
	if !s.prompts.add(&promptEntry{p: p, wire: wire}) {
		panic("runtime: " + where + ": a prompt with this name is already registered")
	}
	s.listChanged(capPrompts)
}

// RemovePrompt unregisters the prompt named name and reports whether there
// was one. Initialized sessions get notifications/prompts/list_changed.
func (s *Server) RemovePrompt(name string) bool {
	if !s.prompts.remove(name) {
		return false
	}
	s.listChanged(capPrompts)
	return true
}

// Prompts returns the registered prompts in order.
func (s *Server) Prompts() []Prompt {
	return values(&s.prompts, func(pe *promptEntry) Prompt { return pe.p })
}

func (ss *Session) promptsList(p *peerInfo, params json.RawMessage) (encoder, *Error) {
	return listMethod(ss, p, "prompts", &ss.srv.prompts, params)
}

// promptsGet checks a prompts/get request, its arguments against the
// prompt's, and runs the prompt in its own goroutine.
func (ss *Session) promptsGet(ctx context.Context, id string, params json.RawMessage) {
	pe, req, e := ss.promptRequest(ss.declaredBy(ctx), params)
	if e != nil {
		ss.respond(ctx, id, nil, e)
		return
	}
	decoded(ctx, req)
	ss.start(ctx, id, &call{meta: req.Meta, exec: func(ctx context.Context, _ *call) (encoder, *Error) {
		res, e := ss.runPrompt(ctx, pe, req)
		if e != nil {
			return nil, e
		}
		return res, nil
	}})
}

func (ss *Session) promptRequest(p *peerInfo, params json.RawMessage) (*promptEntry, *GetPromptRequest, *Error) {
	v := ss.srv.prompts.snapshot()
	if jsonwire.FirstByte(params) != '{' {
		return nil, nil, errorf(CodeInvalidParams, `invalid params: prompts/get takes an object with "name" and "arguments"`)
	}
	var name, args, meta []byte
	if _, err := jsonwire.ScanObject(params, func(key, val []byte) {
		switch string(key) {
		case "name":
			name = val
		case "arguments":
			args = val
		case "_meta":
			meta = val
		}
	}); err != nil {
		return nil, nil, errorf(CodeInvalidParams, "invalid params: %v", err)
	}
	name, ok := jsonwire.MethodBytes(name) // a JSON string
	if !ok {
		return nil, nil, errorf(CodeInvalidParams, `invalid params: "name" must be the name of a prompt`)
	}
	pe := v.byKey[string(name)]
	if pe == nil || !visible(pe, p) { // a hidden prompt is an unknown one (context.go)
		return nil, nil, errorf(CodeInvalidParams, "unknown prompt %s", quote(string(name)))
	}
	req := &GetPromptRequest{Name: pe.p.Name, Arguments: map[string]string{}}
	if !jsonwire.IsNull(args) {
		if jsonwire.FirstByte(args) != '{' {
			return nil, nil, errorf(CodeInvalidParams, `invalid params: "arguments" must be an object of strings`)
		}
		var bad []byte
		_, _ = jsonwire.ScanObject(args, func(key, val []byte) {
			s, ok := jsonwire.MethodBytes(val)
			if !ok && bad == nil {
				bad = key
			}
			req.Arguments[string(key)] = string(s)
		})
		if bad != nil {
			return nil, nil, errorf(CodeInvalidParams, `invalid params: "arguments" must be an object of strings, and %s is not a string`, quote(string(bad)))
		}
	}
	if !jsonwire.IsNull(meta) {
		if jsonwire.FirstByte(meta) != '{' {
			return nil, nil, errorf(CodeInvalidParams, `invalid params: "_meta" must be a JSON object`)
		}
		req.Meta = bytes.Clone(meta)
	}
	if e := pe.check(req.Arguments); e != nil {
		return nil, nil, e
	}
	return pe, req, nil
}

// check holds arguments against the prompt's: every required one present,
// none unknown, each within its Enum. Every problem is named, in a single
// line.
func (pe *promptEntry) check(args map[string]string) *Error {
	var problems []string
	for _, a := range pe.p.Arguments {
		if _, ok := args[a.Name]; !ok && a.Required {
			problems = append(problems, "missing required argument "+quote(a.Name))
		}
	}
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	slices.Sort(names)
	takes := ""
	for _, k := range names {
		a := pe.arg(k)
		switch {
		case a == nil:
			if takes == "" {
				takes = pe.argNames()
			}
			problems = append(problems, "unknown argument "+quote(k)+takes)
		case len(a.Enum) > 0 && !slices.Contains(a.Enum, args[k]):
			problems = append(problems, "argument "+quote(k)+" must be "+oneOf(a.Enum)+" (got "+quote(args[k])+")")
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return errorf(CodeInvalidParams, "invalid arguments for prompt %s: %s", quote(pe.p.Name), joinReasons(problems))
}

// argNames says which arguments the prompt takes, for an unknown one.
func (pe *promptEntry) argNames() string {
	if len(pe.p.Arguments) == 0 {
		return " (this prompt takes no arguments)"
	}
	var b strings.Builder
	b.WriteString(" (arguments: ")
	for i, a := range pe.p.Arguments {
		if i == 30 {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(sanitize(a.Name, maxQuoted))
	}
	b.WriteByte(')')
	return b.String()
}

// oneOf words an enum: `"a"`, or `one of "a", "b"`.
func oneOf(enum []string) string {
	if len(enum) == 1 {
		return quote(enum[0])
	}
	q := make([]string, 0, min(len(enum), 21))
	for i, v := range enum {
		if i == 20 {
			q = append(q, "…")
			break
		}
		q = append(q, quote(v))
	}
	return "one of " + strings.Join(q, ", ")
}

// runPrompt calls the handler and turns its outcome into a result or a
// protocol error.
func (ss *Session) runPrompt(ctx context.Context, pe *promptEntry, req *GetPromptRequest) (res *GetPromptResult, rpcErr *Error) {
	defer func() {
		if v := recover(); v != nil {
			ss.srv.cfg.logger.ErrorContext(ctx, "runtime: prompt handler panicked",
				"prompt", pe.p.Name, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			res, rpcErr = nil, errorf(CodeInternalError, "internal error in prompt %s", quote(pe.p.Name))
		}
	}()
	r, err := pe.p.Handler(ctx, req)
	if err != nil {
		noteHandlerError(ctx, err)
		if e, ok := errors.AsType[*Error](err); ok {
			return nil, e
		}
		return nil, &Error{Code: CodeInternalError, Message: err.Error()}
	}
	if r == nil {
		return nil, errorf(CodeInternalError, "internal error: prompt %s returned no result", quote(pe.p.Name))
	}
	return r, nil
}

var errRole = errors.New(`runtime: a prompt message's role must be "user" or "assistant"`)

func (r *GetPromptResult) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, '{')
	if r.Description != "" {
		dst = append(dst, `"description":`...)
		dst = jsonwire.AppendString(dst, r.Description)
		dst = append(dst, ',')
	}
	dst = append(dst, `"messages":[`...)
	var err error
	for i, m := range r.Messages {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = m.appendJSON(dst); err != nil {
			return dst, err
		}
	}
	dst = append(dst, ']')
	dst, err = appendMeta(dst, r.Meta)
	return append(dst, '}'), err
}

// MarshalJSON encodes the result as in the MCP schema.
func (r GetPromptResult) MarshalJSON() ([]byte, error) { return r.appendJSON(nil) }

func (m PromptMessage) appendJSON(dst []byte) ([]byte, error) {
	if m.Role != "user" && m.Role != "assistant" {
		return dst, errRole
	}
	if m.Content == nil {
		return dst, errNilContent
	}
	dst = append(dst, `{"role":"`...)
	dst = append(dst, m.Role...)
	dst = append(dst, `","content":`...)
	dst, err := m.Content.appendJSON(dst)
	return append(dst, '}'), err
}

// MarshalJSON encodes the message as in the MCP schema.
func (m PromptMessage) MarshalJSON() ([]byte, error) { return m.appendJSON(nil) }

// TypedPrompt returns p with its Handler set to call fn with the arguments
// decoded into a *A: a struct of string, named string (enum) and Opt fields
// whose json tags are the argument names; NoArgs for a prompt without
// arguments. When p.Arguments is nil it is derived from A (names, titles,
// descriptions, required unless omitzero/omitempty, enums); otherwise every
// argument must be a field of A. The session has already checked the
// arguments against p.Arguments when fn runs. TypedPrompt panics if A is not
// such a struct.
func TypedPrompt[A any](p Prompt, fn func(ctx context.Context, args *A) (*GetPromptResult, error)) Prompt {
	where := fmt.Sprintf("runtime: TypedPrompt(%q)", p.Name)
	fields := promptFields(SchemaFor[A](), where, reflect.TypeFor[A]())
	if p.Arguments == nil {
		p.Arguments = fields
	}
	for _, a := range p.Arguments {
		if !slices.ContainsFunc(fields, func(f PromptArgument) bool { return f.Name == a.Name }) {
			panic(fmt.Sprintf("%s: argument %q is not a field of %v (by its json tag)", where, a.Name, reflect.TypeFor[A]()))
		}
	}
	p.Handler = promptHandler(p.Name, reflect.TypeFor[A](), func(ctx context.Context, args any) (*GetPromptResult, error) {
		return fn(ctx, args.(*A))
	})
	return p
}

// promptHandler decodes a prompts/get request's arguments into a new value
// of args (A's type, so fn gets a *A as any) for fn. fn's types are erased,
// as typedTemplate's are: one instance serves every prompt, TypedPrompt's
// and generated code's alike.
func promptHandler(name string, args reflect.Type, fn func(ctx context.Context, args any) (*GetPromptResult, error)) PromptHandler {
	return func(ctx context.Context, req *GetPromptRequest) (*GetPromptResult, error) {
		a := reflect.New(args).Interface() // a *A
		if len(req.Arguments) > 0 {
			// Prompts are not a hot path: a JSON round trip decodes named
			// string types and Opt fields as the tools' arguments are.
			b, err := json.Marshal(req.Arguments)
			if err == nil {
				err = json.Unmarshal(b, a)
			}
			if err != nil {
				return nil, errorf(CodeInvalidParams, "invalid arguments for prompt %s: %s", quote(name), sanitize(err.Error(), 300))
			}
		}
		applyDefaults(a)
		return fn(ctx, a)
	}
}

// promptFields derives prompt arguments from the object schema of an
// arguments struct, in field order.
func promptFields(schema json.RawMessage, where string, t reflect.Type) []PromptArgument {
	if typeschema.Type(schema) != "object" {
		panic(fmt.Sprintf("%s: the arguments type %v must be a struct", where, t))
	}
	var doc struct {
		Properties json.RawMessage            `json:"properties"`
		Required   []string                   `json:"required"`
		Defs       map[string]json.RawMessage `json:"$defs"`
	}
	_ = json.Unmarshal(schema, &doc)
	var out []PromptArgument
	if len(doc.Properties) == 0 {
		return out
	}
	_, _ = jsonwire.ScanObject(doc.Properties, func(key, val []byte) { // in order, unlike a map
		var own schemaNode
		_ = json.Unmarshal(val, &own)
		n := resolveNode(val, doc.Defs)
		if tn := n.typeName(); tn != "string" && tn != "" {
			panic(fmt.Sprintf("%s: field %q of %v is a %s; prompt arguments are strings", where, key, t, tn))
		}
		a := PromptArgument{Name: string(key), Title: own.Title, Description: own.Description, Required: slices.Contains(doc.Required, string(key))}
		if a.Title == "" {
			a.Title = n.Title
		}
		if a.Description == "" {
			a.Description = n.Description
		}
		for _, e := range n.Enum {
			var s string
			if json.Unmarshal(e, &s) == nil {
				a.Enum = append(a.Enum, s)
			}
		}
		out = append(out, a)
	})
	return out
}

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
