package upstream

import (
	"context"
	"errors"
	"testing"
)

// The exact request each parameter place sends, over scalar types and
// values that need escaping, written by hand from the doc comments of
// Path, Query*, Header, Cookie and Auth (a path value escaped as one
// segment; a query's space as %20; a header or cookie array
// comma-separated; a nil pointer sends nothing).

// TestPathExact: the request line for each base URL form and each path
// value type.
func TestPathExact(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	for _, tc := range []struct {
		basePath string // appended to the server's URL
		template string
		value    any
		want     string // the escaped path the API receives
	}{
		{"", "/pets/{id}", "7", "/pets/7"},
		{"/v1", "/pets/{id}", "7", "/v1/pets/7"},
		{"/v1/", "/pets/{id}", "7", "/v1/pets/7"},
		{"/a%20b/", "/pets/{id}", "7", "/a%20b/pets/7"},
		{"", "/pets/{id}", "a/b?c#d", "/pets/a%2Fb%3Fc%23d"},
		{"", "/pets/{id}", "100%", "/pets/100%25"},
		{"", "/pets/{id}", "a b", "/pets/a%20b"},
		{"", "/pets/{id}", "é", "/pets/%C3%A9"},
		{"", "/pets/{id}", "...", "/pets/..."},
		{"", "/pets/{id}", ".x", "/pets/.x"},
		{"", "/pets/{id}", true, "/pets/true"},
		{"", "/pets/{id}", int64(-3), "/pets/-3"},
		{"", "/pets/{id}", uint8(255), "/pets/255"},
		{"", "/pets/{id}", 1.5, "/pets/1.5"},
		{"", "/pets/{id}", float32(0.25), "/pets/0.25"},
		// An array is comma-separated, the whole escaped as one segment
		// (the comma too, which servers read back as a comma).
		{"", "/pets/{id}", []int{1, 2}, "/pets/1%2C2"},
		{"", "/pets/{id}", []string{"a b", "c/d"}, "/pets/a%20b%2Cc%2Fd"},
		{"", "/pets/{id}.json", "x", "/pets/x.json"},
		{"", "/{a}{id}", "y", "/xy"},
	} {
		c := newClient(t, Config{BaseURL: srv.URL + tc.basePath})
		r := NewRequest("GET", tc.template)
		r.Path("a", "x")
		r.Path("id", tc.value)
		if err := c.Call(context.Background(), r, nil); err != nil {
			t.Fatalf("%s %s %v: %v", tc.basePath, tc.template, tc.value, err)
		}
		if got.rawPath != tc.want {
			t.Errorf("base %q, %s with %#v: path %s, want %s", tc.basePath, tc.template, tc.value, got.rawPath, tc.want)
		}
	}
}

// TestQueryScalarsExact: a scalar is name=value in every style, escaped
// as a query value (space %20, + & = # % escaped) with the name escaped
// too; numbers as JSON writes them.
func TestQueryScalarsExact(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	one := "x"
	for _, tc := range []struct {
		name  string
		value any
		want  string
	}{
		{"q", "a&b=c+d#e%", "q=a%26b%3Dc%2Bd%23e%25"},
		{"q", "é ü", "q=%C3%A9%20%C3%BC"},
		{"q", "a/b?c", "q=a%2Fb%3Fc"},
		{"a b[]", "v", "a%20b%5B%5D=v"},
		{"q", "", "q="},
		{"q", true, "q=true"},
		{"q", false, "q=false"},
		{"q", -3, "q=-3"},
		{"q", uint64(18446744073709551615), "q=18446744073709551615"},
		{"q", 2.5, "q=2.5"},
		{"q", 1e21, "q=1e%2B21"},
		{"q", &one, "q=x"},
		{"q", oneOrMany{One: &one}, "q=x"},
	} {
		for _, style := range []Style{Form, SpaceDelimited, PipeDelimited, DeepObject} {
			for _, explode := range []bool{false, true} {
				r := NewRequest("GET", "/x")
				r.QueryStyle(tc.name, style, explode, tc.value)
				if err := c.Call(context.Background(), r, nil); err != nil {
					t.Fatalf("%s %v: %v", style, tc.value, err)
				}
				if got.rawQuery != tc.want {
					t.Errorf("%s explode=%v %q=%#v: query %s, want %s", style, explode, tc.name, tc.value, got.rawQuery, tc.want)
				}
			}
		}
	}
}

// TestQueryArraysAndObjectsNeedingEscaping: each style × explode with
// items and keys that need escaping, including each style's own
// delimiter inside a value.
func TestQueryArraysAndObjectsNeedingEscaping(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	list := []string{"a b", "c,d", "e|f", "g&h"}
	type kv struct {
		K1 string `json:"k 1"`
		K2 bool   `json:"k&2"`
	}
	obj := kv{"v=1", true}
	for _, tc := range []struct {
		style   Style
		explode bool
		value   any
		want    string
	}{
		{Form, false, list, "c=a%20b,c%2Cd,e%7Cf,g%26h"},
		{Form, true, list, "c=a%20b&c=c%2Cd&c=e%7Cf&c=g%26h"},
		{SpaceDelimited, false, list, "c=a%20b%20c%2Cd%20e%7Cf%20g%26h"},
		{SpaceDelimited, true, list, "c=a%20b&c=c%2Cd&c=e%7Cf&c=g%26h"},
		{PipeDelimited, false, list, "c=a%20b%7Cc%2Cd%7Ce%7Cf%7Cg%26h"},
		{PipeDelimited, true, list, "c=a%20b&c=c%2Cd&c=e%7Cf&c=g%26h"},
		{DeepObject, true, list, "c%5B0%5D=a%20b&c%5B1%5D=c%2Cd&c%5B2%5D=e%7Cf&c%5B3%5D=g%26h"},
		{DeepObject, false, list, "c%5B0%5D=a%20b&c%5B1%5D=c%2Cd&c%5B2%5D=e%7Cf&c%5B3%5D=g%26h"},
		{Form, false, obj, "c=k%201,v%3D1,k%262,true"},
		{Form, true, obj, "k%201=v%3D1&k%262=true"},
		{SpaceDelimited, false, obj, "c=k%201%20v%3D1%20k%262%20true"},
		{PipeDelimited, false, obj, "c=k%201%7Cv%3D1%7Ck%262%7Ctrue"},
		{PipeDelimited, true, obj, "k%201=v%3D1&k%262=true"},
		{DeepObject, true, obj, "c%5Bk%201%5D=v%3D1&c%5Bk%262%5D=true"},
		{Form, false, []float64{1.5, -2}, "c=1.5,-2"},
		{Form, false, []bool{true, false}, "c=true,false"},
		{DeepObject, true, map[string]any{"a": []any{map[string]any{"b": "x y"}}}, "c%5Ba%5D%5B0%5D%5Bb%5D=x%20y"},
		{DeepObject, true, map[string]any{"a": nil, "b": "1"}, "c%5Bb%5D=1"},
		{Form, false, map[string]any{"a": nil}, ""},
	} {
		r := NewRequest("GET", "/x")
		r.QueryStyle("c", tc.style, tc.explode, tc.value)
		if err := c.Call(context.Background(), r, nil); err != nil {
			t.Fatalf("%s explode=%v %v: %v", tc.style, tc.explode, tc.value, err)
		}
		if got.rawQuery != tc.want {
			t.Errorf("%s explode=%v %v: query %s, want %s", tc.style, tc.explode, tc.value, got.rawQuery, tc.want)
		}
	}
	// A name that needs escaping is escaped once, in every form.
	for _, tc := range []struct {
		style   Style
		explode bool
		want    string
	}{
		{Form, false, "a%20b=x,y"},
		{Form, true, "a%20b=x&a%20b=y"},
		{SpaceDelimited, false, "a%20b=x%20y"},
		{PipeDelimited, false, "a%20b=x%7Cy"},
		{DeepObject, true, "a%20b%5B0%5D=x&a%20b%5B1%5D=y"},
	} {
		r := NewRequest("GET", "/x")
		r.QueryStyle("a b", tc.style, tc.explode, []string{"x", "y"})
		if err := c.Call(context.Background(), r, nil); err != nil || got.rawQuery != tc.want {
			t.Errorf("%s explode=%v, name \"a b\": query %s (%v), want %s", tc.style, tc.explode, got.rawQuery, err, tc.want)
		}
	}
}

// TestHeadersAndCookiesExact: a header's value is sent as written (an
// array comma-separated), a nil pointer sets nothing, Accept is always
// application/json and Content-Type only with a body; cookies in the order
// added.
func TestHeadersAndCookiesExact(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	var none *string
	r := NewRequest("GET", "/x")
	r.Header("X-Text", "a b, c;d=e")
	r.Header("X-List", []string{"a b", "c"})
	r.Header("X-Ints", []int{1, -2})
	r.Header("X-Bool", false)
	r.Header("X-Float", 0.5)
	r.Header("X-None", none)
	r.Header("x-lower", "v")
	r.Cookie("a", "1")
	r.Cookie("b", []string{"x", "y"})
	r.Cookie("c", none)
	r.Cookie("d", 3)
	if err := c.Call(context.Background(), r, nil); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"X-Text":  "a b, c;d=e",
		"X-List":  "a b,c",
		"X-Ints":  "1,-2",
		"X-Bool":  "false",
		"X-Float": "0.5",
		"X-Lower": "v",
		"Accept":  "application/json",
		// net/http quotes a cookie value holding a comma (RFC 6265 allows
		// the quotes; servers strip them).
		"Cookie":       `a=1; b="x,y"; d=3`,
		"Content-Type": "",
	} {
		if vs := got.header.Values(name); want == "" && len(vs) != 0 || want != "" && (len(vs) != 1 || vs[0] != want) {
			t.Errorf("header %s = %q, want %q", name, vs, want)
		}
	}
	if _, ok := got.header["X-None"]; ok {
		t.Errorf("a nil header was sent: %q", got.header["X-None"])
	}
}

// TestAPIKeyPlacesExact: the key goes in its header, as the last query
// parameter (escaped, replacing one of its name the call had, the others
// kept in order and encoding) or as a cookie after the call's own.
func TestAPIKeyPlacesExact(t *testing.T) {
	const key = "k+y/=%~"
	t.Setenv("TEST_API_KEY", key)
	srv, got := recorder(t, 200, `{}`)
	build := func() *Request {
		r := NewRequest("GET", "/x")
		r.Query("a", "1 2")
		r.Query("api key", "old")
		r.Query("b", "3")
		r.Cookie("s", "v")
		return r
	}
	for _, tc := range []struct {
		auth              Auth
		query, cookie, hd string
	}{
		{&APIKey{In: "query", Name: "api key", Env: "TEST_API_KEY"}, "a=1%202&b=3&api%20key=k%2By%2F%3D%25~", "s=v", ""},
		{&APIKey{In: "query", Name: "token", Env: "TEST_API_KEY"}, "a=1%202&api%20key=old&b=3&token=k%2By%2F%3D%25~", "s=v", ""},
		{&APIKey{In: "header", Name: "X-Api-Key", Env: "TEST_API_KEY"}, "a=1%202&api%20key=old&b=3", "s=v", key},
		{&APIKey{In: "cookie", Name: "key", Env: "TEST_API_KEY"}, "a=1%202&api%20key=old&b=3", "s=v; key=k+y/=%~", ""},
	} {
		c := newClient(t, Config{BaseURL: srv.URL, Auth: tc.auth})
		if err := c.Call(context.Background(), build(), nil); err != nil {
			t.Fatalf("%+v: %v", tc.auth, err)
		}
		if got.rawQuery != tc.query || got.header.Get("Cookie") != tc.cookie || got.header.Get("X-Api-Key") != tc.hd {
			t.Errorf("%+v: query %s, cookie %q, X-Api-Key %q; want %s, %q, %q", tc.auth, got.rawQuery, got.header.Get("Cookie"), got.header.Get("X-Api-Key"), tc.query, tc.cookie, tc.hd)
		}
	}
	t.Setenv("TEST_TOKEN", "t.o-k_en")
	c := newClient(t, Config{BaseURL: srv.URL, Auth: &Bearer{Env: "TEST_TOKEN"}})
	if err := c.Call(context.Background(), NewRequest("GET", "/x"), nil); err != nil || got.header.Get("Authorization") != "Bearer t.o-k_en" {
		t.Errorf("bearer: Authorization %q (%v)", got.header.Get("Authorization"), err)
	}
	c = newClient(t, Config{BaseURL: srv.URL, Auth: &APIKey{In: "path", Name: "k", Env: "TEST_API_KEY"}})
	if err := c.Call(context.Background(), NewRequest("GET", "/x"), nil); err == nil || err.Error() != `upstream GET /x: API key: in must be header, query or cookie, not "path"` {
		t.Errorf("an unknown place: %v", err)
	}
	c = newClient(t, Config{BaseURL: srv.URL, Auth: &Bearer{Env: "TEST_UNSET_TOKEN"}})
	if err := c.Call(context.Background(), NewRequest("GET", "/x"), nil); err == nil || err.Error() != "upstream GET /x: environment variable TEST_UNSET_TOKEN is not set (the upstream API's credentials)" {
		t.Errorf("an unset variable: %v", err)
	}
}

// TestStatusErrorTextExact: the method, the path template (not the filled
// path), the status and the body's start on one line, its spacing
// collapsed and invalid UTF-8 replaced.
func TestStatusErrorTextExact(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   string
	}{
		{404, "", "upstream GET /pets/{id} answered 404 Not Found"},
		{404, "  \n\t ", "upstream GET /pets/{id} answered 404 Not Found"},
		{400, "{\n  \"error\":  \"bad\tid\"\n}\n", `upstream GET /pets/{id} answered 400 Bad Request: { "error": "bad id" }`},
		{500, "a\xffb", "upstream GET /pets/{id} answered 500 Internal Server Error: a\uFFFDb"},
		{418, "x", "upstream GET /pets/{id} answered 418 I'm a teapot: x"},
	} {
		srv, _ := recorder(t, tc.status, tc.body)
		c := newClient(t, Config{BaseURL: srv.URL})
		r := NewRequest("GET", "/pets/{id}")
		r.Path("id", "a b")
		err := c.Call(context.Background(), r, nil)
		se, ok := errors.AsType[*StatusError](err)
		if !ok || err.Error() != tc.want || se.StatusCode != tc.status || se.Method != "GET" || se.Path != "/pets/{id}" {
			t.Errorf("%d %q: %v, want %q", tc.status, tc.body, err, tc.want)
		}
	}
}
