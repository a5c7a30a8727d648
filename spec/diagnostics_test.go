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
			"mcpgen.yaml:5:7: syntax error: mapping values are not allowed in this context (a plain value cannot hold \": \"; quote the value)\n" +
				"    5 |   a: b: c\n" +
				"      |       ^",
		},
	},
	{
		name: "tab",
		src: `tools:
	a: 1
`,
		want: []string{
			"mcpgen.yaml:5:1: syntax error: found character that cannot start any token (indent with spaces, not tabs)\n" +
				"    5 | \ta: 1\n" +
				"      | ^",
		},
	},
	{
		name:   "client_bad_package",
		noBase: true,
		src: `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p, client: clients/my-client}
`,
		want: []string{
			`mcpgen.yaml:3:26: client "clients/my-client": the package is named after the directory's last element, and "my-client" is not a Go package name; use letters, digits and _`,
		},
	},
	{
		name:   "client_not_bool",
		noBase: true,
		src: `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p, output: p, client: 1}
`,
		want: []string{
			`mcpgen.yaml:3:37: client (true, or a directory) must be true or false`,
		},
	},
	{
		name: "anchor",
		src: `tools: *nope
`,
		want: []string{
			"mcpgen.yaml:4:8: syntax error: alias *nope refers to no anchor &nope\n" +
				"    4 | tools: *nope\n" +
				"      |        ^",
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
			`mcpgen.yaml:1:1: the spec must be a mapping with the keys mcpgen, server, go, types, tools, resources, resourceTemplates, prompts, toolsets, lint, registry and upstream`,
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
		// A path tied to one OS: a backslash, then a drive letter.
		name:   "go_output_backslash",
		noBase: true,
		src: `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p, output: 'internal\mcp'}
`,
		want: []string{
			`mcpgen.yaml:3:26: output must be a relative path with forward slashes, such as internal/mcp`,
		},
	},
	{
		name:   "go_output_drive",
		noBase: true,
		src: `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p, output: 'C:mcp'}
`,
		want: []string{
			`mcpgen.yaml:3:26: output must be a relative path with forward slashes, such as internal/mcp`,
		},
	},
	{
		name:   "cache_scope_typo",
		noBase: true,
		src: `mcpgen: 1
server: {name: s, version: '1', caching: {scope: pubic}}
go: {package: p}
`,
		want: []string{
			`mcpgen.yaml:2:50: scope "pubic" must be public or private; did you mean "public"?`,
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
  F: {type: [string, array]}
  G: {type: integer, Minimum: 3}
`,
		want: []string{
			`mcpgen.yaml:5:21: unknown key "patern" in string schema; did you mean "pattern"?`,
			`mcpgen.yaml:6:22: minLength applies to strings, not integer`,
			`mcpgen.yaml:7:6: cannot tell the type; add type: string`,
			`mcpgen.yaml:8:13: unknown type "strng"; did you mean "string"?`,
			`mcpgen.yaml:9:13: type "A" is a named type; write $ref: A`,
			`mcpgen.yaml:10:22: a list of types takes array alone with null, or scalar types (string, integer, number, boolean and null); write other unions with anyOf`,
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
  E: {type: string, format: emial}
`,
		want: []string{
			"mcpgen.yaml:5:30: pattern does not compile: error parsing regexp: missing closing ): `(abc`",
			"mcpgen.yaml:6:30: pattern does not compile: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
			`mcpgen.yaml:7:29: unknown format "date_time"; did you mean "date-time"?`,
			`mcpgen.yaml:9:29: unknown format "emial"; did you mean "email"?`,
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
			`mcpgen.yaml:9:62: additionalProperties must be true, false, null or {} beside properties; a schema makes a map, which has no fixed properties`,
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
		name:   "exposure",
		noBase: true,
		src: `mcpgen: 1
server: {name: s, version: '1', exposure: serach}
go: {package: p}
`,
		want: []string{
			`mcpgen.yaml:2:43: unknown exposure "serach"; did you mean "search"?`,
		},
	},
	{
		name: "task_support",
		src: `tools:
  a: {description: x, execution: {taskSupport: optinal}}
  b: {description: x, execution: {taskSupport: sometimes, tasks: 1}}
  c: {description: x, execution: {inputFirst: true}}
`,
		want: []string{
			`mcpgen.yaml:5:48: unknown taskSupport "optinal"; did you mean "optional"?`,
			`mcpgen.yaml:6:48: unknown taskSupport "sometimes"; use forbidden, optional or required`,
			`mcpgen.yaml:6:59: unknown key "tasks" in execution`,
			`mcpgen.yaml:7:47: inputFirst needs taskSupport optional or required: it says how a call becomes a task`,
		},
	},
	{
		name: "raw_only_keywords",
		src: `types:
  A: {type: object, properties: {a: {type: string}}, allOf: [{required: [a]}]}
  B: {type: object, properties: {}, patternProperties: {x: {type: string}}}
`,
		want: []string{
			`mcpgen.yaml:5:54: unknown key "allOf" in object schema; typed schemas have no allOf: write the tool's schema in full with inputSchema or outputSchema (raw JSON Schema 2020-12, advertised as written)`,
			`mcpgen.yaml:6:37: unknown key "patternProperties" in object schema; typed schemas have no patternProperties: write the tool's schema in full with inputSchema or outputSchema (raw JSON Schema 2020-12, advertised as written)`,
		},
	},
	{
		name: "discriminator",
		src: `types:
  A: {properties: {kind: {const: a}, n: {type: integer}}, required: [kind]}
  B: {properties: {kind: {const: a}}, required: [kind]}
  C: {properties: {kind: {type: string}}, required: [kind]}
  D: {oneOf: [{$ref: A}, {$ref: B}], discriminator: kind}
  E: {oneOf: [{$ref: A}, {$ref: C}], discriminator: kind}
  F: {oneOf: [{$ref: A}, {type: string}], discriminator: kind}
  G: {type: string, discriminator: kind}
`,
		want: []string{
			`mcpgen.yaml:8:53: discriminator "kind": variants 1 and 2 both have the value "a"`,
			`mcpgen.yaml:9:53: discriminator "kind": variant 2 has no required property "kind" with a const value`,
			`mcpgen.yaml:10:58: discriminator "kind": variant 2 is not an object`,
			`mcpgen.yaml:11:21: discriminator applies to unions, not string`,
		},
	},
	{
		name: "go_names",
		src: `types:
  A: {type: string, goName: lowerCase}
  B: {enum: [happy, sad], goNames: {happy: Glad, angry: Cross}}
  C: {type: string, goNames: {a: A}}
  D: {type: object, goNames: {a: A}}
tools:
  t: {description: x, goName: do_it}
`,
		want: []string{
			`mcpgen.yaml:5:29: goName "lowerCase" must be an exported Go identifier, such as LowerCase`,
			`mcpgen.yaml:6:50: goNames: "angry" is not a value of the enum`,
			`mcpgen.yaml:7:21: goNames names the constants of an enum; add enum`,
			`mcpgen.yaml:8:21: goNames applies to enums, not object`,
			`mcpgen.yaml:10:31: goName "do_it" must be an exported Go identifier, such as Do_it`,
		},
	},
	{
		name: "const_misused",
		src: `types:
  A: {type: string, const: 1}
  B: {const: x, enum: [x, y]}
  C: {type: boolean, const: "yes"}
  D: {type: string, const: ab, minLength: 3}
`,
		want: []string{
			`mcpgen.yaml:5:28: const value is invalid: 1 is a number, not a string`,
			`mcpgen.yaml:6:7: const and enum both give the allowed values; keep one`,
			`mcpgen.yaml:7:29: const value is invalid: "yes" is a string, not a boolean`,
			`mcpgen.yaml:8:28: const value is invalid: "ab" is shorter than minLength 3`,
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
		name: "integer formats",
		src: `types:
  A: {type: integer, format: int32, default: 2147483647, examples: [-2147483648]}
  B: {type: integer, format: int32, default: 2147483648}
  C: {type: integer, format: int64, examples: [9223372036854775808]}
  D: {type: integer, format: int16}
  E: {type: number, format: int32}
`,
		want: []string{
			`mcpgen.yaml:6:46: default is invalid: 2147483648 is out of the range of format int32`,
			`mcpgen.yaml:7:48: example is invalid: 9223372036854775808 is out of the range of format int64`,
			`mcpgen.yaml:8:30: unknown format "int16"; did you mean "int32"?`,
		},
	},
	{
		name: "format_on_boolean",
		src: `types:
  A: {type: boolean, format: int32}
  B: {type: integer, format: int23}
  C: {type: integer, format: int32}
  D: {type: number, format: decimal128}
`,
		want: []string{
			`mcpgen.yaml:5:22: format applies to strings, integers and numbers, not boolean`,
			`mcpgen.yaml:6:30: unknown format "int23"; did you mean "int32"?`,
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
	{
		// 1002 variables in one expression: past Go's regexp repeat limit.
		name: "uri_template_too_large",
		src:  "resourceTemplates:\n  t: {uriTemplate: 'x://{" + strings.Repeat("v,", 1001) + "v}'}\n",
		want: []string{
			`mcpgen.yaml:5:20: uriTemplate does not parse: too large to match URIs with`,
		},
	},
	{
		name: "resource_uri",
		src: `resources:
  no_uri: {title: x}
  empty_uri: {uri: ""}
  braces: {uri: 'config://{name}'}
  relative: {uri: app/config}
  spaces: {uri: 'config://my app'}
  bad_escape: {uri: 'config://app/%zz'}
  "": {uri: 'x://y'}
  not_map: config://app
  uri_num: {uri: 12}
`,
		want: []string{
			`mcpgen.yaml:5:3: missing required key "uri" in resource "no_uri"`,
			`mcpgen.yaml:6:20: uri must be a non-empty string`,
			`mcpgen.yaml:7:17: uri "config://{name}" holds { or }; a URI with variables belongs under resourceTemplates:`,
			`mcpgen.yaml:8:19: uri "app/config" must be an absolute URI with a scheme, such as config://app`,
			`mcpgen.yaml:9:17: uri "config://my app" must not hold spaces or control characters; percent-encode them (a space is %20)`,
			`mcpgen.yaml:10:21: uri "config://app/%zz" is not a valid URI: invalid URL escape "%zz"`,
			`mcpgen.yaml:11:3: resource name must not be empty`,
			`mcpgen.yaml:12:12: resource "not_map" must be a mapping`,
			`mcpgen.yaml:13:18: uri must be a non-empty string`,
		},
	},
	{
		name: "resource_fields",
		src: `resources:
  a:
    uri: x://a
    mimeType: text
    size: -1
    content: txt
    uriTemplate: x://{a}
  b: {uri: 'x://b', mimeType: 'text/plain; charset', size: 1.5, content: json}
  c: {uri: 'x://c', mimeType: image/*, content: Config}
  d: {uri: 'x://d', content: [text]}
  e: {uri: 'x://e', content: {description: no type}}
  f: {uri: 'x://f', content: stuff, mimeType: ''}
types:
  Config: {properties: {a: {type: string}}}
`,
		want: []string{
			`mcpgen.yaml:7:15: mimeType "text" must be a media type such as text/plain or application/json`,
			`mcpgen.yaml:8:11: size must not be negative`,
			`mcpgen.yaml:9:14: unknown content "txt"; did you mean "text"?`,
			`mcpgen.yaml:10:5: unknown key "uriTemplate" in resource "a"; a resource with a uriTemplate belongs under resourceTemplates:`,
			`mcpgen.yaml:11:31: mimeType "text/plain; charset" is not a valid media type: invalid media parameter`,
			`mcpgen.yaml:11:60: size must be an integer`,
			`mcpgen.yaml:11:74: content json is written as the schema of the value, such as content: {$ref: Config}`,
			`mcpgen.yaml:12:31: mimeType "image/*" must be a media type such as text/plain or application/json`,
			`mcpgen.yaml:12:49: content "Config" is a named type; write content: {$ref: Config}`,
			`mcpgen.yaml:13:30: content must be text, binary, contents or a schema, such as {$ref: Config}`,
			`mcpgen.yaml:14:30: cannot tell the type; add type: string, integer, number, boolean, array, object, map or any`,
			`mcpgen.yaml:15:30: unknown content "stuff"; use text, binary, contents or a schema, such as {$ref: Config}`,
		},
	},
	{
		name: "resource_meta_icons",
		src: `resources:
  a:
    uri: x://a
    title: 1
    _meta: x
    icons: [{src: x}]
    description: [a]
`,
		want: []string{
			`mcpgen.yaml:7:12: title must be a string`,
			`mcpgen.yaml:8:12: _meta must be a mapping`,
			`mcpgen.yaml:9:19: icon src must be an http(s) URL or a data: URI`,
			`mcpgen.yaml:10:18: description must be a string`,
		},
	},
	{
		name: "resource_annotations",
		src: `resources:
  a:
    uri: x://a
    annotations: {audience: [user, users, user, 1], priority: 1.5, lastModified: 2026-11-01}
  b: {uri: 'x://b', annotations: {audience: user, priority: high, lastModified: 'yesterday', importance: 1}}
  c: {uri: 'x://c', annotations: {audience: [bot], priority: -0.1, lastModified: [x]}}
  d: {uri: 'x://d', annotations: {priority: 1e5000, lastModified: '2026-11-01T00:00:00+0200'}}
  e: {uri: 'x://e', annotations: x}
`,
		want: []string{
			`mcpgen.yaml:7:36: unknown audience "users"; did you mean "user"?`,
			`mcpgen.yaml:7:43: duplicate audience "user" (first listed at mcpgen.yaml:7:30)`,
			`mcpgen.yaml:7:49: audience values must be user or assistant`,
			`mcpgen.yaml:7:63: priority must be between 0 and 1, not 1.5`,
			`mcpgen.yaml:7:82: lastModified "2026-11-01" must be an RFC 3339 date-time, such as 2026-11-01T00:00:00Z`,
			`mcpgen.yaml:8:45: audience must be a list`,
			`mcpgen.yaml:8:61: priority must be a number`,
			`mcpgen.yaml:8:81: lastModified "yesterday" must be an RFC 3339 date-time, such as 2026-11-01T00:00:00Z`,
			`mcpgen.yaml:8:94: unknown key "importance" in annotations`,
			`mcpgen.yaml:9:46: unknown audience "bot"; use user or assistant`,
			`mcpgen.yaml:9:62: priority must be between 0 and 1, not -0.1`,
			`mcpgen.yaml:9:82: lastModified must be a date-time, such as 2026-11-01T00:00:00Z`,
			`mcpgen.yaml:10:45: priority must be between 0 and 1, not 1e5000`,
			`mcpgen.yaml:10:67: lastModified "2026-11-01T00:00:00+0200" must be an RFC 3339 date-time, such as 2026-11-01T00:00:00Z`,
			`mcpgen.yaml:11:34: annotations must be a mapping`,
		},
	},
	{
		name: "resource_duplicates_and_same_uri",
		src: `resources:
  a: {uri: 'x://same'}
  b: {uri: 'x://same'}
  a: {uri: 'x://other'}
`,
		want: []string{
			`mcpgen.yaml:6:12: resource "b" has the same uri "x://same" as resource "a" (mcpgen.yaml:5:3)`,
			`mcpgen.yaml:7:3: duplicate resource "a" (first defined at mcpgen.yaml:5:3)`,
		},
	},
	{
		name: "static_uri_matched_by_template",
		src: `resources:
  app_config: {uri: 'config://app'}
  readme: {uri: 'github://acme/tools/readme'}
  ok: {uri: 'github://acme/readme'}
resourceTemplates:
  config: {uriTemplate: 'config://{name}'}
  readme: {uriTemplate: 'github://{owner}/{repo}/readme'}
`,
		want: []string{
			`mcpgen.yaml:5:21: resource "app_config" uri "config://app" is also matched by resource template "config" (mcpgen.yaml:9:3); a read of that uri would be ambiguous, so change the uri or the template`,
			`mcpgen.yaml:6:17: resource "readme" uri "github://acme/tools/readme" is also matched by resource template "readme" (mcpgen.yaml:10:3); a read of that uri would be ambiguous, so change the uri or the template`,
		},
	},
	{
		name: "static_uri_matched_by_reserved_and_query_templates",
		src: `resources:
  file: {uri: 'file:///a/b'}
  search: {uri: 'search://q?x=1'}
  other: {uri: 'search://r'}
resourceTemplates:
  files: {uriTemplate: 'file:///{+path}'}
  search: {uriTemplate: 'search://q{?x}'}
`,
		want: []string{
			`mcpgen.yaml:5:15: resource "file" uri "file:///a/b" is also matched by resource template "files" (mcpgen.yaml:9:3); a read of that uri would be ambiguous, so change the uri or the template`,
			`mcpgen.yaml:6:17: resource "search" uri "search://q?x=1" is also matched by resource template "search" (mcpgen.yaml:10:3); a read of that uri would be ambiguous, so change the uri or the template`,
		},
	},
	{
		name: "uri_templates",
		src: `resourceTemplates:
  a: {uriTemplate: 'github://{owner}/{repo'}
  b: {uriTemplate: 'x://{a b}'}
  c: {uriTemplate: 'x://fixed'}
  d: {uriTemplate: '{+uri}'}
  e: {uriTemplate: 'x://{=a}'}
  f: {uriTemplate: 'x://{a%20b}'}
  g: {uriTemplate: 'x://{a}/{a*}'}
  h: {title: no uri template}
  i: {uriTemplate: 'x://{a}%zz'}
  j: {uriTemplate: 'x://{}'}
  k: {uriTemplate: 'x:// {a}'}
`,
		want: []string{
			`mcpgen.yaml:5:20: uriTemplate does not parse: incomplete expression at the end`,
			`mcpgen.yaml:6:20: uriTemplate does not parse: unacceptable variable name after "x://{a"`,
			`mcpgen.yaml:7:20: uriTemplate "x://fixed" has no variable; a fixed URI belongs under resources:`,
			`mcpgen.yaml:8:20: uriTemplate "{+uri}" must start with a URI scheme before its first variable, such as github://{owner}/{repo}`,
			`mcpgen.yaml:9:20: uriTemplate does not parse: unimplemented operator (op-reserved) after "x://{="`,
			`mcpgen.yaml:10:20: variable name "a%20b" holds a %-escape; name template variables with letters, digits, _ and .`,
			`mcpgen.yaml:11:20: variable "a" is exploded in one place of the uriTemplate and not in another`,
			`mcpgen.yaml:12:3: missing required key "uriTemplate" in resource template "h"`,
			`mcpgen.yaml:13:20: uriTemplate does not parse: incomplete %-escape after "x://{a}"`,
			`mcpgen.yaml:14:20: uriTemplate does not parse: unacceptable variable name after "x://{"`,
			`mcpgen.yaml:15:20: uriTemplate does not parse: unacceptable character (hint: use %XX encoding) after "x://"`,
		},
	},
	{
		name: "template_variable_shapes",
		src: `types:
  Obj: {properties: {a: {type: string}}}
  Code: {type: string, pattern: '^[A-Z]+$'}
  Codes: {type: array, items: {$ref: Code}}
resourceTemplates:
  t:
    uriTemplate: 'x://{owner}/{id}{/path*}{/tags*}{?obj}{&codes*}{&lst}{&n*}'
    variables:
      ownr: {type: string}
      id: {type: integer, nullable: true, default: 1}
      path: {type: string}
      tags: {type: array, items: {type: object, properties: {a: {type: string}}}}
      obj: {$ref: Obj}
      codes: {$ref: Codes}
      lst: {type: array, items: {type: string}}
      extra: {type: string, complete: yes}
      n: {type: array, items: {type: integer, nullable: true}}
`,
		want: []string{
			`mcpgen.yaml:12:7: variable "ownr" is declared but the uriTemplate has no {ownr}; did you mean "owner"?`,
			`mcpgen.yaml:13:27: nullable is not allowed on a URI template variable`,
			`mcpgen.yaml:13:43: default is allowed only on a query variable ({?id} or {&id}): a URI always holds its other variables`,
			`mcpgen.yaml:14:13: variable "path" is exploded ({/path*}), so it must be an array of strings, integers, numbers or booleans, not a string`,
			`mcpgen.yaml:15:34: variable "tags" is exploded ({/tags*}), so its items must be strings, integers, numbers or booleans, not an object`,
			`mcpgen.yaml:16:12: variable "obj" must be a string, integer, number or boolean, but type "Obj" is an object`,
			`mcpgen.yaml:18:12: variable "lst" must be a string, integer, number or boolean, not an array`,
			`mcpgen.yaml:19:7: variable "extra" is declared but the uriTemplate has no {extra}`,
			`mcpgen.yaml:19:39: complete must be true or false`,
			`mcpgen.yaml:20:47: the items of variable "n" cannot be nullable`,
		},
	},
	{
		name: "template_keys",
		src: `resourceTemplates:
  t:
    uriTemplate: 'x://{a}{b}{c}'
    variables:
      a: {type: string, compelte: true}
      b: string
      a: {type: string}
      c: {complete: true, complete: false}
    size: 1
    uri: x://y
  u:
    uriTemplate: 'x://{id}'
    _meta: [1]
    icons: [{src: ftp://x}]
    content: {type: strng}
    annotations: [user]
    mimeType: 5
    variables: [id]
`,
		want: []string{
			`mcpgen.yaml:8:25: unknown key "compelte" in string schema; did you mean "complete"?`,
			`mcpgen.yaml:9:10: variable "b" must be a mapping, such as {type: string}`,
			`mcpgen.yaml:10:7: duplicate variable "a" (first defined at mcpgen.yaml:8:7)`,
			`mcpgen.yaml:11:27: duplicate key "complete" (first defined at mcpgen.yaml:11:11)`,
			`mcpgen.yaml:12:5: unknown key "size" in resource template "t"; only a static resource (under resources:) has a size`,
			`mcpgen.yaml:13:5: unknown key "uri" in resource template "t"; a resource template has a uriTemplate, and a fixed uri belongs under resources:`,
			`mcpgen.yaml:16:12: _meta must be a mapping`,
			`mcpgen.yaml:17:19: icon src must be an http(s) URL or a data: URI`,
			`mcpgen.yaml:18:21: unknown type "strng"; did you mean "string"?`,
			`mcpgen.yaml:19:18: annotations must be a mapping`,
			`mcpgen.yaml:20:15: mimeType must be a string`,
			`mcpgen.yaml:21:16: variables must be a mapping`,
		},
	},
	{
		name: "template_that_does_not_parse_keeps_its_declarations",
		src: `resourceTemplates:
  t:
    uriTemplate: 'x://{a'
    variables:
      a: {type: object, properties: {}}
      b: {type: string, nullable: true}
`,
		want: []string{
			`mcpgen.yaml:6:18: uriTemplate does not parse: incomplete expression at the end`,
			`mcpgen.yaml:9:25: nullable is not allowed on a URI template variable`,
		},
	},
	{
		name: "template_content_and_enum_complete",
		src: `resourceTemplates:
  t:
    uriTemplate: 'x://{kind}'
    content: {type: array}
    variables:
      kind: {enum: [a, b], complete: true}
      # complete on an enum is accepted: enums complete from their values.
`,
		want: []string{
			`mcpgen.yaml:7:14: an array schema needs items, the schema of every item`,
		},
	},
	{
		name: "duplicate_templates_prompts_arguments",
		src: `resourceTemplates:
  a: {uriTemplate: 'x://{a}'}
  a: {uriTemplate: 'y://{a}'}
  b: {uriTemplate: 'x://{a}'}
prompts:
  p: {description: d}
  p: {description: e}
  q:
    description: d
    arguments:
      x: {}
      x: {}
`,
		want: []string{
			`mcpgen.yaml:6:3: duplicate resource template "a" (first defined at mcpgen.yaml:5:3)`,
			`mcpgen.yaml:7:20: resource template "b" has the same uriTemplate as resource template "a" (mcpgen.yaml:5:3)`,
			`mcpgen.yaml:10:3: duplicate prompt "p" (first defined at mcpgen.yaml:9:3)`,
			`mcpgen.yaml:15:7: duplicate argument "x" (first defined at mcpgen.yaml:14:7)`,
		},
	},
	{
		name: "prompts_and_arguments",
		src: `prompts:
  "": {description: d}
  nodesc: {title: t}
  emptydesc: {description: ""}
  notmap: hello
  p:
    description: d
    arguments:
      a: {type: integer, enum: [1, x, {k: v}], required: "yes"}
      b: {enum: []}
      c: {enum: [x, y, x]}
      d: plain
    messages: []
  q: {description: d, mesages: []}
`,
		want: []string{
			`mcpgen.yaml:5:3: prompt name must not be empty`,
			`mcpgen.yaml:6:3: missing required key "description" in prompt "nodesc"`,
			`mcpgen.yaml:7:28: description must be a non-empty string`,
			`mcpgen.yaml:8:11: prompt "notmap" must be a mapping`,
			`mcpgen.yaml:12:11: unknown key "type" in argument "a"; prompt arguments are always strings (restrict them with enum)`,
			`mcpgen.yaml:12:33: enum value 1 must be a string, as prompt arguments are; write "1"`,
			`mcpgen.yaml:12:39: enum values must be strings, as prompt arguments are`,
			`mcpgen.yaml:12:58: required must be true or false`,
			`mcpgen.yaml:13:17: enum must not be empty`,
			`mcpgen.yaml:14:24: duplicate enum value "x" (first listed at mcpgen.yaml:14:18)`,
			`mcpgen.yaml:15:10: argument "d" must be a mapping`,
			`mcpgen.yaml:16:15: messages must not be empty; leave messages out when the handler builds them`,
			`mcpgen.yaml:17:23: unknown key "mesages" in prompt "q"; did you mean "messages"?`,
		},
	},
	{
		name: "prompt_messages",
		src: `prompts:
  triage_ticket:
    description: Triage a ticket.
    arguments:
      ticket_id: {required: true}
      tone: {enum: [formal, friendly]}
    messages:
      - {role: user, text: "Triage {{.tiket_id}} in a {{.tone}} tone."}
      - {role: system, text: hi}
      - {text: hi}
      - {role: User, text: hi}
      - {role: user}
      - {role: user, text: hi, image: {data: AAAA, mimeType: image/png}}
      - {role: user, text: "{{if .tone}}x{{end}}"}
      - {role: user, text: "{{.ticket_id.x}} {{len .tone}}"}
      - {role: user, text: "{{.tone"}
      - {role: user, text: "{{- .tone}}"}
      - {role: user, text: "{{/* note */}}"}
      - {role: user, text: "{{.nope}}"}
      - {role: user, txt: hi}
      - just text
      - {role: user, text: ""}
      - {role: user, text: "{{len .tone}}\n{{.x"}
`,
		want: []string{
			`mcpgen.yaml:11:28: placeholder {{.tiket_id}} names no argument; did you mean "ticket_id"?`,
			`mcpgen.yaml:12:16: unknown role "system"; use user or assistant (MCP prompt messages have no system role)`,
			`mcpgen.yaml:13:9: missing required key "role" in message`,
			`mcpgen.yaml:14:16: unknown role "User"; did you mean "user"?`,
			`mcpgen.yaml:15:9: a message needs one of text, resource, image or audio`,
			`mcpgen.yaml:16:9: a message holds only one of text, resource, image or audio; this one has text and image`,
			`mcpgen.yaml:17:28: text holds {{if …}}; only {{.name}} placeholders are supported`,
			`mcpgen.yaml:18:28: text holds {{.ticket_id.x}}; only {{.name}} placeholders are supported`,
			`mcpgen.yaml:19:28: text is not a valid template: unclosed action; only {{.name}} placeholders are supported`,
			`mcpgen.yaml:20:28: text holds a trim marker ({{- or -}}); only {{.name}} placeholders are supported`,
			`mcpgen.yaml:21:28: text holds a comment {{/* … */}}; only {{.name}} placeholders are supported`,
			`mcpgen.yaml:22:28: placeholder {{.nope}} names no argument; did you mean "tone"?`,
			`mcpgen.yaml:23:9: a message needs one of text, resource, image or audio`,
			`mcpgen.yaml:23:22: unknown key "txt" in message; did you mean "text"?`,
			`mcpgen.yaml:24:9: a message must be a mapping`,
			`mcpgen.yaml:25:28: text must be a non-empty string`,
			`mcpgen.yaml:26:28: text is not a valid template: unclosed action (line 2); only {{.name}} placeholders are supported`,
		},
	},
	{
		name: "prompt_resources_and_media",
		src: `prompts:
  p:
    description: d
    arguments: {id: {}}
    messages:
      - {role: user, resource: '{{.id}}'}
      - {role: user, resource: 'ticket://{{.id}} x'}
      - {role: user, resource: 'ticket'}
      - {role: user, resource: 'ticket://{{.di}}'}
      - {role: assistant, image: {data: 'not base64!', mimeType: image/png}}
      - {role: assistant, image: {data: 'a-b_', mimeType: image/png}}
      - {role: assistant, image: {mimeType: audio/wav, data: AAAA}}
      - {role: assistant, audio: {data: AAAA}}
      - {role: assistant, audio: {data: '', mimeType: 'audio'}}
      - {role: assistant, image: {data: 12, mimeType: image/png, size: 3}}
      - {role: assistant, image: AAAA}
      - {role: user, resource: 'x://a/%zz{{.id}}'}
  noargs:
    description: d
    messages:
      - {role: user, text: "{{.x}}"}
`,
		want: []string{
			`mcpgen.yaml:9:32: resource "{{.id}}" must start with a URI scheme, such as ticket://{{.id}}`,
			`mcpgen.yaml:10:32: resource "ticket://{{.id}} x" must not hold spaces or control characters; percent-encode them (a space is %20)`,
			`mcpgen.yaml:11:32: resource "ticket" must start with a URI scheme, such as ticket://{{.id}}`,
			`mcpgen.yaml:12:32: placeholder {{.di}} names no argument; did you mean "id"?`,
			`mcpgen.yaml:13:41: data is not valid standard base64 (illegal base64 data at input byte 9)`,
			`mcpgen.yaml:14:41: data is not valid standard base64 (illegal base64 data at input byte 1); this looks like URL-safe base64: write + and / for - and _`,
			`mcpgen.yaml:15:45: the mimeType of an image must be image/…, such as image/png, not "audio/wav"`,
			`mcpgen.yaml:16:34: missing required key "mimeType" in audio`,
			`mcpgen.yaml:17:41: data must not be empty`,
			`mcpgen.yaml:17:55: mimeType "audio" must be a media type such as text/plain or application/json`,
			`mcpgen.yaml:18:41: data must be a base64 string`,
			`mcpgen.yaml:18:66: unknown key "size" in image`,
			`mcpgen.yaml:19:34: image must be a mapping`,
			`mcpgen.yaml:20:32: resource "x://a/%zz{{.id}}" is not a valid URI: invalid URL escape "%zz"`,
			`mcpgen.yaml:24:28: placeholder {{.x}} names no argument; prompt "noargs" has no arguments`,
		},
	},
	{
		name: "placeholder_lists_the_arguments",
		src: `prompts:
  p:
    description: d
    arguments: {customer: {}, order_number: {}}
    messages:
      - {role: user, text: "Look up {{.x}} and {{.x}} for {{ .customer }}."}
`,
		want: []string{
			`mcpgen.yaml:9:28: placeholder {{.x}} names no argument; the arguments are "customer" and "order_number"`,
		},
	},
	{
		name: "prompt_shapes",
		src: `prompts:
  p:
    description: d
    arguments: [a]
    messages: {role: user}
  q:
    description: d
    messages:
      - {role: user, image: {data: !!binary AAAA, mimeType: image/png}}
      - {role: user, image: {data: [1], mimeType: image/png}}
      - {role: user, audio: {data: AAAA, mimeType: 'audio/wav; x'}}
`,
		want: []string{
			`mcpgen.yaml:7:16: arguments must be a mapping`,
			`mcpgen.yaml:8:15: messages must be a list`,
			`mcpgen.yaml:13:36: data must be a base64 string`,
			`mcpgen.yaml:14:52: mimeType "audio/wav; x" is not a valid media type: invalid media parameter`,
		},
	},
	{
		name: "new_sections_not_mappings",
		src: `resources: [a]
resourceTemplates: x
prompts: 1
`,
		want: []string{
			`mcpgen.yaml:4:12: resources must be a mapping`,
			`mcpgen.yaml:5:20: resourceTemplates must be a mapping`,
			`mcpgen.yaml:6:10: prompts must be a mapping`,
		},
	},
	{
		name: "new_sections_typos",
		src: `resource: {}
resourceTemplate: {}
prompt: {}
`,
		want: []string{
			`mcpgen.yaml:4:1: unknown key "resource" at the top level; did you mean "resources"?`,
			`mcpgen.yaml:5:1: unknown key "resourceTemplate" at the top level; did you mean "resourceTemplates"?`,
			`mcpgen.yaml:6:1: unknown key "prompt" at the top level; did you mean "prompts"?`,
		},
	},
}
