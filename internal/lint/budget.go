package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/mcpgen/mcpgen/internal/contract"
	"github.com/mcpgen/mcpgen/internal/specschema"
	"github.com/mcpgen/mcpgen/spec"
)

// Budget estimates what the server's lists cost in a model's context:
// tokens = bytes of the entry's JSON / 4, a rule of thumb for English text
// and JSON with common tokenizers. The JSON of an entry is computed from the
// spec (name, title, description, schemas, annotations, icons, _meta), close
// to what the runtime sends.
type Budget struct {
	Method    string       `json:"method"`
	Tools     BudgetList   `json:"tools"`
	Prompts   BudgetList   `json:"prompts"`
	Resources BudgetTotals `json:"resources"`
	Templates BudgetTotals `json:"resourceTemplates"`
	// Toolsets is the breakdown by toolset, when the spec has toolsets.
	Toolsets *BudgetToolsets `json:"toolsets,omitempty"`
	// Exposure is what tools/list costs with server.exposure: search; nil
	// when every tool is listed.
	Exposure *BudgetExposure `json:"exposure,omitempty"`
}

// BudgetToolsets is what each toolset costs, and what is served at start.
type BudgetToolsets struct {
	// Always is what is in no toolset: served whatever is chosen.
	Always BudgetTotals `json:"always"`
	// Sets are the toolsets, in spec order; Count counts their members.
	Sets []BudgetToolset `json:"sets"`
	// AtStart is what a client sees with no choice made: Always and the
	// default toolsets (server.toolsets.enabled, else every toolset; none
	// in dynamic mode), without dynamic mode's own two tools.
	AtStart BudgetTotals `json:"atStart"`
	Dynamic bool         `json:"dynamic,omitempty"`
}

// BudgetToolset is one toolset's cost: the entries of its members in every
// list.
type BudgetToolset struct {
	Name    string `json:"name"`
	Tokens  int    `json:"tokens"`
	Count   int    `json:"count"`
	Default bool   `json:"default"` // served at start
	// Search is set for a toolset with exposure: search: Tokens then
	// counts the three search tools in place of its tools.
	Search *BudgetSearch `json:"search,omitempty"`
}

// BudgetSearch is what a search-exposed toolset lists in place of its
// tools.
type BudgetSearch struct {
	Hidden       int `json:"hidden"`       // its tools, found with search_tools
	HiddenTokens int `json:"hiddenTokens"` // what they would cost listed
	Tokens       int `json:"tokens"`       // the three search tools, listed once however many toolsets are behind them
}

// BudgetExposure is tools/list under search exposure: the three search
// tools in place of the spec's tools.
type BudgetExposure struct {
	Mode   string        `json:"mode"` // "search"
	Tokens int           `json:"tokens"`
	Listed []BudgetEntry `json:"listed"`
	Hidden int           `json:"hidden"` // the tools found through search_tools
}

// BudgetList is one list with an estimate per entry, largest first.
type BudgetList struct {
	Tokens  int           `json:"tokens"`
	Entries []BudgetEntry `json:"entries"`
}

// BudgetTotals is one list's total alone.
type BudgetTotals struct {
	Tokens int `json:"tokens"`
	Count  int `json:"count"`
}

// BudgetEntry is one tool or prompt.
type BudgetEntry struct {
	Name   string `json:"name"`
	Bytes  int    `json:"bytes"`
	Tokens int    `json:"tokens"`
}

// Tokens is the estimate for n bytes of JSON, rounded up.
func Tokens(n int) int { return (n + 3) / 4 }

// Estimate computes the budget of a spec that spec.Load accepted.
func Estimate(s *spec.Spec) *Budget {
	b := &Budget{Method: "bytes of each entry's JSON / 4"}
	b.Tools.Entries, b.Tools.Tokens = entries(len(s.Tools), func(i int) (string, any) { return s.Tools[i].Name, ToolEntry(s, s.Tools[i]) })
	b.Prompts.Entries, b.Prompts.Tokens = entries(len(s.Prompts), func(i int) (string, any) { return s.Prompts[i].Name, promptEntry(s.Prompts[i]) })
	_, b.Resources.Tokens = entries(len(s.Resources), func(i int) (string, any) { return s.Resources[i].Name, resourceEntry(s.Resources[i]) })
	_, b.Templates.Tokens = entries(len(s.ResourceTemplates), func(i int) (string, any) {
		return s.ResourceTemplates[i].Name, templateEntry(s.ResourceTemplates[i])
	})
	b.Resources.Count, b.Templates.Count = len(s.Resources), len(s.ResourceTemplates)
	if s.Server.Exposure == "search" {
		e := &BudgetExposure{Mode: "search", Hidden: len(s.Tools)}
		e.Listed, e.Tokens = searchEntries()
		b.Exposure = e
	}
	b.Toolsets = toolsetBudget(s)
	return b
}

// searchEntries are the three search tools' tools/list entries, and their
// tokens.
func searchEntries() ([]BudgetEntry, int) {
	search := contract.SearchTools()
	return entries(len(search), func(i int) (string, any) { return search[i].Name, searchToolEntry(search[i]) })
}

// searchToolEntry is the tools/list entry of a search tool.
func searchToolEntry(t contract.SearchTool) map[string]any {
	e := map[string]any{"name": t.Name, "inputSchema": json.RawMessage(t.InputSchema)}
	if !t.Annotations.IsZero() {
		e["annotations"] = t.Annotations
	}
	set(e, "title", t.Title)
	set(e, "description", t.Description)
	return e
}

// toolsetBudget breaks the lists down by toolset; nil without toolsets.
func toolsetBudget(s *spec.Spec) *BudgetToolsets {
	if len(s.Toolsets) == 0 {
		return nil
	}
	// The bytes of every entry, by kind and name.
	size := map[string]map[string]int{"tool": {}, "prompt": {}, "resource": {}, "resourceTemplate": {}}
	grouped := map[string]map[string]bool{"tool": {}, "prompt": {}, "resource": {}, "resourceTemplate": {}}
	measure := func(kind, name string, v any) {
		data, _ := json.Marshal(v)
		size[kind][name] = len(data)
	}
	for _, t := range s.Tools {
		measure("tool", t.Name, ToolEntry(s, t))
	}
	for _, p := range s.Prompts {
		measure("prompt", p.Name, promptEntry(p))
	}
	for _, r := range s.Resources {
		measure("resource", r.Name, resourceEntry(r))
	}
	for _, t := range s.ResourceTemplates {
		measure("resourceTemplate", t.Name, templateEntry(t))
	}
	st := s.Server.Toolsets
	out := &BudgetToolsets{Dynamic: st != nil && st.Dynamic}
	enabled := func(name string) bool {
		switch {
		case st != nil && st.HasEnabled:
			return slices.Contains(st.Enabled, name) || slices.Contains(st.Enabled, "all")
		default:
			return !out.Dynamic
		}
	}
	// A tool of a served toolset with exposure: search is behind the search
	// tools unless a served toolset that lists its tools has it too.
	search, _ := searchEntries()
	searchBytes := 0
	for _, e := range search {
		searchBytes += e.Bytes
	}
	startBytes, startCount := 0, 0
	served := map[string]map[string]bool{"tool": {}, "prompt": {}, "resource": {}, "resourceTemplate": {}}
	behind := map[string]bool{} // tools behind search at start
	for _, ts := range s.Toolsets {
		set := BudgetToolset{Name: ts.Name, Default: enabled(ts.Name)}
		bytes, hidden := 0, 0
		for kind, names := range map[string][]string{"tool": ts.Tools, "prompt": ts.Prompts, "resource": ts.Resources, "resourceTemplate": ts.Templates} {
			for _, n := range names {
				set.Count++
				grouped[kind][n] = true
				if kind == "tool" && ts.Exposure == "search" {
					hidden += size[kind][n]
					if set.Default && !served[kind][n] {
						behind[n] = true
					}
					continue
				}
				bytes += size[kind][n]
				if set.Default && !served[kind][n] {
					served[kind][n] = true
					delete(behind, n)
					startBytes += size[kind][n]
					startCount++
				}
			}
		}
		if ts.Exposure == "search" {
			set.Search = &BudgetSearch{Hidden: len(ts.Tools), HiddenTokens: Tokens(hidden), Tokens: Tokens(searchBytes)}
			bytes += searchBytes
		}
		set.Tokens = Tokens(bytes)
		out.Sets = append(out.Sets, set)
	}
	for n := range behind {
		if served["tool"][n] { // listed by a toolset declared after
			delete(behind, n)
		}
	}
	if len(behind) > 0 {
		startBytes += searchBytes
		startCount += len(search)
	}
	alwaysBytes := 0
	for kind, names := range size {
		for n, b := range names {
			if !grouped[kind][n] {
				alwaysBytes += b
				out.Always.Count++
			}
		}
	}
	out.Always.Tokens = Tokens(alwaysBytes)
	out.AtStart = BudgetTotals{Tokens: Tokens(alwaysBytes + startBytes), Count: out.Always.Count + startCount}
	return out
}

func entries(n int, entry func(int) (string, any)) ([]BudgetEntry, int) {
	out := []BudgetEntry{}
	total := 0
	for i := range n {
		name, v := entry(i)
		data, _ := json.Marshal(v)
		out = append(out, BudgetEntry{Name: name, Bytes: len(data), Tokens: Tokens(len(data))})
		total += len(data)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Bytes > out[j].Bytes })
	return out, Tokens(total)
}

// ToolEntry is the tools/list entry of a tool, as a JSON-compatible map.
func ToolEntry(s *spec.Spec, t *spec.Tool) map[string]any {
	e := map[string]any{"name": t.Name}
	set(e, "title", t.Title)
	set(e, "description", t.Description)
	switch {
	case t.InputSchema != nil:
		e["inputSchema"] = json.RawMessage(t.InputSchema.JSON)
	case t.Input != nil:
		b, _ := specschema.AdvertisedInput(s, t.Input) // under server.schemaProfile, its rewrite
		e["inputSchema"] = json.RawMessage(b)
	default:
		e["inputSchema"] = map[string]any{"type": "object", "additionalProperties": false}
	}
	switch {
	case t.OutputSchema != nil:
		e["outputSchema"] = json.RawMessage(t.OutputSchema.JSON)
	case t.Output != nil:
		// The runtime advertises a typed output only when it is an object
		// (structuredContent is one); other outputs are sent as text.
		if out := wireSchema(s, t.Output); schemaIsObject(out) {
			e["outputSchema"] = out
		}
	}
	if a := t.Annotations; a != nil {
		ann := map[string]any{}
		set(ann, "title", a.Title)
		for k, v := range map[string]*bool{"readOnlyHint": a.ReadOnlyHint, "destructiveHint": a.DestructiveHint,
			"idempotentHint": a.IdempotentHint, "openWorldHint": a.OpenWorldHint} {
			if v != nil {
				ann[k] = *v
			}
		}
		e["annotations"] = ann
	}
	common(e, t.Icons, t.Meta)
	if u := t.UI; u != nil {
		meta := map[string]any{}
		if t.Meta != nil {
			json.Unmarshal(t.Meta.JSON, &meta)
		}
		uri := ""
		for _, r := range s.Resources {
			if r.Name == u.Resource {
				uri = r.URI
			}
		}
		link := map[string]any{"resourceUri": uri}
		if len(u.Visibility) > 0 {
			link["visibility"] = u.Visibility
		}
		meta["ui"], meta["ui/resourceUri"] = link, uri // as runtime.AppTool sends them
		e["_meta"] = meta
	}
	return e
}

func promptEntry(p *spec.Prompt) map[string]any {
	e := map[string]any{"name": p.Name}
	set(e, "title", p.Title)
	set(e, "description", p.Description)
	var args []any
	for _, a := range p.Arguments {
		m := map[string]any{"name": a.Name}
		set(m, "title", a.Title)
		set(m, "description", a.Description)
		if a.Required {
			m["required"] = true
		}
		args = append(args, m)
	}
	if len(args) > 0 {
		e["arguments"] = args
	}
	common(e, p.Icons, p.Meta)
	return e
}

func resourceEntry(r *spec.Resource) map[string]any {
	e := map[string]any{"uri": r.URI, "name": r.Name}
	set(e, "title", r.Title)
	set(e, "description", r.Description)
	set(e, "mimeType", r.MimeType)
	if r.Size != nil {
		e["size"] = *r.Size
	}
	if r.Annotations != nil {
		e["annotations"] = annotations(r.Annotations)
	}
	common(e, r.Icons, r.Meta)
	if r.IsApp() {
		// As runtime.AppResource lists a view: the app media type, and
		// _meta.ui (approximated by the spec's ui key, less the html path).
		e["mimeType"] = spec.AppMIMEType
		meta := map[string]any{}
		if r.Meta != nil {
			json.Unmarshal(r.Meta.JSON, &meta)
		}
		ui := map[string]any{}
		if u := r.UI; u != nil {
			if c := u.CSP; c != nil {
				csp := map[string][]string{}
				for key, list := range map[string][]spec.Origin{"connectDomains": c.ConnectDomains, "resourceDomains": c.ResourceDomains, "frameDomains": c.FrameDomains, "baseUriDomains": c.BaseURIDomains} {
					for _, o := range list {
						csp[key] = append(csp[key], o.Value)
					}
				}
				ui["csp"] = csp
			}
			if len(u.Permissions) > 0 {
				ui["permissions"] = u.Permissions
			}
			set(ui, "domain", u.Domain)
			if u.PrefersBorder != nil {
				ui["prefersBorder"] = *u.PrefersBorder
			}
		}
		meta["ui"] = ui
		e["_meta"] = meta
	}
	return e
}

func templateEntry(t *spec.ResourceTemplate) map[string]any {
	e := map[string]any{"uriTemplate": t.URITemplate, "name": t.Name}
	set(e, "title", t.Title)
	set(e, "description", t.Description)
	set(e, "mimeType", t.MimeType)
	if t.Annotations != nil {
		e["annotations"] = annotations(t.Annotations)
	}
	common(e, t.Icons, t.Meta)
	return e
}

func annotations(a *spec.Annotations) map[string]any {
	m := map[string]any{}
	if len(a.Audience) > 0 {
		m["audience"] = a.Audience
	}
	if a.Priority != nil {
		m["priority"] = json.Number(*a.Priority)
	}
	set(m, "lastModified", a.LastModified)
	return m
}

func common(e map[string]any, icons []*spec.Icon, meta *spec.Value) {
	if len(icons) > 0 {
		var list []any
		for _, ic := range icons {
			m := map[string]any{"src": ic.Src}
			set(m, "mimeType", ic.MimeType)
			set(m, "theme", ic.Theme)
			if len(ic.Sizes) > 0 {
				m["sizes"] = ic.Sizes
			}
			list = append(list, m)
		}
		e["icons"] = list
	}
	if meta != nil {
		e["_meta"] = json.RawMessage(meta.JSON)
	}
}

func set(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}

// topEntries is how many entries of a list the text report shows.
const topEntries = 10

// WriteText prints the budget for people: each list's total, then its
// largest entries.
func (b *Budget) WriteText(w io.Writer) {
	fmt.Fprintf(w, "Context budget (estimated tokens = %s):\n", b.Method)
	list := func(name string, l BudgetList, noun string) {
		fmt.Fprintf(w, "  %-24s %6d tokens  %d %s%s\n", name, l.Tokens, len(l.Entries), noun, plural(len(l.Entries)))
		for i, e := range l.Entries {
			if i == topEntries {
				fmt.Fprintf(w, "    … and %d more\n", len(l.Entries)-topEntries)
				break
			}
			fmt.Fprintf(w, "    %6d  %s\n", e.Tokens, e.Name)
		}
	}
	list("tools/list", b.Tools, "tool")
	if e := b.Exposure; e != nil {
		fmt.Fprintf(w, "    with exposure: %s, tools/list shows %d tools for %d tokens; the %d above are found with search_tools\n", e.Mode, len(e.Listed), e.Tokens, e.Hidden)
	}
	list("prompts/list", b.Prompts, "prompt")
	fmt.Fprintf(w, "  %-24s %6d tokens  %d resource%s\n", "resources/list", b.Resources.Tokens, b.Resources.Count, plural(b.Resources.Count))
	fmt.Fprintf(w, "  %-24s %6d tokens  %d template%s\n", "resources/templates/list", b.Templates.Tokens, b.Templates.Count, plural(b.Templates.Count))
	if ts := b.Toolsets; ts != nil {
		fmt.Fprintf(w, "By toolset (every list's entries):\n")
		fmt.Fprintf(w, "  %-24s %6d tokens  %d item%s, always served\n", "(in no toolset)", ts.Always.Tokens, ts.Always.Count, plural(ts.Always.Count))
		for _, set := range ts.Sets {
			state := ""
			if set.Default {
				state = ", served by default"
			}
			fmt.Fprintf(w, "  %-24s %6d tokens  %d item%s%s\n", set.Name, set.Tokens, set.Count, plural(set.Count), state)
			if x := set.Search; x != nil {
				fmt.Fprintf(w, "    with exposure: search, the 3 search tools (%d tokens, listed once for every such toolset) in place of its %d tool%s (%d tokens)\n",
					x.Tokens, x.Hidden, plural(x.Hidden), x.HiddenTokens)
			}
		}
		extra := ""
		if ts.Dynamic {
			extra = " (dynamic mode: plus its two tools)"
		}
		fmt.Fprintf(w, "  %-24s %6d tokens  %d item%s%s\n", "at start", ts.AtStart.Tokens, ts.AtStart.Count, plural(ts.AtStart.Count), extra)
	}
}

// schemaIsObject reports whether schema's top-level type is "object".
func schemaIsObject(schema json.RawMessage) bool {
	var top struct {
		Type any `json:"type"`
	}
	return json.Unmarshal(schema, &top) == nil && top.Type == "object"
}

// wireSchema is a typed schema as tools/list sends it (a Go type reference
// stands as its marker: its reflected schema is unknown here).
func wireSchema(s *spec.Spec, sch *spec.Schema) json.RawMessage {
	b, _ := specschema.Wire(s, sch)
	return b
}
