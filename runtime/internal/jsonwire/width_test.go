package jsonwire

import (
	"strings"
	"testing"
)

func TestWidth(t *testing.T) {
	const unbounded = 1 << 30
	for _, tc := range []struct {
		json           string
		values, widest int
	}{
		{`1`, 1, 0},
		{`{}`, 1, 0},
		{`[]`, 1, 0},
		{`{"a":1}`, 2, 1},
		{`{"a":1,"b":[1,2,3],"c":{}}`, 7, 3},
		{`[{"a":1,"b":2},{"c":3}]`, 6, 2},
		{`{"a,b":"{[,]}","c":"\",\\"}`, 3, 2}, // punctuation inside strings is not counted
		{` { "a" : [ ] , "b" : { "c" : null } } `, 4, 2},
		{`[[[[1,2]]]]`, 6, 0},
	} {
		values, widest := Width([]byte(tc.json), unbounded, unbounded)
		if values != tc.values || widest != tc.widest {
			t.Errorf("Width(%s) = %d values, widest %d; want %d, %d", tc.json, values, widest, tc.values, tc.widest)
		}
	}
	// Counting stops past a limit.
	wide := "{" + strings.Repeat(`"k":1,`, 999) + `"k":1}`
	if values, widest := Width([]byte(wide), unbounded, 10); widest != 11 || values > 30 {
		t.Errorf("stopped at %d values, widest %d; want widest 11", values, widest)
	}
	deep := strings.Repeat("[", 500) + strings.Repeat("]", 500)
	if values, _ := Width([]byte(deep), unbounded, unbounded); values != 500 {
		t.Errorf("500 nested arrays: %d values", values)
	}
}

// BenchmarkWidth is what counting costs every incoming message:
//
//	go test ./runtime/internal/jsonwire -run '^$' -bench Width
func BenchmarkWidth(b *testing.B) {
	for _, tc := range []struct{ name, json string }{
		{"tools-call-150B", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, world","count":3,"tags":["a","b"]}}}`},
		{"text-1MiB", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + strings.Repeat("x", 1<<20) + `"}}}`},
		{"members-300k", "{" + strings.Repeat(`"k":{},`, 300000) + `"k":{}}`},
	} {
		data := []byte(tc.json)
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for range b.N {
				Width(data, 1<<30, 1<<30)
			}
		})
	}
}
