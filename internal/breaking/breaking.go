// Package breaking compares two versions of a spec and reports the changes
// that break someone, in the style of `buf breaking`: each finding names a
// rule with a stable ID and points at the spec.
//
// There are two levels. WIRE rules report what an MCP client sees: a tool,
// resource or prompt that disappears, an argument that becomes required, a
// bound that tightens, an output property that goes away. GO rules report
// what breaks the handler code written against the generated package: a Go
// type that disappears or is renamed, a field whose type changes (optional
// ↔ required flips runtime.Opt[T] ↔ T, nullable flips *T), a handler
// method whose signature changes. The GO level includes the WIRE level; a
// GO finding is left out where a WIRE finding already points at the same
// spec element.
package breaking

import (
	"fmt"
	"sort"

	"github.com/mcpgen/mcpgen/internal/findings"
	"github.com/mcpgen/mcpgen/spec"
)

// Level is WIRE or GO.
type Level int

const (
	// Wire: changes an MCP client sees.
	Wire Level = iota
	// Go: Wire, plus changes to the generated Go API that break handler
	// code.
	Go
)

func (l Level) String() string {
	if l == Go {
		return "GO"
	}
	return "WIRE"
}

// ParseLevel reads a --level value: wire or go.
func ParseLevel(s string) (Level, error) {
	switch s {
	case "wire", "WIRE":
		return Wire, nil
	case "go", "GO", "":
		return Go, nil
	}
	return 0, fmt.Errorf("unknown level %q; use wire or go", s)
}

// Rule documents one rule.
type Rule struct {
	ID    string
	Level Level
	What  string
}

// Rules are the rules, WIRE first, in the order of the reference.
var Rules = []Rule{
	{"TOOL_NO_DELETE", Wire, "a tool was deleted (or renamed: clients call tools by name)"},
	{"TOOL_INPUT_NO_NEW_REQUIRED", Wire, "an input property became required, or a new one is required"},
	{"TOOL_INPUT_PROPERTY_NO_DELETE", Wire, "an input property was deleted (closed objects refuse it from then on)"},
	{"TOOL_INPUT_PROPERTY_SAME_TYPE", Wire, "an input property changed type, or no longer accepts null (widening integer → number or to any is allowed)"},
	{"ENUM_VALUE_NO_DELETE", Wire, "an enum value of an input, a prompt argument or a template variable was deleted"},
	{"BOUND_NO_TIGHTEN", Wire, "an input bound was added or tightened: minLength, maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems, pattern, format, uniqueItems, an enum on a free value, additionalProperties true → false"},
	{"TOOL_RAW_SCHEMA_SAME", Wire, "a raw inputSchema or outputSchema changed (mcpgen cannot tell whether clients still fit it; review it)"},
	{"TOOL_OUTPUT_NO_DELETE", Wire, "a tool no longer declares an output (clients lose structuredContent)"},
	{"TOOL_OUTPUT_PROPERTY_NO_DELETE", Wire, "an output property was deleted"},
	{"TOOL_OUTPUT_PROPERTY_SAME_TYPE", Wire, "an output property changed type, or may now be null (narrowing number → integer, or from any, is allowed)"},
	{"TOOL_OUTPUT_NO_NEW_OPTIONAL", Wire, "a required output property became optional (clients that read it may get nothing)"},
	{"TOOL_PERMISSION_NO_TIGHTEN", Wire, "the permission `mcpgen config` derives for a tool became stricter (allow → ask → deny): settings written before still allow it"},
	{"TOOL_SCOPES_NO_ADD", Wire, "a tool needs a scope it did not need (its own `scopes:` or the server's): tokens granted before get 403 insufficient_scope until the client asks for more"},
	{"RESOURCE_NO_DELETE", Wire, "a static resource was deleted (a resource renamed with the same uri is not)"},
	{"RESOURCE_SAME_URI", Wire, "a static resource's uri changed"},
	{"RESOURCE_SAME_MIME_TYPE", Wire, "the mimeType of a resource or template changed (absent means text/plain, application/octet-stream or application/json after its content)"},
	{"RESOURCE_TEMPLATE_NO_DELETE", Wire, "a resource template was deleted"},
	{"RESOURCE_TEMPLATE_SAME_VARIABLES", Wire, "a template variable was deleted, added as a path variable, or changed type"},
	{"RESOURCE_TEMPLATE_SAME_URI_TEMPLATE", Wire, "a uriTemplate changed beyond its optional query variables, so URIs built from the old one no longer match"},
	{"PROMPT_NO_DELETE", Wire, "a prompt was deleted"},
	{"PROMPT_ARG_NO_NEW_REQUIRED", Wire, "a prompt argument became required, or a new one is required"},
	{"PROMPT_ARG_NO_DELETE", Wire, "a prompt argument was deleted (unknown arguments are refused)"},

	{"GO_PACKAGE_SAME", Go, "go.package or go.output changed: every import of the generated package breaks"},
	{"GO_TYPE_NO_DELETE", Go, "a generated Go type disappeared (a named type was deleted, or an inline object became a $ref to an existing type)"},
	{"GO_TYPE_SAME_KIND", Go, "a generated Go type changed its definition (struct, enum, slice, map, underlying type)"},
	{"GO_NAME_SAME", Go, "a generated type or handler method was renamed while clients see the same thing (a named type renamed, an inline object moved to a $ref, a resource key changed with its uri kept)"},
	{"GO_FIELD_NO_DELETE", Go, "a struct field disappeared where no WIRE rule says so (a property of a resource's content)"},
	{"GO_FIELD_SAME_TYPE", Go, "a struct field changed type, including optional ↔ required (runtime.Opt[T] ↔ T) and nullable (*T)"},
	{"GO_CONST_NO_DELETE", Go, "an enum constant disappeared where no WIRE rule says so (an output enum value)"},
	{"GO_METHOD_SAME_SIGNATURE", Go, "a handler method changed signature: a tool gained or lost its input or output, a resource changed content kind, an argument type was renamed"},
}

func ruleLevel(id string) Level {
	for _, r := range Rules {
		if r.ID == id {
			return r.Level
		}
	}
	panic("breaking: unknown rule " + id)
}

// Compare reports the breaking changes from old to new at the given level,
// sorted by position. Both specs must be ones spec.Load accepted.
func Compare(old, new *spec.Spec, level Level) []findings.Finding {
	d := newDiffer(old, new)
	d.wire()
	if level >= Go {
		d.goAPI()
	}
	wireSubjects := map[subject]bool{}
	for _, it := range d.items {
		if ruleLevel(it.f.Rule) == Wire {
			wireSubjects[it.subject] = true
		}
	}
	var out []findings.Finding
	for _, it := range d.items {
		if givesWay[it.f.Rule] && wireSubjects[it.subject] {
			continue
		}
		out = append(out, it.f)
	}
	// The new spec's findings first (it is the file under review), then
	// those placed in the old one.
	out = findings.Sort(out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].File == new.File && out[j].File != new.File })
	return findings.NonNil(out)
}

// givesWay are the GO rules that say again what a WIRE rule says about
// the same property or enum value (a deleted property is a deleted field).
var givesWay = map[string]bool{
	"GO_FIELD_NO_DELETE": true, "GO_FIELD_SAME_TYPE": true, "GO_CONST_NO_DELETE": true, "GO_TYPE_NO_DELETE": true,
}

// subject is the spec element a finding is about: a file and a position
// in it. It lets a GO finding give way to a WIRE one about the same
// element.
type subject struct {
	file string
	pos  spec.Pos
}

type item struct {
	f       findings.Finding
	subject subject
}

type differ struct {
	old, new           *spec.Spec
	oldTypes, newTypes map[string]*spec.NamedType
	items              []item
}

func newDiffer(old, new *spec.Spec) *differ {
	d := &differ{old: old, new: new, oldTypes: map[string]*spec.NamedType{}, newTypes: map[string]*spec.NamedType{}}
	for _, nt := range old.Types {
		d.oldTypes[nt.Name] = nt
	}
	for _, nt := range new.Types {
		d.newTypes[nt.Name] = nt
	}
	return d
}

// at reports about an element that exists in the new spec, at pos.
func (d *differ) at(rule string, pos spec.Pos, format string, args ...any) {
	d.items = append(d.items, item{
		f:       d.finding(rule, d.new.File, pos, fmt.Sprintf(format, args...)),
		subject: subject{d.new.File, pos},
	})
}

// gone reports about an element of the old spec, at oldPos, that the new
// spec no longer has. The finding is placed in the new spec at anchor, the
// nearest element that survives, and says where the element was; without
// an anchor it is placed in the old spec.
func (d *differ) gone(rule string, anchor, oldPos spec.Pos, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	f := d.finding(rule, d.old.File, oldPos, msg)
	if anchor != (spec.Pos{}) {
		f = d.finding(rule, d.new.File, anchor, fmt.Sprintf("%s (removed; was at %s)", msg, posString(d.old.File, oldPos)))
	}
	d.items = append(d.items, item{f: f, subject: subject{d.old.File, oldPos}})
}

func (d *differ) finding(rule, file string, pos spec.Pos, msg string) findings.Finding {
	return findings.Finding{Rule: rule, File: file, Line: pos.Line, Column: pos.Column, Message: msg}
}

func posString(file string, p spec.Pos) string {
	return fmt.Sprintf("%s:%d:%d", file, max(p.Line, 1), max(p.Column, 1))
}
