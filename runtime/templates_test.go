package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

type PostParams struct {
	ID int64 `json:"id" jsonschema:"minimum=1"`
}

type FileParams struct {
	Path string `json:"path"`
}

type TreeParams struct {
	Segs []string `json:"segs,omitempty"`
}

type DocParams struct {
	Name string              `json:"name"`
	Ext  runtime.Opt[string] `json:"ext,omitzero"`
}

type SearchParams struct {
	Q    runtime.Opt[string] `json:"q,omitzero"`
	Lang runtime.Opt[string] `json:"lang,omitzero" jsonschema:"enum=en,enum=fr"`
}

type UserParams struct {
	Handle string `json:"handle" jsonschema:"pattern=^[a-z]+$"`
}

type PageParams struct {
	N     []int                `json:"n"`
	Ratio runtime.Opt[float64] `json:"ratio,omitzero"`
	Draft runtime.Opt[bool]    `json:"draft,omitzero"`
}

// echoParams is a typed template whose contents are its decoded params.
func echoParams[P any](uriTemplate string) runtime.ResourceTemplate {
	return runtime.TypedTemplate(runtime.ResourceTemplate{URITemplate: uriTemplate},
		func(ctx context.Context, p *P) (*P, error) { return p, nil })
}

func templateServer(t *testing.T) (*runtime.Server, *client) {
	t.Helper()
	srv := runtime.NewServer(testInfo())
	srv.AddResource(runtime.TypedResource(runtime.Resource{URI: "post://42"}, func(context.Context) (string, error) { return "the static post 42", nil }))
	srv.AddResourceTemplate(runtime.TypedTemplate(runtime.ResourceTemplate{URITemplate: "post://{id}", Name: "post", MimeType: "application/vnd.post+json"},
		func(ctx context.Context, p *PostParams) (*PostParams, error) { return p, nil }))
	srv.AddResourceTemplate(echoParams[FileParams]("file:///{+path}"))
	srv.AddResourceTemplate(echoParams[TreeParams]("tree://root{/segs*}"))
	srv.AddResourceTemplate(echoParams[DocParams]("doc://{name}/index{.ext}"))
	srv.AddResourceTemplate(echoParams[SearchParams]("search://s{?q,lang}"))
	srv.AddResourceTemplate(echoParams[UserParams]("user://{handle}"))
	srv.AddResourceTemplate(echoParams[PageParams]("page://{n}{?ratio,draft}"))
	srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "raw://{+rest}", Handler: func(_ context.Context, req *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return &runtime.ReadResourceResult{Contents: []runtime.ResourceContents{{URI: req.URI, Text: "raw handler saw " + req.URI}}}, nil
	}})
	// Registered after file:///{+path}, which matches first.
	srv.AddResourceTemplate(echoParams[FileParams]("file:///special/{path}"))
	c := serve(t, srv)
	c.initialize()
	return srv, c
}

func TestTemplatesListWire(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	prio := 1.0
	srv.AddResourceTemplate(runtime.ResourceTemplate{
		URITemplate: "github://{owner}/{repo}/readme", Name: "readme", Title: "README", Description: "A repository's readme.",
		MimeType: "text/markdown", Annotations: &runtime.Annotations{Priority: &prio}, Icons: []runtime.Icon{{Src: "i.svg"}},
		Meta: json.RawMessage(`{"a": [1]}`),
		Handler: func(context.Context, *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
			return nil, nil
		},
	})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"resources/templates/list"}`)
	want := `{"jsonrpc":"2.0","id":1,"result":{"resourceTemplates":[{"uriTemplate":"github://{owner}/{repo}/readme","name":"readme","title":"README",` +
		`"description":"A repository's readme.","mimeType":"text/markdown","annotations":{"priority":1},"icons":[{"src":"i.svg"}],"_meta":{"a":[1]}}]}}`
	if got := c.recv(); got != want {
		t.Errorf("resources/templates/list:\n got %s\nwant %s", got, want)
	}
	// Templates alone make resources/list answer, empty.
	c.send(`{"jsonrpc":"2.0","id":2,"method":"resources/list"}`)
	if got, want := c.recv(), `{"jsonrpc":"2.0","id":2,"result":{"resources":[]}}`; got != want {
		t.Errorf("resources/list:\n got %s\nwant %s", got, want)
	}
}

func TestTemplateRead(t *testing.T) {
	_, c := templateServer(t)
	notFound := func(uri, why string) string {
		msg := `resource not found: \"` + uri + `\"`
		if why != "" {
			msg += ": " + why
		}
		return `{"code":-32002,"message":"` + msg + `","data":{"uri":"` + uri + `"}}`
	}
	for _, tc := range []struct {
		uri  string
		text string // the JSON of the decoded params, or the text read
		err  string // or the error
	}{
		// {id}: one segment, typed integer.
		{uri: "post://7", text: `{"id":7}`},
		{uri: "post://007", text: `{"id":7}`},
		{uri: "post://42", text: "the static post 42"}, // static before templates
		{uri: "post://abc", err: notFound("post://abc", `variable id: must be an integer (got \"abc\")`)},
		{uri: "post://a%20b", err: notFound("post://a%20b", `variable id: must be an integer (got \"a b\")`)}, // decoded
		{uri: "post://1.5", err: notFound("post://1.5", `variable id: must be an integer (got \"1.5\")`)},
		{uri: "post://0", err: notFound("post://0", `variable id: must be greater than or equal to 1 (got 0)`)},
		{uri: "post://99999999999999999999", err: notFound("post://99999999999999999999", `variable id: is out of range (got 99999999999999999999)`)},
		{uri: "post://", err: notFound("post://", `variable id: must be an integer (got \"\")`)},
		{uri: "post://7/comments", err: notFound("post://7/comments", "")}, // {id} does not take a slash
		{uri: "post://a b", err: notFound("post://a b", "")},               // a valid URI, that no template matches
		// {+path}: slashes allowed, values decoded.
		{uri: "file:///src/a%20b/main.go", text: `{"path":"src/a b/main.go"}`},
		{uri: "file:///special/x", text: `{"path":"special/x"}`}, // the first template that matches wins
		// {/segs*}: an exploded path, an array of decoded segments.
		{uri: "tree://root/a/b%2Fc", text: `{"segs":["a","b/c"]}`},
		{uri: "tree://root/a", text: `{"segs":["a"]}`},
		{uri: "tree://root", text: `{}`},
		// {.ext}: optional label.
		{uri: "doc://readme/index.md", text: `{"name":"readme","ext":"md"}`},
		{uri: "doc://readme/index", text: `{"name":"readme"}`},
		// {?q,lang}: optional query variables, decoded, an enum.
		{uri: "search://s?q=hello%20world&lang=fr", text: `{"q":"hello world","lang":"fr"}`},
		{uri: "search://s?lang=en", text: `{"lang":"en"}`},
		{uri: "search://s?q=", text: `{"q":""}`},
		{uri: "search://s", text: `{}`},
		{uri: "search://s?lang=de", err: notFound("search://s?lang=de", `variable lang: must be one of \"en\", \"fr\" (got \"de\")`)},
		// A pattern, and a NUL decoded from %00, escaped in the message.
		{uri: "user://bob", text: `{"handle":"bob"}`},
		{uri: "user://Bob1", err: notFound("user://Bob1", `variable handle: must match pattern \"^[a-z]+$\" (got \"Bob1\")`)},
		{uri: "user://%00", err: notFound("user://%00", `variable handle: must match pattern \"^[a-z]+$\" (got \"\\u0000\")`)},
		// A list for an array of integers, a number and a boolean.
		{uri: "page://1,2,3?ratio=0.5&draft=true", text: `{"n":[1,2,3],"ratio":0.5,"draft":true}`},
		{uri: "page://4?ratio=-2e3", text: `{"n":[4],"ratio":-2000}`},
		// Numbers a float64 cannot hold are refused before validation.
		{uri: "page://4?ratio=1e999999", err: notFound("page://4?ratio=1e999999",
			`variable ratio: is out of range: numbers must be between -1.7976931348623157e308 and 1.7976931348623157e308 (got 1e999999)`)},
		{uri: "page://4?ratio=1e-400", err: notFound("page://4?ratio=1e-400",
			`variable ratio: is out of range: too close to 0 to be represented; a number other than 0 must be at least 5e-324 in magnitude (got 1e-400)`)},
		{uri: "page://1,x?ratio=1.&draft=maybe", err: notFound("page://1,x?ratio=1.&draft=maybe",
			`variable n[1]: must be an integer (got \"x\"); variable ratio: must be a number (got \"1.\"); variable draft: must be true or false (got \"maybe\")`)},
		// An untyped template gets the concrete URI.
		{uri: "raw://a/b?c", text: "raw handler saw raw://a/b?c"},
		{uri: "nomatch://x", err: notFound("nomatch://x", "")},
	} {
		t.Run(tc.uri, func(t *testing.T) {
			r := c.request("resources/read", map[string]any{"uri": tc.uri})
			if tc.err != "" {
				if got := errorJSON(r); got != tc.err {
					t.Errorf("error:\n got %s\nwant %s", got, tc.err)
				}
				return
			}
			if r.Error != nil {
				t.Fatalf("error %d %s", r.Error.Code, r.Error.Message)
			}
			var res struct {
				Contents []struct{ URI, MimeType, Text string }
			}
			if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Contents) != 1 {
				t.Fatalf("result %s", r.Result)
			}
			if got := res.Contents[0]; got.URI != tc.uri || got.Text != tc.text {
				t.Errorf("got %+v, want text %s", got, tc.text)
			}
		})
	}
	// The template's mimeType is the contents'.
	res := c.result("resources/read", map[string]any{"uri": "post://5"})
	if want := `{"contents":[{"uri":"post://5","mimeType":"application/vnd.post+json","text":"{\"id\":5}"}]}`; string(res) != want {
		t.Errorf("post://5:\n got %s\nwant %s", res, want)
	}
}

func TestTemplateLongURI(t *testing.T) {
	_, c := templateServer(t)
	long := "file:///" + strings.Repeat("a", 1017)
	r := c.request("resources/read", map[string]any{"uri": long})
	if r.Error == nil || r.Error.Code != runtime.CodeInvalidParams || r.Error.Message != "invalid params: the uri is 1025 bytes long; this server serves URIs of at most 1024 bytes" {
		t.Errorf("long URI: %+v", r.Error)
	}
	ok := "file:///" + strings.Repeat("a", 1016)
	if r := c.request("resources/read", map[string]any{"uri": ok}); r.Error != nil {
		t.Errorf("a 1 KiB URI: %+v", r.Error)
	}
}

// TestTypedTemplateDirect calls a typed template's handler without a
// session: it matches the URI itself.
func TestTypedTemplateDirect(t *testing.T) {
	tmpl := echoParams[PostParams]("post://{id}")
	res, err := tmpl.Handler(context.Background(), &runtime.ReadResourceRequest{URI: "post://12"})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(res); string(b) != `{"contents":[{"uri":"post://12","mimeType":"application/json","text":"{\"id\":12}"}]}` {
		t.Errorf("got %s", b)
	}
	for uri, want := range map[string]string{
		"other://12": "resource not found",
		"post://x":   `resource not found: "post://x": variable id: must be an integer (got "x")`,
	} {
		_, err := tmpl.Handler(context.Background(), &runtime.ReadResourceRequest{URI: uri})
		if !errors.Is(err, runtime.ErrResourceNotFound) || err.Error() != want {
			t.Errorf("%s: %v, want %s", uri, err, want)
		}
	}
}

func TestTypedTemplateHandlerErrors(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddResourceTemplate(runtime.TypedTemplate(runtime.ResourceTemplate{URITemplate: "post://{id}"},
		func(ctx context.Context, p *PostParams) (*PostParams, error) {
			switch p.ID {
			case 404:
				return nil, fmt.Errorf("%w: post %d does not exist", runtime.ErrResourceNotFound, p.ID)
			case 500:
				return nil, errors.New("the blog database is down")
			case 204:
				return nil, nil
			}
			return p, nil
		}))
	c := serve(t, srv)
	c.initialize()
	for _, tc := range []struct{ uri, want string }{
		{"post://404", `{"code":-32002,"message":"resource not found: post 404 does not exist","data":{"uri":"post://404"}}`},
		{"post://500", `{"code":-32603,"message":"the blog database is down"}`},
		{"post://204", `{"code":-32002,"message":"resource not found: \"post://204\"","data":{"uri":"post://204"}}`},
	} {
		r := c.request("resources/read", map[string]any{"uri": tc.uri})
		if got := errorJSON(r); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.uri, got, tc.want)
		}
	}
}

func TestTypedTemplatePanics(t *testing.T) {
	type Extra struct {
		ID    string `json:"id"`
		Other string `json:"other"`
	}
	type Few struct {
		Other string `json:"other,omitempty"`
	}
	read := func(context.Context, *PostParams) (string, error) { return "", nil }
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"does not parse", func() { runtime.TypedTemplate(runtime.ResourceTemplate{URITemplate: "p://{id"}, read) }, "does not parse"},
		{"variable not a field", func() {
			runtime.TypedTemplate(runtime.ResourceTemplate{URITemplate: "p://{nope}"}, func(context.Context, *Few) (string, error) { return "", nil })
		}, `variable "nope" is not a field`},
		{"required field not a variable", func() {
			runtime.TypedTemplate(runtime.ResourceTemplate{URITemplate: "p://{id}"}, func(context.Context, *Extra) (string, error) { return "", nil })
		}, `field "other"`},
		{"params not a struct", func() {
			runtime.TypedTemplate(runtime.ResourceTemplate{URITemplate: "p://{id}"}, func(context.Context, *string) (string, error) { return "", nil })
		}, "must be a struct"},
		{"template changed afterwards", func() {
			tmpl := runtime.TypedTemplate(runtime.ResourceTemplate{URITemplate: "p://{id}"}, read)
			tmpl.URITemplate = "q://{id}"
			runtime.NewServer(testInfo()).AddResourceTemplate(tmpl)
		}, "changed after TypedTemplate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if v := recover(); v == nil || !contains(fmt.Sprint(v), tc.want) {
					t.Errorf("panic %v, want one mentioning %q", v, tc.want)
				}
			}()
			tc.f()
		})
	}
}

// TestFixedTemplate: a resource registered with its FixedTemplate too is
// listed by both lists, and a read of its URI is the resource's.
func TestFixedTemplate(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	r := runtime.TypedResource(runtime.Resource{URI: "git://wd", Name: "Working directory", MimeType: "text/plain"},
		func(context.Context) (string, error) { return "/repo", nil })
	srv.AddResource(r)
	srv.AddResourceTemplate(runtime.FixedTemplate(r, "wd"))
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"resources/templates/list"}`)
	if got, want := c.recv(), `{"jsonrpc":"2.0","id":1,"result":{"resourceTemplates":[{"uriTemplate":"git://wd","name":"wd","mimeType":"text/plain"}]}}`; got != want {
		t.Errorf("templates/list:\n got %s\nwant %s", got, want)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"resources/list"}`)
	if got, want := c.recv(), `{"jsonrpc":"2.0","id":2,"result":{"resources":[{"uri":"git://wd","name":"Working directory","mimeType":"text/plain"}]}}`; got != want {
		t.Errorf("resources/list:\n got %s\nwant %s", got, want)
	}
	c.send(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"git://wd"}}`)
	if got, want := c.recv(), `{"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"git://wd","mimeType":"text/plain","text":"/repo"}]}}`; got != want {
		t.Errorf("resources/read:\n got %s\nwant %s", got, want)
	}
}
