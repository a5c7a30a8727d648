package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/mcpheader"
	"github.com/mcpgen/mcpgen/runtime/internal/typeschema"
)

// ToolAnnotations are hints about a tool's behaviour. Clients must treat them
// as untrusted.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
	// Extra are keys outside MCP's hints (a server's own), each a JSON
	// value, advertised beside them as written; a hint's key is ignored.
	Extra map[string]json.RawMessage `json:"-"`
}

// hintKeys are the keys of MCP's hints, which Extra cannot override.
var hintKeys = []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// MarshalJSON writes the hints, then the Extra keys in sorted order.
func (a ToolAnnotations) MarshalJSON() ([]byte, error) {
	type hints ToolAnnotations // without this method
	b, err := json.Marshal(hints(a))
	if err != nil || len(a.Extra) == 0 {
		return b, err
	}
	keys := make([]string, 0, len(a.Extra))
	for k := range a.Extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = b[:len(b)-1] // the closing brace
	for _, k := range keys {
		if slices.Contains(hintKeys, k) {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		kb, _ := json.Marshal(k)
		if !json.Valid(a.Extra[k]) {
			return nil, fmt.Errorf("runtime: annotation %q: not a JSON value", k)
		}
		b = append(append(append(b, kb...), ':'), a.Extra[k]...)
	}
	return append(b, '}'), nil
}

// Tool is a tool as registered with AddTool: what tools/list advertises and
// the handler tools/call runs.
type Tool struct {
	Name        string
	Title       string
	Description string
	Icons       []Icon
	Annotations *ToolAnnotations
	Execution   *ToolExecution  // whether it runs as a task (tasks.go); advertised as set; nil: never
	Meta        json.RawMessage // the tool's _meta object, or nil
	// Requires, when set, lists it and serves it only to clients that
	// declared these capabilities (context.go); it is not advertised.
	Requires *Requires

	// InputSchema is the JSON Schema of the arguments, a JSON object with
	// "type":"object". nil advertises {"type":"object","additionalProperties":false}.
	InputSchema json.RawMessage
	// AdvertisedInputSchema, when set, is what tools/list shows instead of
	// InputSchema: InputSchema rewritten into what a model API takes (the
	// spec's server.schemaProfile). Arguments are still validated against
	// InputSchema.
	AdvertisedInputSchema json.RawMessage
	// OutputSchema is the JSON Schema of structuredContent; nil advertises none.
	OutputSchema json.RawMessage

	// Scopes are the OAuth scopes a tools/call of this tool needs, with
	// WithAuthorization over HTTP: a token without all of them gets 403
	// insufficient_scope naming them (step-up). They are not advertised in
	// tools/list, and do not apply over stdio.
	Scopes []string

	// Idempotency, when set, runs the handler once per value of a key
	// argument: retries get the first result (see Idempotency).
	Idempotency *Idempotency

	// Keywords are words a user may say for the tool that its name, title
	// and description do not use: search exposure's search_tools finds the
	// tool by them too (exposure.go). They are not advertised.
	Keywords []string

	// RateLimit, when set, limits each caller's calls of the tool (see
	// WithRateLimit for the server's limit, and quota.go).
	RateLimit *RateLimit

	// MaxResultBytes, when > 0, bounds the encoded result: one over it
	// becomes what Overflow says, kept for ResultTTL (default
	// DefaultResultTTL) behind a link (resultbudget.go).
	MaxResultBytes int
	Overflow       Overflow
	ResultTTL      time.Duration

	Handler ToolHandler

	generated *schemaOrigin // set for the tools of generated code (genimpl), for their tests
}

// CallToolRequest is a tools/call request as a handler sees it.
type CallToolRequest struct {
	Name      string
	Arguments json.RawMessage // a JSON object, or nil when the client sent none (or null)
	Meta      json.RawMessage // the request's _meta object, or nil
}

// ToolHandler runs a tool. A returned error becomes an isError result with the
// error's text (the model can read it and retry), except an *Error, which
// becomes a JSON-RPC error response. A panic is recovered and answered with an
// internal error. Handlers registered as plain Tools see the arguments
// unvalidated; TypedTool validates them against the input schema first.
type ToolHandler func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error)

type toolEntry struct {
	tool    Tool
	wire    []byte            // the tool's tools/list entry, encoded once at AddTool
	headers []mcpheader.Param // its x-mcp-header declarations
	// undeclared are the client-injected arguments its schema does not
	// declare, dropped from its calls (tools.go).
	undeclared []string
}

func (te *toolEntry) key() string         { return te.tool.Name }
func (te *toolEntry) listJSON() []byte    { return te.wire }
func (te *toolEntry) requires() *Requires { return te.tool.Requires }
func (te *toolEntry) kind() itemKind      { return kindTool }
func (te *toolEntry) scopes() []string    { return te.tool.Scopes }

// AddTool registers t. It panics, as these are programming errors in the
// (generated) registration code: on an empty or duplicate name, a nil
// Handler, or a schema or _meta that is not a JSON object. Tools are listed in
// the order they were added. AddTool may be called while serving: initialized
// sessions then get notifications/tools/list_changed.
func (s *Server) AddTool(t Tool) {
	if t.Name == "" {
		panic("runtime: AddTool: the tool has no name")
	}
	where := fmt.Sprintf("AddTool(%q)", t.Name)
	if t.Handler == nil {
		panic("runtime: " + where + ": nil Handler")
	}
	if t.InputSchema == nil {
		t.InputSchema = typeschema.NoArgsSchema
	}
	t.InputSchema = mustObject(where, "InputSchema", t.InputSchema)
	if typeschema.Type(t.InputSchema) != "object" {
		panic("runtime: " + where + ": InputSchema must have \"type\":\"object\"")
	}
	if t.OutputSchema != nil {
		t.OutputSchema = mustObject(where, "OutputSchema", t.OutputSchema)
	}
	if t.AdvertisedInputSchema != nil {
		t.AdvertisedInputSchema = mustObject(where, "AdvertisedInputSchema", t.AdvertisedInputSchema)
	}
	if t.Meta != nil {
		t.Meta = s.appLink(mustObject(where, "Meta", t.Meta))
	}
	if t.RateLimit != nil && !t.RateLimit.Valid() {
		panic("runtime: " + where + ": a RateLimit needs Requests > 0 and Per > 0")
	}
	if t.Idempotency != nil && t.Idempotency.Key == "" {
		panic("runtime: " + where + ": Idempotency without a Key")
	}
	if s.searchExposed() && (t.Name == SearchToolsName || t.Name == DescribeToolsName || t.Name == CallToolName) {
		panic("runtime: " + where + ": with search exposure, this name is the search tool's")
	}
	wire := mustToolWire(t)
	if !s.tools.add(&toolEntry{tool: t, wire: wire, headers: mcpheader.Params(where, t.InputSchema), undeclared: undeclaredInjected(t.InputSchema)}) {
		panic("runtime: " + where + ": a tool with this name is already registered")
	}
	s.listChanged(capTools)
}

// mustToolWire encodes t's tools/list entry, with its advertised input
// schema when a schema profile gave it one.
func mustToolWire(t Tool) []byte {
	advertised := t.InputSchema
	if t.AdvertisedInputSchema != nil {
		advertised = t.AdvertisedInputSchema
	}
	wire, err := json.Marshal(struct {
		Name         string           `json:"name"`
		Title        string           `json:"title,omitempty"`
		Description  string           `json:"description,omitempty"`
		InputSchema  json.RawMessage  `json:"inputSchema"`
		Execution    *ToolExecution   `json:"execution,omitempty"`
		OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
		Annotations  *ToolAnnotations `json:"annotations,omitempty"`
		Icons        []Icon           `json:"icons,omitempty"`
		Meta         json.RawMessage  `json:"_meta,omitempty"`
	}{t.Name, t.Title, t.Description, advertised, t.Execution, t.OutputSchema, t.Annotations, t.Icons, t.Meta})
	if err != nil {
		panic(fmt.Sprintf("runtime: AddTool(%q): %v", t.Name, err))
	}
	return wire
}

// RemoveTool unregisters the tool named name and reports whether there was
// one. Calls already running finish; initialized sessions get
// notifications/tools/list_changed.
func (s *Server) RemoveTool(name string) bool {
	if !s.tools.remove(name) {
		return false
	}
	s.listChanged(capTools)
	return true
}

// mustObject returns raw compacted, and panics unless it is a JSON object.
// where names the registration, e.g. AddTool("x").
func mustObject(where, field string, raw json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		panic(fmt.Sprintf("runtime: %s: %s is not valid JSON: %v", where, field, err))
	}
	if jsonwire.FirstByte(buf.Bytes()) != '{' {
		panic(fmt.Sprintf("runtime: %s: %s must be a JSON object", where, field))
	}
	return buf.Bytes()
}

// Tools returns the registered tools in order, with InputSchema and
// OutputSchema as advertised in tools/list. Do not modify their byte slices.
func (s *Server) Tools() []Tool {
	return values(&s.tools, func(te *toolEntry) Tool { return te.tool })
}

func (ss *Session) toolsList(p *peerInfo, params json.RawMessage) (encoder, *Error) {
	return page(ss, p, "tools", ss.srv.listedTools(p), params)
}

// toolsCall checks a tools/call request and runs the tool in its own
// goroutine. Malformed requests (no name, unknown tool, arguments that are not
// an object) are protocol errors; everything about the arguments' content is
// the tool's to report as an isError result (SEP-1303).
func (ss *Session) toolsCall(ctx context.Context, id string, params json.RawMessage) {
	if jsonwire.FirstByte(params) != '{' {
		ss.respond(ctx, id, nil, errorf(CodeInvalidParams, `invalid params: tools/call takes an object with "name" and "arguments"`))
		return
	}
	var name, args, meta, task []byte
	if _, err := jsonwire.ScanObject(params, func(key, val []byte) {
		switch string(key) {
		case "name":
			name = val
		case "arguments":
			args = val
		case "_meta":
			meta = val
		case "task":
			task = val
		}
	}); err != nil {
		ss.respond(ctx, id, nil, errorf(CodeInvalidParams, "invalid params: %v", err))
		return
	}
	name, ok := jsonwire.MethodBytes(name) // same shape: a JSON string
	if !ok {
		ss.respond(ctx, id, nil, errorf(CodeInvalidParams, `invalid params: "name" must be the name of a tool`))
		return
	}
	p := ss.declaredBy(ctx)
	te := ss.srv.lookupTool(string(name), p)
	if te == nil || !visible(te, p) { // a hidden tool is an unknown one (context.go)
		ss.respond(ctx, id, nil, errorf(CodeInvalidParams, "unknown tool %s", quote(string(name))))
		return
	}
	// The handler runs after the message is gone: copy what it keeps.
	c := &call{exec: execTool, tool: te, req: CallToolRequest{Name: te.tool.Name}}
	if !jsonwire.IsNull(args) {
		if jsonwire.FirstByte(args) != '{' {
			ss.respond(ctx, id, nil, errorf(CodeInvalidParams, `invalid params: "arguments" must be a JSON object`))
			return
		}
		c.req.Arguments = ss.srv.dropInjected(ctx, te.tool.Name, te.undeclared, bytes.Clone(args))
	}
	if !jsonwire.IsNull(meta) {
		if jsonwire.FirstByte(meta) != '{' {
			ss.respond(ctx, id, nil, errorf(CodeInvalidParams, `invalid params: "_meta" must be a JSON object`))
			return
		}
		c.req.Meta = bytes.Clone(meta)
		c.meta = c.req.Meta
	}
	if !jsonwire.IsNull(task) {
		c.taskParam = bytes.Clone(task)
	}
	decoded(ctx, &c.req)
	ss.start(ctx, id, c)
}

func execTool(ctx context.Context, c *call) (encoder, *Error) {
	if res, e, isTask := c.ss.toolTask(ctx, c); isTask {
		return res, e
	}
	return c.ss.runTool(ctx, c.tool, &c.req)
}

// runTool runs a call: through the idempotency store when the tool has an
// idempotency key.
func (ss *Session) runTool(ctx context.Context, te *toolEntry, req *CallToolRequest) (res encoder, e *Error) {
	if te.tool.Idempotency != nil {
		res, e = ss.runIdempotent(ctx, te, req)
	} else {
		res, e = ss.callTool(ctx, te, req)
	}
	if e != nil || te.tool.MaxResultBytes <= 0 {
		return res, e
	}
	return ss.overBudget(ctx, te, res)
}

// callTool calls the handler and turns its outcome into a result or a protocol
// error. A panic is logged with its stack and answered with a generic internal
// error: the panic value may hold anything and is not the client's business.
func (ss *Session) callTool(ctx context.Context, te *toolEntry, req *CallToolRequest) (res encoder, rpcErr *Error) {
	defer func() {
		if v := recover(); v != nil {
			ss.srv.cfg.logger.ErrorContext(ctx, "runtime: tool handler panicked",
				"tool", te.tool.Name, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			res, rpcErr = nil, errorf(CodeInternalError, "internal error in tool %s", quote(te.tool.Name))
		}
	}()
	r, err := te.tool.Handler(ctx, req)
	if err != nil {
		noteHandlerError(ctx, err)
		if e, ok := errors.AsType[*Error](err); ok {
			return nil, e
		}
		return ErrorResult(err.Error()), nil
	}
	if r == nil {
		return ErrorResult("tool returned no result"), nil
	}
	return r, nil
}

// Injected arguments: some MCP clients add a parameter of their own to
// every tool's schema before they hand it to their model, and send it back
// in tools/call when the model sets it. Gemini CLI adds wait_for_previous
// (a boolean that orders its parallel tool calls). A tool whose input
// schema is closed (additionalProperties: false, as every generated one)
// would refuse such a call with "unknown property", so by default the
// runtime drops these arguments before the tool sees them, when the tool's
// schema does not declare a property of that name, and logs it at debug
// level. The arguments the tool validates are then exactly the ones its
// advertised schema describes. Only the names below are dropped: any other
// unknown argument is still refused, so a model's typo is still reported.

// injectedArguments are the top-level arguments known clients add to every
// tool call, and who adds them.
var injectedArguments = []struct{ name, client string }{
	{"wait_for_previous", "Gemini CLI"},
}

// InjectedArgumentNames lists the arguments WithInjectedArguments is
// about: the ones known clients add to every tool call.
func InjectedArgumentNames() []string {
	out := make([]string, len(injectedArguments))
	for i, a := range injectedArguments {
		out[i] = a.name
	}
	return out
}

// InjectedArguments is what a server does with a client-injected argument
// that the tool does not declare.
type InjectedArguments int

const (
	// DropInjected removes it before the tool sees the arguments (the
	// default; spec: server.injectedArguments: drop).
	DropInjected InjectedArguments = iota
	// RejectInjected leaves it, so a closed schema refuses the call as it
	// refuses any unknown argument (spec: injectedArguments: reject).
	RejectInjected
)

// WithInjectedArguments sets what happens to the arguments that known
// clients add to every tool call (InjectedArgumentNames) when the tool does
// not declare them: DropInjected (the default) or RejectInjected.
func WithInjectedArguments(p InjectedArguments) Option {
	return func(c *config) { c.injected = p }
}

// undeclaredInjected lists the injected arguments that the input schema
// does not declare among its top-level properties: the ones to drop.
func undeclaredInjected(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s) // a schema without properties declares none
	var out []string
	for _, a := range injectedArguments {
		if _, ok := s.Properties[a.name]; !ok {
			out = append(out, a.name)
		}
	}
	return out
}

// dropInjected returns args without the members named in drop, logging
// each one dropped; args itself when it has none of them.
func (s *Server) dropInjected(ctx context.Context, tool string, drop []string, args json.RawMessage) json.RawMessage {
	if s.cfg.injected != DropInjected || len(drop) == 0 || jsonwire.FirstByte(args) != '{' {
		return args
	}
	if !slices.ContainsFunc(drop, func(name string) bool { return bytes.Contains(args, []byte(name)) }) {
		return args // the fast path: no member can have the name
	}
	out := []byte{'{'}
	dropped := false
	if _, err := jsonwire.ScanObject(args, func(key, val []byte) { // key comes unquoted
		if slices.Contains(drop, string(key)) {
			dropped = true
			s.cfg.logger.DebugContext(ctx, "runtime: dropped an argument the client adds to every tool call", "tool", tool, "argument", string(key), "client", injectedBy(string(key)))
			return
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(jsonwire.AppendString(out, string(key)), ':'), val...)
	}); err != nil || !dropped {
		return args
	}
	return append(out, '}')
}

func injectedBy(name string) string {
	for _, a := range injectedArguments {
		if a.name == name {
			return a.client
		}
	}
	return ""
}
