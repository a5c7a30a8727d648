package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

type AppConfig struct {
	Theme string `json:"theme"`
	Beta  bool   `json:"beta"`
}

// rawResource is a resource whose handler returns res and err as given.
func rawResource(uri string, res *runtime.ReadResourceResult, err error) runtime.Resource {
	return runtime.Resource{URI: uri, Handler: func(context.Context, *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return res, err
	}}
}

func staticServer(t *testing.T, opts ...runtime.Option) (*runtime.Server, *client) {
	t.Helper()
	srv := runtime.NewServer(testInfo(), opts...)
	size := int64(48)
	prio := 0.8
	srv.AddResource(runtime.TypedResource(runtime.Resource{
		URI: "test://static-text", Name: "static-text", Title: "Static text", Description: "A text resource.",
		Annotations: &runtime.Annotations{Audience: []string{"user"}, Priority: &prio},
		Icons:       []runtime.Icon{{Src: "https://x/i.png"}}, Meta: json.RawMessage(`{ "k": 1 }`),
	}, func(context.Context) (string, error) { return "This is the content of the static text resource.", nil }))
	srv.AddResource(runtime.TypedResource(runtime.Resource{URI: "test://static-binary", MimeType: "image/png", Size: &size},
		func(context.Context) ([]byte, error) { return []byte("\x89PNG"), nil }))
	srv.AddResource(runtime.TypedResource(runtime.Resource{URI: "config://app"},
		func(context.Context) (*AppConfig, error) { return &AppConfig{Theme: "dark <b>", Beta: true}, nil }))
	srv.AddResource(runtime.TypedResource(runtime.Resource{URI: "multi://both", MimeType: "text/markdown"},
		func(context.Context) ([]runtime.ResourceContents, error) {
			return []runtime.ResourceContents{{Text: "# one"}, {URI: "multi://other", MimeType: "text/plain", Text: "two"}}, nil
		}))
	c := serve(t, srv)
	c.initialize()
	return srv, c
}

func TestResourcesListWire(t *testing.T) {
	_, c := staticServer(t)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`)
	want := `{"jsonrpc":"2.0","id":1,"result":{"resources":[` +
		`{"uri":"test://static-text","name":"static-text","title":"Static text","description":"A text resource.",` +
		`"annotations":{"audience":["user"],"priority":0.8},"icons":[{"src":"https://x/i.png"}],"_meta":{"k":1}},` +
		`{"uri":"test://static-binary","name":"test://static-binary","mimeType":"image/png","size":48},` +
		`{"uri":"config://app","name":"config://app"},` +
		`{"uri":"multi://both","name":"multi://both","mimeType":"text/markdown"}]}}`
	if got := c.recv(); got != want {
		t.Errorf("resources/list:\n got %s\nwant %s", got, want)
	}
	// No templates: an empty list, since resources are offered.
	c.send(`{"jsonrpc":"2.0","id":2,"method":"resources/templates/list","params":{}}`)
	if got, want := c.recv(), `{"jsonrpc":"2.0","id":2,"result":{"resourceTemplates":[]}}`; got != want {
		t.Errorf("resources/templates/list:\n got %s\nwant %s", got, want)
	}
}

func TestResourcesPagination(t *testing.T) {
	srv := runtime.NewServer(testInfo(), runtime.WithPageSize(2))
	var uris []string
	for i := range 5 {
		uri := fmt.Sprintf("test://r%d", i)
		uris = append(uris, uri)
		srv.AddResource(runtime.TypedResource(runtime.Resource{URI: uri}, func(context.Context) (string, error) { return "x", nil }))
		srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: fmt.Sprintf("t%d://{id}", i), Name: fmt.Sprintf("t%d", i),
			Handler: func(context.Context, *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
				return nil, nil
			}})
	}
	c := serve(t, srv)
	c.initialize()
	for _, tc := range []struct {
		method, field, key string
		want               []string
	}{
		{"resources/list", "resources", "uri", uris},
		{"resources/templates/list", "resourceTemplates", "name", []string{"t0", "t1", "t2", "t3", "t4"}},
	} {
		var got []string
		var cursor any
		for pages := 0; ; pages++ {
			if pages > 3 {
				t.Fatalf("%s: pagination does not end", tc.method)
			}
			var params any
			if cursor != nil {
				params = map[string]any{"cursor": cursor}
			}
			var page map[string]json.RawMessage
			if err := json.Unmarshal(c.result(tc.method, params), &page); err != nil {
				t.Fatal(err)
			}
			var items []map[string]any
			if err := json.Unmarshal(page[tc.field], &items); err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				got = append(got, it[tc.key].(string))
			}
			if page["nextCursor"] == nil {
				break
			}
			cursor = json.RawMessage(page["nextCursor"])
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s across pages (-want +got):\n%s", tc.method, diff)
		}
		if r := c.request(tc.method, map[string]any{"cursor": "nope"}); r.Error == nil || r.Error.Code != runtime.CodeInvalidParams {
			t.Errorf("%s with a bad cursor: %+v", tc.method, r)
		}
	}
}

func TestResourcesReadTyped(t *testing.T) {
	_, c := staticServer(t)
	for _, tc := range []struct{ uri, want string }{
		{"test://static-text", `{"contents":[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]}`},
		{"test://static-binary", `{"contents":[{"uri":"test://static-binary","mimeType":"image/png","blob":"iVBORw=="}]}`},
		{"config://app", `{"contents":[{"uri":"config://app","mimeType":"application/json","text":"{\"theme\":\"dark \\u003cb\\u003e\",\"beta\":true}"}]}`},
		{"multi://both", `{"contents":[{"uri":"multi://both","mimeType":"text/markdown","text":"# one"},{"uri":"multi://other","mimeType":"text/plain","text":"two"}]}`},
	} {
		c.send(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + tc.uri + `"}}`)
		if got, want := c.recv(), `{"jsonrpc":"2.0","id":1,"result":`+tc.want+`}`; got != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.uri, got, want)
		}
	}
}

// TestResourceResultKinds calls TypedResource handlers directly: what each
// kind of value becomes.
func TestResourceResultKinds(t *testing.T) {
	type result struct {
		json string
		err  error
	}
	read := func(r runtime.Resource) result {
		res, err := r.Handler(context.Background(), &runtime.ReadResourceRequest{URI: r.URI})
		if err != nil {
			return result{err: err}
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return result{json: string(b)}
	}
	typed := func(mime string, v any) runtime.Resource {
		return runtime.TypedResource(runtime.Resource{URI: "k://v", MimeType: mime}, func(context.Context) (any, error) { return v, nil })
	}
	var nilConfig *AppConfig
	for _, tc := range []struct {
		name string
		r    runtime.Resource
		want result
	}{
		{"string, declared type", typed("text/markdown", "# hi"), result{json: `{"contents":[{"uri":"k://v","mimeType":"text/markdown","text":"# hi"}]}`}},
		{"empty string is content", typed("", ""), result{json: `{"contents":[{"uri":"k://v","mimeType":"text/plain","text":""}]}`}},
		{"bytes, default type", typed("", []byte{1, 2}), result{json: `{"contents":[{"uri":"k://v","mimeType":"application/octet-stream","blob":"AQI="}]}`}},
		{"nil bytes are an empty blob", typed("", []byte(nil)), result{json: `{"contents":[{"uri":"k://v","mimeType":"application/octet-stream","blob":""}]}`}},
		{"raw JSON", typed("", json.RawMessage(`[1, 2]`)), result{json: `{"contents":[{"uri":"k://v","mimeType":"application/json","text":"[1,2]"}]}`}},
		{"struct, declared type", typed("application/vnd.app+json", AppConfig{Theme: "t"}), result{json: `{"contents":[{"uri":"k://v","mimeType":"application/vnd.app+json","text":"{\"theme\":\"t\",\"beta\":false}"}]}`}},
		{"one contents", typed("text/csv", runtime.ResourceContents{Text: "a,b"}), result{json: `{"contents":[{"uri":"k://v","mimeType":"text/csv","text":"a,b"}]}`}},
		{"no contents", typed("", []runtime.ResourceContents{}), result{err: runtime.ErrResourceNotFound}},
		{"nil pointer", typed("", nilConfig), result{err: runtime.ErrResourceNotFound}},
		{"nil", typed("", nil), result{err: runtime.ErrResourceNotFound}},
		{"unencodable", typed("", map[string]any{"f": func() {}}), result{err: errors.New(`the contents of resource "k://v" cannot be encoded as JSON: json: unsupported type: func()`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := read(tc.r)
			if got.json != tc.want.json || fmt.Sprint(got.err) != fmt.Sprint(tc.want.err) {
				t.Errorf("got %s %v\nwant %s %v", got.json, got.err, tc.want.json, tc.want.err)
			}
		})
	}
	// The caller's contents are not modified when filled in.
	mine := []runtime.ResourceContents{{Text: "x"}}
	read(runtime.TypedResource(runtime.Resource{URI: "k://v"}, func(context.Context) ([]runtime.ResourceContents, error) { return mine, nil }))
	if mine[0].URI != "" {
		t.Error("TypedResource modified the handler's slice")
	}
}

func TestResourcesReadErrors(t *testing.T) {
	logs, logOpt := newLog()
	srv := runtime.NewServer(testInfo(), logOpt)
	srv.AddResource(rawResource("err://plain", nil, errors.New("the database is down")))
	srv.AddResource(rawResource("err://protocol", nil, fmt.Errorf("wrapped: %w", &runtime.Error{Code: runtime.CodeInvalidParams, Message: "bad", Data: 7})))
	srv.AddResource(rawResource("err://gone", nil, runtime.ErrResourceNotFound))
	srv.AddResource(rawResource("err://gone-why", nil, fmt.Errorf("%w: post 7 was deleted", runtime.ErrResourceNotFound)))
	srv.AddResource(rawResource("err://nil", nil, nil))
	srv.AddResource(rawResource("err://empty", &runtime.ReadResourceResult{}, nil))
	srv.AddResource(rawResource("err://unencodable", &runtime.ReadResourceResult{Contents: []runtime.ResourceContents{{URI: "x:y", Meta: json.RawMessage(`{`)}}}, nil))
	srv.AddResource(runtime.Resource{URI: "err://panic", Handler: func(context.Context, *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		panic("secret in panic")
	}})
	c := serve(t, srv)
	c.initialize()
	for _, tc := range []struct{ params, want string }{
		{`{"uri":"err://plain"}`, `{"code":-32603,"message":"the database is down"}`},
		{`{"uri":"err://protocol"}`, `{"code":-32602,"message":"bad","data":7}`},
		{`{"uri":"err://gone"}`, `{"code":-32002,"message":"resource not found: \"err://gone\"","data":{"uri":"err://gone"}}`},
		{`{"uri":"err://gone-why"}`, `{"code":-32002,"message":"resource not found: post 7 was deleted","data":{"uri":"err://gone-why"}}`},
		{`{"uri":"err://nil"}`, `{"code":-32002,"message":"resource not found: \"err://nil\"","data":{"uri":"err://nil"}}`},
		{`{"uri":"err://empty"}`, `{"code":-32002,"message":"resource not found: \"err://empty\"","data":{"uri":"err://empty"}}`},
		{`{"uri":"err://unencodable"}`, `{"code":-32603,"message":"internal error: the result could not be encoded"}`},
		{`{"uri":"err://panic"}`, `{"code":-32603,"message":"internal error reading resource \"err://panic\""}`},
		{`{"uri":"nothing://here?a=1&b=2"}`, `{"code":-32002,"message":"resource not found: \"nothing://here?a=1&b=2\"","data":{"uri":"nothing://here?a=1&b=2"}}`},
		// Malformed requests.
		{``, `{"code":-32602,"message":"invalid params: resources/read takes an object with \"uri\""}`},
		{`[]`, `{"code":-32602,"message":"invalid params: resources/read takes an object with \"uri\""}`},
		{`{}`, `{"code":-32602,"message":"invalid params: \"uri\" must be a string"}`},
		{`{"uri":5}`, `{"code":-32602,"message":"invalid params: \"uri\" must be a string"}`},
		{`{"uri":"err://plain","_meta":[]}`, `{"code":-32602,"message":"invalid params: \"_meta\" must be a JSON object"}`},
		{`{"uri":"no-scheme"}`, `{"code":-32602,"message":"invalid params: \"uri\" must be an absolute URI such as file:///notes.txt (got \"no-scheme\")"}`},
		{`{"uri":"://x"}`, `{"code":-32602,"message":"invalid params: \"uri\" must be an absolute URI such as file:///notes.txt (got \"://x\")"}`},
		{`{"uri":"1x://y"}`, `{"code":-32602,"message":"invalid params: \"uri\" must be an absolute URI such as file:///notes.txt (got \"1x://y\")"}`},
		{`{"uri":"x://h/100%"}`, `{"code":-32602,"message":"invalid params: \"uri\" must be an absolute URI such as file:///notes.txt (got \"x://h/100%\")"}`},
		{`{"uri":"x://h/%zz"}`, `{"code":-32602,"message":"invalid params: \"uri\" must be an absolute URI such as file:///notes.txt (got \"x://h/%zz\")"}`},
		{`{"uri":"x://h/\u0085"}`, `{"code":-32602,"message":"invalid params: \"uri\" must be an absolute URI such as file:///notes.txt (got \"x://h/\\u0085\")"}`},
		// A NUL (or any control byte) is never echoed raw: quote escapes it,
		// and the JSON encoding escapes the backslash.
		{`{"uri":"file:///a\u0000b\u001b[31m"}`, `{"code":-32602,"message":"invalid params: \"uri\" must be an absolute URI such as file:///notes.txt (got \"file:///a\\u0000b\\u001b[31m\")"}`},
		{`{"uri":"x://` + strings.Repeat("a", 300) + `\n"}`, `{"code":-32602,"message":"invalid params: \"uri\" must be an absolute URI such as file:///notes.txt (got \"x://` + strings.Repeat("a", 96) + `…\")"}`},
	} {
		params := ""
		if tc.params != "" {
			params = `,"params":` + tc.params
		}
		c.send(`{"jsonrpc":"2.0","id":"r","method":"resources/read"` + params + `}`)
		if got, want := c.recv(), `{"jsonrpc":"2.0","id":"r","error":`+tc.want+`}`; got != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.params, got, want)
		}
	}
	if l := logs.String(); !contains(l, "resource handler panicked") || !contains(l, "secret in panic") || !contains(l, "resources_test.go") {
		t.Errorf("the panic and its stack are not logged:\n%s", l)
	}
}

func TestResourcesReadMeta(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	got := make(chan string, 1)
	srv.AddResource(runtime.Resource{URI: "m://x", Handler: func(_ context.Context, req *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		got <- req.URI + " " + string(req.Meta)
		return &runtime.ReadResourceResult{Contents: []runtime.ResourceContents{{URI: req.URI, Text: "t"}}, Meta: json.RawMessage(`{"trace": "t1"}`)}, nil
	}})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"m://x","_meta":{"progressToken":"p"}}}`)
	if line, want := c.recv(), `{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"m://x","text":"t"}],"_meta":{"trace":"t1"}}}`; line != want {
		t.Errorf("response:\n got %s\nwant %s", line, want)
	}
	if s := <-got; s != `m://x {"progressToken":"p"}` {
		t.Errorf("request seen by the handler: %s", s)
	}
}

func TestResourcesReadCancelled(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	started := make(chan struct{})
	srv.AddResource(runtime.Resource{URI: "slow://x", Handler: func(ctx context.Context, _ *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"slow://x"}}`)
	<-started
	c.notify("notifications/cancelled", map[string]any{"requestId": 9})
	if err := c.closeInput(); err != nil {
		t.Fatal(err)
	}
	if rest := c.rest(); len(rest) != 0 {
		t.Errorf("a cancelled read was answered: %q", rest)
	}
}

func TestWithoutResources(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("echo"))
	c := serve(t, srv)
	c.initialize()
	for _, m := range []string{"resources/list", "resources/templates/list", "resources/read", "resources/subscribe", "prompts/list", "prompts/get", "completion/complete"} {
		if r := c.request(m, map[string]any{"uri": "x://y", "name": "p"}); r.Error == nil || r.Error.Code != runtime.CodeMethodNotFound {
			t.Errorf("%s on a server without any: %+v", m, r)
		}
	}
}

func TestAddResourcePanics(t *testing.T) {
	h := func(context.Context, *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return nil, nil
	}
	for _, tc := range []struct {
		name string
		add  func(*runtime.Server)
		want string
	}{
		{"no URI", func(s *runtime.Server) { s.AddResource(runtime.Resource{Handler: h}) }, "no URI"},
		{"relative URI", func(s *runtime.Server) { s.AddResource(runtime.Resource{URI: "notes.txt", Handler: h}) }, "absolute URI"},
		{"nil handler", func(s *runtime.Server) { s.AddResource(runtime.Resource{URI: "a://b"}) }, "nil Handler"},
		{"duplicate", func(s *runtime.Server) { s.AddResource(runtime.Resource{URI: "dup://x", Handler: h}) }, "already registered"},
		{"meta", func(s *runtime.Server) {
			s.AddResource(runtime.Resource{URI: "a://b", Handler: h, Meta: json.RawMessage(`1`)})
		}, "must be a JSON object"},
		{"template does not parse", func(s *runtime.Server) {
			s.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "a://{b", Handler: h})
		}, "does not parse"},
		{"template no URITemplate", func(s *runtime.Server) { s.AddResourceTemplate(runtime.ResourceTemplate{Handler: h}) }, "no URITemplate"},
		{"template nil handler", func(s *runtime.Server) { s.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "a://{b}"}) }, "nil Handler"},
		{"template duplicate name", func(s *runtime.Server) {
			s.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "other://{b}", Name: "dup", Handler: h})
		}, `named "dup" is already registered`},
		{"template duplicate default name", func(s *runtime.Server) {
			s.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "dup://{x}", Handler: h})
			s.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "dup://{x}", Handler: h})
		}, "already registered"},
		{"template reserved operator", func(s *runtime.Server) {
			s.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "a://{=b}", Handler: h})
		}, "does not parse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := runtime.NewServer(testInfo())
			srv.AddResource(runtime.Resource{URI: "dup://x", Handler: h})
			srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "dup://{id}/x", Name: "dup", Handler: h})
			defer func() {
				if v := recover(); v == nil || !contains(fmt.Sprint(v), tc.want) {
					t.Errorf("panic %v, want one mentioning %q", v, tc.want)
				}
			}()
			tc.add(srv)
		})
	}
}

func TestRemoveAndAccessors(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	h := func(context.Context, *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return nil, nil
	}
	srv.AddResource(runtime.Resource{URI: "a://1", Handler: h})
	srv.AddResource(runtime.Resource{URI: "a://2", Name: "two", Handler: h})
	srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "t://{x}", Handler: h})
	srv.AddTool(echoTool("t1"))
	srv.AddTool(echoTool("t2"))
	if got := srv.Resources(); len(got) != 2 || got[0].Name != "a://1" || got[1].Name != "two" {
		t.Errorf("Resources() = %+v", got)
	}
	if got := srv.ResourceTemplates(); len(got) != 1 || got[0].Name != "t://{x}" {
		t.Errorf("ResourceTemplates() = %+v", got)
	}
	if !srv.RemoveResource("a://1") || srv.RemoveResource("a://1") || srv.RemoveResource("a://9") {
		t.Error("RemoveResource: wrong reports")
	}
	if !srv.RemoveResourceTemplate("t://{x}") || srv.RemoveResourceTemplate("t://{x}") {
		t.Error("RemoveResourceTemplate: wrong reports")
	}
	if !srv.RemoveTool("t1") || srv.RemoveTool("t1") {
		t.Error("RemoveTool: wrong reports")
	}
	if got := srv.Resources(); len(got) != 1 || got[0].URI != "a://2" {
		t.Errorf("after removal, Resources() = %+v", got)
	}
	if got := srv.Tools(); len(got) != 1 || got[0].Name != "t2" {
		t.Errorf("after removal, Tools() = %+v", got)
	}
	// A removed name can be registered again; it goes last.
	srv.AddTool(echoTool("t1"))
	if got := srv.Tools(); len(got) != 2 || got[1].Name != "t1" {
		t.Errorf("re-added, Tools() = %+v", got)
	}
	c := serve(t, srv)
	c.initialize()
	r := c.request("tools/call", map[string]any{"name": "t1"})
	if r.Error != nil {
		t.Errorf("re-added tool: %+v", r.Error)
	}
	srv.RemoveTool("t2")
	if got, want := c.recv(), `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`; got != want {
		t.Errorf("after RemoveTool: %s, want %s", got, want)
	}
	if r := c.request("tools/call", map[string]any{"name": "t2"}); r.Error == nil || r.Error.Message != `unknown tool "t2"` {
		t.Errorf("removed tool: %+v", r)
	}
}
