package spec

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// base is a valid head for snippets: the snippet starts on line 4.
const base = "mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\n"

// TestLoadDiagnostics loads bad snippets and compares every finding,
// exactly: position, wording, order. A snippet is appended to base unless
// noBase is set.
func TestLoadDiagnostics(t *testing.T) {
	for _, c := range diagnosticCases {
		t.Run(c.name, func(t *testing.T) {
			src := c.src
			if !c.noBase {
				src = base + src
			}
			_, diags := Load("mcpgen.yaml", []byte(src))
			var got []string
			for _, d := range diags {
				got = append(got, d.String())
			}
			if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\nsource:\n%s", diff, numbered(src))
			}
		})
	}
}

// numbered prefixes each line with its number, to read a failure.
func numbered(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(src, "\n") {
		b.WriteString(strings.Repeat(" ", 3-len(itoa(i+1))) + itoa(i+1) + "| " + l + "\n")
	}
	return b.String()
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

var diagnosticCases = []struct {
	name   string
	noBase bool
	src    string
	want   []string
}{
	{
		name: "syntax",
		src: `tools:
  a: b: c
`,
		want: []string{
			`mcpgen.yaml:5:1: syntax error: mapping values are not allowed in this context`,
		},
	},
	{
		name: "tab",
		src: `tools:
	a: 1
`,
		want: []string{
			`mcpgen.yaml:5:1: syntax error: found character that cannot start any token (indent with spaces, not tabs)`,
		},
	},
	{
		name: "anchor",
		src: `tools: *nope
`,
		want: []string{
			`mcpgen.yaml:4:8: syntax error: alias *nope refers to no anchor &nope`,
		},
	},
	{
		name: "twodocs",
		src: `types: {}
---
x: 1
`,
		want: []string{
			`mcpgen.yaml:5:1: a spec file holds one YAML document; this is a second one`,
		},
	},
	{
		name: "dupkey_generic",
		src: `tools:
  t:
    description: a
    description: b
`,
		want: []string{
			`mcpgen.yaml:7:5: duplicate key "description" (first defined at mcpgen.yaml:6:5)`,
		},
	},
	{
		name: "toplevel_typo",
		src: `tool: {}
`,
		want: []string{
			`mcpgen.yaml:4:1: unknown key "tool" at the top level; did you mean "tools"?`,
		},
	},
	{
		name:   "mcpgen2",
		noBase: true,
		src: `mcpgen: 2
server: {name: s, version: '1'}
go: {package: p}
`,
		want: []string{
			`mcpgen.yaml:1:9: mcpgen must be 1, the only version of the spec format`,
		},
	},
	{
		name:   "nomcpgen",
		noBase: true,
		src: `server: {name: s, version: 1}
go: {package: p}
`,
		want: []string{
			`mcpgen.yaml:1:1: missing required key "mcpgen" (the spec format version; write mcpgen: 1)`,
		},
	},
	{
		name:   "empty",
		noBase: true,
		src:    ``,
		want: []string{
			`mcpgen.yaml:1:1: missing required key "go" (the Go options; write go: {package: name})`,
			`mcpgen.yaml:1:1: missing required key "mcpgen" (the spec format version; write mcpgen: 1)`,
			`mcpgen.yaml:1:1: missing required key "server" (write server: {name: …, version: …})`,
		},
	},
	{
		name:   "rootlist",
		noBase: true,
		src: `- a
`,
		want: []string{
			`mcpgen.yaml:1:1: the spec must be a mapping with the keys mcpgen, server, go, types and tools`,
		},
	},
	{
		name:   "server_not_map",
		noBase: true,
		src: `mcpgen: 1
server: orders
go: {package: p}
`,
		want: []string{
			`mcpgen.yaml:2:9: server must be a mapping`,
		},
	},
	{
		name:   "server_missing",
		noBase: true,
		src: `mcpgen: 1
server: {title: x}
go: {package: p}
`,
		want: []string{
			`mcpgen.yaml:2:9: missing required key "name" in server`,
			`mcpgen.yaml:2:9: missing required key "version" in server`,
		},
	},
	{
		name:   "server_fields",
		noBase: true,
		src: `mcpgen: 1
server:
  name: ""
  version: {a: 1}
  websiteURL: x
  websiteUrl: /relative
  icons:
    - {mimeType: image/png, theme: lite}
    - src: ftp://x/y.png
    - just-a-string
go: {package: p}
`,
		want: []string{
			`mcpgen.yaml:3:9: name must be a non-empty string`,
			`mcpgen.yaml:4:12: version must be a non-empty string`,
			`mcpgen.yaml:5:3: unknown key "websiteURL" in server; did you mean "websiteUrl"?`,
			`mcpgen.yaml:6:15: websiteUrl must be an absolute http(s) URL, such as https://example.com`,
			`mcpgen.yaml:8:7: missing required key "src" in icon`,
			`mcpgen.yaml:8:36: theme must be light or dark, not "lite"`,
			`mcpgen.yaml:9:12: icon src must be an http(s) URL or a data: URI`,
			`mcpgen.yaml:10:7: an icon must be a mapping`,
		},
	},
	{
		name:   "go_bad",
		noBase: true,
		src: `mcpgen: 1
server: {name: s, version: 1.10}
go: {packge: x, package: my-pkg, output: /abs}
`,
		want: []string{
			`mcpgen.yaml:3:6: unknown key "packge" in go; did you mean "package"?`,
			`mcpgen.yaml:3:26: package "my-pkg" is not a valid Go package name; use letters, digits and _, starting with a letter (such as ordersmcp)`,
			`mcpgen.yaml:3:42: output must be a relative path with forward slashes, such as internal/mcp`,
		},
	},
	{
		name:   "go_kw",
		noBase: true,
		src: `mcpgen: 1
server: {name: s, version: 1}
go: {package: type}
`,
		want: []string{
			`mcpgen.yaml:3:15: package "type" is a Go keyword; choose another name`,
		},
	},
	{
		name: "dup_tool",
		src: `tools:
  lookup_order: {description: a}
  lookup_order: {description: b}
`,
		want: []string{
			`mcpgen.yaml:6:3: duplicate tool "lookup_order" (first defined at mcpgen.yaml:5:3)`,
		},
	},
	{
		name: "dup_type",
		src: `types:
  A: {type: string}
  A: {type: integer}
`,
		want: []string{
			`mcpgen.yaml:6:3: duplicate type "A" (first defined at mcpgen.yaml:5:3)`,
		},
	},
	{
		name: "dup_prop",
		src: `types:
  A:
    properties:
      x: {type: string}
      x: {type: string}
`,
		want: []string{
			`mcpgen.yaml:8:7: duplicate property "x" (first defined at mcpgen.yaml:7:7)`,
		},
	},
	{
		name: "toolname",
		src: `tools:
  look up: {description: x}
  ok:
    description: ""
  nodesc: {title: t}
  descmap: {description: {a: 1}}
`,
		want: []string{
			`mcpgen.yaml:5:3: tool name "look up" must be 1 to 64 letters, digits, '_', '-' or '.'`,
			`mcpgen.yaml:7:18: description must be a non-empty string`,
			`mcpgen.yaml:8:3: missing required key "description" in tool "nodesc"`,
			`mcpgen.yaml:9:26: description must be a non-empty string`,
		},
	},
	{
		name: "tool_typo",
		src: `tools:
  t: {description: d, inputs: {}}
`,
		want: []string{
			`mcpgen.yaml:5:23: unknown key "inputs" in tool "t"; did you mean "input"?`,
		},
	},
	{
		name: "input_bad",
		src: `types:
  ID: {type: string}
  Obj: {properties: {a: {type: string}}, nullable: true}
tools:
  a: {description: d, input: {type: string}}
  b: {description: d, input: {$ref: ID}}
  c: {description: d, input: {properties: {}, nullable: true}}
  d: {description: d, input: {$ref: Obj}}
  e: {description: d, input: string}
`,
		want: []string{
			`mcpgen.yaml:8:30: input must be an object schema (with properties) or a $ref to an object type, not a string`,
			`mcpgen.yaml:9:30: input must be an object, but type "ID" is a string`,
			`mcpgen.yaml:10:47: input cannot be nullable; leave input out for a tool without arguments`,
			`mcpgen.yaml:11:30: input cannot be nullable, but type "Obj" is nullable`,
			`mcpgen.yaml:12:30: input must be a mapping, such as {type: string}`,
		},
	},
	{
		name: "annotations",
		src: `tools:
  t:
    description: d
    annotations: {readOnlyHint: yes, destrutiveHint: true}
    _meta: [1]
  u:
    description: d
    _meta: {1: x, ok: .inf, t: !custom x}
`,
		want: []string{
			`mcpgen.yaml:7:33: readOnlyHint must be true or false`,
			`mcpgen.yaml:7:38: unknown key "destrutiveHint" in annotations; did you mean "destructiveHint"?`,
			`mcpgen.yaml:8:12: _meta must be a mapping`,
			`mcpgen.yaml:11:13: object key 1 must be a string; write "1"`,
			`mcpgen.yaml:11:23: .inf has no JSON equivalent`,
			`mcpgen.yaml:11:32: unsupported YAML tag !custom`,
		},
	},
	{
		name: "schema_typo",
		src: `types:
  A: {type: string, patern: x}
  B: {type: integer, minLength: 3}
  C: {minLength: 3}
  D: {type: strng}
  E: {type: A}
  F: {type: [string, "null"]}
  G: {type: integer, Minimum: 3}
`,
		want: []string{
			`mcpgen.yaml:5:21: unknown key "patern" in string schema; did you mean "pattern"?`,
			`mcpgen.yaml:6:22: minLength applies to strings, not integer`,
			`mcpgen.yaml:7:6: cannot tell the type; add type: string`,
			`mcpgen.yaml:8:13: unknown type "strng"; did you mean "string"?`,
			`mcpgen.yaml:9:13: type "A" is a named type; write $ref: A`,
			`mcpgen.yaml:10:13: type must be a single type; to allow null, add nullable: true`,
			`mcpgen.yaml:11:22: unknown key "Minimum" in integer schema; did you mean "minimum"?`,
		},
	},
	{
		name: "refs",
		src: `types:
  OrderID: {type: string}
  A: {$ref: OrderId}
  B: {$ref: '#/types/OrderID'}
  C: {$ref: OrderID, pattern: x, description: ok}
  D: {$ref: OrderID, goType: time.Time}
  E: {goType: Time}
  F: {goType: 'github.com/acme/x/model.order'}
  G: {goType: '[]time.Time'}
`,
		want: []string{
			`mcpgen.yaml:6:13: unknown type "OrderId" in $ref; did you mean "OrderID"?`,
			`mcpgen.yaml:7:13: $ref takes a type name, not a JSON pointer; write $ref: OrderID`,
			`mcpgen.yaml:8:22: pattern cannot be used with $ref; only title, description, nullable, default and examples can`,
			`mcpgen.yaml:9:22: goType cannot be used with $ref; only title, description, nullable, default and examples can`,
			`mcpgen.yaml:10:15: goType "Time" must be an import path and an exported type name, such as time.Time or github.com/acme/orders/model.Order`,
			`mcpgen.yaml:11:15: goType "github.com/acme/x/model.order" must be an import path and an exported type name, such as time.Time or github.com/acme/orders/model.Order`,
			`mcpgen.yaml:12:15: goType "[]time.Time" must be an import path and an exported type name, such as time.Time or github.com/acme/orders/model.Order`,
		},
	},
	{
		name: "enums",
		src: `types:
  A: {type: string, enum: [1, a]}
  B: {enum: [a, b, a]}
  C: {enum: []}
  D: {enum: [a, 1]}
  E: {type: integer, enum: [1, 1.0, 2.5]}
  F: {type: string, enum: [abc, ab], minLength: 3}
  G: {type: boolean, enum: [true]}
  H: {enum: [~]}
`,
		want: []string{
			`mcpgen.yaml:5:28: enum value is invalid: 1 is a number, not a string`,
			`mcpgen.yaml:6:20: duplicate enum value "a" (first listed at mcpgen.yaml:6:14)`,
			`mcpgen.yaml:7:13: enum must not be empty`,
			`mcpgen.yaml:8:6: cannot tell the type from the enum values; add type: string, integer or number`,
			`mcpgen.yaml:9:32: duplicate enum value 1.0 (first listed at mcpgen.yaml:9:29)`,
			`mcpgen.yaml:9:37: enum value is invalid: 2.5 is not an integer`,
			`mcpgen.yaml:10:33: enum value is invalid: "ab" is shorter than minLength 3`,
			`mcpgen.yaml:11:22: enum applies to strings, integers and numbers, not boolean`,
			`mcpgen.yaml:12:6: cannot tell the type from the enum values; add type: string, integer or number`,
		},
	},
	{
		name: "defaults",
		src: `types:
  A: {type: string, minLength: 3, default: ab}
  B:
    properties:
      id: {type: string}
      qty: {type: integer, minimum: 1}
    required: [id]
    default: {qty: 0}
  C:
    properties:
      id: {type: string}
    default: {idd: x}
  D: {type: string, pattern: '^[A-Z]-\d{4}$', examples: [A-1234, a-1]}
  E: {type: integer, default: null}
  F: {type: array, items: {type: integer}, uniqueItems: true, default: [1, 2, 1]}
  G: {type: array, items: {$ref: B}, default: [{id: x, qty: 5}, {id: y, qty: -1}]}
  H: {type: integer, multipleOf: 5, default: 7}
  I: {type: string, default: 3}
  J: {type: map, values: {type: integer}, default: {a: 1, b: x}}
  K: {enum: [a, b], default: c}
`,
		want: []string{
			`mcpgen.yaml:5:44: default is invalid: "ab" is shorter than minLength 3`,
			`mcpgen.yaml:11:14: default is invalid: missing required property "id"`,
			`mcpgen.yaml:15:14: default is invalid: unknown property "idd"; did you mean "id"?`,
			`mcpgen.yaml:16:66: example is invalid: "a-1" does not match the pattern ^[A-Z]-\d{4}$`,
			`mcpgen.yaml:17:31: default is invalid: null is not allowed (the schema is not nullable)`,
			`mcpgen.yaml:18:72: default is invalid: items 0 and 2 are equal, and uniqueItems is set`,
			`mcpgen.yaml:19:47: default is invalid: /1/qty: -1 is less than minimum 1`,
			`mcpgen.yaml:20:46: default is invalid: 7 is not a multiple of 5`,
			`mcpgen.yaml:21:30: default is invalid: 3 is a number, not a string`,
			`mcpgen.yaml:22:52: default is invalid: /b: "x" is a string, not an integer`,
			`mcpgen.yaml:23:30: default is invalid: "c" is not one of "a", "b"`,
		},
	},
	{
		name: "patterns",
		src: `types:
  A: {type: string, pattern: '(abc'}
  B: {type: string, pattern: '^(?=x)'}
  C: {type: string, format: date_time}
  D: {type: string, format: zipcode}
`,
		want: []string{
			"mcpgen.yaml:5:30: pattern does not compile: error parsing regexp: missing closing ): `(abc`",
			"mcpgen.yaml:6:30: pattern does not compile: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
			`mcpgen.yaml:7:29: unknown format "date_time"; did you mean "date-time"?`,
			`mcpgen.yaml:8:29: unknown format "zipcode"; the JSON Schema formats are date-time, date, time, duration, email, idn-email, hostname, idn-hostname, ipv4, ipv6, uri, uri-reference, iri, iri-reference, uuid, uri-template, json-pointer, relative-json-pointer and regex`,
		},
	},
	{
		name: "bounds",
		src: `types:
  A: {type: string, minLength: 5, maxLength: 3}
  B: {type: string, minLength: -1}
  C: {type: integer, minimum: 10, maximum: 5}
  D: {type: number, exclusiveMinimum: 1, exclusiveMaximum: 1}
  E: {type: integer, minimum: 1.5, multipleOf: 0}
  F: {type: array, items: {type: string}, minItems: 3, maxItems: 1}
  G: {type: number, minimum: abc}
  H: {type: number, minimum: 1, exclusiveMaximum: 1}
  I: {type: integer, minLength: 1.5}
`,
		want: []string{
			`mcpgen.yaml:5:46: maxLength 3 is less than minLength 5`,
			`mcpgen.yaml:6:32: minLength must not be negative`,
			`mcpgen.yaml:7:44: maximum 5 is less than minimum 10`,
			`mcpgen.yaml:8:60: exclusiveMaximum 1 is not greater than exclusiveMinimum 1`,
			`mcpgen.yaml:9:31: minimum of an integer schema must be an integer, not 1.5`,
			`mcpgen.yaml:9:48: multipleOf must be greater than 0`,
			`mcpgen.yaml:10:66: maxItems 1 is less than minItems 3`,
			`mcpgen.yaml:11:30: minimum must be a number`,
			`mcpgen.yaml:12:51: exclusiveMaximum 1 is not greater than minimum 1`,
			`mcpgen.yaml:13:22: minLength applies to strings, not integer`,
			`mcpgen.yaml:13:33: minLength must be an integer`,
		},
	},
	{
		name: "required",
		src: `types:
  A:
    properties: {order_id: {type: string}}
    required: [ordr_id, order_id, order_id]
  B: {type: string, required: [x]}
  C: {properties: {a: {type: string}}, additionalProperties: {type: string}}
  D: {properties: {a: {type: string}}, required: [1]}
`,
		want: []string{
			`mcpgen.yaml:7:16: unknown property "ordr_id" in required; did you mean "order_id"?`,
			`mcpgen.yaml:7:35: duplicate property "order_id" in required (first listed at mcpgen.yaml:7:25)`,
			`mcpgen.yaml:8:21: required applies to objects, not string`,
			`mcpgen.yaml:9:62: additionalProperties must be true or false beside properties; a schema makes a map, which has no fixed properties`,
			`mcpgen.yaml:10:51: required items must be property names`,
		},
	},
	{
		name: "arrays",
		src: `types:
  A: {type: array}
  B: {type: array, items: string}
  C: {type: array, items: OrderX}
  OrderX: {type: string}
  D: {type: map}
  E: {type: map, values: {type: string}, additionalProperties: {type: string}}
  F: {type: map, additionalProperties: false}
  G: {type: object, values: {type: string}}
  H: {properties: [a]}
`,
		want: []string{
			`mcpgen.yaml:5:6: an array schema needs items, the schema of every item`,
			`mcpgen.yaml:6:27: items must be a mapping, such as {type: string}`,
			`mcpgen.yaml:7:27: items must be a mapping, such as {$ref: OrderX}`,
			`mcpgen.yaml:9:6: a map schema needs values, the schema of every value`,
			`mcpgen.yaml:10:42: values and additionalProperties both give the value schema of the map; keep values`,
			`mcpgen.yaml:11:40: additionalProperties of a map must be a schema (or use values)`,
			`mcpgen.yaml:12:21: values applies to maps, not object`,
			`mcpgen.yaml:13:19: properties must be a mapping`,
		},
	},
	{
		name: "cycles",
		src: `types:
  Node:
    properties:
      name: {type: string}
      next: {$ref: Node}
  A:
    properties:
      b: {$ref: B}
  B:
    properties:
      inner:
        properties:
          a: {$ref: A}
  OK:
    properties:
      next: {$ref: OK, nullable: true}
      kids: {type: array, items: {$ref: OK}}
      byName: {type: map, values: {$ref: OK}}
  X: {$ref: Y}
  Y: {$ref: X}
  Z: {$ref: Z}
`,
		want: []string{
			`mcpgen.yaml:8:7: type "Node" contains itself through Node.next; make the property nullable or an array`,
			`mcpgen.yaml:11:7: type "A" contains itself through A.b → B.inner.a; make the property nullable or an array`,
			`mcpgen.yaml:22:13: type "X" is defined as itself through X → Y → X`,
			`mcpgen.yaml:24:13: type "Z" is defined as itself through Z → Z`,
		},
	},
	{
		name: "aliases",
		src: `types:
  A: &a
    properties:
      x: *a
`,
		want: []string{
			`mcpgen.yaml:7:10: alias *a is used inside its own anchor &a`,
		},
	},
	{
		name: "merge",
		src: `types:
  Base: &base {type: string, minLength: 1}
  Id:
    <<: *base
    minLength: 2
    maxLength: 1
`,
		want: []string{
			`mcpgen.yaml:9:16: maxLength 1 is less than minLength 2`,
		},
	},
	{
		name: "comma",
		src: `types:
  A: {type: string, description: ISO 4217 code, e.g. EUR.}
`,
		want: []string{
			`mcpgen.yaml:5:49: unknown key "e.g. EUR." in string schema; inside {…} a comma ends a value, so quote the value before it if it holds a comma`,
		},
	},
	{
		name: "nullable",
		src: `types:
  A: {type: string, nullable: "yes"}
  B: {type: string, nullable: yes}
`,
		want: []string{
			`mcpgen.yaml:5:31: nullable must be true or false`,
			`mcpgen.yaml:6:31: nullable must be true or false`,
		},
	},
	{
		name: "typename",
		src: `types:
  order-id: {type: string}
  1abc: {type: string}
`,
		want: []string{
			`mcpgen.yaml:5:3: type name "order-id" must be a letter followed by letters, digits or _`,
			`mcpgen.yaml:6:3: type name "1abc" must be a letter followed by letters, digits or _`,
		},
	},
	{
		name: "valuekeys",
		src: `types:
  A: {type: any, default: {1: a, true: b, "x": c}}
  B: {type: any, default: !!int abc}
  C: {type: any, examples: x}
  D: {type: any, default: [a, {b: 1, b: 2}]}
  E: {type: any, default: {<<: {a: 1, b: 2}, b: 3}}
  F: {type: string, default: 2024-01-02}
  G: {type: integer, default: 0x1F, maximum: 30}
`,
		want: []string{
			`mcpgen.yaml:5:28: object key 1 must be a string; write "1"`,
			`mcpgen.yaml:5:34: object key true must be a string; write "true"`,
			`mcpgen.yaml:6:27: "abc" is not a valid !!int`,
			`mcpgen.yaml:7:28: examples must be a list`,
			`mcpgen.yaml:8:38: duplicate key "b" (first defined at mcpgen.yaml:8:32)`,
			`mcpgen.yaml:11:31: default is invalid: 31 is greater than maximum 30`,
		},
	},
	{
		name: "trailingdoc",
		src: `types: {}
---
`,
		want: []string{},
	},
	{
		name: "billion",
		src: `types:
  A: {type: any, default: &a [x, x, x, x, x, x, x, x, x, x]}
  B: {type: any, default: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]}
  C: {type: any, default: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]}
  D: {type: any, default: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]}
  E: {type: any, default: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]}
  F: {type: any, default: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]}
  G: {type: any, default: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]}
`,
		want: []string{
			`mcpgen.yaml:6:31: aliases expand this file by more than 100000 nodes`,
		},
	},
	{
		name: "keys_nonscalar",
		src: `types:
  ? [a]
  : {type: string}
`,
		want: []string{
			`mcpgen.yaml:5:5: a key must be a plain name, not a list`,
		},
	},
	{
		name:   "versions",
		noBase: true,
		src: `mcpgen: "1"
server: {name: s, version: ~}
go: {package: p}
`,
		want: []string{
			`mcpgen.yaml:1:9: mcpgen must be 1, the only version of the spec format`,
			`mcpgen.yaml:2:28: version must be a non-empty string`,
		},
	},
	{
		name:   "nomcpgen_server_go",
		noBase: true,
		src: `mcpgen: 1
types: {}
`,
		want: []string{
			`mcpgen.yaml:1:1: missing required key "go" (the Go options; write go: {package: name})`,
			`mcpgen.yaml:1:1: missing required key "server" (write server: {name: …, version: …})`,
		},
	},
	{
		name:   "go_not_map",
		noBase: true,
		src: `mcpgen: 1
server: {name: s, version: 1}
go: [package]
`,
		want: []string{
			`mcpgen.yaml:3:5: go must be a mapping`,
		},
	},
	{
		name: "tools_list",
		src: `tools: [a, b]
`,
		want: []string{
			`mcpgen.yaml:4:8: tools must be a mapping`,
		},
	},
	{
		name: "tool_not_map",
		src: `tools:
  t: hello
`,
		want: []string{
			`mcpgen.yaml:5:6: tool "t" must be a mapping`,
		},
	},
	{
		name:   "icons_not_list",
		noBase: true,
		src: `mcpgen: 1
server: {name: s, version: 1, icons: {src: x}}
go: {package: p}
`,
		want: []string{
			`mcpgen.yaml:2:38: icons must be a list`,
		},
	},
	{
		name: "default_nested",
		src: `types:
  Line:
    properties:
      qty: {type: integer}
    required: [qty]
  Order:
    properties:
      lines: {type: array, items: {$ref: Line}, default: [{qty: 1}, {}]}
      note: {type: string, nullable: true, default: null}
`,
		want: []string{
			`mcpgen.yaml:11:58: default is invalid: /1: missing required property "qty"`,
		},
	},
	{
		name: "const_hint",
		src: `types:
  A: {type: string, const: x}
`,
		want: []string{
			`mcpgen.yaml:5:21: unknown key "const" in string schema; use enum with a single value`,
		},
	},
	{
		name: "ref_with_type",
		src: `types:
  A: {type: string}
  B: {type: object, $ref: A}
`,
		want: []string{
			`mcpgen.yaml:6:7: type cannot be used with $ref; only title, description, nullable, default and examples can`,
		},
	},
	{
		name: "unknown_kind_key",
		src: `types:
  A: {type: string, foo: 1}
`,
		want: []string{
			`mcpgen.yaml:5:21: unknown key "foo" in string schema`,
		},
	},
	{
		name: "input_is_an_object_by_default",
		src: `tools:
  a: {description: d, input: {description: No arguments.}}
  b: {description: d, input: {additionalProperties: true, required: [x]}}
`,
		want: []string{
			`mcpgen.yaml:6:70: unknown property "x" in required`,
		},
	},
	{
		name: "default_checked_against_a_type_declared_later",
		src: `types:
  Order:
    properties: {id: {$ref: OrderID}}
    default: {id: a-1}
  OrderID: {type: string, pattern: '^[A-Z]-\d+$'}
`,
		want: []string{
			`mcpgen.yaml:7:14: default is invalid: /id: "a-1" does not match the pattern ^[A-Z]-\d+$`,
		},
	},
	{
		name: "empty_property_name",
		src: `types:
  A: {properties: {"": {type: string}}}
`,
		want: []string{
			`mcpgen.yaml:5:20: a property name must not be empty`,
		},
	},
	{
		name: "control_character",
		src:  "types:\n  A: {type: string, description: \"a\x01b\"}\n",
		want: []string{
			`mcpgen.yaml:5:36: syntax error: control characters are not allowed`,
		},
	},
	{
		name: "merge_of_a_scalar",
		src: `types:
  A: {<<: 1, type: string}
`,
		want: []string{
			`mcpgen.yaml:5:11: << must be a mapping or a list of mappings`,
		},
	},
	{
		name: "format_on_integer",
		src: `types:
  A: {type: integer, format: int32}
`,
		want: []string{
			`mcpgen.yaml:5:22: format applies to strings, not integer`,
		},
	},
	{
		name: "mapping_where_a_string_is_needed",
		src: `types:
  A: {type: string, description: {text: x}, pattern: [a]}
`,
		want: []string{
			`mcpgen.yaml:5:34: description must be a string`,
			`mcpgen.yaml:5:54: pattern must be a string`,
		},
	},
}
