package spec

import (
	"os"
	"path/filepath"
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
				Name:        "lookup_order",
				Title:       "Look up an order",
				Description: "Look up an order by id.",
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
				Icons: []*Icon{{Src: "data:image/png;base64,iVBORw0KGgo="}},
				// File key order, integers in decimal, floats as written, no
				// HTML escaping.
				Meta: val(`{"com.example/z":1,"com.example/a":[true,null,16,1.50,"x<y"]}`),
			},
			{Name: "ping", Description: "Answers pong."},
		},
	}
	opts := cmp.Options{
		cmpopts.IgnoreTypes(Pos{}),
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

// TestLoadEmptySections: `types:` or `tools:` with nothing after is none.
func TestLoadEmptySections(t *testing.T) {
	s, diags := Load("mcpgen.yaml", []byte(base+"types:\ntools:\n"))
	if len(diags) > 0 || len(s.Types) != 0 || len(s.Tools) != 0 {
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
