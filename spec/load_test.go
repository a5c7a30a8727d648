package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gopkg.in/yaml.v3"
)

// fullSpec uses every key of the spec language once.
const fullSpec = `# The orders desk.
mcpgen: 1
server:
  name: orders
  title: Orders desk
  version: 1.10
  description: Orders, lines and refunds.
  instructions: Look an order up before acting on it.
  websiteUrl: https://example.com/orders
  icons: [{src: https://example.com/icon.png, mimeType: image/png, sizes: ["48x48", any], theme: light}]
go:
  package: ordersmcp
  output: internal/ordersmcp
types:
  OrderID: {type: string, pattern: '^[A-Z]-\d{4}$', description: An order id such as A-1042., examples: [A-1042]}
  Status: {enum: [pending, paid, refunded], default: pending}
  OrderLine:
    title: Line
    properties:
      sku: {type: string, minLength: 1, maxLength: 32, format: uuid}
      qty: {type: integer, minimum: 1, maximum: 99, multipleOf: 1, default: 1}
      price: {type: number, exclusiveMinimum: 0, exclusiveMaximum: 1e6}
    required: [sku, qty]
  Order:
    properties:
      order_id: {$ref: OrderID}
      status: {$ref: Status, nullable: true, description: Where it is.}
      lines: {type: array, items: {$ref: OrderLine}, minItems: 1, maxItems: 50, uniqueItems: true}
      tags: {type: object, additionalProperties: {type: string}}
      counts: {type: map, values: {type: integer}}
      extra: {type: any}
      paid: {type: boolean}
      at: {goType: time.Time}
      addr: {goType: net/netip.Addr}
      parent: {$ref: Order, nullable: true}
    required: [order_id, status]
    additionalProperties: true
tools:
  lookup_order:
    title: Look up an order
    description: Look up an order by id.
    input: {properties: {order_id: {$ref: OrderID}}, required: [order_id]}
    output: {$ref: Order}
    annotations: {title: Lookup, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false}
    icons: [{src: "data:image/png;base64,iVBORw0KGgo="}]
    _meta: {com.example/z: 1, com.example/a: [true, null, 0x10, 1.50, "x<y"]}
  ping:
    description: Answers pong.
resources:
  app_config:
    uri: config://app
    title: App config
    description: The configuration.
    mimeType: application/json
    size: 1234
    annotations: {audience: [user, assistant], priority: 0.5, lastModified: 2026-11-01T00:00:00Z}
    icons: [{src: https://example.com/cfg.png}]
    _meta: {com.example/k: v}
    content: {$ref: Order}
  readme:
    uri: file:///README.md
    mimeType: text/html;profile=mcp-app
  logo: {uri: 'img://logo', content: binary}
  all: {uri: 'bundle://all', content: contents, annotations: {lastModified: '2026-11-01T10:00:00.5+02:00'}}
resourceTemplates:
  repo_readme:
    uriTemplate: 'github://{owner}/{repo}/readme{?ref}'
    title: README
    description: A repository's README.
    mimeType: text/markdown
    annotations: {audience: [assistant], priority: 1}
    icons: [{src: https://example.com/gh.png}]
    _meta: {x: 1}
    variables:
      repo: {type: string, minLength: 1, complete: true}
      owner: {type: string, pattern: '^[a-z0-9-]+$', complete: true}
  order:
    uriTemplate: 'orders://{id}{/path*}'
    content: {$ref: Order}
    variables:
      id: {$ref: OrderID}
      path: {type: array, items: {type: integer}}
  files:
    uriTemplate: 'files:///{+path}{#frag}{.ext}{;v}{&x}{?list*}'
    variables:
      ext: {enum: [md, txt], complete: true}
      v: {type: integer, minimum: 1, description: The version.}
      x: {type: boolean}
prompts:
  triage_ticket:
    title: Triage a ticket
    description: Triage a support ticket.
    icons: [{src: https://example.com/t.png}]
    _meta: {k: true}
    arguments:
      ticket_id: {title: Ticket, description: The ticket id., required: true, complete: true}
      tone: {enum: [formal, friendly]}
    messages:
      - {role: user, text: "Triage ticket {{.ticket_id}} in a {{ .tone }} tone."}
      - {role: user, resource: 'ticket://{{.ticket_id}}'}
      - {role: assistant, image: {data: iVBORw0KGgo=, mimeType: image/png}}
      - role: user
        audio:
          mimeType: audio/wav
          data: |
            UklG
            Rg==
  summarize:
    description: Summarize; the handler builds the messages.
    arguments:
      topic: {}
`

func ptr[T any](v T) *T { return &v }

func val(json string) *Value { return &Value{JSON: []byte(json)} }

func TestLoadFullSpec(t *testing.T) {
	got, diags := Load("mcpgen.yaml", []byte(fullSpec))
	if len(diags) > 0 {
		t.Fatalf("unexpected diagnostics:\n%v", diags)
	}
	str := func(s *Schema) *Schema { s.Kind = KindString; return s }
	ref := func(name string) *Schema { return &Schema{Kind: KindRef, Ref: name} }
	want := &Spec{
		File:    "mcpgen.yaml",
		Version: 1,
		Server: Server{
			Name:         "orders",
			Title:        "Orders desk",
			Version:      "1.10",
			Description:  "Orders, lines and refunds.",
			Instructions: "Look an order up before acting on it.",
			WebsiteURL:   "https://example.com/orders",
			Icons:        []*Icon{{Src: "https://example.com/icon.png", MimeType: "image/png", Sizes: []string{"48x48", "any"}, Theme: "light"}},
		},
		Go: GoOptions{Package: "ordersmcp", Output: "internal/ordersmcp"},
		Types: []*NamedType{
			{Name: "OrderID", Schema: str(&Schema{Pattern: `^[A-Z]-\d{4}$`, Description: "An order id such as A-1042.", Examples: []*Value{val(`"A-1042"`)}})},
			{Name: "Status", Schema: &Schema{Kind: KindString, Enum: []*Value{val(`"pending"`), val(`"paid"`), val(`"refunded"`)}, Default: val(`"pending"`)}},
			{Name: "OrderLine", Schema: &Schema{
				Kind:  KindObject,
				Title: "Line",
				Properties: []*Property{
					{Name: "sku", Required: true, Schema: str(&Schema{MinLength: ptr[int64](1), MaxLength: ptr[int64](32), Format: "uuid"})},
					{Name: "qty", Required: true, Schema: &Schema{Kind: KindInteger, Minimum: ptr[Number]("1"), Maximum: ptr[Number]("99"), MultipleOf: ptr[Number]("1"), Default: val(`1`)}},
					{Name: "price", Schema: &Schema{Kind: KindNumber, ExclusiveMinimum: ptr[Number]("0"), ExclusiveMaximum: ptr[Number]("1e6")}},
				},
			}},
			{Name: "Order", Schema: &Schema{
				Kind: KindObject,
				Properties: []*Property{
					{Name: "order_id", Required: true, Schema: ref("OrderID")},
					{Name: "status", Required: true, Schema: &Schema{Kind: KindRef, Ref: "Status", Nullable: true, Description: "Where it is."}},
					{Name: "lines", Schema: &Schema{Kind: KindArray, Items: ref("OrderLine"), MinItems: ptr[int64](1), MaxItems: ptr[int64](50), UniqueItems: true}},
					{Name: "tags", Schema: &Schema{Kind: KindMap, Values: &Schema{Kind: KindString}}},
					{Name: "counts", Schema: &Schema{Kind: KindMap, Values: &Schema{Kind: KindInteger}}},
					{Name: "extra", Schema: &Schema{Kind: KindAny}},
					{Name: "paid", Schema: &Schema{Kind: KindBoolean}},
					{Name: "at", Schema: &Schema{Kind: KindGoType, GoType: &GoTypeRef{ImportPath: "time", Name: "Time"}}},
					{Name: "addr", Schema: &Schema{Kind: KindGoType, GoType: &GoTypeRef{ImportPath: "net/netip", Name: "Addr"}}},
					{Name: "parent", Schema: &Schema{Kind: KindRef, Ref: "Order", Nullable: true}},
				},
				AdditionalProperties: true,
			}},
		},
		Tools: []*Tool{
			{
				Item: Item{
					Name:        "lookup_order",
					Title:       "Look up an order",
					Description: "Look up an order by id.",
					Icons:       []*Icon{{Src: "data:image/png;base64,iVBORw0KGgo="}},
					// File key order, integers in decimal, floats as written, no
					// HTML escaping.
					Meta: val(`{"com.example/z":1,"com.example/a":[true,null,16,1.50,"x<y"]}`),
				},
				Input: &Schema{Kind: KindObject, Properties: []*Property{
					{Name: "order_id", Required: true, Schema: ref("OrderID")},
				}},
				Output: ref("Order"),
				Annotations: &ToolAnnotations{
					Title:           "Lookup",
					ReadOnlyHint:    ptr(true),
					DestructiveHint: ptr(false),
					IdempotentHint:  ptr(true),
					OpenWorldHint:   ptr(false),
				},
			},
			{Item: Item{Name: "ping", Description: "Answers pong."}},
		},
		Resources: []*Resource{
			{
				Item: Item{
					Name:        "app_config",
					Title:       "App config",
					Description: "The configuration.",
					Icons:       []*Icon{{Src: "https://example.com/cfg.png"}},
					Meta:        val(`{"com.example/k":"v"}`),
				},
				URI:         "config://app",
				MimeType:    "application/json",
				Size:        ptr[int64](1234),
				Annotations: &Annotations{Audience: []string{"user", "assistant"}, Priority: ptr[Number]("0.5"), LastModified: "2026-11-01T00:00:00Z"},
				Content:     &Content{Kind: ContentJSON, Schema: ref("Order")},
			},
			// Without content:, a resource is text.
			{Item: Item{Name: "readme"}, URI: "file:///README.md", MimeType: "text/html;profile=mcp-app", Content: &Content{Kind: ContentText}},
			{Item: Item{Name: "logo"}, URI: "img://logo", Content: &Content{Kind: ContentBinary}},
			{Item: Item{Name: "all"}, URI: "bundle://all", Content: &Content{Kind: ContentContents}, Annotations: &Annotations{LastModified: "2026-11-01T10:00:00.5+02:00"}},
		},
		ResourceTemplates: []*ResourceTemplate{
			{
				Item: Item{
					Name:        "repo_readme",
					Title:       "README",
					Description: "A repository's README.",
					Icons:       []*Icon{{Src: "https://example.com/gh.png"}},
					Meta:        val(`{"x":1}`),
				},
				URITemplate: "github://{owner}/{repo}/readme{?ref}",
				MimeType:    "text/markdown",
				Annotations: &Annotations{Audience: []string{"assistant"}, Priority: ptr[Number]("1")},
				// Template order, not declaration order; ref is undeclared.
				Variables: []*Variable{
					{Name: "owner", Schema: str(&Schema{Pattern: "^[a-z0-9-]+$"}), Complete: true},
					{Name: "repo", Schema: str(&Schema{MinLength: ptr[int64](1)}), Complete: true},
					{Name: "ref", Schema: &Schema{Kind: KindString}},
				},
				Content: &Content{Kind: ContentText},
			},
			{
				Item: Item{
					Name: "order",
				},
				URITemplate: "orders://{id}{/path*}",
				Variables: []*Variable{
					{Name: "id", Schema: ref("OrderID")},
					{Name: "path", Schema: &Schema{Kind: KindArray, Items: &Schema{Kind: KindInteger}}},
				},
				Content: &Content{Kind: ContentJSON, Schema: ref("Order")},
			},
			{
				Item: Item{
					Name: "files",
				},
				URITemplate: "files:///{+path}{#frag}{.ext}{;v}{&x}{?list*}",
				Variables: []*Variable{
					{Name: "path", Schema: &Schema{Kind: KindString}},
					{Name: "frag", Schema: &Schema{Kind: KindString}},
					{Name: "ext", Schema: &Schema{Kind: KindString, Enum: []*Value{val(`"md"`), val(`"txt"`)}}, Complete: true},
					{Name: "v", Schema: &Schema{Kind: KindInteger, Minimum: ptr[Number]("1"), Description: "The version."}},
					{Name: "x", Schema: &Schema{Kind: KindBoolean}},
					// Undeclared and exploded: an array of strings.
					{Name: "list", Schema: &Schema{Kind: KindArray, Items: &Schema{Kind: KindString}}},
				},
				Content: &Content{Kind: ContentText},
			},
		},
		Prompts: []*Prompt{
			{
				Item: Item{
					Name:        "triage_ticket",
					Title:       "Triage a ticket",
					Description: "Triage a support ticket.",
					Icons:       []*Icon{{Src: "https://example.com/t.png"}},
					Meta:        val(`{"k":true}`),
				},
				Arguments: []*PromptArgument{
					{Name: "ticket_id", Title: "Ticket", Description: "The ticket id.", Required: true, Complete: true},
					{Name: "tone", Enum: []string{"formal", "friendly"}},
				},
				Messages: []*PromptMessage{
					{Role: "user", Text: "Triage ticket {{.ticket_id}} in a {{ .tone }} tone."},
					{Role: "user", Resource: "ticket://{{.ticket_id}}"},
					{Role: "assistant", Image: &Media{Data: []byte("\x89PNG\r\n\x1a\n"), MimeType: "image/png"}},
					// Base64 folded over lines.
					{Role: "user", Audio: &Media{Data: []byte("RIFF"), MimeType: "audio/wav"}},
				},
			},
			{
				Item: Item{
					Name:        "summarize",
					Description: "Summarize; the handler builds the messages.",
				},
				Arguments: []*PromptArgument{{Name: "topic"}},
			},
		},
	}
	opts := cmp.Options{
		cmpopts.IgnoreTypes(Pos{}, []Pos{}),
		cmpopts.IgnoreFields(Schema{}, "Fields", "FieldValues"),
		cmp.Comparer(func(a, b []byte) bool { return string(a) == string(b) }),
	}
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Errorf("Load mismatch (-want +got):\n%s", diff)
	}

	// Positions: 1-based, keys for named elements, values for values.
	order := got.Types[3]
	lookup := got.Tools[0]
	for _, c := range []struct {
		what      string
		got, want Pos
	}{
		{"mcpgen value", got.VersionPos, Pos{2, 9}},
		{"server mapping", got.Server.Pos, Pos{4, 3}},
		{"server version value", got.Server.VersionPos, Pos{6, 12}},
		{"icon", got.Server.Icons[0].Pos, Pos{10, 11}},
		{"go package value", got.Go.PackagePos, Pos{12, 12}},
		{"type key", got.Types[0].Pos, Pos{15, 3}},
		{"type schema", got.Types[0].Schema.Pos, Pos{15, 12}},
		{"pattern key", got.Types[0].Schema.Fields["pattern"], Pos{15, 27}},
		{"pattern value", got.Types[0].Schema.FieldValues["pattern"], Pos{15, 36}},
		{"example value", got.Types[0].Schema.Examples[0].Pos, Pos{15, 106}},
		{"enum value", got.Types[1].Schema.Enum[1].Pos, Pos{16, 28}},
		{"property key", order.Schema.Properties[1].Pos, Pos{27, 7}},
		{"$ref value", order.Schema.Properties[0].Schema.RefPos, Pos{26, 24}},
		{"goType value", order.Schema.Properties[7].Schema.GoType.Pos, Pos{33, 20}},
		{"tool key", lookup.Pos, Pos{39, 3}},
		{"tool description value", lookup.DescriptionPos, Pos{41, 18}},
		{"annotations", lookup.Annotations.Pos, Pos{44, 18}},
		{"_meta value", lookup.Meta.Pos, Pos{46, 12}},
		{"resource key", got.Resources[0].Pos, Pos{50, 3}},
		{"uri value", got.Resources[0].URIPos, Pos{51, 10}},
		{"mimeType value", got.Resources[0].MimeTypePos, Pos{54, 15}},
		{"size value", got.Resources[0].SizePos, Pos{55, 11}},
		{"second audience value", got.Resources[0].Annotations.AudiencePos[1], Pos{56, 36}},
		{"priority value", got.Resources[0].Annotations.PriorityPos, Pos{56, 58}},
		{"lastModified value", got.Resources[0].Annotations.LastModifiedPos, Pos{56, 77}},
		{"content schema", got.Resources[0].Content.Pos, Pos{59, 14}},
		{"default content at the key", got.Resources[1].Content.Pos, Pos{60, 3}},
		{"template key", got.ResourceTemplates[0].Pos, Pos{66, 3}},
		{"uriTemplate value", got.ResourceTemplates[0].URITemplatePos, Pos{67, 18}},
		{"declared variable key", got.ResourceTemplates[0].Variables[0].Pos, Pos{76, 7}},
		{"declared variable schema", got.ResourceTemplates[0].Variables[0].Schema.Pos, Pos{76, 14}},
		{"undeclared variable at the uriTemplate", got.ResourceTemplates[0].Variables[2].Pos, Pos{67, 18}},
		{"prompt key", got.Prompts[0].Pos, Pos{90, 3}},
		{"prompt description value", got.Prompts[0].DescriptionPos, Pos{92, 18}},
		{"argument key", got.Prompts[0].Arguments[1].Pos, Pos{97, 7}},
		{"enum value", got.Prompts[0].Arguments[1].EnumPos[1], Pos{97, 29}},
		{"message", got.Prompts[0].Messages[0].Pos, Pos{99, 9}},
		{"role value", got.Prompts[0].Messages[0].RolePos, Pos{99, 16}},
		{"text value", got.Prompts[0].Messages[0].TextPos, Pos{99, 28}},
		{"resource value", got.Prompts[0].Messages[1].ResourcePos, Pos{100, 32}},
		{"image", got.Prompts[0].Messages[2].Image.Pos, Pos{101, 34}},
		{"image data value", got.Prompts[0].Messages[2].Image.DataPos, Pos{101, 41}},
		{"audio mimeType value", got.Prompts[0].Messages[3].Audio.MimeTypePos, Pos{104, 21}},
	} {
		if c.got != c.want {
			t.Errorf("%s at %d:%d, want %d:%d", c.what, c.got.Line, c.got.Column, c.want.Line, c.want.Column)
		}
	}

	// What Load accepts, Validate accepts.
	if diags := Validate(got); len(diags) > 0 {
		t.Errorf("Validate after Load:\n%v", diags)
	}
}

// TestLoadKeepsFileOrder: order in the file is order on the wire.
func TestLoadKeepsFileOrder(t *testing.T) {
	src := base + "tools:\n  zeta: {description: z}\n  alpha: {description: a}\n  mid: {description: m}\n" +
		"types:\n  Z: {properties: {b: {type: string}, a: {type: string}}}\n  A: {type: string}\n"
	s, diags := Load("mcpgen.yaml", []byte(src))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var tools, types, props []string
	for _, tl := range s.Tools {
		tools = append(tools, tl.Name)
	}
	for _, nt := range s.Types {
		types = append(types, nt.Name)
	}
	for _, p := range s.Types[0].Schema.Properties {
		props = append(props, p.Name)
	}
	got := strings.Join(tools, ",") + " " + strings.Join(types, ",") + " " + strings.Join(props, ",")
	if want := "zeta,alpha,mid Z,A b,a"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
}

// TestLoadAnchorsAndMerges: anchors, aliases and merge keys work as in YAML;
// explicit keys win over merged ones.
func TestLoadAnchorsAndMerges(t *testing.T) {
	src := base + `types:
  Base: &base {type: string, minLength: 1, description: base}
  Code:
    <<: *base
    maxLength: 8
    description: own
  Pair: {type: array, items: *base}
`
	s, diags := Load("mcpgen.yaml", []byte(src))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	code := s.Types[1].Schema
	if code.Kind != KindString || *code.MinLength != 1 || *code.MaxLength != 8 || code.Description != "own" {
		t.Errorf("merged schema = %+v", code)
	}
	if items := s.Types[2].Schema.Items; items == nil || items.Kind != KindString || items.Description != "base" {
		t.Errorf("aliased items = %+v", items)
	}
}

// TestLoadEmptySections: a section with nothing after its key is none.
func TestLoadEmptySections(t *testing.T) {
	s, diags := Load("mcpgen.yaml", []byte(base+"types:\ntools:\nresources:\nresourceTemplates:\nprompts:\n"))
	if len(diags) > 0 || len(s.Types) != 0 || len(s.Tools) != 0 || len(s.Resources) != 0 || len(s.ResourceTemplates) != 0 || len(s.Prompts) != 0 {
		t.Errorf("got %v, %v", s, diags)
	}
}

// TestYAMLNodeKeepsDuplicates pins the yaml.v3 behaviour the loader relies
// on: parsing into a yaml.Node keeps duplicate keys (yaml.v3 rejects them
// only when decoding into Go maps and structs), so the loader finds them
// itself. If an upgrade starts rejecting them, syntax errors would change
// and this test says why.
func TestYAMLNodeKeepsDuplicates(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("a: 1\na: 2\n"), &n); err != nil {
		t.Fatalf("yaml.v3 now rejects duplicate keys in a Node: %v", err)
	}
	if got := len(n.Content[0].Content); got != 4 {
		t.Fatalf("mapping has %d nodes, want 4", got)
	}
}

// TestLoadGoldenSpecs: every golden spec that is not a negative case loads
// cleanly. (The generator's own checks, such as Go name collisions, are not
// Load's.)
func TestLoadGoldenSpecs(t *testing.T) {
	paths, _ := filepath.Glob("../golden/*/mcpgen.yaml")
	for _, p := range paths {
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "diagnostics.txt")); err == nil {
			continue
		}
		_, diags, err := LoadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(diags) > 0 {
			t.Errorf("%s:\n%v", p, diags)
		}
	}
}

func TestLoadFileIOError(t *testing.T) {
	if _, _, err := LoadFile(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Error("LoadFile of a missing file: no error")
	}
}

// TestToolScopes: the server's scopes are the default of a tool that names
// none; a tool's own list replaces them, and [] means no scope at all
// (golden/scopes).
func TestToolScopes(t *testing.T) {
	data, err := os.ReadFile("../golden/scopes/mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, diags := Load("mcpgen.yaml", data)
	if len(diags) > 0 {
		t.Fatal(diags.Error())
	}
	want := map[string][]string{
		"list_expenses": {"expenses:read"},
		"file_expense":  {"expenses:write", "https://example.com/scopes/audit"},
		"ping":          nil,
	}
	for _, tool := range s.Tools {
		if got, ok := want[tool.Name]; ok && !slices.Equal(s.ToolScopes(tool), got) {
			t.Errorf("ToolScopes(%s) = %q, want %q", tool.Name, s.ToolScopes(tool), got)
		}
	}
}

// TestLoadNodeIsLoad: loading a spec's parsed tree gives what loading its
// text gives, the spec and every finding, for every golden case that
// parses.
func TestLoadNodeIsLoad(t *testing.T) {
	files, _ := filepath.Glob("../golden/*/mcpgen.yaml")
	if len(files) == 0 {
		t.Fatal("no golden specs")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) != 1 {
			continue // a syntax error: only Load sees the text
		}
		want, wantDiags := Load(f, data)
		got, gotDiags := LoadNode(f, doc.Content[0])
		if fmt.Sprint(gotDiags) != fmt.Sprint(wantDiags) {
			t.Errorf("%s: LoadNode's findings\n%v\nLoad's\n%v", f, gotDiags, wantDiags)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: LoadNode's spec differs from Load's", f)
		}
	}
}
