package hostile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/golden/collections"
	"github.com/mcpgen/mcpgen/golden/numbers"
	"github.com/mcpgen/mcpgen/golden/objects"
	raw "github.com/mcpgen/mcpgen/golden/raw_schemas"
	"github.com/mcpgen/mcpgen/golden/refs"
	gstrings "github.com/mcpgen/mcpgen/golden/strings"
	features "github.com/mcpgen/mcpgen/golden/tool_features"
	"github.com/mcpgen/mcpgen/runtime"
)

// ToolNames are the tools of NewToolServer, in registration order.
var ToolNames = []string{
	"compute", "collect", "save_profile", "check_strings", "walk_tree", "describe_node",
	"json_schema_2020_12_tool", "shape", "list_things", "delete_thing", "count_things", "render",
}

// NewToolServer returns a server with the tools of the golden packages that
// exercise input schemas (numbers, collections, objects, strings, refs,
// raw_schemas, tool_features), whose handlers check that what they receive
// obeys the schema the runtime validated it against. A handler that gets
// something its schema forbids panics: the runtime recovers, logs it at
// level Error, and answers with an internal error. Fuzzing treats either as
// a failure.
func NewToolServer(opts ...runtime.Option) *runtime.Server {
	s := runtime.NewServer(runtime.Implementation{Name: "hostile-tools", Version: "1"}, append([]runtime.Option{runtime.WithLogger(Quiet())}, opts...)...)
	numbers.Register(s, Numbers{})
	collections.Register(s, checkedCollections{})
	objects.Register(s, checkedObjects{})
	gstrings.Register(s, checkedStrings{})
	refs.Register(s, Refs{})
	raw.Register(s, checkedRaw{})
	features.Register(s, checkedFeatures{})
	return s
}

func violated(tool string, bad []string) {
	if len(bad) > 0 {
		panic(fmt.Sprintf("hostile: %s received arguments its schema forbids: %s", tool, strings.Join(bad, "; ")))
	}
}

type checkedCollections struct{}

var upper = regexp.MustCompile(`^[A-Z]+$`)

func (checkedCollections) Collect(ctx context.Context, in *collections.CollectInput) (*collections.CollectOutput, error) {
	var bad []string
	if n := len(in.Ids); n < 1 || n > 50 {
		bad = append(bad, fmt.Sprintf("%d ids", n))
	}
	if len(in.Tags) > 10 {
		bad = append(bad, fmt.Sprintf("%d tags", len(in.Tags)))
	}
	seen := map[string]bool{}
	for _, tg := range in.Tags {
		if n := utf8.RuneCountInString(tg); n < 1 || n > 20 {
			bad = append(bad, fmt.Sprintf("tag of %d characters", n))
		}
		if seen[tg] {
			bad = append(bad, fmt.Sprintf("tag %q twice", tg))
		}
		seen[tg] = true
	}
	for _, c := range in.Codes {
		if !upper.MatchString(c) {
			bad = append(bad, fmt.Sprintf("code %q", c))
		}
	}
	for _, l := range in.Levels {
		if l != "low" && l != "high" {
			bad = append(bad, fmt.Sprintf("level %q", l))
		}
	}
	for k, v := range in.Counters {
		if v < 0 {
			bad = append(bad, fmt.Sprintf("counter %q = %d", k, v))
		}
	}
	violated("collect", bad)
	out := collections.CollectOutput(in.Points)
	if out == nil {
		out = collections.CollectOutput{}
	}
	return &out, nil
}

type checkedObjects struct{}

func (checkedObjects) SaveProfile(ctx context.Context, in *objects.SaveProfileInput) (*objects.SaveProfileOutput, error) {
	var bad []string
	if a, ok := in.Age.Get(); ok && a != nil && *a < 0 {
		bad = append(bad, fmt.Sprintf("age %d", *a))
	}
	if s, ok := in.Settings.Get(); ok {
		if th, ok := s.Theme.Get(); ok && th != "light" && th != "dark" {
			bad = append(bad, fmt.Sprintf("theme %q", th))
		}
	}
	if c, ok := in.Contact.Get(); ok {
		if p, ok := c.Preferred.Get(); ok && p != "email" && p != "phone" {
			bad = append(bad, fmt.Sprintf("preferred %q", p))
		}
	}
	if in.Extra != nil && !json.Valid(in.Extra) {
		bad = append(bad, "extra is not JSON")
	}
	violated("save_profile", bad)
	return &objects.SaveProfileOutput{ID: "6f1c1d2e-8d9b-4f7a-9c1e-2b3a4c5d6e7f", Saved: true, Echo: in.Extra}, nil
}

type checkedStrings struct{}

var (
	slugRE   = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	codeRE   = regexp.MustCompile(`^[A-Z]{2,3}$`)
	quotedRE = regexp.MustCompile("^\"[^\"`]*\"$")
)

func (checkedStrings) CheckStrings(ctx context.Context, in *gstrings.CheckStringsInput) (*gstrings.CheckStringsOutput, error) {
	var bad []string
	if n := utf8.RuneCountInString(string(in.Slug)); n < 1 || n > 64 || !slugRE.MatchString(string(in.Slug)) {
		bad = append(bad, fmt.Sprintf("slug %q", in.Slug))
	}
	if c, ok := in.Code.Get(); ok && !codeRE.MatchString(c) {
		bad = append(bad, fmt.Sprintf("code %q", c))
	}
	if s, ok := in.Short.Get(); ok && utf8.RuneCountInString(s) > 5 {
		bad = append(bad, fmt.Sprintf("short %q", s))
	}
	switch in.Color {
	case "red", "green", "light-blue":
	default:
		bad = append(bad, fmt.Sprintf("color %q", in.Color))
	}
	if sz, ok := in.Size.Get(); ok && sz != "S" && sz != "M" && sz != "L" && sz != "XL" {
		bad = append(bad, fmt.Sprintf("size %q", sz))
	}
	if q, ok := in.Quoted.Get(); ok && !quotedRE.MatchString(q) {
		bad = append(bad, fmt.Sprintf("quoted %q", q))
	}
	violated("check_strings", bad)
	return &gstrings.CheckStringsOutput{Echoed: in.Plain}, nil
}

type checkedRaw struct{}

func (checkedRaw) JSONSchema202012Tool(ctx context.Context, args json.RawMessage) (*runtime.CallToolResult, error) {
	var in map[string]json.RawMessage
	if err := json.Unmarshal(args, &in); err != nil {
		violated("json_schema_2020_12_tool", []string{"arguments are not an object: " + err.Error()})
	}
	var bad []string
	for k := range in {
		if k != "name" && k != "address" {
			bad = append(bad, fmt.Sprintf("property %q", k))
		}
	}
	violated("json_schema_2020_12_tool", bad)
	return runtime.TextResult("ok"), nil
}

func (checkedRaw) Shape(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Kind   string   `json:"kind"`
		Radius *float64 `json:"radius"`
		Side   *float64 `json:"side"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		// Numbers JSON Schema accepts but float64 cannot hold (1e400) are
		// the handler's to refuse.
		return nil, errors.New("cannot decode: " + err.Error())
	}
	var bad []string
	switch in.Kind {
	case "circle":
		if in.Radius == nil {
			bad = append(bad, "circle without radius")
		}
	case "square":
		if in.Side == nil {
			bad = append(bad, "square without side")
		}
	default:
		bad = append(bad, fmt.Sprintf("kind %q", in.Kind))
	}
	violated("shape", bad)
	return json.RawMessage(`{"area":1}`), nil
}

type checkedFeatures struct{}

func (checkedFeatures) ListThings(ctx context.Context) (*features.ListThingsOutput, error) {
	return &features.ListThingsOutput{"a", "b"}, nil
}

func (checkedFeatures) DeleteThing(ctx context.Context, in *features.DeleteThingInput) (*runtime.CallToolResult, error) {
	return runtime.TextResult("deleted"), nil
}

func (checkedFeatures) CountThings(ctx context.Context) (*features.CountThingsOutput, error) {
	n := features.CountThingsOutput(2)
	return &n, nil
}

func (checkedFeatures) Render(ctx context.Context, in *features.RenderInput) (*runtime.CallToolResult, error) {
	if f, ok := in.Format.Get(); ok && f != "text" && f != "image" {
		violated("render", []string{fmt.Sprintf("format %q", f)})
	}
	return runtime.TextResult("rendered"), nil
}
