package hostile

import (
	"strings"
	"testing"
)

// The checks are what the suites rely on: they must refuse what a server
// must never send.
func TestParse(t *testing.T) {
	good := []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"m","data":{"uri":"x"}}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`,
		`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a\nb"}],"isError":true}}`,
	}
	for _, s := range good {
		if _, err := Parse([]byte(s)); err != nil {
			t.Errorf("Parse(%s): %v", s, err)
		}
	}
	bad := []string{
		"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"result\":{}}", // not UTF-8
		"{\"jsonrpc\":\"2.0\",\"id\":1,\n\"result\":{}}",      // two lines
		`{"jsonrpc":"2.0","id":1,"result":{}`,                 // not JSON
		`[{"jsonrpc":"2.0","id":1,"result":{}}]`,              // not an object
		`{"id":1,"result":{}}`,                                // no jsonrpc
		`{"jsonrpc":"2.0","id":1,"id":2,"result":{}}`,         // duplicate key
		`{"jsonrpc":"2.0","id":1.5,"result":{}}`,              // bad id
		`{"jsonrpc":"2.0","id":1}`,                            // neither result nor error
		`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"result":[]}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"a\u0000b"}}`, // raw control character
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"a\nb"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"` + strings.Repeat("x", MaxErrorMessage+1) + `"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", MaxToolErrorText+1) + `"}],"isError":true}}`,
		`{"jsonrpc":"2.0","method":"x","params":[1]}`,
		`{"jsonrpc":"2.0","method":""}`,
	}
	for _, s := range bad {
		if _, err := Parse([]byte(s)); err == nil {
			t.Errorf("Parse(%.100s) accepted it", s)
		}
	}
}

func TestExpect(t *testing.T) {
	cases := []struct {
		msg string
		n   int
		id  string
	}{
		{`x`, 1, ""},
		{`[]`, 1, ""},
		{`{}`, 1, ""},
		{`{"jsonrpc":"2.0","id":7}`, 1, "7"},
		{`{"jsonrpc":"2.0","id":7,"result":{}}`, 0, ""},
		{`{"jsonrpc":"2.0","id":null,"error":{}}`, 0, ""},
		{`{"jsonrpc":"2.0","method":"ping"}`, 0, ""},
		{`{"jsonrpc":"2.0","id":"a","method":"ping"}`, 1, `"a"`},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, 1, ""},
		{`{"jsonrpc":"1.0","id":3,"method":"ping"}`, 1, "3"},
		{`{"jsonrpc":"2.0","id":3,"method":5}`, 1, "3"},
		{`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, 1, "2"},
	}
	for _, c := range cases {
		n, id := Expect([]byte(c.msg))
		if n != c.n || string(id) != c.id {
			t.Errorf("Expect(%s) = %d, %s; want %d, %s", c.msg, n, id, c.n, c.id)
		}
	}
}

// Every case's message is what its name says it is: the table's wants
// agree with Expect on how many responses there are (except where a
// transport refuses the message first).
func TestCasesAgreeWithExpect(t *testing.T) {
	names := map[string]bool{}
	for _, tc := range Cases() {
		if names[tc.Name] {
			t.Errorf("two cases named %q", tc.Name)
		}
		names[tc.Name] = true
		if len(tc.Send) > 5<<20 { // over the runtime's limit: refused whatever it says
			continue
		}
		n, _ := Expect([]byte(tc.Send))
		if want := 1; tc.Want.None {
			want = 0
			if n != want {
				t.Errorf("%s: Expect says %d responses, the case none", tc.Name, n)
			}
		} else if n != want && tc.Want.Code != InvalidRequest {
			t.Errorf("%s: Expect says %d responses, the case one", tc.Name, n)
		}
	}
	if len(names) < 60 {
		t.Errorf("%d cases; the suite promises at least 60", len(names))
	}
}
