// Package mcpimport writes an mcpgen spec from what a running MCP server
// advertises (`mcpgen import mcp`): it starts the server as a child process
// (stdio) or connects to its URL (Streamable HTTP), initializes, pages
// through tools/list, resources/list, resources/templates/list and
// prompts/list, and turns every JSON Schema into the spec's typed schema
// language, keeping a raw inputSchema/outputSchema only where a keyword
// cannot be typed (and saying which).
package mcpimport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/internal/gonames"
	"github.com/mcpgen/mcpgen/spec"
)

// Options says which server to import and how.
type Options struct {
	// Command starts a stdio server (the program and its arguments); URL
	// names a Streamable HTTP endpoint instead.
	Command []string
	URL     string
	// Env is added to the environment of a stdio server (NAME=value).
	Env []string
	// Headers go with every HTTP request (Authorization, API keys).
	Headers http.Header
	// Timeout bounds each request, starting the server included (default
	// DefaultTimeout).
	Timeout time.Duration
	// Package overrides go.package (default: from the server's name).
	Package string
}

// DefaultTimeout is Options.Timeout when it is not set: long enough for
// `npx -y` to install a server on a cold npm cache before it answers
// initialize.
const DefaultTimeout = 3 * time.Minute

// Result is the imported spec and what the import saw.
type Result struct {
	YAML []byte
	// Counts is the number of items of each list, in the order tools,
	// resources, resource templates, prompts.
	Counts Counts
	// Raw names the tools (and where) that kept a raw schema.
	Raw   []string
	Notes []string
	// Protocol is the revision the server agreed to.
	Protocol string
}

// Counts is the number of items the server listed.
type Counts struct{ Tools, Resources, Templates, Prompts int }

// StepError says which step of the import failed.
type StepError struct {
	Step string
	Err  error
}

func (e *StepError) Error() string { return e.Step + ": " + e.Err.Error() }
func (e *StepError) Unwrap() error { return e.Err }

// Lists is what a server lists, item by item as it sent them. It
// marshals to JSON and back whole: a recorded listing (json.Marshal of a
// Lists) imports with FromLists as the live one does.
type Lists struct {
	// Initialize is the initialize result as the server sent it; FromLists
	// reads serverInfo and instructions from it.
	Initialize json.RawMessage   `json:"initialize,omitempty"`
	Tools      []json.RawMessage `json:"tools,omitempty"`
	Resources  []json.RawMessage `json:"resources,omitempty"`
	Templates  []json.RawMessage `json:"resourceTemplates,omitempty"`
	Prompts    []json.RawMessage `json:"prompts,omitempty"`
	// Protocol is the revision the server agreed to.
	Protocol string `json:"protocol"`
	// Capabilities are the server's capabilities, as initialize answered.
	Capabilities map[string]json.RawMessage `json:"capabilities,omitempty"`
	// Requires holds, for an item that only a capable client is shown
	// (see Probe), the client capabilities it needs, by "tools/NAME",
	// "resources/NAME", "resourceTemplates/NAME" or "prompts/NAME".
	Requires map[string]*Requirement `json:"requires,omitempty"`
	// Stray holds lines a stdio server wrote to its standard output that
	// are not messages (banners, logs), which MCP does not allow.
	Stray []string `json:"stray,omitempty"`
	// Notes say what the listing met that the spec cannot show: a list
	// method the server's capability promises but that it does not
	// implement.
	Notes []string `json:"notes,omitempty"`
}

// List connects to the server as a client that declares no capabilities
// and reads its four lists, paging through cursors; a list whose
// capability the server does not declare is empty.
func List(ctx context.Context, opts Options) (*Lists, error) {
	return ListAs(ctx, opts, nil)
}

// ListAs is List for a client that declares caps in initialize.
func ListAs(ctx context.Context, opts Options, caps map[string]any) (*Lists, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	var c conn
	switch {
	case len(opts.Command) > 0:
		sc, err := startStdio(opts.Command, opts.Env)
		if err != nil {
			return nil, &StepError{"starting the server", err}
		}
		c = sc
	case opts.URL != "":
		c = &httpConn{url: opts.URL, headers: opts.Headers, client: &http.Client{}}
	default:
		return nil, errors.New("import mcp needs a command (-- CMD ARGS…) or a URL")
	}
	defer c.close()
	if caps == nil {
		caps = map[string]any{}
	}
	l := &lister{c: c, timeout: opts.Timeout, caps: caps}
	return l.run(ctx)
}

// Import connects to the server, reads its lists (Probe) and writes the
// spec.
func Import(ctx context.Context, opts Options) (*Result, error) {
	lists, err := Probe(ctx, opts)
	if err != nil {
		return nil, err
	}
	return FromLists(lists, opts)
}

// FromLists writes the spec of lists that List read (opts.Package is the
// one option it reads).
func FromLists(lists *Lists, opts Options) (*Result, error) {
	var init initializeResult
	if len(lists.Initialize) > 0 {
		if err := json.Unmarshal(lists.Initialize, &init); err != nil {
			return nil, fmt.Errorf("initialize: the result is not an InitializeResult (%v): %s", err, clip(lists.Initialize))
		}
	}
	im := &importer{opts: opts, conv: newConverter(), init: init, requires: lists.Requires}
	im.res.Protocol = lists.Protocol
	im.res.Notes = append(im.res.Notes, lists.Notes...)
	if n := len(lists.Stray); n > 0 {
		im.note("the server wrote %d lines to its standard output that are not MCP messages (stdio allows none; log to standard error), the first: %s", n, lists.Stray[0])
	}
	im.res.Counts = Counts{len(lists.Tools), len(lists.Resources), len(lists.Templates), len(lists.Prompts)}
	root, err := im.spec(lists.Tools, lists.Resources, lists.Templates, lists.Prompts)
	if err != nil {
		return nil, err
	}
	if im.res.YAML, err = encode(root); err != nil {
		return nil, err
	}
	return &im.res, nil
}

// lister speaks to one server: initialize, then the list methods.
type lister struct {
	c       conn
	caps    map[string]any
	timeout time.Duration
	init    initializeResult
	rawInit json.RawMessage
}

type importer struct {
	opts Options
	// droppedDialects are the typed schemas whose root $schema the spec
	// refused (see toolSchema).
	droppedDialects []string
	requires        map[string]*Requirement // Lists.Requires
	conv            *converter
	res             Result
	init            initializeResult
}

type initializeResult struct {
	ProtocolVersion string                     `json:"protocolVersion"`
	Capabilities    map[string]json.RawMessage `json:"capabilities"`
	ServerInfo      map[string]any             `json:"serverInfo"`
	Instructions    string                     `json:"instructions"`
}

func (l *lister) call(ctx context.Context, step, method string, params any) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	r, err := l.c.call(ctx, method, params)
	if err != nil {
		return nil, &StepError{step, err}
	}
	return r, nil
}

func (im *importer) note(format string, args ...any) {
	im.res.Notes = append(im.res.Notes, fmt.Sprintf(format, args...))
}

func (l *lister) run(ctx context.Context) (*Lists, error) {
	if err := l.initialize(ctx); err != nil {
		return nil, err
	}
	nctx, cancel := context.WithTimeout(ctx, l.timeout)
	err := l.c.notify(nctx, "notifications/initialized")
	cancel()
	if err != nil {
		return nil, &StepError{"notifications/initialized", err}
	}
	out := &Lists{Protocol: l.init.ProtocolVersion, Capabilities: l.init.Capabilities, Initialize: l.rawInit}
	defer func() { out.Stray = l.c.strayLines() }()
	for _, list := range []struct {
		capability, method, key string
		items                   *[]json.RawMessage
	}{
		{"tools", "tools/list", "tools", &out.Tools},
		{"resources", "resources/list", "resources", &out.Resources},
		{"resources", "resources/templates/list", "resourceTemplates", &out.Templates},
		{"prompts", "prompts/list", "prompts", &out.Prompts},
	} {
		if _, ok := l.init.Capabilities[list.capability]; !ok {
			continue // not offered: nothing to list
		}
		*list.items, err = l.list(ctx, list.method, list.key)
		if rpc := (*rpcError)(nil); errors.As(err, &rpc) && rpc.Code == methodNotFound {
			// resources advertises resources/list and templates alike;
			// servers in the field implement one of the two.
			out.Notes = append(out.Notes, fmt.Sprintf("the server declares the %s capability but answers %s with %v; listed as empty", list.capability, list.method, rpc))
			err = nil
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// initialize offers the newest revision first; a server that refuses it
// with an error (instead of answering with the revision it speaks, as the
// protocol says) is offered the older ones.
func (l *lister) initialize(ctx context.Context) error {
	var firstErr error
	for _, v := range protocols {
		params := map[string]any{
			"protocolVersion": v,
			"capabilities":    l.caps,
			"clientInfo":      map[string]any{"name": "mcpgen-import", "version": "1"},
		}
		r, err := l.call(ctx, "initialize", "initialize", params)
		if err != nil {
			var rpc *rpcError
			if firstErr == nil {
				firstErr = err
			}
			if errors.As(err, &rpc) {
				continue
			}
			return err
		}
		if err := json.Unmarshal(r, &l.init); err != nil {
			return &StepError{"initialize", fmt.Errorf("the result is not an InitializeResult (%v): %s", err, clip(r))}
		}
		if l.init.ProtocolVersion == "" {
			return &StepError{"initialize", fmt.Errorf("the result has no protocolVersion: %s", clip(r))}
		}
		if h, ok := l.c.(*httpConn); ok {
			h.protocol = l.init.ProtocolVersion
		}
		l.rawInit = r
		return nil
	}
	return firstErr
}

// maxPages stops a server whose cursors never end.
const maxPages = 10000

// list pages through one list method.
func (l *lister) list(ctx context.Context, method, key string) ([]json.RawMessage, error) {
	var all []json.RawMessage
	cursor := ""
	seen := map[string]bool{}
	for page := 1; ; page++ {
		var params any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		step := method
		if page > 1 {
			step = fmt.Sprintf("%s (page %d)", method, page)
		}
		r, err := l.call(ctx, step, method, params)
		if err != nil {
			return nil, err
		}
		var res map[string]json.RawMessage
		if err := json.Unmarshal(r, &res); err != nil {
			return nil, &StepError{step, fmt.Errorf("the result is not an object: %s", clip(r))}
		}
		var items []json.RawMessage
		if raw, ok := res[key]; !ok || json.Unmarshal(raw, &items) != nil {
			return nil, &StepError{step, fmt.Errorf("the result has no list %q: %s", key, clip(r))}
		}
		all = append(all, items...)
		var next string
		if raw, ok := res["nextCursor"]; ok {
			json.Unmarshal(raw, &next)
		}
		if next == "" {
			return all, nil
		}
		if seen[next] || page >= maxPages {
			return nil, &StepError{step, fmt.Errorf("the server repeats nextCursor %q: its paging never ends", next)}
		}
		seen[next] = true
		cursor = next
	}
}

// node parses JSON into a YAML node, which keeps the key order.
func node(raw json.RawMessage) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, errors.New("not one JSON value")
	}
	return doc.Content[0], nil
}

var toolNameRe = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// spec assembles the spec document.
func (im *importer) spec(tools, resources, templates, prompts []json.RawMessage) (*yaml.Node, error) {
	root := newMap()
	root.Set("mcpgen", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"})
	root.Set("server", im.server())
	goSec := newMap()
	goSec.Set("package", str(im.packageName()))
	// Its own directory: the spec's is where the user's main goes.
	goSec.Set("output", str(im.packageName()))
	root.Set("go", goSec.N)
	toolMap := newMap()
	for i, raw := range tools {
		n, err := node(raw)
		if err != nil || n.Kind != yaml.MappingNode {
			return nil, &StepError{"tools/list", fmt.Errorf("tool %d is not an object: %s", i+1, clip(raw))}
		}
		t := ymap{N: n}
		name := scalarOf(t, "name")
		if !toolNameRe.MatchString(name) {
			im.note("tools[%d]: the name %q is not a valid tool name (^[A-Za-z0-9_.-]{1,64}$); left out", i, name)
			continue
		}
		if toolMap.Get(name) != nil {
			im.note("tools.%s: listed twice; the second left out", name)
			continue
		}
		toolMap.Set(name, im.withRequires(im.tool(name, t, root), "tools", name))
	}
	if im.conv.types.Len() > 0 {
		root.Set("types", im.conv.types.N)
	}
	if toolMap.Len() > 0 {
		root.Set("tools", toolMap.N)
	}
	im.items(root, "resources", "resources/list", resources, []string{"uri", "title", "description", "mimeType", "size", "annotations", "icons", "_meta"})
	im.items(root, "resourceTemplates", "resources/templates/list", templates, []string{"uriTemplate", "title", "description", "mimeType", "annotations", "icons", "_meta"})
	im.prompts(root, prompts)
	im.capabilities(ymap{N: root.Get("server")}, root)
	// Move types before tools, the order a reader expects.
	reorder(root, "types", "tools")
	im.conv.markNullableRefs(root.N)
	if n := len(im.droppedDialects); n > 0 {
		im.note("%d typed schemas say a $schema at their root that the spec does not take (%s first: it takes 2020-12, 2019-09, draft-07 and draft-06, on a root that is not a $ref); left out", n, im.droppedDialects[0])
	}
	root, diags := im.settleGoNames(root)
	for _, d := range diags {
		im.note("the written spec does not load: %s", d)
	}
	return root.N, nil
}

// capabilities writes server.capabilities: what the server declares that
// the spec would not advertise by itself, having nothing of it (servers
// declare resources: {} or prompts: {} with empty lists, and completions,
// which the spec advertises only for what says complete:).
func (im *importer) capabilities(server, root ymap) {
	list := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, c := range []struct{ name, section, other string }{
		{"tools", "tools", ""}, {"resources", "resources", "resourceTemplates"}, {"prompts", "prompts", ""}, {"completions", "", ""},
	} {
		if _, ok := im.init.Capabilities[c.name]; !ok || c.section != "" && root.Get(c.section) != nil || c.other != "" && root.Get(c.other) != nil {
			continue
		}
		list.Content = append(list.Content, str(c.name))
	}
	if len(list.Content) > 0 {
		server.Set("capabilities", list)
	}
}

// withRequires adds requires: to an item only capable clients are shown.
func (im *importer) withRequires(item *yaml.Node, key, name string) *yaml.Node {
	req := im.requires[key+"/"+name]
	if req == nil {
		return item
	}
	if len(req.Capabilities)+len(req.Extensions) == 0 {
		im.note("%s.%s: listed only to a client with every capability, but to none that lacks one; no requires: written", key, name)
		return item
	}
	r := newMap()
	for _, l := range []struct {
		key   string
		names []string
	}{{"capabilities", req.Capabilities}, {"extensions", req.Extensions}} {
		if len(l.names) == 0 {
			continue
		}
		list := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, c := range l.names {
			list.Content = append(list.Content, str(c))
		}
		r.Set(l.key, list)
	}
	r.N.Style = yaml.FlowStyle
	item.Style = 0
	ymap{N: item}.Set("requires", r.N)
	return item
}

// reorder moves key before other (both present).
func reorder(m ymap, key, before string) {
	c := m.N.Content
	ki, bi := -1, -1
	for i := 0; i+1 < len(c); i += 2 {
		switch c[i].Value {
		case key:
			ki = i
		case before:
			bi = i
		}
	}
	if ki < 0 || bi < 0 || ki < bi {
		return
	}
	k, v := c[ki], c[ki+1]
	c = append(c[:ki], c[ki+2:]...)
	c = append(c[:bi], append([]*yaml.Node{k, v}, c[bi:]...)...)
	m.N.Content = c
}

func scalarOf(m ymap, key string) string {
	if v := m.Get(key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// server is the server section, from serverInfo and instructions.
func (im *importer) server() *yaml.Node {
	s := newMap()
	info := im.init.ServerInfo
	get := func(k string) string { v, _ := info[k].(string); return v }
	name := get("name")
	if name == "" {
		name = "imported"
		im.note("server: serverInfo has no name; named %q", name)
	}
	s.Set("name", str(name))
	for _, k := range []string{"title", "description"} {
		if v := get(k); v != "" {
			s.Set(k, text(v))
		}
	}
	version := get("version")
	if version == "" {
		version = "0.0.0"
	}
	s.Set("version", str(version))
	if v := get("websiteUrl"); v != "" {
		s.Set("websiteUrl", str(v))
	}
	if icons, ok := info["icons"]; ok {
		b, _ := json.Marshal(icons)
		if n, err := node(b); err == nil {
			s.Set("icons", plain(n))
		}
	}
	if im.init.Instructions != "" {
		s.Set("instructions", text(im.init.Instructions))
	}
	return s.N
}

// packageName is go.package: the server's name in lower-case letters and
// digits, with mcp after it.
func (im *importer) packageName() string {
	if im.opts.Package != "" {
		return im.opts.Package
	}
	name, _ := im.init.ServerInfo["name"].(string)
	if name == "" {
		name = "imported"
	}
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	p := strings.TrimSuffix(b.String(), "mcp") + "mcp"
	return p
}

var annotationKeys = []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// typoOfHint reports whether the spec refuses key in a tool's
// annotations as a typo of one of MCP's hints.
func typoOfHint(key string) bool {
	a := newMap()
	a.Set(key, boolean(true))
	t := newMap()
	t.Set("description", str("d"))
	t.Set("annotations", a.N)
	tools := newMap()
	tools.Set("t", t.N)
	root := newMap()
	root.Set("mcpgen", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"})
	root.Set("server", mustMap("name", "s", "version", "1"))
	root.Set("go", mustMap("package", "p"))
	root.Set("tools", tools.N)
	_, diags := spec.Load("check.yaml", mustEncode(root))
	return len(diags) > 0
}

// mustMap is a mapping of string keys and values.
func mustMap(kv ...string) *yaml.Node {
	m := newMap()
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i], str(kv[i+1]))
	}
	return m.N
}

// tool converts one tool of tools/list.
func (im *importer) tool(name string, t ymap, root ymap) *yaml.Node {
	out := newMap()
	where := "tools." + name
	t.Each(func(key string, v *yaml.Node) {
		switch key {
		case "name":
		case "title", "description":
			out.Set(key, plain(v))
		case "inputSchema", "outputSchema":
			im.toolSchema(out, name, key, v)
		case "annotations":
			a := newMap()
			ymap{N: v}.Each(func(k string, av *yaml.Node) {
				switch {
				case slices.Contains(annotationKeys, k):
					a.Set(k, plain(av))
				case typoOfHint(k):
					im.note("%s.annotations.%s: a near miss of an MCP tool hint, which the spec takes for a typo; left out", where, k)
				default:
					a.Set(k, plain(av)) // the server's own, advertised as written
				}
			})
			if a.Len() > 0 {
				out.Set("annotations", flowSmall(a.N))
			}
		case "execution":
			e := newMap()
			ymap{N: v}.Each(func(k string, ev *yaml.Node) {
				if k == "taskSupport" {
					e.Set(k, plain(ev))
				} else {
					im.note("%s.execution.%s: unknown; left out", where, k)
				}
			})
			if e.Len() > 0 {
				out.Set("execution", flowSmall(e.N))
			}
		case "icons", "_meta":
			out.Set(key, plain(v))
		default:
			im.note("%s.%s: not a field of an MCP tool; left out", where, key)
		}
	})
	if out.Get("description") == nil {
		im.note("%s: the server gives no description; the spec needs one (clients reject tools without one), so it says TODO", where)
		out.Set("description", str("TODO"))
	}
	return out.N
}

// toolSchema writes a tool's input or output typed when it can; else the
// raw schema, with a note naming the keyword that forced it. A typed
// schema that the spec then refuses (a format it does not know, a pattern
// that is not RE2) falls back the same way.
func (im *importer) toolSchema(out ymap, tool, key string, v *yaml.Node) {
	typedKey := map[string]string{"inputSchema": "input", "outputSchema": "output"}[key]
	where := "tools." + tool + "." + typedKey
	mark := im.conv.mark()
	s, err := im.conv.document(v, where)
	if err == nil && typedKey == "input" && isTypeOnly(s, "any") {
		// MCP's arguments are an object, which the schema does not say
		// (a schema of only $schema, as zod-to-json-schema writes for a
		// zod version it does not know): any object is what it accepts.
		im.note("%s: the server's inputSchema does not say type: object, which MCP requires of tool arguments; written as any object", where)
		s = typeOnly("object")
	}
	if err == nil {
		dialect := withDialect(s, v)
		why := im.conv.check(tool, typedKey, s)
		if why != "" && dialect {
			// The spec may take the schema and not its $schema (draft-04,
			// a root written as a $ref): the schema is kept without it.
			ymap{N: s}.Del("$schema")
			if why = im.conv.check(tool, typedKey, s); why == "" {
				im.droppedDialects = append(im.droppedDialects, where)
			}
		}
		if why != "" {
			err = fmt.Errorf("%s: the spec refuses the typed schema: %s", where, why)
		}
	}
	if err == nil {
		out.Set(typedKey, s)
		return
	}
	im.conv.reset(mark)
	im.note("%s: written as raw %s (%v)", where, key, err)
	im.res.Raw = append(im.res.Raw, tool+"."+key)
	out.Set(key, plain(v))
}

// withDialect puts the $schema of a document's root (the JSON Schema
// dialect it is written in) on the typed schema s, first, as the spec
// advertises it as written; it reports whether there was one.
func withDialect(s, src *yaml.Node) bool {
	if src.Kind != yaml.MappingNode || s.Kind != yaml.MappingNode {
		return false
	}
	d := ymap{N: src}.Get("$schema")
	if d == nil || d.Kind != yaml.ScalarNode || d.Tag != "!!str" {
		return false
	}
	s.Content = append([]*yaml.Node{str("$schema"), str(d.Value)}, s.Content...)
	s.Style = 0
	return true
}

func mustEncode(m ymap) []byte {
	b, err := encode(m.N)
	if err != nil {
		return nil
	}
	return b
}

// encode writes n as the spec's YAML, the way the Go-name settling reads it.
func encode(n *yaml.Node) ([]byte, error) { return gonames.Encode(n) }

// named parses item i of a list; an item that is not an object, or has no
// name or one already in out, is left out with a note.
func (im *importer) named(out ymap, method string, i int, raw json.RawMessage) (ymap, string, bool) {
	n, err := node(raw)
	if err != nil || n.Kind != yaml.MappingNode {
		im.note("%s: item %d is not an object; left out", method, i+1)
		return ymap{}, "", false
	}
	m := ymap{N: n}
	name := scalarOf(m, "name")
	if name == "" || out.Get(name) != nil {
		im.note("%s: item %d has no name or a name listed before (%q); left out", method, i+1, name)
		return ymap{}, "", false
	}
	return m, name, true
}

// items converts resources or resource templates: each keyed by its name
// (any string), with the fields the spec knows.
func (im *importer) items(root ymap, key, method string, list []json.RawMessage, fields []string) {
	if len(list) == 0 {
		return
	}
	out := newMap()
	for i, raw := range list {
		m, name, ok := im.named(out, method, i, raw)
		if !ok {
			continue
		}
		if key == "resourceTemplates" && im.fixedTemplate(root, name, m) {
			continue
		}
		item := newMap()
		m.Each(func(k string, v *yaml.Node) {
			switch {
			case k == "name":
			case slices.Contains(fields, k):
				item.Set(k, plain(v))
			default:
				im.note("%s.%s.%s: not a field the spec carries; left out", key, name, k)
			}
		})
		out.Set(name, im.withRequires(flowSmall(item.N), key, name))
	}
	if out.Len() > 0 {
		root.Set(key, out.N)
	}
}

// fixedTemplate handles a resource template without a variable, which
// matches one URI only and which the spec refuses (a fixed URI is a
// resource): when resources/list lists that URI too, as SDKs that list a
// template's resources do, the resource says asTemplate: (it is listed
// as the template too) if the two agree, else the template is left out;
// without such a resource it becomes that resource. It reports whether
// the template was such.
func (im *importer) fixedTemplate(root ymap, name string, m ymap) bool {
	uri := scalarOf(m, "uriTemplate")
	if uri == "" || strings.Contains(uri, "{") {
		return false
	}
	resources := root.Get("resources")
	if resources == nil {
		resources = newMap().N
		root.Set("resources", resources)
	}
	listed := ""
	ymap{N: resources}.Each(func(k string, r *yaml.Node) {
		if scalarOf(ymap{N: r}, "uri") == uri && listed == "" {
			listed = k
		}
	})
	if listed != "" {
		r := ymap{N: resources}.Get(listed)
		if why := im.sameAsResource(name, m, listed, r); why != "" {
			im.note("resourceTemplates.%s: the uriTemplate %q has no variable, and resources.%s is that URI, but %s; left out (the spec writes a fixed URI under resources only)", name, uri, listed, why)
			return true
		}
		r.Style = 0
		ymap{N: r}.Set("asTemplate", str(name))
		im.note("resourceTemplates.%s: the uriTemplate %q has no variable, and resources.%s is that URI; written as its asTemplate: %s", name, uri, listed, name)
		return true
	}
	r := newMap()
	m.Each(func(k string, v *yaml.Node) {
		switch k {
		case "name":
		case "uriTemplate":
			r.Set("uri", plain(v))
		case "title", "description", "mimeType", "annotations", "icons", "_meta":
			r.Set(k, plain(v))
		}
	})
	res := ymap{N: resources}
	key := name
	for i := 2; res.Get(key) != nil; i++ {
		key = fmt.Sprintf("%s%d", name, i)
	}
	res.Set(key, flowSmall(r.N))
	im.note("resourceTemplates.%s: the uriTemplate %q has no variable; written as resources.%s (the spec writes a fixed URI under resources), listed by resources/list rather than resources/templates/list", name, uri, key)
	return true
}

// sameAsResource says why a template without variables is not the
// resource of its URI listed once more ("" when it is): asTemplate lists
// the resource's fields and requirements under the template's name.
func (im *importer) sameAsResource(name string, tmpl ymap, resName string, res *yaml.Node) string {
	r := ymap{N: res}
	switch {
	case r.Get("asTemplate") != nil:
		return "that resource is listed as a template already"
	case strings.HasPrefix(scalarOf(r, "uri"), "ui://"):
		return "that resource is an MCP App view, never a template"
	case !reflect.DeepEqual(im.requires["resourceTemplates/"+name], im.requires["resources/"+resName]):
		return "they need other client capabilities"
	}
	for _, k := range []string{"title", "description", "mimeType", "annotations", "icons", "_meta"} {
		var a, b any
		if n := tmpl.Get(k); n != nil {
			n.Decode(&a)
		}
		if n := r.Get(k); n != nil {
			n.Decode(&b)
		}
		if !reflect.DeepEqual(a, b) {
			return "their " + k + " differ"
		}
	}
	return ""
}

// prompts converts prompts/list; arguments become a mapping by name.
func (im *importer) prompts(root ymap, list []json.RawMessage) {
	if len(list) == 0 {
		return
	}
	out := newMap()
	for i, raw := range list {
		m, name, ok := im.named(out, "prompts/list", i, raw)
		if !ok {
			continue
		}
		p := newMap()
		m.Each(func(k string, v *yaml.Node) {
			switch k {
			case "name":
			case "title", "description", "icons", "_meta":
				p.Set(k, plain(v))
			case "arguments":
				if v.Kind != yaml.SequenceNode {
					return
				}
				args := newMap() // empty for arguments: [], advertised as written
				for _, a := range v.Content {
					am := ymap{N: a}
					an := scalarOf(am, "name")
					arg := newMap()
					am.Each(func(ak string, av *yaml.Node) {
						switch ak {
						case "name":
						case "title", "description", "required":
							arg.Set(ak, plain(av))
						default:
							im.note("prompts.%s.arguments.%s.%s: not a field the spec carries; left out", name, an, ak)
						}
					})
					args.Set(an, flowSmall(arg.N))
				}
				p.Set("arguments", args.N)
			default:
				im.note("prompts.%s.%s: not a field the spec carries; left out", name, k)
			}
		})
		if p.Get("description") == nil {
			im.note("prompts.%s: the server gives no description; the spec needs one, so it says TODO", name)
			p.Set("description", str("TODO"))
		}
		out.Set(name, im.withRequires(p.N, "prompts", name))
	}
	root.Set("prompts", out.N)
}
