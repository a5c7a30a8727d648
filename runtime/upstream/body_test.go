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

// TestMultipartFiles: a file field's base64 value goes decoded, as a file
// part named after the field, byte for byte; other fields as text; a
// value that is not base64 fails the call, naming the field.
func TestMultipartFiles(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	r := NewRequest("POST", "/upload")
	r.Multipart()
	r.Files("file", "more")
	r.BodyField("title", "a")
	r.BodyField("file", "AAH/gA==") // 00 01 ff 80
	r.BodyField("more", []string{"aGk"})
	if err := c.Call(context.Background(), r, nil); err != nil {
		t.Fatal(err)
	}
	_, params, _ := mime.ParseMediaType(got.header.Get("Content-Type"))
	b := params["boundary"]
	want := "--" + b + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\na\r\n" +
		"--" + b + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"file\"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01\xff\x80\r\n" +
		"--" + b + "\r\nContent-Disposition: form-data; name=\"more\"; filename=\"more\"\r\nContent-Type: application/octet-stream\r\n\r\nhi\r\n" +
		"--" + b + "--\r\n"
	if got.body != want {
		t.Errorf("body\n%q\nwant\n%q", got.body, want)
	}
	r = NewRequest("POST", "/upload")
	r.Multipart()
	r.Files("file")
	r.BodyField("file", "not base64!")
	if err := c.Call(context.Background(), r, nil); err == nil || !strings.Contains(err.Error(), "file file is not base64") {
		t.Errorf("a file that is not base64: %v", err)
	}
}
