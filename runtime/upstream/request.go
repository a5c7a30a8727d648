package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
)

// Request is one call of the upstream API, built by a generated method from
// a tool's input: a method, a path template whose {name}s are filled with
// Path, and the query, headers, cookies and JSON body. A value that cannot
// be sent (an object in a path parameter) is remembered and fails
// the call, with the parameter named.
type Request struct {
	method, path string
	pathValues   map[string]string
	query        []queryParam // in the order added (query.go)
	header       http.Header
	cookies      []*http.Cookie
	body         any
	hasBody      bool
	fields       map[string]any // the body's properties, for a merged body
	fieldOrder   []string       // their names in the order set (a multipart body's parts)
	form         bool           // the body is application/x-www-form-urlencoded
	multipart    bool           // the body is multipart/form-data
	rawType      string         // the body is a string sent as it is, with this Content-Type
	files        []string       // the multipart body's fields that are files (base64 strings, sent decoded)
	aws          *AWSQuery      // query parameters and form fields are named as AWS's query protocol does
	err          error
}

// NewRequest starts a call of method on pathTemplate, such as
// "/pets/{petId}".
func NewRequest(method, pathTemplate string) *Request {
	return &Request{method: method, path: pathTemplate, header: http.Header{}}
}

// Path fills the path parameter {name} with v, escaped as one path segment.
func (r *Request) Path(name string, v any) {
	vals := r.texts("path parameter "+name, v)
	if r.pathValues == nil {
		r.pathValues = map[string]string{}
	}
	r.pathValues[name] = strings.Join(vals, ",")
}

// Form sends the body as application/x-www-form-urlencoded instead of
// JSON: each top-level property a field, nested objects and arrays
// deepObject style (metadata[plan]=pro, expand[0]=customer), as form APIs
// such as Stripe's read them.
func (r *Request) Form() { r.form = true }

// Multipart sends the body as multipart/form-data instead of JSON: each
// top-level property a part, a scalar as its text, a list one part per
// item, an object (or a list's object item) as JSON.
func (r *Request) Multipart() { r.multipart = true }

// Files makes the multipart body's fields names file parts: each value (or
// each item of a list) a base64 string, sent decoded as
// application/octet-stream with the field's name as its filename.
func (r *Request) Files(names ...string) { r.files = names }

// Raw sends the body, a string, as it is with Content-Type contentType
// (text/plain, application/xml…) instead of JSON.
func (r *Request) Raw(contentType string) { r.rawType = contentType }

// Header sets the header name to v (an array comma-separated, simple
// style). A nil pointer sets nothing.
func (r *Request) Header(name string, v any) {
	if vals := r.texts("header "+name, v); vals != nil {
		r.header.Set(name, strings.Join(vals, ","))
	}
}

// Cookie sends the cookie name with v (an array comma-separated).
func (r *Request) Cookie(name string, v any) {
	if vals := r.texts("cookie "+name, v); vals != nil {
		r.cookies = append(r.cookies, &http.Cookie{Name: name, Value: strings.Join(vals, ","), Quoted: false})
	}
}

// Body sends v as the whole JSON body. A nil pointer sends no body.
func (r *Request) Body(v any) {
	if isNil(v) {
		return
	}
	r.body, r.hasBody = v, true
}

// BodyField sets the property name of a JSON object body, for a tool whose
// input holds the body's properties beside the parameters. A nil pointer
// or slice (an optional property the caller left out) is not sent.
func (r *Request) BodyField(name string, v any) {
	if isNil(v) {
		return
	}
	if r.fields == nil {
		r.fields = map[string]any{}
	}
	if _, ok := r.fields[name]; !ok {
		r.fieldOrder = append(r.fieldOrder, name)
	}
	r.fields[name] = v
}

// texts is v as parameter values: a scalar is one, a slice or array one per
// item, a nil pointer or slice none (nil).
func (r *Request) texts(what string, v any) []string {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	if m, ok := rv.Interface().(json.Marshaler); ok && rv.Kind() == reflect.Struct {
		// A union (string or list of strings): what it holds, as JSON says.
		return r.jsonTexts(what, m)
	}
	if rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return nil
		}
		out := make([]string, 0, rv.Len())
		for i := range rv.Len() {
			s, ok := scalarText(rv.Index(i))
			if !ok {
				r.fail(what, rv.Index(i))
				return nil
			}
			out = append(out, s)
		}
		return out
	}
	s, ok := scalarText(rv)
	if !ok {
		r.fail(what, rv)
		return nil
	}
	return []string{s}
}

// jsonTexts is texts for a value that encodes itself: a JSON string,
// number or boolean is one value, an array of them one per item.
func (r *Request) jsonTexts(what string, m json.Marshaler) []string {
	b, err := m.MarshalJSON()
	var v any
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		err = dec.Decode(&v)
	}
	items, isList := v.([]any)
	if !isList {
		items = []any{v}
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		switch x := it.(type) {
		case string:
			out = append(out, x)
		case json.Number:
			out = append(out, x.String())
		case bool:
			out = append(out, strconv.FormatBool(x))
		case nil:
			if !isList {
				return nil // a null union: not sent
			}
			err = fmt.Errorf("null in a list")
		default:
			err = fmt.Errorf("a JSON %T", x)
		}
	}
	if err != nil {
		if r.err == nil {
			r.err = fmt.Errorf("upstream %s %s: %s cannot be sent as text: %v", r.method, r.path, what, err)
		}
		return nil
	}
	return out
}

func (r *Request) fail(what string, v reflect.Value) {
	if r.err == nil {
		r.err = fmt.Errorf("upstream %s %s: %s: a %s cannot be sent as text", r.method, r.path, what, v.Type())
	}
}

// scalarText formats a string, number or boolean as HTTP parameters write
// it (numbers as JSON does: 1.5, not 1.500000e+00).
func scalarText(v reflect.Value) (string, bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "", false
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		return v.String(), true
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10), true
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64), true
	}
	return "", false
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// build is the *http.Request of r against base.
func (r *Request) build(ctx context.Context, base *url.URL) (*http.Request, error) {
	path, err := r.expandPath()
	if err != nil {
		return nil, err
	}
	u := *base
	u.RawPath = base.EscapedPath() + path
	if u.Path, err = url.PathUnescape(u.RawPath); err != nil {
		return nil, fmt.Errorf("upstream %s %s: %w", r.method, r.path, err)
	}
	if u.RawQuery, err = encodeQuery(r.query, r.aws); err != nil {
		return nil, fmt.Errorf("upstream %s %s: %w", r.method, r.path, err)
	}
	var body io.Reader
	var payload any
	switch {
	case r.hasBody:
		payload = r.body
	case r.fields != nil:
		payload = r.fields
	}
	contentType := "application/json"
	if payload != nil {
		var b []byte
		var err error
		switch {
		case r.rawType != "":
			contentType = r.rawType
			b, err = rawBody(payload)
		case r.multipart && !r.hasBody:
			b, contentType, err = multipartBody(orderedFields{r.fieldOrder, r.fields}, r.files)
		case r.multipart:
			b, contentType, err = multipartBody(payload, r.files)
		case r.form && r.aws != nil:
			contentType = "application/x-www-form-urlencoded"
			if !r.hasBody {
				payload = orderedFields{r.fieldOrder, r.fields}
			}
			if b, err = json.Marshal(payload); err == nil {
				b, err = r.aws.awsFormBody(b)
			}
		default:
			b, err = json.Marshal(payload)
			if err == nil && r.form {
				contentType = "application/x-www-form-urlencoded"
				b, err = formBody(b)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("upstream %s %s: encoding the body: %w", r.method, r.path, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("upstream %s %s: %w", r.method, r.path, err)
	}
	for k, vs := range r.header {
		req.Header[k] = vs
	}
	for _, c := range r.cookies {
		req.AddCookie(c)
	}
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// expandPath is the path template with every {name} filled, each value
// escaped as one segment (a / in a value cannot reach another endpoint,
// nor can a value of . or ..). A {name} that no Path call filled is a bug
// of the binding, reported with its name.
func (r *Request) expandPath() (string, error) {
	var b strings.Builder
	rest := r.path
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return "", fmt.Errorf("upstream %s %s: unclosed { in the path", r.method, r.path)
		}
		name := rest[open+1 : open+end]
		v, ok := r.pathValues[name]
		if !ok {
			return "", fmt.Errorf("upstream %s %s: no value for path parameter %s", r.method, r.path, name)
		}
		if v == "" || v == "." || v == ".." {
			return "", fmt.Errorf("upstream %s %s: path parameter %s cannot be %q", r.method, r.path, name, v)
		}
		b.WriteString(rest[:open])
		b.WriteString(url.PathEscape(v))
		rest = rest[open+end+1:]
	}
}

// formBody is a JSON object as form fields (see Form), nested as
// nestedPairs does.
func formBody(jsonText []byte) ([]byte, error) {
	obj, err := formObject(jsonText)
	if err != nil {
		return nil, err
	}
	form := url.Values{}
	for _, m := range obj {
		nestedPairs(form.Add, m.key, m.value)
	}
	return []byte(form.Encode()), nil
}

// formObject is a form body's JSON object, decoded in order; a body that
// is not an object cannot be sent as fields.
func formObject(jsonText []byte) (object, error) {
	v, err := decodeOrdered(jsonText)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(object)
	if !ok {
		return nil, fmt.Errorf("a form body must be an object, not %s", jsonText)
	}
	return obj, nil
}
