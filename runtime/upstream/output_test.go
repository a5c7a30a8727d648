package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestCallOutputChecksTheAnswer: an answer missing a required property,
// or with one of the wrong type, is an *OutputError naming the property
// (not a zero value, not encoding/json's words for the Go type); a
// property the schema does not know is dropped, as decoding drops it.
func TestCallOutputChecksTheAnswer(t *testing.T) {
	schema := NewOutput(json.RawMessage(`{"type":"object","properties":{
		"obscured":{"type":"string"},
		"count":{"type":"integer","format":"int32"},
		"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}},
		"required":["obscured"],"additionalProperties":false}`))
	type item struct {
		ID int64 `json:"id"`
	}
	type output struct {
		Obscured string `json:"obscured"`
		Count    int32  `json:"count"`
		Items    []item `json:"items"`
	}
	for _, tc := range []struct {
		answer string
		want   string // "" is no error
	}{
		{`{"obscured":"x","count":2}`, ""},
		{`{"obscured":"x","extra":{"a":1}}`, ""},
		{`{"count":2}`, "- /obscured: is required but missing"},
		{`{"obscured":5}`, "- /obscured: must be"},
		{`{"obscured":"x","items":[{"id":1},{}]}`, "- /items/1/id: is required but missing"},
		{`{"obscured":"x","count":3000000000}`, "- /count:"},
	} {
		srv, _ := recorder(t, 200, tc.answer)
		c := newClient(t, Config{BaseURL: srv.URL})
		var out output
		err := c.CallOutput(context.Background(), NewRequest("GET", "/x"), schema, &out)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.answer, err)
		case tc.want != "":
			oe, ok := errors.AsType[*OutputError](err)
			if !ok || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "upstream GET /x: the answer does not match the tool's output schema:") {
				t.Errorf("%s: err = %v (%T), want an OutputError with %q", tc.answer, err, err, tc.want)
			} else if strings.Contains(oe.Error(), "Go struct") || strings.Contains(oe.Error(), "unmarshal") {
				t.Errorf("%s: Go internals in %q", tc.answer, oe)
			}
		}
	}
}
