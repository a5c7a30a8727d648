package runtime

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/bits"
	"net/http"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/contract"
	"github.com/mcpgen/mcpgen/runtime/internal/mcpheader"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Toolsets: named groups of tools, prompts, resources and resource
// templates, so that a big server shows a model only what its task needs
// (every tool's schema costs context). An item in no toolset is always
// served; an item in toolsets is served when one of them is enabled. What
// is enabled, in order of precedence:
//
//   - over HTTP, the request's Mcp-Toolsets header, or else its toolsets
//     query parameter (?toolsets=a,b): that request sees those toolsets
//     (plus, in dynamic mode, what its session enabled);
//   - else the server's selection, WithEnabledToolsets (the generated
//     main's -toolsets flag and MCP_TOOLSETS variable), or else every
//     toolset (none in dynamic mode).
//
// In dynamic mode (WithDynamicToolsets) the server adds two tools: one that
// lists the toolsets and one that enables a toolset for the rest of the
// session, announced with list_changed notifications.
//
// A hidden item is an unknown one, as for Requires (context.go): its list
// leaves it out and a call of it gets the error of a missing one. A list
// that depends on the request (a header or query selection, dynamic mode)
// has the modern cacheScope "private".

// Toolset is a named group of what a server offers.
type Toolset struct {
	Name        string
	Title       string
	Description string
	// The members, by the keys the server registers them under: tool and
	// prompt names, resource URIs, resource template names.
	Tools     []string
	Prompts   []string
	Resources []string
	Templates []string
	// Exposure ExposeSearch puts the toolset's tools behind search_tools,
	// describe_tools and call_tool (exposure.go): tools/list shows the
	// three in their place while the toolset is served.
	Exposure ToolExposure
}

// DynamicToolsets configures dynamic mode: the names of the tools it adds
// (default list_toolsets and enable_toolset).
type DynamicToolsets struct {
	ListTool   string
	EnableTool string
}

// maxToolsets bounds the toolsets of a server: a set of them is one word.
const maxToolsets = contract.MaxToolsets

// HeaderToolsets is the HTTP request header that selects toolsets, a
// comma-separated list of names ("all": every one).
const HeaderToolsets = transport.HeaderToolsets

// WithToolsets declares the server's toolsets (the generated code passes
// the spec's). It panics on more than 64 toolsets, an empty or repeated
// name, as these are programming errors.
func WithToolsets(sets ...Toolset) Option {
	return func(c *config) {
		c.toolsets.sets = append(c.toolsets.sets, sets...)
	}
}

// WithEnabledToolsets selects the toolsets served when a request does not
// choose (the generated main's -toolsets flag and MCP_TOOLSETS): names of
// toolsets, or "all". Each name may itself be a comma-separated list. An
// unknown name makes Serve, ListenAndServe, ServeStdio and HTTPHandler fail
// with an error naming it.
func WithEnabledToolsets(names ...string) Option {
	return func(c *config) {
		c.toolsets.chosen = true
		c.toolsets.chosenNames = nil
		for _, n := range names {
			c.toolsets.chosenNames = append(c.toolsets.chosenNames, splitNames(n)...)
		}
	}
}

// WithDynamicToolsets turns on dynamic mode: at first only what is in no
// toolset (and what WithEnabledToolsets names) is served, plus a tool that
// lists the toolsets and one that enables a toolset for the session.
func WithDynamicToolsets(d DynamicToolsets) Option {
	return func(c *config) {
		if d.ListTool == "" {
			d.ListTool = "list_toolsets"
		}
		if d.EnableTool == "" {
			d.EnableTool = "enable_toolset"
		}
		c.toolsets.dynamic = &d
	}
}

// toolsetConfig is what the toolset options said.
type toolsetConfig struct {
	sets        []Toolset
	chosen      bool     // WithEnabledToolsets was given
	chosenNames []string // its names
	dynamic     *DynamicToolsets
}

// toolsetSet is a set of toolsets, bit i standing for the i-th declared.
type toolsetSet uint64

// toolsetIndex is the toolsets of a Server, as looked up while serving.
type toolsetIndex struct {
	sets    []Toolset
	byName  map[string]int
	member  [kindCount]map[string]toolsetSet // the toolsets each item is in
	start   toolsetSet                       // served when a request does not choose
	static  listView                         // the view of a request that does not choose
	dynamic *DynamicToolsets
	search  toolsetSet // the toolsets with ExposeSearch
	err     error      // an unknown name in WithEnabledToolsets, reported when serving starts
}

// newToolsetIndex indexes cfg; it returns nil when there are no toolsets.
func newToolsetIndex(cfg toolsetConfig) *toolsetIndex {
	if len(cfg.sets) == 0 && cfg.dynamic == nil && !cfg.chosen {
		return nil
	}
	if len(cfg.sets) > maxToolsets {
		panic(fmt.Sprintf("runtime: WithToolsets: %d toolsets; a server has at most %d", len(cfg.sets), maxToolsets))
	}
	x := &toolsetIndex{sets: cfg.sets, byName: map[string]int{}, dynamic: cfg.dynamic}
	for k := range x.member {
		x.member[k] = map[string]toolsetSet{}
	}
	for i, ts := range cfg.sets {
		if ts.Name == "" || ts.Name == "all" {
			panic(fmt.Sprintf("runtime: WithToolsets: toolset %d is named %q; name it", i, ts.Name))
		}
		if _, dup := x.byName[ts.Name]; dup {
			panic(fmt.Sprintf("runtime: WithToolsets: toolset %q is declared twice", ts.Name))
		}
		x.byName[ts.Name] = i
		bit := toolsetSet(1) << i
		if ts.Exposure == ExposeSearch {
			x.search |= bit
		}
		for kind, keys := range [kindCount][]string{kindTool: ts.Tools, kindPrompt: ts.Prompts, kindResource: ts.Resources, kindTemplate: ts.Templates} {
			for _, k := range keys {
				x.member[kind][k] |= bit
			}
		}
	}
	switch {
	case cfg.chosen:
		x.start, x.err = x.parse(cfg.chosenNames, "WithEnabledToolsets (the -toolsets flag, MCP_TOOLSETS)")
	case cfg.dynamic == nil:
		x.start = x.all()
	}
	x.static = listView{toolsets: x, enabled: x.start}
	return x
}

func (x *toolsetIndex) all() toolsetSet {
	if len(x.sets) == maxToolsets {
		return ^toolsetSet(0)
	}
	return toolsetSet(1)<<len(x.sets) - 1
}

// parse reads names of toolsets, or "all", as a set; where says where they
// come from, for the error of an unknown one.
func (x *toolsetIndex) parse(names []string, where string) (toolsetSet, error) {
	var s toolsetSet
	for _, n := range names {
		if n == "all" {
			s |= x.all()
			continue
		}
		i, ok := x.byName[n]
		if !ok {
			return 0, fmt.Errorf("unknown toolset %q in %s; %s", n, where, x.known())
		}
		s |= toolsetSet(1) << i
	}
	return s, nil
}

// known lists the toolsets, for error messages.
func (x *toolsetIndex) known() string {
	if len(x.sets) == 0 {
		return "this server has no toolsets"
	}
	names := make([]string, len(x.sets))
	for i, ts := range x.sets {
		names[i] = ts.Name
	}
	return "the toolsets are " + strings.Join(names, ", ") + " (or all)"
}

// names lists the toolsets of s, in declaration order.
func (x *toolsetIndex) names(s toolsetSet) []string {
	var out []string
	for s != 0 {
		i := bits.TrailingZeros64(uint64(s))
		out = append(out, x.sets[i].Name)
		s &^= 1 << i
	}
	return out
}

// tools lists the tools of the toolsets of s, in declaration order, each
// once (enable_toolset of "all" names every toolset's).
func (x *toolsetIndex) tools(s toolsetSet) []string {
	var out []string
	for i, ts := range x.sets {
		if s&(1<<i) == 0 {
			continue
		}
		for _, t := range ts.Tools {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// kinds is the list kinds (capSet) that the toolsets of s have members of:
// the lists whose list_changed is due when s is enabled.
func (x *toolsetIndex) kinds(s toolsetSet) capSet {
	var c capSet
	for i, ts := range x.sets {
		if s&(1<<i) == 0 {
			continue
		}
		if len(ts.Tools) > 0 {
			c |= capTools
		}
		if len(ts.Prompts) > 0 {
			c |= capPrompts
		}
		if len(ts.Resources)+len(ts.Templates) > 0 {
			c |= capResources
		}
	}
	return c
}

// splitNames splits a comma-separated list, dropping blanks.
func splitNames(s string) []string {
	var out []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// listView is what one request may see beyond Requires: the toolsets it
// has enabled, and the scopes of its caller (lists by scope, authlists.go).
type listView struct {
	toolsets *toolsetIndex // nil: no toolsets
	enabled  toolsetSet
	caller   *AuthInfo // with listsByScope and a verified token; nil: scopes do not filter
	private  bool      // the view depends on the request: a list is cacheScope private
}

// shows reports whether v lets its request see the item of kind with key,
// needing scopes.
func (v *listView) shows(kind itemKind, key string, scopes []string) bool {
	if v.toolsets != nil {
		if in := v.toolsets.member[kind][key]; in != 0 && in&v.enabled == 0 {
			return false
		}
	}
	return v.caller == nil || v.caller.HasAll(scopes)
}

// toolsetsKey is the context key of a request's own toolset selection.
type toolsetsKey struct{}

// withRequestToolsets reads the toolset selection of an HTTP request (its
// Mcp-Toolsets header, or else its toolsets query parameter) into its
// context. An unknown name is an error that says where it was.
func (s *Server) withRequestToolsets(r *http.Request) (*http.Request, error) {
	raw, where := mcpheader.Value(r.Header, HeaderToolsets), "the "+HeaderToolsets+" header"
	if raw == "" && r.URL.Query().Has("toolsets") {
		raw, where = r.URL.Query().Get("toolsets"), "the toolsets query parameter"
	} else if raw == "" {
		return r, nil
	}
	x := s.toolsets
	if x == nil {
		// No toolsets: every name but all is unknown, refused as on a
		// server with toolsets; all selects nothing, and nothing hides.
		if _, err := (&toolsetIndex{}).parse(splitNames(raw), where); err != nil {
			return nil, err
		}
		return r, nil
	}
	set, err := x.parse(splitNames(raw), where)
	if err != nil {
		return nil, err
	}
	return r.WithContext(context.WithValue(r.Context(), toolsetsKey{}, set)), nil
}

// view returns what the client p of a request with context ctx may see: p
// itself when nothing but Requires filters, else a copy with its listView.
func (ss *Session) view(ctx context.Context, p *peerInfo) *peerInfo {
	s := ss.srv
	if s.toolsets == nil && !s.cfg.listsByScope {
		return p
	}
	v := listView{toolsets: s.toolsets}
	if x := s.toolsets; x != nil {
		v.enabled = x.start
		if set, ok := ctx.Value(toolsetsKey{}).(toolsetSet); ok {
			v.enabled, v.private = set, true
		}
		if x.dynamic != nil {
			v.enabled |= toolsetSet(ss.enabledToolsets.Load())
			v.private = true
		}
	}
	if s.cfg.listsByScope {
		if info, ok := AuthFromContext(ctx); ok {
			v.caller, v.private = info, true
		}
	}
	switch {
	case v.private:
		own := v // v itself stays on the stack for the common case below
		return withView(p, &own)
	case s.toolsets == nil:
		return p // lists by scope without a verified caller: nothing to hide
	}
	// The server's own selection: the same view for every request of the
	// session, made once (a legacy session's peer does not change).
	if c := ss.viewCache.Load(); c != nil && c.peer == p {
		return c.viewed
	}
	viewed := withView(p, &s.toolsets.static)
	ss.viewCache.Store(&viewCache{peer: p, viewed: viewed})
	return viewed
}

// viewCache is a session's peer with the server's own list view.
type viewCache struct{ peer, viewed *peerInfo }

// withView is a copy of p with the list view v (p nil: a client that
// declared nothing).
func withView(p *peerInfo, v *listView) *peerInfo {
	var out peerInfo
	if p != nil {
		out = *p
	}
	out.view = v
	return &out
}

// shows reports whether the list view of p (if any) shows the item of kind
// with key, needing scopes.
func (p *peerInfo) shows(kind itemKind, key string, scopes []string) bool {
	return p == nil || p.view == nil || p.view.shows(kind, key, scopes)
}

// enableToolsets adds set to what the session has enabled (dynamic mode),
// keeps it in the shared session store, and announces the lists that
// changed. It returns the toolsets that were not enabled yet.
func (ss *Session) enableToolsets(set toolsetSet) (toolsetSet, *Error) {
	for {
		old := ss.enabledToolsets.Load()
		if ss.enabledToolsets.CompareAndSwap(old, old|uint64(set)) {
			set &^= toolsetSet(old)
			break
		}
	}
	if set == 0 {
		return 0, nil
	}
	if e := ss.persist(); e != nil {
		return 0, e
	}
	ss.out.listChanged(ss.srv.toolsets.kinds(set))
	return set, nil
}

// addToolsetTools adds the two tools of dynamic mode.
func (s *Server) addToolsetTools() {
	x := s.toolsets
	if x == nil || x.dynamic == nil {
		return
	}
	s.AddTool(Tool{
		Name:        x.dynamic.ListTool,
		Title:       "List toolsets",
		Description: "Lists the toolsets of this server: groups of tools for one kind of task, each with whether it is enabled. Enable one with " + x.dynamic.EnableTool + " to get its tools.",
		Annotations: &ToolAnnotations{ReadOnlyHint: ptr(true), OpenWorldHint: ptr(false)},
		OutputSchema: []byte(`{"type":"object","properties":{"toolsets":{"type":"array","items":{"type":"object","properties":{` +
			`"name":{"type":"string"},"title":{"type":"string"},"description":{"type":"string"},"enabled":{"type":"boolean"},` +
			`"tools":{"type":"array","items":{"type":"string"}}},"required":["name","enabled"]}}},"required":["toolsets"]}`),
		Handler: s.listToolsets,
	})
	s.AddTool(Tool{
		Name:        x.dynamic.EnableTool,
		Title:       "Enable a toolset",
		Description: "Enables a toolset for the rest of this session: its tools are listed and callable from now on (the tool list changes). List the toolsets with " + x.dynamic.ListTool + ".",
		Annotations: &ToolAnnotations{ReadOnlyHint: ptr(false), DestructiveHint: ptr(false), IdempotentHint: ptr(true), OpenWorldHint: ptr(false)},
		InputSchema: []byte(`{"type":"object","properties":{"toolset":{"type":"string","description":"The name of the toolset, as ` +
			x.dynamic.ListTool + ` lists it."}},"required":["toolset"],"additionalProperties":false}`),
		Handler: s.enableToolset,
	})
}

type toolsetListing struct {
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	Enabled     bool     `json:"enabled"`
	Tools       []string `json:"tools,omitempty"`
}

// listToolsets is the handler of the list tool of dynamic mode.
func (s *Server) listToolsets(ctx context.Context, _ *CallToolRequest) (*CallToolResult, error) {
	x := s.toolsets
	enabled := s.enabledFor(ctx)
	var out struct {
		Toolsets []toolsetListing `json:"toolsets"`
	}
	out.Toolsets = []toolsetListing{}
	var text strings.Builder
	for i, ts := range x.sets {
		on := enabled&(1<<i) != 0
		out.Toolsets = append(out.Toolsets, toolsetListing{Name: ts.Name, Title: ts.Title, Description: ts.Description, Enabled: on, Tools: ts.Tools})
		state := "not enabled"
		if on {
			state = "enabled"
		}
		fmt.Fprintf(&text, "%s (%s): %s", ts.Name, state, cmp.Or(ts.Description, ts.Title))
		if len(ts.Tools) > 0 {
			fmt.Fprintf(&text, " Tools: %s.", strings.Join(ts.Tools, ", "))
		}
		text.WriteByte('\n')
	}
	res := TextResult(strings.TrimSuffix(text.String(), "\n"))
	res.StructuredContent = out
	return res, nil
}

// enabledFor is what the request of ctx has enabled.
func (s *Server) enabledFor(ctx context.Context) toolsetSet {
	c := reqFrom(ctx)
	if c == nil {
		return s.toolsets.start
	}
	p := c.ss.view(ctx, c.peerInfo())
	return p.view.enabled
}

// enableToolset is the handler of the enable tool of dynamic mode.
func (s *Server) enableToolset(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
	x := s.toolsets
	var args struct {
		Toolset string `json:"toolset"`
	}
	if err := json.Unmarshal(req.Arguments, &args); err != nil || args.Toolset == "" {
		return ErrorResult(`invalid arguments: give {"toolset": name}; ` + x.known()), nil
	}
	set, err := x.parse([]string{args.Toolset}, "the toolset argument")
	if err != nil {
		return ErrorResult(err.Error()), nil
	}
	c := reqFrom(ctx)
	if c == nil {
		return ErrorResult("toolsets are enabled per session; this call has none"), nil
	}
	if c.peer != nil && c.peer.modern {
		// 2026-07-28 requests are stateless: nothing is kept between them.
		// The client selects toolsets itself, with the header.
		return ErrorResult(fmt.Sprintf("this 2026-07-28 request has no session to enable a toolset in; send the %s header (or ?toolsets=) with %q on your requests", HeaderToolsets, args.Toolset)), nil
	}
	added, e := c.ss.enableToolsets(set)
	if e != nil {
		return nil, e
	}
	tools := x.tools(set)
	if added == 0 {
		return TextResult(fmt.Sprintf("toolset %s was already enabled; its tools: %s", args.Toolset, strings.Join(tools, ", "))), nil
	}
	return TextResult(fmt.Sprintf("enabled toolset %s; its tools are listed now: %s", args.Toolset, strings.Join(tools, ", "))), nil
}
