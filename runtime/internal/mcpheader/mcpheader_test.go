package mcpheader

import (
	"net/http"
	"strings"
	"testing"
)

func TestDecodeValue(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"plain", "plain", true},
		{"=?base64?SGVsbG8=?=", "Hello", true},
		{"=?base64?SGVsbG8?=", "", false},                // unpadded
		{"=?base64?SGV-bG8=?=", "", false},               // URL alphabet
		{"=?base64?SGVsbG8=", "=?base64?SGVsbG8=", true}, // no suffix: literal
	} {
		if got, ok := DecodeValue(c.in); got != c.want || ok != c.ok {
			t.Errorf("DecodeValue(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestCheckParams(t *testing.T) {
	decls := []Param{{Prop: "n", Header: "Mcp-Param-N"}, {Prop: "s", Header: "Mcp-Param-S"}}
	for _, c := range []struct {
		header map[string]string
		params string
		bad    string // in the error; "" for none
	}{
		{map[string]string{"Mcp-Param-N": "1.0", "Mcp-Param-S": "=?base64?w6k=?="}, `{"arguments":{"n":1e0,"s":"é"}}`, ""},
		{map[string]string{"Mcp-Param-N": "2"}, `{"arguments":{"n":1}}`, "Mcp-Param-N is"},
		{map[string]string{}, `{"arguments":{"n":1}}`, "header is required"},
		{map[string]string{"Mcp-Param-S": "x"}, `{"arguments":{"s":null}}`, "is sent, but arguments.s is absent"},
		{map[string]string{"Mcp-Param-S": "true"}, `{"arguments":{"s":true}}`, ""},
	} {
		h := http.Header{}
		for k, v := range c.header {
			h.Set(k, v)
		}
		err := CheckParams(h, []byte(c.params), decls)
		if c.bad == "" && err != nil || c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)) {
			t.Errorf("%v %s: %v; want %q", c.header, c.params, err, c.bad)
		}
	}
}
