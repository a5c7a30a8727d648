package spec

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/internal/contract"
)

// Toolsets: `toolsets:` at the top level names groups of tools, prompts,
// resources and resource templates; a server serves a chosen set of them
// (runtime.WithToolsets). They are declared apart from the items, not with
// a `toolset:` key on each item, so that an item can be in several toolsets,
// a toolset's title and description are written once, and the grouping of
// the whole server reads in one place. `server.toolsets:` says what is
// served by default and turns on dynamic mode.
//
//	toolsets:
//	  issues: {description: Read and file issues., tools: [list_issues, create_issue]}
//	server:
//	  toolsets: {enabled: [issues], dynamic: true}

// Toolset is one entry of `toolsets:`.
type Toolset struct {
	Pos         Pos // of its key
	Name        string
	Title       string
	Description string
	// Members, by their names in the spec (the keys of tools:, prompts:,
	// resources: and resourceTemplates:), with the position of each.
	Tools, Prompts, Resources, Templates             []string
	ToolsPos, PromptsPos, ResourcesPos, TemplatesPos []Pos
	// Exposure is how tools/list shows the toolset's tools (Exposures):
	// "search" puts them behind search_tools, describe_tools and call_tool
	// while the toolset is served; "" or "all" lists them.
	Exposure    string
	ExposurePos Pos
}

// ServerToolsets is `server.toolsets:`.
type ServerToolsets struct {
	Pos Pos
	// Enabled are the toolsets served when the operator and the request
	// choose none; nil: every toolset (none in dynamic mode).
	Enabled    []string
	EnabledPos []Pos
	HasEnabled bool
	// Dynamic turns on dynamic mode (runtime.WithDynamicToolsets).
	Dynamic bool
	// ListTool and EnableTool rename the tools of dynamic mode ("": the
	// runtime's list_toolsets and enable_toolset).
	ListTool, EnableTool       string
	ListToolPos, EnableToolPos Pos
}

// MaxToolsets is the most toolsets a spec may declare (runtime.WithToolsets).
const MaxToolsets = contract.MaxToolsets

var toolsetNamePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// memberList is the field of a list of member names.
func memberList(key, doc string, get func(*Toolset) (*[]string, *[]Pos)) field[*Toolset] {
	return field[*Toolset]{key: key, doc: doc, schema: `{"type":"array","uniqueItems":true,"items":{"type":"string"}}`,
		decode: func(d *decoder, ts *Toolset, e entry) {
			names, poss := get(ts)
			*names, *poss = d.stringList(e.value, key)
		}}
}

// stringList decodes a list of strings, with the position of each.
func (d *decoder) stringList(n *yaml.Node, key string) ([]string, []Pos) {
	items, _ := d.list(n, key)
	var out []string
	var poss []Pos
	for _, item := range items {
		if s, ok := d.str(item, "each of "+key); ok {
			out = append(out, s)
			poss = append(poss, posOf(item))
		}
	}
	return out, poss
}

var toolsetFields = fields[*Toolset]{
	{key: "title", doc: "A human-readable name of the toolset.", schema: stringSchema,
		decode: func(d *decoder, ts *Toolset, e entry) { ts.Title, _ = d.str(e.value, "title") }},
	{key: "description", doc: "What the toolset is for: the model reads it to choose which toolset to enable.", schema: stringSchema,
		decode: func(d *decoder, ts *Toolset, e entry) { ts.Description, _ = d.str(e.value, "description") }},
	memberList("tools", "The tools in the toolset, by name.", func(ts *Toolset) (*[]string, *[]Pos) { return &ts.Tools, &ts.ToolsPos }),
	memberList("prompts", "The prompts in the toolset, by name.", func(ts *Toolset) (*[]string, *[]Pos) { return &ts.Prompts, &ts.PromptsPos }),
	memberList("resources", "The static resources in the toolset, by their names under resources:.", func(ts *Toolset) (*[]string, *[]Pos) { return &ts.Resources, &ts.ResourcesPos }),
	{key: "exposure", doc: "How tools/list shows the toolset's tools while it is served: all (the default) lists them; search lists search_tools, describe_tools and call_tool instead (once, for all such toolsets), and the model finds the toolset's tools by searching.", schema: stringEnum(Exposures),
		decode: func(d *decoder, ts *Toolset, e entry) { ts.Exposure, ts.ExposurePos = d.exposure(e) }},
	memberList("resourceTemplates", "The resource templates in the toolset, by their names under resourceTemplates:.", func(ts *Toolset) (*[]string, *[]Pos) {
		return &ts.Templates, &ts.TemplatesPos
	}),
}

var serverToolsetFields = fields[*ServerToolsets]{
	{key: "enabled", doc: "The toolsets served when neither the operator (-toolsets, MCP_TOOLSETS) nor the HTTP request (Mcp-Toolsets header, ?toolsets=) chooses. Default: every toolset; in dynamic mode, none.",
		schema: `{"type":"array","uniqueItems":true,"items":{"type":"string"}}`,
		decode: func(d *decoder, st *ServerToolsets, e entry) {
			st.HasEnabled = true
			st.Enabled, st.EnabledPos = d.stringList(e.value, "enabled")
		}},
	{key: "dynamic", doc: "Dynamic mode: the model starts with what is in no toolset (and enabled), plus a tool that lists the toolsets and one that enables a toolset for the session (list_changed follows).", schema: flagSchema,
		decode: func(d *decoder, st *ServerToolsets, e entry) { st.Dynamic, _ = d.boolean(e.value, "dynamic") }},
	{key: "listTool", doc: "The name of dynamic mode's tool that lists the toolsets (default list_toolsets).", schema: `{"type":"string","pattern":"^[A-Za-z0-9_.-]{1,64}$"}`,
		decode: func(d *decoder, st *ServerToolsets, e entry) {
			st.ListTool, _ = d.str(e.value, "listTool")
			st.ListToolPos = posOf(e.value)
		}},
	{key: "enableTool", doc: "The name of dynamic mode's tool that enables a toolset (default enable_toolset).", schema: `{"type":"string","pattern":"^[A-Za-z0-9_.-]{1,64}$"}`,
		decode: func(d *decoder, st *ServerToolsets, e entry) {
			st.EnableTool, _ = d.str(e.value, "enableTool")
			st.EnableToolPos = posOf(e.value)
		}},
}

func (d *decoder) toolsets(n *yaml.Node) []*Toolset {
	return section(d, n, "toolsets", "toolset", func(te entry) *Toolset {
		ts := &Toolset{Pos: posOf(te.keyNode), Name: te.key}
		m, ok := d.mapping(te.value, fmt.Sprintf("toolset %q", te.key))
		if !ok {
			return ts
		}
		decodeMapping(d, m, ts, toolsetFields, func(e entry) {
			d.unknownKey(e, fmt.Sprintf("in toolset %q", te.key), toolsetFields.keys())
		})
		return ts
	})
}

func (d *decoder) serverToolsets(n *yaml.Node) *ServerToolsets {
	m, ok := d.mapping(n, "server.toolsets")
	if !ok {
		return nil
	}
	st := &ServerToolsets{Pos: posOf(n)}
	decodeMapping(d, m, st, serverToolsetFields, func(e entry) {
		d.unknownKey(e, "in server.toolsets", serverToolsetFields.keys())
	})
	return st
}

// toolsets checks `toolsets:` and `server.toolsets:`: names, members that
// exist, and a dynamic mode that has toolsets and tools of its own names.
func (v *validator) toolsets() {
	sets := v.s.Toolsets
	if len(sets) > MaxToolsets {
		v.errorf(sets[MaxToolsets].Pos, "%d toolsets; a server has at most %d", len(sets), MaxToolsets)
	}
	names := make([]string, 0, len(sets))
	for _, ts := range sets {
		names = append(names, ts.Name)
	}
	tools, resources, templates, prompts := v.s.ItemNames()
	for _, ts := range sets {
		where := fmt.Sprintf("toolset %q", ts.Name)
		switch {
		case ts.Name == "all":
			v.errorf(ts.Pos, `a toolset cannot be named "all": it means every toolset in a selection (-toolsets all)`)
		case !toolsetNamePattern.MatchString(ts.Name):
			v.errorf(ts.Pos, "toolset name %q must match %s (it is written in flags, headers and URLs)", ts.Name, toolsetNamePattern)
		}
		switch {
		case len(ts.Tools)+len(ts.Prompts)+len(ts.Resources)+len(ts.Templates) == 0:
			v.errorf(ts.Pos, "%s has no members: list tools, prompts, resources or resourceTemplates", where)
		case ts.Exposure == "search" && len(ts.Tools) == 0:
			v.errorf(ts.ExposurePos, "%s has exposure: search, which puts its tools behind search_tools, but it has no tools", where)
		case ts.Exposure == "all" && v.s.Server.Exposure == "search":
			v.errorf(ts.ExposurePos, "%s has exposure: all, but server.exposure: search puts every tool behind search_tools; leave one of them out", where)
		}
		v.members(where, "tool", ts.Tools, ts.ToolsPos, tools)
		v.members(where, "prompt", ts.Prompts, ts.PromptsPos, prompts)
		v.members(where, "resource", ts.Resources, ts.ResourcesPos, resources)
		v.members(where, "resource template", ts.Templates, ts.TemplatesPos, templates)
	}
	st := v.s.Server.Toolsets
	if st == nil {
		return
	}
	if len(sets) == 0 {
		v.errorf(st.Pos, "server.toolsets configures toolsets, but the spec declares none: add a top-level toolsets: section")
		return
	}
	for i, n := range st.Enabled {
		if n != "all" && !slices.Contains(names, n) {
			v.errorf(st.EnabledPos[i], "server.toolsets.enabled names %q, which is not a toolset%s", n, orHint(didYouMean(n, names), "; the toolsets are "+joinList(names, "and")))
		}
	}
	if !st.Dynamic && (st.ListTool != "" || st.EnableTool != "") {
		at := st.ListToolPos
		if st.ListTool == "" {
			at = st.EnableToolPos
		}
		v.errorf(at, "listTool and enableTool name the tools of dynamic mode; add dynamic: true, or leave them out")
	}
	if st.Dynamic {
		list, enable := cmp.Or(st.ListTool, "list_toolsets"), cmp.Or(st.EnableTool, "enable_toolset")
		if list == enable {
			v.errorf(st.EnableToolPos, "listTool and enableTool are both %q; give the two tools different names", list)
		}
		for _, own := range []struct {
			name string
			pos  Pos
		}{{list, st.ListToolPos}, {enable, st.EnableToolPos}} {
			if slices.Contains(tools, own.name) {
				at := own.pos
				if at == (Pos{}) {
					at = st.Pos
				}
				v.errorf(at, "dynamic mode adds a tool named %q, and the spec has a tool of that name: rename one (listTool, enableTool)", own.name)
			}
		}
	}
}

// members checks that each name of a toolset's list is an item of its kind,
// listed once.
func (v *validator) members(where, kind string, names []string, poss []Pos, valid []string) {
	for i, n := range names {
		switch {
		case slices.Index(names, n) < i:
			v.errorf(poss[i], "%s lists %s %q twice", where, kind, n)
		case !slices.Contains(valid, n):
			v.errorf(poss[i], "%s lists %s %q, which the spec does not declare%s", where, kind, n, didYouMean(n, valid))
		}
	}
}

// SearchExposed reports whether some tools are behind search_tools: the
// server's exposure is search, or a toolset's is.
func (s *Spec) SearchExposed() bool {
	return s.Server.Exposure == "search" || slices.ContainsFunc(s.Toolsets, func(ts *Toolset) bool { return ts.Exposure == "search" })
}

// ToolsetsOf returns the names of the toolsets the item named name of kind
// ("tool", "prompt", "resource", "resourceTemplate") is in.
func (s *Spec) ToolsetsOf(kind, name string) []string {
	var out []string
	for _, ts := range s.Toolsets {
		list := map[string][]string{"tool": ts.Tools, "prompt": ts.Prompts, "resource": ts.Resources, "resourceTemplate": ts.Templates}[kind]
		if slices.Contains(list, name) {
			out = append(out, ts.Name)
		}
	}
	return out
}

// ItemNames lists the names of the spec's items by section, in spec order.
func (s *Spec) ItemNames() (tools, resources, templates, prompts []string) {
	for _, t := range s.Tools {
		tools = append(tools, t.Name)
	}
	for _, r := range s.Resources {
		resources = append(resources, r.Name)
	}
	for _, t := range s.ResourceTemplates {
		templates = append(templates, t.Name)
	}
	for _, p := range s.Prompts {
		prompts = append(prompts, p.Name)
	}
	return tools, resources, templates, prompts
}
