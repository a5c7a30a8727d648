package upstream

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"reflect"
	"slices"
)

// rawBody is the bytes of a string body (a string, or a pointer to one).
func rawBody(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.String {
		return nil, fmt.Errorf("a raw body must be a string, not a %s", rv.Type())
	}
	return []byte(rv.String()), nil
}

// multipartBody is v, an object, as multipart/form-data (see Multipart),
// with its Content-Type (which names the boundary).
func multipartBody(v any, files []string) ([]byte, string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, "", err
	}
	doc, err := decodeOrdered(b)
	if err != nil {
		return nil, "", err
	}
	obj, ok := doc.(object)
	if !ok {
		return nil, "", fmt.Errorf("a multipart body must be an object, not %s", jsonKind(doc))
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, m := range obj {
		items, isList := m.value.([]any)
		if !isList {
			items = []any{m.value}
		}
		for _, it := range items {
			var err error
			if slices.Contains(files, m.key) {
				err = writeFile(w, m.key, it)
			} else {
				err = writePart(w, m.key, it)
			}
			if err != nil {
				return nil, "", err
			}
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// writePart writes one field: a scalar as its text, an object or a list
// as JSON (with its Content-Type); null is left out.
func writePart(w *multipart.Writer, name string, v any) error {
	if v == nil {
		return nil
	}
	if s, ok := scalarJSON(v); ok {
		return w.WriteField(name, s)
	}
	b, err := json.Marshal(plain(v))
	if err != nil {
		return err
	}
	h := map[string][]string{
		"Content-Disposition": {fmt.Sprintf(`form-data; name="%s"`, escapeQuotes(name))},
		"Content-Type":        {"application/json"},
	}
	pw, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	_, err = pw.Write(b)
	return err
}

// writeFile writes one file part: v, a base64 string (a tool's argument
// cannot hold bytes), decoded, as application/octet-stream named after
// the field; null is left out.
func writeFile(w *multipart.Writer, name string, v any) error {
	if v == nil {
		return nil
	}
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("file %s must be a base64 string, not %s", name, jsonKind(v))
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		if b, err = base64.RawStdEncoding.DecodeString(s); err != nil {
			return fmt.Errorf("file %s is not base64: %w", name, err)
		}
	}
	pw, err := w.CreateFormFile(name, name)
	if err != nil {
		return err
	}
	_, err = pw.Write(b)
	return err
}

// plain is a decoded ordered value as encoding/json encodes it back, in
// its order (an object as json.RawMessage members).
func plain(v any) any {
	switch x := v.(type) {
	case object:
		var b bytes.Buffer
		b.WriteByte('{')
		for i, m := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(m.key)
			e, _ := json.Marshal(plain(m.value))
			b.Write(k)
			b.WriteByte(':')
			b.Write(e)
		}
		b.WriteByte('}')
		return json.RawMessage(b.Bytes())
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	}
	return v
}

// escapeQuotes escapes a field name for a Content-Disposition header, as
// mime/multipart does for its own fields.
func escapeQuotes(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		if r == '\\' || r == '"' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// orderedFields encodes a merged body's properties in the order they were
// set (a map would sort them), so multipart parts follow the spec's order.
type orderedFields struct {
	order  []string
	values map[string]any
}

func (f orderedFields) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range f.order {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(f.values[k])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
