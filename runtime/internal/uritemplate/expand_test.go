package uritemplate

import (
	"strings"
	"testing"
)

// TestExpandRFC is RFC 6570 section 3.2, levels 1 to 3 and the
// level 4 modifiers (associative arrays are not supported).
func TestExpandRFC(t *testing.T) {
	vars := map[string]any{
		"count": []string{"one", "two", "three"}, "dom": []string{"example", "com"}, "dub": "me/too",
		"hello": "Hello World!", "half": "50%", "var": "value", "who": "fred", "base": "http://example.com/home/",
		"path": "/foo/bar", "list": []string{"red", "green", "blue"}, "v": "6", "x": "1024", "y": "768",
		"empty": "", "empty_list": []string{}, "undef": nil,
	}
	for template, want := range map[string]string{
		"{var}": "value", "{hello}": "Hello%20World%21", "{half}": "50%25", "O{empty}X": "OX", "O{undef}X": "OX",
		"{x,y}": "1024,768", "{x,hello,y}": "1024,Hello%20World%21,768", "?{x,empty}": "?1024,", "?{x,undef}": "?1024",
		"?{undef,y}": "?768", "{var:3}": "val", "{var:30}": "value", "{list}": "red,green,blue", "{list*}": "red,green,blue",
		"{+var}": "value", "{+hello}": "Hello%20World!", "{+half}": "50%25", "{base}index": "http%3A%2F%2Fexample.com%2Fhome%2Findex",
		"{+base}index": "http://example.com/home/index", "O{+empty}X": "OX", "{+path}/here": "/foo/bar/here",
		"here?ref={+path}": "here?ref=/foo/bar", "up{+path}{var}/here": "up/foo/barvalue/here",
		"{+x,hello,y}": "1024,Hello%20World!,768", "{+path,x}/here": "/foo/bar,1024/here", "{+path:6}/here": "/foo/b/here",
		"{+list}": "red,green,blue", "{#var}": "#value", "{#hello}": "#Hello%20World!", "{#half}": "#50%25",
		"foo{#empty}": "foo#", "foo{#undef}": "foo", "{#x,hello,y}": "#1024,Hello%20World!,768", "{#path,x}/here": "#/foo/bar,1024/here",
		"{#path:6}/here": "#/foo/b/here", "{#list}": "#red,green,blue", "{#list*}": "#red,green,blue",
		"{.who}": ".fred", "{.who,who}": ".fred.fred", "{.half,who}": ".50%25.fred", "www{.dom*}": "www.example.com",
		"X{.var}": "X.value", "X{.empty}": "X.", "X{.undef}": "X", "X{.var:3}": "X.val", "X{.list}": "X.red,green,blue",
		"X{.list*}": "X.red.green.blue", "X{.empty_list}": "X", "{/who}": "/fred", "{/who,who}": "/fred/fred",
		"{/half,who}": "/50%25/fred", "{/who,dub}": "/fred/me%2Ftoo", "{/var}": "/value", "{/var,empty}": "/value/",
		"{/var,undef}": "/value", "{/var,x}/here": "/value/1024/here", "{/var:1,var}": "/v/value", "{/list}": "/red,green,blue",
		"{/list*}": "/red/green/blue", "{/list*,path:4}": "/red/green/blue/%2Ffoo", "{;who}": ";who=fred",
		"{;half}": ";half=50%25", "{;empty}": ";empty", "{;v,empty,who}": ";v=6;empty;who=fred", "{;v,bar,who}": ";v=6;who=fred",
		"{;x,y}": ";x=1024;y=768", "{;x,y,empty}": ";x=1024;y=768;empty", "{;x,y,undef}": ";x=1024;y=768",
		"{;hello:5}": ";hello=Hello", "{;list}": ";list=red,green,blue", "{;list*}": ";list=red;list=green;list=blue",
		"{?who}": "?who=fred", "{?half}": "?half=50%25", "{?x,y}": "?x=1024&y=768", "{?x,y,empty}": "?x=1024&y=768&empty=",
		"{?x,y,undef}": "?x=1024&y=768", "{?var:3}": "?var=val", "{?list}": "?list=red,green,blue",
		"{?list*}": "?list=red&list=green&list=blue", "{&who}": "&who=fred", "{&half}": "&half=50%25",
		"?fixed=yes{&x}": "?fixed=yes&x=1024", "{&x,y,empty}": "&x=1024&y=768&empty=", "{&var:3}": "&var=val",
		"{&list}": "&list=red,green,blue", "{&list*}": "&list=red&list=green&list=blue", "{?undef,empty_list}": "",
		"no expression": "no expression",
	} {
		if got := mustExpand(t, template, vars); got != want {
			t.Errorf("%s: got %q, want %q", template, got, want)
		}
	}
}

func TestExpandValues(t *testing.T) {
	for _, tc := range []struct {
		template string
		vars     map[string]any
		want     string
	}{
		{"post://{id}", map[string]any{"id": int64(42)}, "post://42"},
		{"post://{id}", map[string]any{"id": -7}, "post://-7"},
		{"p://x{?ratio,draft}", map[string]any{"ratio": 0.5, "draft": true}, "p://x?ratio=0.5&draft=true"},
		{"p://x{?ratio}", map[string]any{"ratio": 1e21}, "p://x?ratio=1e%2B21"},
		// UTF-8 bytes, not code points; control bytes too.
		{"notes://{topic}", map[string]any{"topic": "café\x00"}, "notes://caf%C3%A9%00"},
		{"notes://{topic:3}", map[string]any{"topic": "éléphant"}, "notes://%C3%A9l%C3%A9"},
		{"file:///{+path}", map[string]any{"path": "a b/c%41/d%zz"}, "file:///a%20b/c%41/d%25zz"},
		{"tree://root{/segs*}", map[string]any{"segs": []string{"a/b", "c"}}, "tree://root/a%2Fb/c"},
		{"search://s{?q,lang}", map[string]any{"lang": "fr"}, "search://s?lang=fr"},
		{"search://s{?q,lang}", nil, "search://s"},
	} {
		if got := mustExpand(t, tc.template, tc.vars); got != tc.want {
			t.Errorf("%s %v: got %q, want %q", tc.template, tc.vars, got, tc.want)
		}
	}
}

// TestExpandErrors: a malformed template or a value of another type is an
// error that says what is wrong.
func TestExpandErrors(t *testing.T) {
	for _, tc := range []struct {
		template string
		vars     map[string]any
		want     string
	}{
		{"x://{id", nil, "unclosed expression"},
		{"x://{}", nil, "empty expression"},
		{"x://{=a}", nil, "reserved for future extensions"},
		{"x://{a b}", nil, "invalid variable name"},
		{"x://{a-b}", nil, "invalid variable name"},
		{"x://{a:0}", nil, "invalid prefix length"},
		{"x://{a}", map[string]any{"a": struct{}{}}, `variable "a" has unsupported type struct {}`},
	} {
		if uri, err := Expand(tc.template, tc.vars); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %q, %v; want an error mentioning %q", tc.template, uri, err, tc.want)
		}
	}
}

func mustExpand(t *testing.T, template string, vars map[string]any) string {
	t.Helper()
	uri, err := Expand(template, vars)
	if err != nil {
		t.Fatalf("%s: %v", template, err)
	}
	return uri
}
