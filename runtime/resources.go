package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
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
	// declared these capabilities (requires.go); it is not advertised.
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

// lookup finds what serves uri: the static resource with exactly this URI,
// else the first resource template, in registration order, that matches.
// What the client p may not see (requires.go) is passed over, as if absent.
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
