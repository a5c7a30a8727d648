package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/typeschema"
	"github.com/mcpgen/mcpgen/runtime/internal/uritemplate"
	"github.com/mcpgen/mcpgen/runtime/internal/validate"
)

// Resource is a static resource as registered with AddResource: what
// resources/list advertises and the handler resources/read runs for its URI.
type Resource struct {
	URI         string // an absolute URI (with a scheme), unique in the server
	Name        string // defaults to URI
	Title       string
	Description string
	MimeType    string
	Size        *int64 // in bytes, before any encoding, if known
	Annotations *Annotations
	Icons       []Icon
	Meta        json.RawMessage // the resource's _meta object, or nil
	// Requires, when set, lists it and serves it only to clients that
	// declared these capabilities (context.go); it is not advertised.
	Requires *Requires
	// Cache, when set, is the caching hint of its reads in the 2026-07-28
	// era (else WithMethodCaching's for resources/read, else WithCaching's).
	Cache *CacheHint

	Handler ResourceHandler
}

// ReadResourceRequest is a resources/read request as a handler sees it.
type ReadResourceRequest struct {
	URI  string          // the URI asked for: for a template, the concrete URI
	Meta json.RawMessage // the request's _meta object, or nil

	match *templateMatch // the template that matched URI and its variables, or nil
}

// ReadResourceResult is the result of resources/read.
type ReadResourceResult struct {
	Contents []ResourceContents // at least one: a result without contents is answered as not found
	Meta     json.RawMessage
}

// ResourceHandler reads a resource. A returned error wrapping
// ErrResourceNotFound is answered with the protocol's resource-not-found
// error (-32002, with the error's text and data {"uri": …}); an *Error is
// answered as is; any other error is an internal error (-32603) with the
// error's text. A panic is recovered and answered with an internal error.
type ResourceHandler func(ctx context.Context, req *ReadResourceRequest) (*ReadResourceResult, error)

// ErrResourceNotFound is what a resource handler returns, wrapped or not,
// when the URI names nothing: fmt.Errorf("%w: no post %d", ErrResourceNotFound, id).
// Returned as is, the client reads `resource not found: "<uri>"`.
var ErrResourceNotFound = errors.New("resource not found")

// maxURI bounds the URIs looked up beyond the static resources: matching a
// resource template costs microseconds per byte (and more per list item, see
// maxListSeparators), a not-found error echoes the URI, and no sane resource
// URI is longer. A static resource is found by its exact URI, at any length.
const maxURI = 1 << 10

type resourceEntry struct {
	res   Resource
	wire  []byte     // the resources/list entry, encoded once at AddResource
	cache *CacheHint // res.Cache, normalized
}

func (re *resourceEntry) key() string         { return re.res.URI }
func (re *resourceEntry) listJSON() []byte    { return re.wire }
func (re *resourceEntry) requires() *Requires { return re.res.Requires }
func (re *resourceEntry) kind() itemKind      { return kindResource }
func (re *resourceEntry) scopes() []string    { return nil }

// AddResource registers r. It panics, as these are programming errors in the
// (generated) registration code: on an empty, invalid (see resources/read)
// or duplicate URI, a nil Handler, or a _meta that is not a JSON object.
// Resources are listed in the order they were added. AddResource may be
// called while serving: initialized sessions then get
// notifications/resources/list_changed.
func (s *Server) AddResource(r Resource) {
	where := fmt.Sprintf("AddResource(%q)", r.URI)
	if r.URI == "" {
		panic("runtime: AddResource: the resource has no URI")
	}
	if !validURI(r.URI) {
		panic("runtime: " + where + ": the URI must be an absolute URI with a scheme, such as file:///notes.txt")
	}
	if r.Handler == nil {
		panic("runtime: " + where + ": nil Handler")
	}
	if r.Name == "" {
		r.Name = r.URI
	}
	if s.cfg.noAppViews && r.MimeType == AppMIMEType {
		return // MCP Apps are off (WithoutAppViews)
	}
	if r.Meta != nil {
		r.Meta = mustObject(where, "Meta", r.Meta)
	}
	wire, err := json.Marshal(struct {
		URI         string          `json:"uri"`
		Name        string          `json:"name"`
		Title       string          `json:"title,omitempty"`
		Description string          `json:"description,omitempty"`
		MimeType    string          `json:"mimeType,omitempty"`
		Size        *int64          `json:"size,omitempty"`
		Annotations *Annotations    `json:"annotations,omitempty"`
		Icons       []Icon          `json:"icons,omitempty"`
		Meta        json.RawMessage `json:"_meta,omitempty"`
	}{r.URI, r.Name, r.Title, r.Description, r.MimeType, r.Size, r.Annotations, r.Icons, r.Meta})
	if err != nil {
		panic(fmt.Sprintf("runtime: %s: %v", where, err))
	}
	if !s.resources.add(&resourceEntry{res: r, wire: wire, cache: ownCache(r.Cache)}) {
		panic("runtime: " + where + ": a resource with this URI is already registered")
	}
	s.listChanged(capResources)
}

// RemoveResource unregisters the resource with this URI and reports whether
// there was one. Initialized sessions get notifications/resources/list_changed.
func (s *Server) RemoveResource(uri string) bool {
	if !s.resources.remove(uri) {
		return false
	}
	s.listChanged(capResources)
	return true
}

// Resources returns the registered static resources in order.
func (s *Server) Resources() []Resource {
	return values(&s.resources, func(re *resourceEntry) Resource { return re.res })
}

// validURI reports whether uri is what resources/read accepts: an absolute
// URI (RFC 3986): a scheme (a letter, then letters, digits, "+", "-" or
// "."), a colon, and no control characters, invalid UTF-8 or malformed
// percent-escapes. net/url is stricter than MCP URIs are: it rejects the
// percent-escapes and colons of custom schemes' authorities (post://a%20b,
// db://table:row), which are ids, not host names.
func validURI(uri string) bool {
	colon := strings.IndexByte(uri, ':')
	if colon < 1 || !isAlpha(uri[0]) {
		return false
	}
	for i := 1; i < colon; i++ {
		if c := uri[i]; !isAlpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	for i := colon + 1; i < len(uri); {
		c := uri[i]
		switch {
		case c < 0x20 || c == 0x7f:
			return false
		case c == '%':
			if i+2 >= len(uri) || !isHex(uri[i+1]) || !isHex(uri[i+2]) {
				return false
			}
			i += 3
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRuneInString(uri[i:])
			if r == utf8.RuneError && size == 1 || unicode.IsControl(r) {
				return false
			}
			i += size
		}
	}
	return true
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (ss *Session) resourcesList(p *peerInfo, params json.RawMessage) (encoder, *Error) {
	return page(ss, p, "resources", ss.srv.resources.snapshot(), params)
}

// uriParams reads the params of resources/read, resources/subscribe and
// resources/unsubscribe: {uri, _meta?}.
func uriParams(params json.RawMessage, method string) (uri string, meta json.RawMessage, e *Error) {
	if jsonwire.FirstByte(params) != '{' {
		return "", nil, errorf(CodeInvalidParams, `invalid params: %s takes an object with "uri"`, method)
	}
	var rawURI []byte
	if _, err := jsonwire.ScanObject(params, func(key, val []byte) {
		switch string(key) {
		case "uri":
			rawURI = val
		case "_meta":
			meta = val
		}
	}); err != nil {
		return "", nil, errorf(CodeInvalidParams, "invalid params: %v", err)
	}
	b, ok := jsonwire.MethodBytes(rawURI) // same shape: a JSON string
	if !ok {
		return "", nil, errorf(CodeInvalidParams, `invalid params: "uri" must be a string`)
	}
	uri = string(b)
	if !validURI(uri) {
		return "", nil, errorf(CodeInvalidParams, `invalid params: "uri" must be an absolute URI such as file:///notes.txt (got %s)`, quote(uri))
	}
	if jsonwire.IsNull(meta) {
		return uri, nil, nil
	}
	if jsonwire.FirstByte(meta) != '{' {
		return "", nil, errorf(CodeInvalidParams, `invalid params: "_meta" must be a JSON object`)
	}
	return uri, bytes.Clone(meta), nil // the message is not ours
}

// resourcesRead checks a resources/read request and reads the resource in
// its own goroutine: matching templates and the handler may take a while.
func (ss *Session) resourcesRead(ctx context.Context, id string, params json.RawMessage) {
	uri, meta, e := uriParams(params, methodResourcesRead)
	if e != nil {
		ss.respond(ctx, id, nil, e)
		return
	}
	req := &ReadResourceRequest{URI: uri, Meta: meta}
	decoded(ctx, req)
	ss.start(ctx, id, &call{meta: meta, cache: ss.srv.cacheFor(methodResourcesRead), exec: func(ctx context.Context, _ *call) (encoder, *Error) {
		res, e := ss.read(ctx, req)
		if e != nil {
			return nil, e
		}
		return res, nil
	}})
}

// readCache is the hint of a resources/read of uri, which m matched when a
// template serves it: the resource's or template's own, else the method's.
func (s *Server) readCache(uri string, m *templateMatch) *CacheHint {
	if m == nil {
		if re := s.resources.snapshot().byKey[uri]; re != nil && re.cache != nil {
			return re.cache
		}
	} else {
		for _, te := range s.templates.snapshot().list {
			if te.t == m.t && te.cache != nil {
				return te.cache
			}
		}
	}
	return s.cacheFor(methodResourcesRead)
}

// lookup finds what serves uri: the static resource with exactly this URI,
// else the first resource template, in registration order, that matches.
// What the client p may not see (context.go) is passed over, as if absent.
func (s *Server) lookup(uri string, p *peerInfo) (ResourceHandler, *templateMatch, *Error) {
	if strings.HasPrefix(uri, resultScheme) && s.linksResults() {
		return readResult, nil, nil // a result over budget (resultbudget.go)
	}
	if re := s.resources.snapshot().byKey[uri]; re != nil && visible(re, p) {
		return re.res.Handler, nil, nil
	}
	if len(uri) > maxURI {
		return nil, nil, errorf(CodeInvalidParams, "invalid params: the uri is %d bytes long; this server serves URIs of at most %d bytes", len(uri), maxURI)
	}
	for _, te := range s.templates.snapshot().list {
		if !visible(te, p) {
			continue
		}
		if vars := te.t.Match(uri); vars != nil {
			return te.tmpl.Handler, &templateMatch{t: te.t, vars: vars}, nil
		}
	}
	return nil, nil, notFound(uri, "")
}

// read serves req through this server's resources: the dispatch of
// resources/read, also used by declarative prompts to embed resources.
func (ss *Session) read(ctx context.Context, req *ReadResourceRequest) (res *ReadResourceResult, rpcErr *Error) {
	h, m, e := ss.srv.lookup(req.URI, ss.view(ctx, peerFrom(ctx)))
	if e != nil {
		return nil, e
	}
	req.match = m
	if c := reqFrom(ctx); c != nil && c.cache != nil {
		c.cache = ss.srv.readCache(req.URI, m) // the resource may have hints of its own
	}
	defer func() {
		if v := recover(); v != nil {
			ss.srv.cfg.logger.ErrorContext(ctx, "runtime: resource handler panicked",
				"uri", sanitize(req.URI, maxQuoted), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			res, rpcErr = nil, errorf(CodeInternalError, "internal error reading resource %s", quote(req.URI))
		}
	}()
	res, err := h(ctx, req)
	if err != nil {
		noteHandlerError(ctx, err)
		if e, ok := errors.AsType[*Error](err); ok {
			return nil, e
		}
		if errors.Is(err, ErrResourceNotFound) {
			msg := ""
			if err != ErrResourceNotFound {
				msg = err.Error()
			}
			return nil, notFound(req.URI, msg)
		}
		return nil, &Error{Code: CodeInternalError, Message: err.Error()}
	}
	if res == nil || len(res.Contents) == 0 {
		return nil, notFound(req.URI, "") // never a result without contents
	}
	return res, nil
}

// notFound is the protocol's resource-not-found error (2025-11-25: -32002
// with data {"uri": …}). msg "" words it from the URI.
func notFound(uri, msg string) *Error {
	if msg == "" {
		msg = "resource not found: " + quote(uri)
	}
	data := append([]byte(`{"uri":`), jsonwire.AppendString(nil, uri)...)
	return &Error{Code: CodeResourceNotFound, Message: msg, Data: json.RawMessage(append(data, '}'))}
}

func (r *ReadResourceResult) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"contents":[`...)
	var err error
	for i, c := range r.Contents {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = c.appendJSON(dst); err != nil {
			return dst, err
		}
	}
	dst = append(dst, ']')
	dst, err = appendMeta(dst, r.Meta)
	return append(dst, '}'), err
}

// MarshalJSON encodes the result as in the MCP schema.
func (r ReadResourceResult) MarshalJSON() ([]byte, error) { return r.appendJSON(nil) }

// TypedResource returns r with its Handler set to call fn and send what it
// returns as the resource's contents, by its dynamic type:
//
//   - string: text, with r.MimeType or "text/plain";
//   - []byte: a base64 blob, with r.MimeType or "application/octet-stream";
//   - ResourceContents or []ResourceContents: as is, an empty URI filled
//     with the request's and an empty MimeType with r.MimeType;
//   - anything else (a generated struct pointer…): its JSON as text, with
//     r.MimeType or "application/json".
//
// A result with no contents (an empty list, a nil pointer, JSON null) is
// answered as not found. fn's errors are answered as ResourceHandler says.
func TypedResource[R any](r Resource, fn func(ctx context.Context) (R, error)) Resource {
	mime := r.MimeType
	r.Handler = func(ctx context.Context, req *ReadResourceRequest) (*ReadResourceResult, error) {
		v, err := fn(ctx)
		if err != nil {
			return nil, err
		}
		return resourceResult(req.URI, mime, v)
	}
	return r
}

// TypedTemplate returns t with its Handler set to call fn with the URI's
// variables decoded into a *P, a struct whose json tags are the variable
// names (optional variables, such as those of {?q}, are Opt fields). The
// template is parsed, and P's schema (SchemaFor) reflected and compiled,
// once, here.
//
// On a read, each variable matched (and percent-decoded) from the URI is
// converted by the type of its field: integer and number to a JSON number,
// boolean from true or false, an array (an exploded {/path*}, or a list
// a,b) to an array of such items, anything else to a string; an absent
// variable is left out. The object is validated against P's schema; a
// value that fails (not a number, a pattern, an enum, a bound…) means the
// URI names no resource, so the read is answered as not found, with every
// reason: `resource not found: "post://abc": variable id: must be an
// integer (got "abc")`. Otherwise fn's result is sent as TypedResource
// says, with t.MimeType.
//
// When t.Complete is nil and fields of P have an enum, the template
// completes those variables from it. TypedTemplate panics, as these are
// programming errors, if the template does not parse, a variable is not a
// field of P, or a required field of P is not a variable. Do not change
// URITemplate afterwards.
func TypedTemplate[P, R any](t ResourceTemplate, fn func(ctx context.Context, p *P) (R, error)) ResourceTemplate {
	return typedTemplate(t, SchemaFor[P](), reflect.TypeFor[P](), func(ctx context.Context, p any) (any, error) {
		return fn(ctx, p.(*P))
	})
}

// typedTemplate is TypedTemplate with the schema of the params type given
// (reflected by TypedTemplate, computed by the generator for genimpl's
// GeneratedTemplate) and fn's types erased: it gets a *P (a new value of
// params, P's type) as any and returns its R as any. Converting a pointer to
// any does not allocate, and TypedTemplate converted the R to any anyway
// (resourceResult takes it so), so erasing costs a read nothing; one
// instance serves every template.
func typedTemplate(t ResourceTemplate, schema json.RawMessage, params reflect.Type, fn func(ctx context.Context, p any) (any, error)) ResourceTemplate {
	where := fmt.Sprintf("runtime: TypedTemplate(%q)", t.URITemplate)
	m, err := uritemplate.Parse(t.URITemplate)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", where, err))
	}
	t.parsed = m
	if typeschema.Type(schema) != "object" {
		panic(fmt.Sprintf("%s: the params type %v must be a struct", where, params))
	}
	val, err := validate.Compile(schema)
	if err != nil {
		panic(fmt.Sprintf("%s: the schema of %v does not compile: %v", where, params, err))
	}
	types, required := schemaVarTypes(schema)
	vars := make(typedVars, len(m.Vars()))
	enums := map[string][]string{}
	for i, tv := range m.Vars() {
		vt, ok := types[tv.Name]
		if !ok {
			panic(fmt.Sprintf("%s: variable %q is not a field of %v (by its json tag)", where, tv.Name, params))
		}
		vars[i] = typedVar{Var: tv, varType: vt}
		if len(vt.enum) > 0 {
			enums[tv.Name] = vt.enum
		}
	}
	for _, name := range required {
		if !m.HasVar(name) {
			panic(fmt.Sprintf("%s: field %q of %v is required but is not a variable of the template", where, name, params))
		}
	}
	if t.Complete == nil && len(enums) > 0 {
		t.Complete = func(_ context.Context, req *CompleteRequest) (*Completion, error) {
			return CompleteValues(req.Value, enums[req.Argument]...), nil
		}
	}
	mime := t.MimeType
	t.Handler = func(ctx context.Context, req *ReadResourceRequest) (*ReadResourceResult, error) {
		values := req.varsFor(m)
		if values == nil {
			return nil, ErrResourceNotFound
		}
		obj, reasons := vars.object(values)
		if len(reasons) == 0 {
			if inst, err := validate.Decode(obj); err != nil {
				reasons = []string{"variables: cannot be decoded"}
			} else if screened := validate.Screen(inst); len(screened.Violations) > 0 {
				reasons = variableReasons(screened.Violations) // numbers like 1e999999
			} else if vs := val.Check(inst); len(vs) > 0 {
				reasons = variableReasons(vs)
			} else if screened.Rewritten { // numbers like 1e2: decode what was validated
				obj, _ = json.Marshal(inst)
			}
		}
		p := reflect.New(params).Interface() // a *P
		if len(reasons) == 0 {
			if err := json.Unmarshal(obj, p); err != nil {
				reasons = variableReasons([]validate.Violation{validate.DecodeError(err)})
			} else {
				applyDefaults(p) // for the optional variables the URI left out
			}
		}
		if len(reasons) > 0 {
			return nil, fmt.Errorf("%w: %s: %s", ErrResourceNotFound, quote(req.URI), joinReasons(reasons))
		}
		r, err := fn(ctx, p)
		if err != nil {
			return nil, err
		}
		return resourceResult(req.URI, mime, r)
	}
	return t
}

// varsFor returns the variables of the request's URI in t: those the
// session matched when it chose t, or else matched now (a handler called
// directly, or through another template).
func (r *ReadResourceRequest) varsFor(t *uritemplate.Template) uritemplate.Values {
	if r.match != nil && r.match.t == t {
		return r.match.vars
	}
	return t.Match(r.URI)
}

// resourceResult turns what a typed handler returned into contents (see
// TypedResource).
func resourceResult(uri, mime string, v any) (*ReadResourceResult, error) {
	or := func(def string) string {
		if mime != "" {
			return mime
		}
		return def
	}
	var cs []ResourceContents
	switch x := v.(type) {
	case nil:
	case string:
		cs = []ResourceContents{{URI: uri, MimeType: or("text/plain"), Text: x}}
	case []byte:
		if x == nil {
			x = []byte{} // still a blob, an empty one
		}
		cs = []ResourceContents{{URI: uri, MimeType: or("application/octet-stream"), Blob: x}}
	case ResourceContents:
		cs = []ResourceContents{x}
	case []ResourceContents:
		cs = slices.Clone(x) // filled below: the caller's slice is not ours
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return nil, fmt.Errorf("the contents of resource %s cannot be encoded as JSON: %v", quote(uri), err)
		}
		if string(b) != "null" {
			cs = []ResourceContents{{URI: uri, MimeType: or("application/json"), Text: string(b)}}
		}
	}
	if len(cs) == 0 {
		return nil, ErrResourceNotFound
	}
	for i := range cs {
		if cs[i].URI == "" {
			cs[i].URI = uri
		}
		if cs[i].MimeType == "" {
			cs[i].MimeType = mime
		}
	}
	return &ReadResourceResult{Contents: cs}, nil
}

// varType is how a template variable's text becomes JSON, from the schema of
// its field.
type varType struct {
	kind  byte     // 's' string, 'i' integer, 'n' number, 'b' boolean: the value's, or the items' of an array
	array bool     // a list of kind
	enum  []string // the allowed values as text, for completion
}

type typedVar struct {
	uritemplate.Var
	varType
}

type typedVars []typedVar

// object builds the JSON object of the matched variables, or says which
// values are not what their field wants.
func (vars typedVars) object(values uritemplate.Values) ([]byte, []string) {
	b := append(make([]byte, 0, 64), '{')
	var bad []string
	for _, v := range vars {
		val, ok := values[v.Capture]
		if !ok {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = jsonwire.AppendString(b, v.Name)
		b = append(b, ':')
		if v.array {
			b = append(b, '[')
			for j, it := range val.V {
				if j > 0 {
					b = append(b, ',')
				}
				if b, ok = appendVarValue(b, v.kind, it); !ok {
					bad = append(bad, fmt.Sprintf("variable %s[%d]: must be %s (got %s)", v.Name, j, kindName(v.kind), quote(it)))
				}
			}
			b = append(b, ']')
			continue
		}
		s := strings.Join(val.V, v.Sep) // a list sent for a single value: its text
		if b, ok = appendVarValue(b, v.kind, s); !ok {
			bad = append(bad, fmt.Sprintf("variable %s: must be %s (got %s)", v.Name, kindName(v.kind), quote(s)))
		}
	}
	return append(b, '}'), bad
}

func kindName(kind byte) string {
	switch kind {
	case 'i':
		return "an integer"
	case 'n':
		return "a number"
	case 'b':
		return "true or false"
	}
	return "a string"
}

// appendVarValue appends the JSON of a variable's text as kind wants it; ok
// is false (and null appended) when the text is not of that kind.
func appendVarValue(b []byte, kind byte, s string) ([]byte, bool) {
	switch kind {
	case 'i', 'n':
		if digits, neg, ok := intLiteral(s); ok {
			if neg && digits != "0" {
				b = append(b, '-')
			}
			return append(b, digits...), true
		}
		if kind == 'n' && jsonwire.IsNumber(s) {
			return append(b, s...), true
		}
	case 'b':
		if s == "true" || s == "false" {
			return append(b, s...), true
		}
	default:
		return jsonwire.AppendString(b, s), true
	}
	return append(b, "null"...), false
}

// intLiteral accepts -?[0-9]+ and returns the digits without leading zeros
// ("007" is 7).
func intLiteral(s string) (digits string, neg bool, ok bool) {
	if neg = strings.HasPrefix(s, "-"); neg {
		s = s[1:]
	}
	if s == "" {
		return "", false, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "", false, false
		}
	}
	if digits = strings.TrimLeft(s, "0"); digits == "" {
		digits = "0"
	}
	return digits, neg, true
}

// variableReasons words schema violations of the variables object.
func variableReasons(vs []validate.Violation) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		name, rest, _ := strings.Cut(strings.TrimPrefix(v.Ptr, "/"), "/")
		switch {
		case name == "":
			out[i] = "variables: " + v.Msg
		case rest == "":
			out[i] = "variable " + name + ": " + v.Msg
		case !strings.Contains(rest, "/"):
			out[i] = "variable " + name + "[" + rest + "]: " + v.Msg
		default:
			out[i] = "variable " + name + "/" + rest + ": " + v.Msg
		}
	}
	return out
}

// joinReasons joins reasons into one line, at most 10 of them.
func joinReasons(reasons []string) string {
	const limit = 10
	if len(reasons) <= limit {
		return strings.Join(reasons, "; ")
	}
	return strings.Join(reasons[:limit], "; ") + fmt.Sprintf("; … and %d more", len(reasons)-limit)
}

// schemaVarTypes reads the type of each property of an object schema (made
// by SchemaFor), following local $refs, and the required properties.
func schemaVarTypes(schema json.RawMessage) (map[string]varType, []string) {
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
		Defs       map[string]json.RawMessage `json:"$defs"`
	}
	_ = json.Unmarshal(schema, &doc) // SchemaFor's output: it decodes
	types := make(map[string]varType, len(doc.Properties))
	for name, raw := range doc.Properties {
		n := resolveNode(raw, doc.Defs)
		vt := varType{kind: kindOf(n.typeName())}
		if n.typeName() == "array" {
			n = resolveNode(n.Items, doc.Defs)
			vt.array, vt.kind = true, kindOf(n.typeName())
		}
		for _, e := range n.Enum {
			var s string
			if json.Unmarshal(e, &s) != nil {
				s = string(e)
			}
			vt.enum = append(vt.enum, s)
		}
		types[name] = vt
	}
	return types, doc.Required
}

type schemaNode struct {
	Ref         string            `json:"$ref"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Type        json.RawMessage   `json:"type"`
	Items       json.RawMessage   `json:"items"`
	Enum        []json.RawMessage `json:"enum"`
}

func resolveNode(raw json.RawMessage, defs map[string]json.RawMessage) schemaNode {
	var n schemaNode
	for range 16 { // a bounded chain of $refs
		n = schemaNode{}
		_ = json.Unmarshal(raw, &n)
		name, ok := strings.CutPrefix(n.Ref, "#/$defs/")
		if !ok || defs[name] == nil {
			return n
		}
		raw = defs[name]
	}
	return n
}

// typeName is the node's type, the first that is not "null" of a list.
func (n schemaNode) typeName() string {
	var one string
	if json.Unmarshal(n.Type, &one) == nil {
		return one
	}
	var many []string
	_ = json.Unmarshal(n.Type, &many)
	for _, t := range many {
		if t != "null" {
			return t
		}
	}
	return ""
}

func kindOf(typeName string) byte {
	switch typeName {
	case "integer":
		return 'i'
	case "number":
		return 'n'
	case "boolean":
		return 'b'
	}
	return 's'
}
