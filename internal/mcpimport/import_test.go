package mcpimport

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/golden/collections"
	"github.com/mcpgen/mcpgen/golden/consts"
	"github.com/mcpgen/mcpgen/golden/nullable"
	"github.com/mcpgen/mcpgen/golden/objects"
	"github.com/mcpgen/mcpgen/golden/open_objects"
	"github.com/mcpgen/mcpgen/golden/prompts"
	"github.com/mcpgen/mcpgen/golden/refs"
	"github.com/mcpgen/mcpgen/golden/unions"
	"github.com/mcpgen/mcpgen/golden/wire_names"
	"github.com/mcpgen/mcpgen/internal/specschema"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/spec"
)

// TestGoldenRoundTrip imports mcpgen's own golden servers over Streamable
// HTTP and checks that every tool's schema, written back from the
// imported spec, is the one the server advertised (exact or equivalent),
// with no raw schema.
func TestGoldenRoundTrip(t *testing.T) {
	servers := map[string]*runtime.Server{
		"collections": collections.NewServer(collections.UnimplementedHandler{}),
		// One item per page: the import follows nextCursor.
		"prompts paged": prompts.NewServer(prompts.UnimplementedHandler{}, runtime.WithPageSize(1)),
		"consts":        consts.NewServer(consts.UnimplementedHandler{}),
		"nullable":      nullable.NewServer(nullable.UnimplementedHandler{}),
		"objects":       objects.NewServer(objects.UnimplementedHandler{}),
		"open_objects":  openobjects.NewServer(openobjects.UnimplementedHandler{}),
		"prompts":       prompts.NewServer(prompts.UnimplementedHandler{}),
		"refs":          refs.NewServer(refs.UnimplementedHandler{}),
		"unions":        unions.NewServer(unions.UnimplementedHandler{}),
		"wire_names":    wirenames.NewServer(wirenames.UnimplementedHandler{}),
	}
	for name, srv := range servers {
		t.Run(name, func(t *testing.T) {
			ts := httptest.NewServer(srv.HTTPHandler())
			defer ts.Close()
			lists, err := List(context.Background(), Options{URL: ts.URL, Timeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if unpaged, ok := servers[strings.TrimSuffix(name, " paged")]; ok && unpaged != srv {
				whole := httptest.NewServer(unpaged.HTTPHandler())
				defer whole.Close()
				want, err := List(context.Background(), Options{URL: whole.URL})
				if err != nil {
					t.Fatal(err)
				}
				if got, want := lists.names(), want.names(); !reflect.DeepEqual(got, want) || len(want["prompts"]) < 2 {
					t.Errorf("paged one item at a time: %q; all at once: %q", got, want)
				}
			}
			res, err := FromLists(lists, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Raw) > 0 {
				t.Errorf("raw schemas: %q\nnotes: %q", res.Raw, res.Notes)
			}
			s, diags := spec.Load("imported.yaml", res.YAML)
			if len(diags) > 0 {
				t.Fatalf("the imported spec does not load:\n%v\n%s", diags, res.YAML)
			}
			samePromptArguments(t, lists.Prompts, s.Prompts)
			byName := map[string]*spec.Tool{}
			for _, tool := range s.Tools {
				byName[tool.Name] = tool
			}
			if len(byName) != len(lists.Tools) {
				t.Errorf("%d tools listed, %d imported", len(lists.Tools), len(byName))
			}
			for _, raw := range lists.Tools {
				var orig struct {
					Name         string
					InputSchema  json.RawMessage
					OutputSchema json.RawMessage
				}
				if err := json.Unmarshal(raw, &orig); err != nil {
					t.Fatal(err)
				}
				tool := byName[orig.Name]
				if tool == nil {
					t.Errorf("tool %s: not imported", orig.Name)
					continue
				}
				for _, c := range []struct {
					key    string
					orig   json.RawMessage
					schema *spec.Schema
				}{{"input", orig.InputSchema, tool.Input}, {"output", orig.OutputSchema, tool.Output}} {
					if c.schema == nil {
						if len(c.orig) > 0 && c.key == "output" {
							t.Errorf("tool %s: the output schema was not imported", orig.Name)
						}
						continue
					}
					got, _ := specschema.Wire(s, c.schema)
					if v := CompareSchema(c.orig, got); v == Different {
						t.Errorf("tool %s %s: different\n advertised: %s\n   imported: %s", orig.Name, c.key, c.orig, got)
					}
				}
			}
		})
	}
}

// samePromptArguments checks that each imported prompt argument says
// "required" as the server listed it: true, false, or no key.
func samePromptArguments(t *testing.T, listed []json.RawMessage, imported []*spec.Prompt) {
	t.Helper()
	say := func(required *bool) string {
		if required == nil {
			return "no key"
		}
		return fmt.Sprint(*required)
	}
	for _, raw := range listed {
		var orig struct {
			Name      string
			Arguments []struct {
				Name     string
				Required *bool
			}
		}
		if err := json.Unmarshal(raw, &orig); err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(imported, func(p *spec.Prompt) bool { return p.Name == orig.Name })
		if i < 0 {
			t.Errorf("prompt %s: not imported", orig.Name)
			continue
		}
		args := imported[i].Arguments
		for j, a := range orig.Arguments {
			if j >= len(args) || args[j].Name != a.Name {
				t.Errorf("prompt %s: argument %d is not %s", orig.Name, j, a.Name)
				continue
			}
			var got *bool
			if args[j].Required || args[j].ExplicitOptional {
				got = &args[j].Required
			}
			if say(got) != say(a.Required) {
				t.Errorf("prompt %s argument %s: required %s, listed %s", orig.Name, a.Name, say(got), say(a.Required))
			}
		}
	}
}

// TestUntypable checks that a schema the spec cannot type stays raw, with
// a note naming the keyword, and that the rest of the tool stays typed.
func TestUntypable(t *testing.T) {
	cases := map[string]string{
		`{"type":"object","properties":{"a":{"type":"string"}},"allOf":[{"required":["a"]}]}`:                                              "allOf",
		`{"type":"object","patternProperties":{"^x":{"type":"string"}}}`:                                                                   "patternProperties",
		`{"type":"object","properties":{"a":{"const":{"k":1}}}}`:                                                                           "const",
		`{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`:                                                "items as a list",
		`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`:                                                       "$ref",
		`{"type":"object","properties":{"a":{"type":"string","pattern":"(?=lookahead)"}}}`:                                                 "pattern",
		`{"type":"object","properties":{"a":{"type":"object","properties":{},"additionalProperties":{"type":"string"}}}}`:                  "additionalProperties as a schema beside properties",
		`{"type":"object","properties":{"a":{"type":"string","anyOf":[{"type":"string","minLength":2},{"type":"string","maxLength":0}]}}}`: "type beside anyOf/oneOf",
		`{"type":"object","properties":{"a":{"type":"string","oneOf":[{"type":"string","minLength":2},{"type":"string","maxLength":0}]}}}`: "type beside anyOf/oneOf",
	}
	for schema, keyword := range cases {
		tool := `{"name":"t","description":"d","inputSchema":` + schema + `}`
		res, err := FromLists(&Lists{Tools: []json.RawMessage{json.RawMessage(tool)}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Raw) != 1 || !strings.Contains(strings.Join(res.Notes, "\n"), keyword) {
			t.Errorf("%s: want one raw schema and a note naming %q; got raw %q, notes %q", schema, keyword, res.Raw, res.Notes)
		}
		if !strings.Contains(string(res.YAML), "inputSchema:") {
			t.Errorf("%s: the spec has no raw inputSchema:\n%s", schema, res.YAML)
		}
		// A schema that JSON Schema 2020-12 itself refuses (a tuple as
		// items, a remote $ref, a pattern RE2 cannot compile) is refused
		// raw too: the spec does not load, and a note says so.
		_, diags := spec.Load("x.yaml", res.YAML)
		if refused := strings.Contains(strings.Join(res.Notes, "\n"), "does not load"); refused != (len(diags) > 0) {
			t.Errorf("%s: the spec's findings %v, but the notes %q", schema, diags, res.Notes)
		}
	}
}

// TestTyped checks constructs that the spec types, including $defs that
// refer to each other, named types that allow null (the null moves to each
// reference), goName for colliding names, and nullable as written.
func TestTyped(t *testing.T) {
	input := `{"type":"object","$defs":{"maybe":{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"null"}],"description":"T or null"},"maybeS":{"type":["string","null"]},"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}},"v":{"type":["string","null"]}},"required":["v"],"additionalProperties":false}},
	 "properties":{"m":{"$ref":"#/$defs/maybe"},"s":{"$ref":"#/$defs/maybeS"},"root":{"$ref":"#/$defs/node"},"+1":{"type":"integer"},"-1":{"type":"integer"},"dir":{"type":"string","enum":["+","-"]},
	 "ok":{"const":true},"off":{"type":"boolean","const":false},
	 "u":{"anyOf":[{"type":"string"},{"type":"object","properties":{"k":{"const":"x"}},"required":["k"]},{"type":"null"}],"description":"beside"}},
	 "required":["root"]}`
	tool := `{"name":"t","description":"d","inputSchema":` + input + `}`
	res, err := FromLists(&Lists{Tools: []json.RawMessage{json.RawMessage(tool)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Raw) > 0 {
		t.Fatalf("raw: %q, notes: %q\n%s", res.Raw, res.Notes, res.YAML)
	}
	s, diags := spec.Load("x.yaml", res.YAML)
	if len(diags) > 0 {
		t.Fatalf("%v\n%s", diags, res.YAML)
	}
	got, _ := specschema.Wire(s, s.Tools[0].Input)
	if v := CompareSchema(json.RawMessage(input), got); v == Different {
		t.Errorf("different:\n advertised: %s\n   imported: %s\n%s", input, got, res.YAML)
	}
	if !strings.Contains(string(res.YAML), "node:") {
		t.Errorf("$defs.node is not a named type:\n%s", res.YAML)
	}
}

// TestDeadServer checks the errors of a server that exits or writes
// something that is not JSON-RPC: which step, and what came back.
func TestDeadServer(t *testing.T) {
	cases := map[string][]string{
		"exits":   {"sh", "-c", "echo boom >&2; exit 3"},
		"garbage": {"sh", "-c", "read line; echo hello; sleep 5"},
		"silent":  {"sh", "-c", "sleep 5"},
	}
	want := map[string][]string{
		"exits":   {"initialize", "exit status 3", "boom"},
		"garbage": {"initialize", "not JSON-RPC", "hello"},
		"silent":  {"initialize", "no answer", "deadline"},
	}
	for name, cmd := range cases {
		_, err := Import(context.Background(), Options{Command: cmd, Timeout: 500 * time.Millisecond})
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		for _, w := range want[name] {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: the error %q does not say %q", name, err, w)
			}
		}
	}
}

// TestWrongEndpoint checks the error of a URL that is not an MCP endpoint.
func TestWrongEndpoint(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	_, err := Import(context.Background(), Options{URL: ts.URL + "/sse", Timeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "initialize: HTTP 404") || !strings.Contains(err.Error(), "is this the MCP endpoint?") {
		t.Errorf("got %v", err)
	}
}

// TestStrayOutput checks that a stdio server that prints a banner on its
// standard output is still imported, with a note.
func TestStrayOutput(t *testing.T) {
	script := `read l; echo "Server ready on stdio"; echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"banner","version":"1"}}}'; read l`
	res, err := Import(context.Background(), Options{Command: []string{"sh", "-c", script}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "1 lines to its standard output that are not MCP messages") || !strings.Contains(notes, "Server ready on stdio") {
		t.Errorf("notes: %q", res.Notes)
	}
	if !strings.Contains(string(res.YAML), "name: banner") {
		t.Errorf("spec:\n%s", res.YAML)
	}
}

// Annotation keys outside MCP's hints are kept as written; a near miss of
// a hint, which the spec refuses as a typo, is left out with a note.
func TestAnnotationExtraKept(t *testing.T) {
	tools := []json.RawMessage{json.RawMessage(`{"name":"t","description":"d","annotations":{"readOnlyHint":true,"category":"files","readonlyHint":false}}`)}
	res, err := FromLists(&Lists{Tools: tools}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, diags := spec.Load("x.yaml", res.YAML)
	if len(diags) > 0 {
		t.Fatalf("%v\n%s", diags, res.YAML)
	}
	extra := s.Tools[0].Annotations.Extra
	if len(extra) != 1 || extra[0].Key != "category" || string(extra[0].Value.JSON) != `"files"` {
		t.Errorf("Extra = %+v\n%s", extra, res.YAML)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "annotations.readonlyHint: a near miss") {
		t.Errorf("no note of the typo: %q", res.Notes)
	}
}

// TestExactWire: schemas whose every keyword the spec can say come back
// from the imported spec byte for byte (JSON-equal), not just equivalent.
func TestExactWire(t *testing.T) {
	for _, input := range []string{
		// An object that takes no keys at all, as zod's record of never
		// writes it: no properties: {} added.
		`{"type":"object","properties":{"m":{"type":"object","additionalProperties":false}},"additionalProperties":false}`,
		`{"type":"object","properties":{},"additionalProperties":false}`,
		// Any object, saying additionalProperties as written: true, or {}
		// (a map of any values); nullable too.
		`{"type":"object","properties":{"m":{"type":"object","additionalProperties":true},"e":{"type":"object","additionalProperties":{}},"n":{"type":["object","null"],"additionalProperties":true}},"additionalProperties":false}`,
		`{"type":"object","properties":{"a":{"type":"string","description":"\n lead and trail \n"}},"required":[],"additionalProperties":false}`,
		// propertyNames: {type: string}, which constrains nothing, kept on
		// maps and objects (zod's records).
		`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"},"propertyNames":{"type":"string"}},"a":{"type":"object","additionalProperties":{},"propertyNames":{"type":"string"}},"c":{"type":"object","additionalProperties":false,"propertyNames":{"type":"string"}}},"additionalProperties":false}`,
		// Open by saying nothing, at the root and below, or by {}.
		`{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{}}},"additionalProperties":false}`,
		`{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string"}}},"n":{"type":["object","null"],"properties":{"a":{"type":"string"}}}}}`,
		`{"type":"object","properties":{"i":{"type":"integer","format":"int32"},"s":{"type":"string","format":"x-unknown"}},"additionalProperties":false}`,
		`{"type":"object","properties":{"o":{"type":["object","null"],"properties":{"a":{"type":"string"}},"additionalProperties":false}},"additionalProperties":false}`,
	} {
		tool := `{"name":"t","description":"d","inputSchema":` + input + `}`
		res, err := FromLists(&Lists{Tools: []json.RawMessage{json.RawMessage(tool)}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, diags := spec.Load("x.yaml", res.YAML)
		if len(diags) > 0 || len(res.Raw) > 0 {
			t.Errorf("%s: raw %q, findings %v\n%s", input, res.Raw, diags, res.YAML)
			continue
		}
		got, _ := specschema.Wire(s, s.Tools[0].Input)
		if v := CompareSchema(json.RawMessage(input), got); v != Exact {
			t.Errorf("%s: %v\n advertised: %s\n   imported: %s\n%s", input, v, input, got, res.YAML)
		}
	}
}

// TestDialect: a root $schema the spec takes is kept on the typed schema
// and advertised exactly as the server did; one it refuses (draft-04, or
// on a root that becomes a $ref) is left out of a typed schema (not a raw
// fallback), and one note counts them.
func TestDialect(t *testing.T) {
	tool := func(name, input, output string) json.RawMessage {
		return json.RawMessage(`{"name":"` + name + `","description":"d","inputSchema":` + input + `,"outputSchema":` + output + `}`)
	}
	kept := []string{
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`,
	}
	refused := `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`
	res, err := FromLists(&Lists{Tools: []json.RawMessage{tool("a", kept[0], kept[1]), tool("b", refused, refused)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, diags := spec.Load("x.yaml", res.YAML)
	if len(diags) > 0 || len(res.Raw) > 0 {
		t.Fatalf("raw %q, findings %v\n%s", res.Raw, diags, res.YAML)
	}
	for i, got := range []*spec.Schema{s.Tools[0].Input, s.Tools[0].Output} {
		wire, _ := specschema.Wire(s, got)
		if v := CompareSchema(json.RawMessage(kept[i]), wire); v != Exact {
			t.Errorf("%s: %v, imported %s\n%s", kept[i], v, wire, res.YAML)
		}
	}
	if s.Tools[1].Input.Dialect != "" || s.Tools[1].Output.Dialect != "" {
		t.Errorf("draft-04 kept:\n%s", res.YAML)
	}
	notes := strings.Join(res.Notes, "\n")
	if !strings.Contains(notes, "2 typed schemas say a $schema at their root that the spec does not take (tools.b.input first") {
		t.Errorf("notes: %q", res.Notes)
	}
}

// TestFixedTemplate: a resource template without a variable, which the
// spec refuses, becomes the asTemplate: of the resource resources/list
// lists at its URI when they agree, is left out when they do not, and is
// written as that resource when none is listed; the spec loads.
func TestFixedTemplate(t *testing.T) {
	lists := &Lists{
		Resources: []json.RawMessage{json.RawMessage(`{"name":"wd","uri":"git://wd"}`), json.RawMessage(`{"name":"Same","uri":"git://same","title":"T"}`)},
		Templates: []json.RawMessage{
			json.RawMessage(`{"name":"wd","uriTemplate":"git://wd","mimeType":"application/json"}`),
			json.RawMessage(`{"name":"same","uriTemplate":"git://same","title":"T"}`),
			json.RawMessage(`{"name":"wd","uriTemplate":"git://other","description":"d"}`),
			json.RawMessage(`{"name":"file","uriTemplate":"git://files/{path}"}`),
		},
	}
	res, s := importLists(t, lists)
	var resources, templates []string
	for _, r := range s.Resources {
		resources = append(resources, r.Name+"="+r.URI+" "+r.AsTemplate)
	}
	for _, r := range s.ResourceTemplates {
		templates = append(templates, r.Name+"="+r.URITemplate)
	}
	if want := []string{"wd=git://wd ", "Same=git://same same", "wd2=git://other "}; !slices.Equal(resources, want) {
		t.Errorf("resources %q, want %q\n%s", resources, want, res.YAML)
	}
	if want := []string{"file=git://files/{path}"}; !slices.Equal(templates, want) {
		t.Errorf("templates %q, want %q", templates, want)
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, `resourceTemplates.wd: the uriTemplate "git://wd" has no variable, and resources.wd is that URI, but their mimeType differ; left out`) ||
		!strings.Contains(notes, "written as its asTemplate: same") ||
		!strings.Contains(notes, "written as resources.wd2") {
		t.Errorf("notes: %q", res.Notes)
	}
}

// TestEmptyPromptArguments: a prompt listed with arguments: [] is
// imported as arguments: {}, which the spec advertises as written; one
// listed without the key stays without.
func TestEmptyPromptArguments(t *testing.T) {
	lists := &Lists{Prompts: []json.RawMessage{
		json.RawMessage(`{"name":"empty","description":"d","arguments":[]}`),
		json.RawMessage(`{"name":"none","description":"d"}`),
	}}
	res, s := importLists(t, lists)
	if !s.Prompts[0].EmptyArguments || s.Prompts[1].EmptyArguments {
		t.Errorf("EmptyArguments %v, %v; want true, false\n%s", s.Prompts[0].EmptyArguments, s.Prompts[1].EmptyArguments, res.YAML)
	}
}

// importLists imports lists and loads the spec, which must load.
func importLists(t *testing.T, lists *Lists) (*Result, *spec.Spec) {
	t.Helper()
	res, err := FromLists(lists, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, diags := spec.Load("x.yaml", res.YAML)
	if len(diags) > 0 {
		t.Fatalf("%v\n%s", diags, res.YAML)
	}
	return res, s
}
