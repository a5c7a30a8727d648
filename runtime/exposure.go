package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/mcpgen/mcpgen/internal/contract"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/toolsearch"
)

// Search exposure: a server with hundreds of tools lists three instead,
// search_tools, describe_tools and call_tool, and the model finds the
// tool it needs by searching. The hidden tools stay what they were: a
// call_tool call is turned into the direct tools/call it stands for before
// the dispatch sees it (directCall), so validation, annotations checks,
// idempotency, scopes, requires, quotas, interceptors, tasks and tracing
// treat both the same.

// ToolExposure is how tools/list shows the registered tools.
type ToolExposure int

const (
	// ExposeAll lists every tool (the default).
	ExposeAll ToolExposure = iota
	// ExposeSearch lists search_tools, describe_tools and call_tool in
	// place of the tools.
	ExposeSearch
)

// Names of the tools search exposure lists. A server with search exposure
// cannot register tools of these names.
const (
	SearchToolsName   = contract.SearchToolsName
	DescribeToolsName = contract.DescribeToolsName
	CallToolName      = contract.CallToolName
)

// WithToolExposure sets how tools/list shows the tools: ExposeSearch lists
// the three search tools in their place. Tools stay callable by their own
// names too.
func WithToolExposure(e ToolExposure) Option { return func(c *config) { c.exposure = e } }

// searchLimit bounds search_tools' limit; defaultSearchLimit is what it
// returns without one. describeLimit bounds describe_tools' names.
const (
	defaultSearchLimit = 8
	maxSearchLimit     = 50
	maxDescribe        = 20
)

// searchView is search exposure over one set of tools: the entries listed
// in their place and the index that ranks them. It is a function of the
// set alone (searchExposure), so a toolset can have one of its own.
type searchView struct {
	from   *regView[*toolEntry] // the set it was built from
	tools  []*toolEntry         // the hidden tools, in order
	byName map[string]*toolEntry
	index  *toolsearch.Index
	listed *regView[*toolEntry] // search_tools, describe_tools, call_tool
}

// searchExposure builds the search exposure of the tools in v.
func searchExposure(v *regView[*toolEntry]) *searchView {
	sv := &searchView{from: v, tools: v.list, byName: v.byKey}
	docs := make([]toolsearch.Doc, len(v.list))
	tasks := false
	for i, te := range v.list {
		docs[i] = toolsearch.Doc{Name: te.tool.Name, Title: te.tool.Title, Description: te.tool.Description, Params: schemaParams(te.tool.InputSchema),
			Keywords: strings.Join(te.tool.Keywords, " ")}
		if te.tool.Annotations != nil && te.tool.Title == "" {
			docs[i].Title = te.tool.Annotations.Title
		}
		tasks = tasks || te.tool.taskSupport() != TaskForbidden
	}
	sv.index = toolsearch.New(docs)
	call := callToolTool
	if tasks { // a hidden tool may run as a task: so may call_tool, for it
		call.Execution = &ToolExecution{TaskSupport: TaskOptional}
	}
	sv.listed = &regView[*toolEntry]{byKey: map[string]*toolEntry{}}
	for _, t := range []Tool{searchToolsTool, describeToolsTool, call} {
		switch t.Name {
		case SearchToolsName:
			t.Handler = sv.search
		case DescribeToolsName:
			t.Handler = sv.describe
		}
		te := &toolEntry{tool: t, wire: mustToolWire(t), undeclared: undeclaredInjected(t.InputSchema)}
		sv.listed.list = append(sv.listed.list, te)
		sv.listed.byKey[t.Name] = te
	}
	return sv
}

// schemaParams reads the top-level properties of an input schema: their
// names, descriptions and the string values of an enum (theirs or their
// items') are searched too.
func schemaParams(schema json.RawMessage) []toolsearch.Param {
	type values struct {
		Enum []any `json:"enum"`
	}
	var s struct {
		Properties map[string]struct {
			Description string `json:"description"`
			values
			Items values `json:"items"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	out := make([]toolsearch.Param, 0, len(s.Properties))
	for name, p := range s.Properties {
		param := toolsearch.Param{Name: name, Description: p.Description}
		for _, v := range append(p.Enum, p.Items.Enum...) {
			if v, ok := v.(string); ok {
				param.Enum = append(param.Enum, v)
			}
		}
		out = append(out, param)
	}
	return out
}

// search returns the server's search exposure, built again only when the
// tools changed since. It is over every tool with the server's exposure
// search, else over the tools of the search-exposed toolsets: one view
// over their union, so that the three search tools are listed once; what
// one request may find of it is found's to say.
func (s *Server) search() *searchView {
	v := s.tools.snapshot()
	if sv := s.searchView.Load(); sv != nil && sv.from == v {
		return sv
	}
	set := v
	if s.cfg.exposure != ExposeSearch {
		set = &regView[*toolEntry]{byKey: map[string]*toolEntry{}}
		for _, te := range v.list {
			if s.toolsets.member[kindTool][te.tool.Name]&s.toolsets.search != 0 {
				set.list = append(set.list, te)
				set.byKey[te.tool.Name] = te
			}
		}
	}
	sv := searchExposure(set)
	sv.from = v
	s.searchView.Store(sv)
	return sv
}

// searchExposed reports whether some tools are behind search: the
// server's exposure is search, or a toolset's is.
func (s *Server) searchExposed() bool {
	return s.cfg.exposure == ExposeSearch || s.toolsets != nil && s.toolsets.search != 0
}

// enabledFor is the toolsets the client p (as viewed, Session.view) is
// served.
func (x *toolsetIndex) enabledFor(p *peerInfo) toolsetSet {
	if p != nil && p.view != nil {
		return p.view.enabled
	}
	return x.start
}

// searchServed reports whether the three search tools are listed for p:
// with the server's exposure search, or a search-exposed toolset served.
func (s *Server) searchServed(p *peerInfo) bool {
	if s.cfg.exposure == ExposeSearch {
		return true
	}
	x := s.toolsets
	return x != nil && x.enabledFor(p)&x.search != 0
}

// behindSearch reports whether te is found with search_tools rather than
// listed, for p: every tool is with the server's exposure search; else a
// tool of a search-exposed toolset is, unless a served toolset of it lists
// its tools.
func (s *Server) behindSearch(te *toolEntry, p *peerInfo) bool {
	if s.cfg.exposure == ExposeSearch {
		return true
	}
	x := s.toolsets
	if x == nil {
		return false
	}
	in := x.member[kindTool][te.tool.Name]
	return in&x.search != 0 && in&x.enabledFor(p)&^x.search == 0
}

// found returns what the caller of a search tool's call with context ctx
// may find: the tools behind search that its list would show if listed
// (Requires, served toolsets, scopes with WithListsByScope), so that
// nothing found is refused and nothing refused is found.
func found(ctx context.Context) func(*toolEntry) bool {
	c := reqFrom(ctx)
	if c == nil { // a handler called outside a session
		return func(te *toolEntry) bool { return visible(te, nil) }
	}
	p := c.ss.view(ctx, c.peerInfo())
	return func(te *toolEntry) bool { return visible(te, p) && c.ss.srv.behindSearch(te, p) }
}

// listedTools is what tools/list lists for p: the tools not behind
// search, and the search tools when they are served.
func (s *Server) listedTools(p *peerInfo) *regView[*toolEntry] {
	if s.cfg.exposure == ExposeSearch {
		return s.search().listed
	}
	all := s.tools.snapshot()
	if !s.searchExposed() {
		return all
	}
	out := &regView[*toolEntry]{gated: all.gated, list: make([]*toolEntry, 0, len(all.list)+3)}
	for _, te := range all.list {
		if !s.behindSearch(te, p) {
			out.list = append(out.list, te)
		}
	}
	if s.searchServed(p) {
		out.list = append(out.list, s.search().listed.list...)
	}
	return out
}

// lookupTool is the tool a tools/call from p names: a registered tool, or
// one of the search tools when they are served.
func (s *Server) lookupTool(name string, p *peerInfo) *toolEntry {
	if s.searchServed(p) { // implies searchExposed
		if te := s.search().listed.byKey[name]; te != nil {
			return te
		}
	}
	return s.tools.snapshot().byKey[name]
}

// directCall returns the params of the direct tools/call that a call_tool
// call stands for: {"name": arguments.name, "arguments":
// arguments.arguments} and every other member of params as sent (_meta,
// task, requestState…). Anything else, and a call_tool whose arguments are
// not {name, arguments?}, is returned as is: call_tool's own handler then
// says what is wrong.
func (s *Server) directCall(method []byte, params json.RawMessage) json.RawMessage {
	if !s.searchExposed() || string(method) != methodToolsCall {
		return params
	}
	if name, _ := jsonwire.StringMember(params, "name"); name != CallToolName {
		return params
	}
	var outer map[string]json.RawMessage
	var inner struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(params, &outer) != nil {
		return params
	}
	// call_tool's own arguments may carry what a client adds to every call.
	callArgs := s.dropInjected(context.Background(), CallToolName, callToolUndeclared, outer["arguments"])
	if decodeStrict(callArgs, &inner) != nil || inner.Name == "" {
		return params
	}
	if !jsonwire.IsNull(inner.Arguments) && jsonwire.FirstByte(inner.Arguments) != '{' {
		return params
	}
	outer["name"], _ = json.Marshal(inner.Name)
	outer["arguments"] = inner.Arguments
	if jsonwire.IsNull(inner.Arguments) {
		delete(outer, "arguments")
	}
	direct, err := json.Marshal(outer)
	if err != nil {
		return params
	}
	return direct
}

// decodeStrict decodes a JSON object into v, refusing unknown members.
func decodeStrict(raw json.RawMessage, v any) error {
	if jsonwire.FirstByte(raw) != '{' {
		return errNotObject
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

var errNotObject = errors.New("not a JSON object")

// The search tools, as listed (internal/contract declares them, for
// lint's context budget too).
var searchToolsTool, describeToolsTool, callToolTool = func() (Tool, Tool, Tool) {
	var out []Tool
	for _, st := range contract.SearchTools() {
		var a *ToolAnnotations // none where MCP's defaults are what it means
		if sa := st.Annotations; !sa.IsZero() {
			a = &ToolAnnotations{Title: sa.Title, ReadOnlyHint: sa.ReadOnlyHint, DestructiveHint: sa.DestructiveHint, IdempotentHint: sa.IdempotentHint, OpenWorldHint: sa.OpenWorldHint}
		}
		out = append(out, Tool{Name: st.Name, Title: st.Title, Description: st.Description, InputSchema: json.RawMessage(st.InputSchema), Annotations: a})
	}
	out[2].Handler = callToolMalformed
	return out[0], out[1], out[2]
}()

// callToolUndeclared are the injected arguments dropped from call_tool's
// own arguments (tools.go).
var callToolUndeclared = undeclaredInjected(callToolTool.InputSchema)

func ptr[T any](v T) *T { return &v }

// SearchTools returns the tools search exposure lists, without handlers,
// as tools/list shows them (call_tool is also advertised with execution
// taskSupport optional when a hidden tool may run as a task). lint's
// context budget counts them.
func SearchTools() []Tool {
	out := []Tool{searchToolsTool, describeToolsTool, callToolTool}
	for i := range out {
		out[i].Handler = nil
	}
	return out
}

// callToolMalformed answers a call_tool call directCall did not turn into
// a direct call: its arguments were not {name, arguments?}.
func callToolMalformed(context.Context, *CallToolRequest) (*CallToolResult, error) {
	return nil, errorf(CodeInvalidParams, `invalid params: call_tool takes {"name": a tool's name, "arguments": an object of that tool's arguments}, and nothing else`)
}

// searchHit is one tool search_tools returns.
type searchHit struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
}

// search is search_tools' handler.
func (sv *searchView) search(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
	var args struct {
		Query string `json:"query"`
		Limit *int   `json:"limit"`
	}
	if err := decodeStrict(req.Arguments, &args); err != nil || strings.TrimSpace(args.Query) == "" {
		return ErrorResult(`search_tools takes {"query": what you want to do, in words, "limit": an optional number of tools, 1 to 50}`), nil
	}
	limit := defaultSearchLimit
	if args.Limit != nil {
		if *args.Limit < 1 || *args.Limit > maxSearchLimit {
			return ErrorResult("search_tools: limit must be between 1 and 50"), nil
		}
		limit = *args.Limit
	}
	ok := found(ctx)
	hits := sv.index.Search(args.Query, limit, func(d int) bool { return ok(sv.tools[d]) })
	out := struct {
		Tools []searchHit `json:"tools"`
	}{Tools: []searchHit{}}
	for _, h := range hits {
		t := &sv.tools[h.Doc].tool
		out.Tools = append(out.Tools, searchHit{Name: t.Name, Title: t.Title, Description: summary(t.Description)})
	}
	return jsonToolResult(out)
}

// describe is describe_tools' handler: the tools' tools/list entries.
func (sv *searchView) describe(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
	var args struct {
		Names []string `json:"names"`
	}
	if err := decodeStrict(req.Arguments, &args); err != nil || len(args.Names) == 0 || len(args.Names) > maxDescribe {
		return ErrorResult(`describe_tools takes {"names": 1 to 20 tool names, as search_tools returned them}`), nil
	}
	ok := found(ctx)
	out := struct {
		Tools   []json.RawMessage `json:"tools"`
		Unknown []string          `json:"unknown,omitempty"`
	}{Tools: []json.RawMessage{}}
	for _, name := range args.Names {
		if te := sv.byName[name]; te != nil && ok(te) {
			out.Tools = append(out.Tools, te.wire)
		} else {
			out.Unknown = append(out.Unknown, name)
		}
	}
	if len(out.Tools) == 0 {
		return ErrorResult("describe_tools: no tool is named " + quote(strings.Join(out.Unknown, ", ")) + "; search_tools finds the names"), nil
	}
	return jsonToolResult(out)
}

// jsonToolResult is v as structuredContent and as its JSON text.
func jsonToolResult(v any) (*CallToolResult, error) {
	text, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	r := TextResult(string(text))
	r.StructuredContent = json.RawMessage(text)
	return r, nil
}

// summary is the first sentence of a description, at most 200 bytes:
// search results stay short, describe_tools has the rest.
func summary(desc string) string {
	desc = strings.TrimSpace(desc)
	if i := strings.Index(desc, ". "); i >= 0 {
		desc = desc[:i+1]
	}
	if i := strings.IndexByte(desc, '\n'); i >= 0 {
		desc = desc[:i]
	}
	if len(desc) > 200 {
		cut := strings.LastIndexByte(desc[:200], ' ')
		if cut < 100 {
			cut = 200
		}
		desc = strings.ToValidUTF8(desc[:cut], "") + "…"
	}
	return desc
}
