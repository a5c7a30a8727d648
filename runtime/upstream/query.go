package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Style is how a query parameter's array or object is written, as
// OpenAPI's parameter style says (its table of examples, for a color
// parameter of blue, black, brown or {R: 100, G: 200, B: 150}):
//
//	style           explode  array                           object
//	form            true     color=blue&color=black&…        R=100&G=200&B=150
//	form            false    color=blue,black,brown          color=R,100,G,200,B,150
//	spaceDelimited  false    color=blue%20black%20brown      color=R%20100%20G%20200%20B%20150
//	pipeDelimited   false    color=blue%7Cblack%7Cbrown      color=R%7C100%7CG%7C200%7CB%7C150
//	deepObject      (true)   color[0]=blue&color[1]=black…   color%5BR%5D=100&color%5BG%5D=200…
//
// A scalar is color=blue in every style. spaceDelimited and pipeDelimited
// with explode repeat the name as form does (OpenAPI leaves them
// undefined). deepObject nests as deep as the value goes; the other styles
// take scalars, arrays of scalars and objects of scalars only.
type Style string

// The styles of a query parameter.
const (
	Form           Style = "form"
	SpaceDelimited Style = "spaceDelimited"
	PipeDelimited  Style = "pipeDelimited"
	DeepObject     Style = "deepObject"
)

// queryParam is one query parameter, encoded when the request is built.
type queryParam struct {
	name    string
	style   Style
	explode bool
	value   any
}

// QueryStyle adds v as the query parameter name in style (see Style); a
// nil pointer, slice or map adds nothing. Parameters go in the order added.
func (r *Request) QueryStyle(name string, style Style, explode bool, v any) {
	if !isNil(v) {
		r.query = append(r.query, queryParam{name, style, explode, v})
	}
}

// Query adds v as the query parameter name, form style with explode (an
// array repeats the name: ?tag=a&tag=b; an object's properties are
// parameters of their own: ?R=100&G=200).
func (r *Request) Query(name string, v any) { r.QueryStyle(name, Form, true, v) }

// QueryJoined adds v as the query parameter name, form style without
// explode (an array is one comma-separated value: ?tag=a,b).
func (r *Request) QueryJoined(name string, v any) { r.QueryStyle(name, Form, false, v) }

// QueryDeep adds v as the query parameter name deepObject style: an
// object's properties as name[key]=value, an array's items as
// name[0]=value, nested as deep as the value goes. A scalar is name=value.
func (r *Request) QueryDeep(name string, v any) { r.QueryStyle(name, DeepObject, true, v) }

// encodeQuery is the query string of params, in their order; with aws
// set, each named as AWS's query protocol does (see AWSQuery).
func encodeQuery(params []queryParam, aws *AWSQuery) (string, error) {
	var pairs []string
	add := func(key, escapedValue string) { pairs = append(pairs, queryEscape(key)+"="+escapedValue) }
	for _, p := range params {
		b, err := json.Marshal(p.value)
		if err != nil {
			return "", fmt.Errorf("query parameter %s: %w", p.name, err)
		}
		v, err := decodeOrdered(b)
		if err != nil {
			return "", fmt.Errorf("query parameter %s: %w", p.name, err)
		}
		if aws != nil {
			aws.pairs(func(key, value string) { add(key, queryEscape(value)) }, p.name, p.name, v)
			continue
		}
		if p.style == DeepObject {
			nestedPairs(func(key, value string) { add(key, queryEscape(value)) }, p.name, v)
			continue
		}
		if err := stylePairs(add, p, v); err != nil {
			return "", fmt.Errorf("query parameter %s: %w", p.name, err)
		}
	}
	return strings.Join(pairs, "&"), nil
}

// stylePairs adds the pairs of v, a parameter in a style other than
// deepObject.
func stylePairs(add func(key, escapedValue string), p queryParam, v any) error {
	delim := map[Style]string{Form: ",", SpaceDelimited: "%20", PipeDelimited: "%7C"}[p.style]
	if delim == "" {
		return fmt.Errorf("style must be form, spaceDelimited, pipeDelimited or deepObject, not %q", p.style)
	}
	switch x := v.(type) {
	case nil:
	case []any:
		texts, err := scalarTexts(x)
		if err != nil {
			return err
		}
		if p.explode {
			for _, s := range texts {
				add(p.name, queryEscape(s))
			}
			return nil
		}
		add(p.name, joinEscaped(texts, delim))
	case object:
		texts := make([]string, 0, 2*len(x))
		for _, m := range x {
			s, ok := scalarJSON(m.value)
			if !ok {
				return fmt.Errorf("property %s is %s; only deepObject style sends a nested value", m.key, jsonKind(m.value))
			}
			if m.value == nil {
				continue // a null property: not sent
			}
			if p.explode {
				add(m.key, queryEscape(s))
				continue
			}
			texts = append(texts, m.key, s)
		}
		if !p.explode && len(texts) > 0 {
			add(p.name, joinEscaped(texts, delim))
		}
	default:
		s, _ := scalarJSON(x)
		add(p.name, queryEscape(s))
	}
	return nil
}

// nestedPairs adds v under key as deepObject style and form bodies nest
// it: objects as key[name], arrays as key[i], nested; null adds nothing.
// add gets each value as text, not escaped.
func nestedPairs(add func(key, value string), key string, v any) {
	switch x := v.(type) {
	case nil:
	case object:
		for _, m := range x {
			nestedPairs(add, key+"["+m.key+"]", m.value)
		}
	case []any:
		for i, e := range x {
			nestedPairs(add, key+"["+strconv.Itoa(i)+"]", e)
		}
	default:
		s, _ := scalarJSON(x)
		add(key, s)
	}
}

// scalarTexts is the text of each item of an array of scalars.
func scalarTexts(items []any) ([]string, error) {
	out := make([]string, 0, len(items))
	for i, it := range items {
		s, ok := scalarJSON(it)
		if !ok || it == nil {
			return nil, fmt.Errorf("item %d is %s; only deepObject style sends a nested value", i, jsonKind(it))
		}
		out = append(out, s)
	}
	return out, nil
}

// scalarJSON is a decoded JSON scalar as parameter text; false for an
// object or array. null is "".
func scalarJSON(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", true
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case object:
		return "an object"
	case []any:
		return "an array"
	}
	return "a scalar"
}

// joinEscaped escapes each text and joins them with delim, itself left as
// written (the comma of form style is allowed in a query; a text's own
// comma is escaped, so the two differ).
func joinEscaped(texts []string, delim string) string {
	esc := make([]string, len(texts))
	for i, s := range texts {
		esc[i] = queryEscape(s)
	}
	return strings.Join(esc, delim)
}

// queryEscape escapes s for a query: as url.QueryEscape, with a space as
// %20 (as OpenAPI's examples write it; + is form encoding's).
func queryEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

// object is a decoded JSON object with its members in the order written
// (a struct's fields in declaration order, so its parameters are sent in
// the order the spec declares its properties).
type object []member

type member struct {
	key   string
	value any
}

// decodeOrdered decodes JSON text, numbers as json.Number and objects as
// object.
func decodeOrdered(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return decodeValue(dec)
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := object{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, member{k.(string), v})
			}
			_, err := dec.Token() // }
			return obj, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token() // ]
			return arr, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	}
	return tok, nil
}
