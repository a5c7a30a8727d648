package upstream

import (
	"context"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// color is the object of OpenAPI's style examples, its properties in the
// order the examples write them.
type color struct {
	R int `json:"R"`
	G int `json:"G"`
	B int `json:"B"`
}

// TestQueryStylesAsOpenAPIsTable sends each row of OpenAPI 3.1's style
// examples (§4.8.12.4, parameter color: blue, black, brown or R 100, G
// 200, B 150) to a real HTTP server and compares the query string it
// received, byte for byte.
func TestQueryStylesAsOpenAPIsTable(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	list := []string{"blue", "black", "brown"}
	obj := color{100, 200, 150}
	for _, tc := range []struct {
		style   Style
		explode bool
		value   any
		want    string
	}{
		{Form, false, "blue", "color=blue"},
		{Form, false, list, "color=blue,black,brown"},
		{Form, false, obj, "color=R,100,G,200,B,150"},
		{Form, true, "blue", "color=blue"},
		{Form, true, list, "color=blue&color=black&color=brown"},
		{Form, true, obj, "R=100&G=200&B=150"},
		{SpaceDelimited, false, list, "color=blue%20black%20brown"},
		{SpaceDelimited, false, obj, "color=R%20100%20G%20200%20B%20150"},
		{PipeDelimited, false, list, "color=blue%7Cblack%7Cbrown"},
		{PipeDelimited, false, obj, "color=R%7C100%7CG%7C200%7CB%7C150"},
		{DeepObject, true, obj, "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"},
		// Beyond the table: an empty list unexploded is an empty value
		// (the table's "empty" column); exploded, nothing. A value's own
		// delimiter is escaped, so it cannot split the value.
		{Form, false, []string{}, "color="},
		{Form, true, []string{}, ""},
		{Form, false, []string{"a,b", "c d"}, "color=a%2Cb,c%20d"},
		{PipeDelimited, false, []string{"a|b", "c"}, "color=a%7Cb%7Cc"},
		{PipeDelimited, true, list, "color=blue&color=black&color=brown"},
		{Form, true, map[string]any{"b": "x y", "a": nil}, "b=x%20y"},
		{DeepObject, true, map[string]any{"f": map[string]any{"gte": 5}, "l": []int{1, 2}}, "color%5Bf%5D%5Bgte%5D=5&color%5Bl%5D%5B0%5D=1&color%5Bl%5D%5B1%5D=2"},
	} {
		r := NewRequest("GET", "/x")
		r.QueryStyle("color", tc.style, tc.explode, tc.value)
		if err := c.Call(context.Background(), r, nil); err != nil {
			t.Fatalf("%s explode=%v %v: %v", tc.style, tc.explode, tc.value, err)
		}
		if got.rawQuery != tc.want {
			t.Errorf("%s explode=%v %v: query %s, want %s", tc.style, tc.explode, tc.value, got.rawQuery, tc.want)
		}
	}
}

// TestQueryStyleRefusals: a nested value outside deepObject, and an
// unknown style, fail the call naming the parameter.
func TestQueryStyleRefusals(t *testing.T) {
	srv, _ := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	for _, tc := range []struct {
		style Style
		value any
		want  string
	}{
		{PipeDelimited, [][]string{{"a"}}, "query parameter color: item 0 is an array"},
		{Form, []any{"a", nil}, "query parameter color: item 1 is null"},
		{SpaceDelimited, map[string]any{"a": []int{1}}, "query parameter color: property a is an array"},
		{"matrix", []string{"a"}, `style must be form, spaceDelimited, pipeDelimited or deepObject, not "matrix"`},
	} {
		r := NewRequest("GET", "/x")
		r.QueryStyle("color", tc.style, false, tc.value)
		if err := c.Call(context.Background(), r, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: err = %v, want %q", tc.style, tc.value, err, tc.want)
		}
	}
}

// TestQueryValuesReachTheServerAsSent: whatever a value holds (the
// query's own delimiters &, = and #, a space, a +, a %, brackets,
// non-ASCII), in every style the server reads back exactly the values
// sent, under exactly the names sent, and nothing more: a value cannot
// add a parameter, end the query or change a name.
func TestQueryValuesReachTheServerAsSent(t *testing.T) {
	hostile := []string{"x&admin=1", "a=b", "frag#ment", "two words", "1+1", "100%", "%41",
		"[0]", "a]b[c", "naïve 東京", "?q", "semi;colon", ""}
	srv, got := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	for _, v := range hostile {
		obj := map[string]any{"k": v, "n": map[string]any{"deep": v}, "l": []string{v, v}}
		for _, tc := range []struct {
			style   Style
			explode bool
			value   any
			want    url.Values
		}{
			{DeepObject, true, obj, url.Values{"p[k]": {v}, "p[n][deep]": {v}, "p[l][0]": {v}, "p[l][1]": {v}}},
			{DeepObject, true, map[string]any{v: v}, url.Values{"p[" + v + "]": {v}}},
			{DeepObject, true, v, url.Values{"p": {v}}},
			{Form, true, v, url.Values{"p": {v}}},
			{Form, true, []string{v, v}, url.Values{"p": {v, v}}},
			{Form, true, map[string]any{"k": v}, url.Values{"k": {v}}},
			{SpaceDelimited, false, v, url.Values{"p": {v}}},
			{PipeDelimited, false, v, url.Values{"p": {v}}},
		} {
			r := NewRequest("GET", "/x")
			r.QueryStyle("p", tc.style, tc.explode, tc.value)
			if err := c.Call(context.Background(), r, nil); err != nil {
				t.Fatalf("%s %q: %v", tc.style, v, err)
			}
			q, err := url.ParseQuery(got.rawQuery)
			if err != nil || !reflect.DeepEqual(q, tc.want) {
				t.Errorf("%s explode=%v %#v: the server read %v (query %q, %v), want %v", tc.style, tc.explode, tc.value, q, got.rawQuery, err, tc.want)
			}
		}
	}
}
