package upstream

import (
	"context"
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"testing"
)

// TestMultipartBody: each property a part, in order; a list one part per
// item; an object as a JSON part; an absent property no part.
func TestMultipartBody(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	r := NewRequest("POST", "/upload")
	r.Multipart()
	var none *string
	r.BodyField("name", "a \"b\"")
	r.BodyField("labels", []string{"x", "y"})
	r.BodyField("meta", map[string]any{"k": 1})
	r.BodyField("count", 3)
	r.BodyField("absent", none)
	if err := c.Call(context.Background(), r, nil); err != nil {
		t.Fatal(err)
	}
	mt, params, err := mime.ParseMediaType(got.header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("Content-Type %q: %v", got.header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(strings.NewReader(got.body), params["boundary"])
	var parts []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		parts = append(parts, p.FormName()+"="+string(b)+"|"+p.Header.Get("Content-Type"))
	}
	want := []string{`name=a "b"|`, "labels=x|", "labels=y|", `meta={"k":1}|application/json`, "count=3|"}
	if strings.Join(parts, "\n") != strings.Join(want, "\n") {
		t.Errorf("parts:\n%s\nwant:\n%s", strings.Join(parts, "\n"), strings.Join(want, "\n"))
	}
}

// TestRawBody: a string body sent as it is, with its Content-Type.
func TestRawBody(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	r := NewRequest("POST", "/markdown/raw")
	r.Raw("text/plain")
	text := "# Hello\n\n\"quoted\" <b>"
	r.Body(&text)
	if err := c.Call(context.Background(), r, nil); err != nil {
		t.Fatal(err)
	}
	if got.body != text || got.header.Get("Content-Type") != "text/plain" {
		t.Errorf("body %q (%s)", got.body, got.header.Get("Content-Type"))
	}
	r = NewRequest("POST", "/x")
	r.Raw("text/plain")
	r.Body(map[string]int{"a": 1})
	if err := c.Call(context.Background(), r, nil); err == nil || !strings.Contains(err.Error(), "a raw body must be a string") {
		t.Errorf("object as a raw body: %v", err)
	}
}
