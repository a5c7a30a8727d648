package cursor

import (
	"encoding/json"
	"testing"
)

func TestCursor(t *testing.T) {
	for off := 1; off <= 3; off++ {
		raw, _ := json.Marshal(map[string]string{"cursor": Encode(off)})
		got, err := Start(raw, 3)
		if err != nil || got != off {
			t.Errorf("cursor for %d: %d, %v", off, got, err)
		}
	}
	for _, params := range []string{
		`{"cursor":"` + Encode(4) + `"}`, // past the end
		`{"cursor":"` + Encode(0) + `"}`, // the first page has no cursor
		`{"cursor":"bWNwZ2VuLzI6MQ"}`,    // mcpgen/2:1, a format not issued
		`{"cursor":"!"}`, `{"cursor":1}`, `[]`, `{"cursor":`,
	} {
		if off, err := Start(json.RawMessage(params), 3); err == nil {
			t.Errorf("%s: offset %d accepted", params, off)
		}
	}
	for _, params := range []string{``, `null`, `{}`, `{"cursor":null}`} {
		if off, err := Start(json.RawMessage(params), 3); err != nil || off != 0 {
			t.Errorf("%s: %d, %v; want the first page", params, off, err)
		}
	}
}
