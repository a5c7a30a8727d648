package openapi

import (
	"fmt"
	"strings"
	"testing"
)

// opDoc is a description with one GET operation per operationId, each
// answering with schema (JSON text).
func opDoc(schema string, ids ...string) string {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
	for i, id := range ids {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/p%d":{"get":{"operationId":%q,"responses":{"200":{"description":"ok","content":{"application/json":{"schema":%s}}}}}}`, i, id, schema)
	}
	b.WriteString("}}")
	return b.String()
}

// A tool name is at most 64 characters: an operationId of 63 or 64 is
// kept as it is, one of 65 is shortened to exactly 64 (prefix, "_", 8 hex
// digits), and shorten keeps 64 but cuts 65.
func TestToolNameLimitAtItsEdges(t *testing.T) {
	at63, at64, at65 := strings.Repeat("a", 63), strings.Repeat("b", 64), strings.Repeat("c", 65)
	res, _, _ := importText(t, "names.json", opDoc(`{"type":"string"}`, at63, at64, at65))
	for _, want := range []string{at63, at64} {
		if _, ok := res.Tools[want]; !ok {
			t.Errorf("the %d-character operationId is not kept as the tool name: tools %v", len(want), res.Tools)
		}
	}
	var long []string
	for name := range res.Tools {
		if len(name) > 64 {
			t.Errorf("tool name %q has %d characters", name, len(name))
		}
		if strings.HasPrefix(name, "ccc") {
			long = append(long, name)
		}
	}
	if len(long) != 1 || len(long[0]) != 64 || !strings.HasPrefix(long[0], strings.Repeat("c", 55)+"_") {
		t.Errorf("the 65-character operationId became %q, want 55 c, _ and 8 hex digits", long)
	}
	for n, want := range map[int]int{0: 0, 63: 63, 64: 64, 65: 64, 200: 64} {
		if got := len(shorten(strings.Repeat("x", n), maxToolName)); got != want {
			t.Errorf("shorten of %d characters: %d, want %d", n, got, want)
		}
	}
}

// Inline schemas are followed 48 levels deep: an answer nested 48 objects
// deep keeps its innermost type, one nested deeper gets type any there.
func TestSchemaDepthLimitAtItsEdges(t *testing.T) {
	nested := func(n int) string { // n objects around a string
		s := `{"type":"string"}`
		for range n {
			s = `{"type":"object","properties":{"p":` + s + `}}`
		}
		return s
	}
	innermost := func(doc map[string]any, n int) any {
		tools, _ := doc["tools"].(map[string]any)
		tool, _ := tools["deep"].(map[string]any)
		out := tool["output"]
		for range n {
			m, ok := out.(map[string]any)
			if !ok {
				return out
			}
			props, _ := m["properties"].(map[string]any)
			if props == nil {
				return m["type"]
			}
			out = props["p"]
		}
		if m, ok := out.(map[string]any); ok {
			return m["type"]
		}
		return out
	}
	for _, tc := range []struct {
		n    int
		want string
	}{{47, "string"}, {48, "string"}, {49, "any"}} {
		_, _, doc := importText(t, "deep.json", opDoc(nested(tc.n), "deep"))
		if got := innermost(doc, tc.n); fmt.Sprint(got) != tc.want {
			t.Errorf("%d nested objects: the innermost type is %v, want %s", tc.n, got, tc.want)
		}
	}
}

// A bound past int64 (APIs.guru's netbox: "maximum": 9223372036854776000,
// 2^63 as a float prints it) is kept as written: the type is not cut to
// any, and the spec holds the digits.
func TestBoundPastInt64(t *testing.T) {
	res, err := Import([]byte(opDoc(`{"type":"object","properties":{"id":{"type":"integer","minimum":0,"maximum":9223372036854776000}}}`, "get_it")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := checkSpec(t, "big.json", res.YAML) // not importText: yaml.v3 cannot decode the bound into an any
	for _, n := range res.Notes {
		if strings.Contains(n, "9223372036854776000") {
			t.Errorf("note: %s", n)
		}
	}
	if len(s.Tools) != 1 {
		t.Fatalf("the tool is left out:\n%s", res.YAML)
	}
	if out := s.Tools[0].Output; out == nil || len(out.Properties) != 1 || out.Properties[0].Schema.Maximum == nil || *out.Properties[0].Schema.Maximum != "9223372036854776000" {
		t.Fatalf("the output is not {id: maximum 9223372036854776000}:\n%s", res.YAML)
	}
}
