package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/sealed"
	"github.com/mcpgen/mcpgen/runtime/internal/workers"
)

// Implementation names a client or a server (MCP's Implementation).
type Implementation struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
	WebsiteURL  string `json:"websiteUrl,omitempty"`
	Icons       []Icon `json:"icons,omitempty"`
}

// Protocol revisions this runtime speaks, newest first. An initialize asking
// for anything else is answered with the newest (lifecycle.mdx: the client
// then decides whether to disconnect).
var supportedVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

const latestVersion = "2025-11-25"

// Option configures a Server.
type Option func(*config)

type config struct {
	instructions   string
	pageSize       int
	logger         *slog.Logger
	maxMessageSize int
	cacheTTL       time.Duration         // ttlMs of cacheable modern results
	cacheScope     string                // their cacheScope
	cacheByMethod  map[string]*CacheHint // WithMethodCaching, normalized
	stateKey       []byte                // seals requestState (WithRequestStateKey)
	stateBox       *sealed.Box           // from stateKey
	stateStore     RequestStateStore     // records used requestStates
	stateStoreSet  bool                  // WithRequestStateStore was given: WithStore keeps it
	stateTTL       time.Duration         // how long a requestState is accepted
	legacyOnly     bool                  // do not serve 2026-07-28 requests (WithoutModernEra)
	noAppViews     bool                  // MCP Apps turned off (WithoutAppViews)
	idempotency    IdempotencyStore
	events         EventStore                       // WithStore: the HTTP transport's default event store
	bus            NotificationBus                  // WithStore, WithNotificationBus: carries change notifications
	sessions       SessionStore                     // WithStore: legacy HTTP sessions shared by replicas
	stdioShutdown  time.Duration                    // graceful ServeStdio shutdown (WithStdioShutdownTimeout); 0: none
	json           jsonLimits                       // the shape of one message (WithMaxJSONValues, WithMaxObjectMembers)
	interceptors   []Interceptor                    // WithInterceptors, outermost first
	sessionHooks   []SessionHook                    // WithSessionHook
	inputChecks    []InputInterceptor               // WithInputInterceptors
	rateLimit      *RateLimit                       // WithRateLimit; nil: none
	quotaStore     QuotaStore                       // WithQuotaStore; default in memory
	quotaStoreSet  bool                             // WithQuotaStore was given: WithStore keeps it
	quotaKey       func(ctx context.Context) string // WithQuotaKey
	startLine      io.Writer                        // where Serve says it started (WithStartLine); nil: nowhere
	startLineSet   bool                             // WithStartLine was given (else os.Stderr)
	tasks          taskConfig                       // long-running tool calls (tasks.go)
	toolsets       toolsetConfig                    // WithToolsets, WithEnabledToolsets, WithDynamicToolsets (toolsets.go)
	listsByScope   bool                             // WithListsByScope (toolsets.go)
	advertise      capSet                           // WithCapabilities
	exposure       ToolExposure                     // how tools/list shows the tools (exposure.go)
	injected       InjectedArguments                // arguments clients add to every call (tools.go)
}

// A Server is dual-era by default: the legacy revisions (2024-11-05 …
// 2025-11-25) for a client that sends initialize, and the stateless
// 2026-07-28 revision for a request whose _meta names it (server/discover,
// per-request _meta, resultType, caching hints, multi round-trip requests,
// subscriptions/listen). The same handlers serve both.

// WithModernEra is what a Server does by default: serve the 2026-07-28
// revision beside the legacy ones. It is kept so that code written when the
// modern era had to be turned on still compiles; it does nothing (and
// undoes WithoutModernEra given before it).
//
// Deprecated: both eras are served by default; remove the option.
func WithModernEra() Option { return func(c *config) { c.legacyOnly = false } }

// WithoutModernEra serves the legacy revisions only: a request carrying
// modern _meta is served as a legacy one, and server/discover is method not
// found, so that a dual-era client (the Go SDK ≥ 1.7 probes with it) falls
// back to initialize. For a deployment that must keep sessions, say, until
// its clients are ready.
func WithoutModernEra() Option { return func(c *config) { c.legacyOnly = true } }

const (
	defaultPageSize       = 1000
	defaultMaxMessageSize = 4 << 20
)

// WithInstructions sets the instructions returned by initialize: how to use
// the server, as a hint for the model.
func WithInstructions(text string) Option { return func(c *config) { c.instructions = text } }

// WithPageSize sets how many items a list method returns per page (default
// 1000). n < 1 keeps the default.
func WithPageSize(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.pageSize = n
		}
	}
}

// WithLogger sets where the server logs (default: text to os.Stderr at level
// Warn). The server never logs to stdout, which belongs to the protocol.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithStartLine sets where Serve writes the one line it prints on start:
// the server's name and version, the transport and, over HTTP, the URL.
// The default is os.Stderr (stdout belongs to the protocol); nil prints
// nothing, for a quiet server.
func WithStartLine(w io.Writer) Option {
	return func(c *config) { c.startLine, c.startLineSet = w, true }
}

// WithMaxMessageSize caps the size of one incoming message in bytes (default
// 4 MiB). A longer message is answered with an invalid-request error and
// skipped. n < 1 keeps the default.
func WithMaxMessageSize(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxMessageSize = n
		}
	}
}

// WithCaching sets the caching hints of the results of the 2026-07-28 era
// that carry them (tools/list, prompts/list, resources/list,
// resources/templates/list, resources/read, server/discover): ttlMs, how long
// a client may reuse the result (ttl, in whole milliseconds; < 0 counts as
// 0), and cacheScope, "public" (any client may share it) or "private" (only
// the client that asked; any other value counts as "private"). The default
// is ttl 0 (do not reuse without asking again) and "private": nothing is
// cached unless the server says its lists and contents allow it.
func WithCaching(ttl time.Duration, scope string) Option {
	return func(c *config) {
		c.cacheTTL = max(ttl, 0)
		c.cacheScope = "private"
		if scope == "public" {
			c.cacheScope = "public"
		}
	}
}

// Server holds what a server offers (tools, resources, resource templates,
// prompts) and serves any number of sessions over any transport. Its methods
// are safe for concurrent use, also while serving: what is added or removed
// after sessions exist is announced to them with list_changed notifications.
type Server struct {
	info Implementation
	cfg  config

	tools     registry[*toolEntry]
	resources registry[*resourceEntry]
	templates registry[*templateEntry]
	prompts   registry[*promptEntry]

	sessions      sessionSet             // initialized sessions, for notifications
	subscriptions liveSet[*subscription] // open subscriptions/listen requests (modern era)
	bus           busState               // receiving from cfg.bus
	busListeners  liveSet[*busListener]  // transports whose sessions are in cfg.sessions (Subscribe)

	workers *workers.Pool // goroutines for requests, shared by the sessions

	infoEnc []byte // info encoded, for the _meta of modern results

	chain Handler // the interceptors around the serving; nil without (intercept.go)

	cacheDefault *CacheHint // WithCaching's hints, for what has no hints of its own

	taskRuns    byID[*taskRun]    // the tasks whose handlers run in this process
	taskWaiters byID[*taskWaiter] // this process's tasks/result requests on tasks run elsewhere, by token

	toolsets *toolsetIndex // the toolsets (toolsets.go); nil: none

	searchView atomic.Pointer[searchView] // the search exposure of the current tools (exposure.go)
}

// NewServer returns a server that introduces itself as info.
func NewServer(info Implementation, opts ...Option) *Server {
	s := &Server{
		info:    info,
		workers: workers.New(),
		cfg: config{
			pageSize:       defaultPageSize,
			maxMessageSize: defaultMaxMessageSize,
			cacheScope:     "private",
			stateTTL:       defaultStateTTL,
			json:           jsonLimits{values: defaultMaxJSONValues, members: defaultMaxObjectMembers},
		},
	}
	for _, o := range opts {
		o(&s.cfg)
	}
	s.cacheDefault = CacheHint{s.cfg.cacheTTL, s.cfg.cacheScope}.normalized()
	if s.cfg.stateKey == nil {
		s.cfg.stateKey = newStateKey()
	}
	s.cfg.stateBox = newStateBox(s.cfg.stateKey)
	if s.cfg.stateStore == nil {
		s.cfg.stateStore = NewMemoryRequestStateStore(0)
	}
	if s.cfg.quotaStore == nil {
		s.cfg.quotaStore = NewMemoryQuotaStore()
	}
	if s.cfg.idempotency == nil {
		s.cfg.idempotency = NewMemoryIdempotencyStore(0)
	}
	s.cfg.tasks.setDefaults()
	s.toolsets = newToolsetIndex(s.cfg.toolsets)
	s.addToolsetTools()
	if b, err := json.Marshal(info); err == nil {
		s.infoEnc = b
	} else {
		s.infoEnc = []byte(`{"name":"","version":""}`)
	}
	s.chain = buildChain(s.cfg.interceptors)
	if s.cfg.logger == nil {
		s.cfg.logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if !s.cfg.startLineSet {
		s.cfg.startLine = os.Stderr
	}
	return s
}

// capSet is a set of server capabilities, as advertised at initialize.
type capSet uint8

const (
	capTools capSet = 1 << iota
	capResources
	capPrompts
	capCompletions
)

// WithCapabilities advertises capabilities at initialize even when
// nothing of theirs is registered: "tools", "resources", "prompts",
// "completions" (their lists answer empty, completion/complete no values).
// Without it a capability is advertised once something of it is
// registered. Other names panic: they are a programming error.
func WithCapabilities(names ...string) Option {
	var set capSet
	for _, n := range names {
		c, ok := map[string]capSet{"tools": capTools, "resources": capResources, "prompts": capPrompts, "completions": capCompletions}[n]
		if !ok {
			panic(fmt.Sprintf("runtime.WithCapabilities: unknown capability %q (tools, resources, prompts or completions)", n))
		}
		set |= c
	}
	return func(c *config) { c.advertise |= set }
}

// infoJSON is the server's Implementation, encoded.
func (s *Server) infoJSON() []byte { return s.infoEnc }

// capSet is what capabilities advertises.
func (s *Server) capSet() capSet {
	_, caps := s.capabilities()
	return caps
}

// capabilities returns the server capabilities for initialize and
// server/discover: only what is registered is advertised, and logging
// always. Everything can change while serving, so every list announces its
// changes (on the session in the legacy era, on subscriptions/listen
// streams in the modern one); resources can be subscribed to
// (resources/subscribe, or resourceSubscriptions of subscriptions/listen).
func (s *Server) capabilities() (json.RawMessage, capSet) {
	var caps capSet
	b := []byte{'{'}
	add := func(c capSet, member string) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, member...)
		caps |= c
	}
	if len(s.tools.snapshot().list) > 0 || s.cfg.advertise&capTools != 0 {
		add(capTools, `"tools":{"listChanged":true}`)
	}
	templates := s.templates.snapshot().list
	if len(s.resources.snapshot().list) > 0 || len(templates) > 0 || s.linksResults() || s.cfg.advertise&capResources != 0 {
		add(capResources, `"resources":{"subscribe":true,"listChanged":true}`)
	}
	prompts := s.prompts.snapshot().list
	if len(prompts) > 0 || s.cfg.advertise&capPrompts != 0 {
		add(capPrompts, `"prompts":{"listChanged":true}`)
	}
	completes := slices.ContainsFunc(prompts, (*promptEntry).completes) ||
		slices.ContainsFunc(templates, func(te *templateEntry) bool { return te.tmpl.Complete != nil })
	if completes || s.cfg.advertise&capCompletions != 0 {
		add(capCompletions, `"completions":{}`)
	}
	// Logging needs nothing registered: any handler may call Log.
	add(0, `"logging":{}`)
	return append(b, '}'), caps
}

// logger returns the logger of the server serving ctx, or slog.Default() when
// a handler runs outside a session (e.g. called directly by a test).
func logger(ctx context.Context) *slog.Logger {
	if c := reqFrom(ctx); c != nil {
		return c.ss.srv.cfg.logger
	}
	return slog.Default()
}

// The method table: every MCP method a client may call is declared once,
// below, with the facts the dispatch of both eras and both transports reads
// (the era handlers at the end of this file, Session.serveModern, the HTTP handlers).

// Names of the methods a client calls.
const (
	methodInitialize        = "initialize"
	methodPing              = "ping"
	methodDiscover          = "server/discover"
	methodToolsList         = "tools/list"
	methodToolsCall         = "tools/call"
	methodResourcesList     = "resources/list"
	methodResourcesRead     = "resources/read"
	methodTemplatesList     = "resources/templates/list"
	methodSubscribe         = "resources/subscribe"
	methodUnsubscribe       = "resources/unsubscribe"
	methodPromptsList       = "prompts/list"
	methodPromptsGet        = "prompts/get"
	methodComplete          = "completion/complete"
	methodSetLevel          = "logging/setLevel"
	methodSubscriptionsOpen = "subscriptions/listen"
)

// Names of the notifications a client sends.
const (
	notificationInitialized = "notifications/initialized"
	notificationCancelled   = "notifications/cancelled"
)

// eraSet is a set of protocol eras.
type eraSet uint8

const (
	// eraLegacy: 2024-11-05 to 2025-11-25, in a session opened by initialize.
	eraLegacy eraSet = 1 << iota
	// eraModern: 2026-07-28, each request on its own, described by its _meta.
	eraModern

	bothEras = eraLegacy | eraModern
)

// methodInfo is what the dispatch knows of a method.
type methodInfo struct {
	name string
	eras eraSet // the eras the method exists in; elsewhere it is not found

	// needsSession: a legacy request is refused until initialize was
	// answered (initialize and ping are not).
	needsSession bool

	// gate is the server capability without which the method is not found
	// (answered before its params are read); 0: always served. tools/call
	// has none: a call of an unknown tool is invalid params.
	gate capSet

	// userCode: the method runs a handler of the server's (a tool, a
	// resource read, a prompt, a completion): it is started in its own
	// goroutine, cancellable, and answered when the handler returns.
	userCode bool

	// cacheable: its modern results carry ttlMs and cacheScope
	// (WithCaching, WithMethodCaching).
	cacheable bool

	// target is the param naming what the request acts on ("name" or
	// "uri"): Mcp-Name must repeat it over modern HTTP, and the state of a
	// multi-round request is bound to it.
	target string

	// inputRounds: a modern request may end with input_required and be
	// retried with the client's answers (multi round-trip requests).
	inputRounds bool

	// Exactly one of answer and start is set. answer computes the result at
	// once (for the client p, which list methods filter by, context.go);
	// the dispatch sends it. start answers the request itself, when
	// the work it started is done.
	answer func(ss *Session, p *peerInfo, params json.RawMessage) (encoder, *Error)
	start  func(ss *Session, ctx context.Context, id string, params json.RawMessage)
}

// methods is the method table, by name.
var methods = map[string]*methodInfo{}

func init() {
	for _, m := range []*methodInfo{
		{name: methodInitialize, eras: eraLegacy, start: (*Session).handshake},
		{name: methodPing, eras: eraLegacy, answer: func(*Session, *peerInfo, json.RawMessage) (encoder, *Error) { return rawResult(`{}`), nil }},
		{name: methodDiscover, eras: eraModern, cacheable: true,
			answer: func(ss *Session, _ *peerInfo, _ json.RawMessage) (encoder, *Error) { return ss.srv.discover(), nil }},

		{name: methodToolsList, eras: bothEras, needsSession: true, gate: capTools, cacheable: true, answer: (*Session).toolsList},
		{name: methodToolsCall, eras: bothEras, needsSession: true, userCode: true, target: "name", inputRounds: true,
			start: (*Session).toolsCall},

		{name: methodResourcesList, eras: bothEras, needsSession: true, gate: capResources, cacheable: true,
			answer: (*Session).resourcesList},
		{name: methodTemplatesList, eras: bothEras, needsSession: true, gate: capResources, cacheable: true,
			answer: (*Session).templatesList},
		{name: methodResourcesRead, eras: bothEras, needsSession: true, gate: capResources, userCode: true, cacheable: true,
			target: "uri", inputRounds: true, start: (*Session).resourcesRead},
		{name: methodSubscribe, eras: eraLegacy, needsSession: true, gate: capResources,
			answer: func(ss *Session, _ *peerInfo, params json.RawMessage) (encoder, *Error) {
				return ss.subscribe(params, true)
			}},
		{name: methodUnsubscribe, eras: eraLegacy, needsSession: true, gate: capResources,
			answer: func(ss *Session, _ *peerInfo, params json.RawMessage) (encoder, *Error) {
				return ss.subscribe(params, false)
			}},

		{name: methodPromptsList, eras: bothEras, needsSession: true, gate: capPrompts, cacheable: true, answer: (*Session).promptsList},
		{name: methodPromptsGet, eras: bothEras, needsSession: true, gate: capPrompts, userCode: true, target: "name",
			inputRounds: true, start: (*Session).promptsGet},

		{name: methodComplete, eras: bothEras, needsSession: true, gate: capCompletions, userCode: true, start: (*Session).complete},
		{name: methodSetLevel, eras: eraLegacy, needsSession: true, answer: func(ss *Session, _ *peerInfo, params json.RawMessage) (encoder, *Error) { return ss.setLevel(params) }},
		{name: methodTasksGet, eras: bothEras, needsSession: true, target: "taskId",
			start: taskMethod(methodTasksGet, (*Session).tasksGet)},
		{name: methodTasksUpdate, eras: eraModern, target: "taskId",
			start: taskMethod(methodTasksUpdate, (*Session).tasksUpdate)},
		{name: methodTasksCancel, eras: bothEras, needsSession: true, target: "taskId",
			start: taskMethod(methodTasksCancel, (*Session).tasksCancel)},
		{name: methodTasksResult, eras: eraLegacy, needsSession: true, start: (*Session).startTasksResult},
		{name: methodTasksList, eras: eraLegacy, needsSession: true,
			start: taskMethod(methodTasksList, (*Session).tasksList)},
		{name: methodSubscriptionsOpen, eras: eraModern, start: func(ss *Session, ctx context.Context, id string, params json.RawMessage) {
			ss.listen(ctx.(*modernCtx), id, params) // modern only: the dispatch's context is a *modernCtx (withRequest keeps it)
		}},
	} {
		methods[m.name] = m
	}
}

// lookupMethod returns the method named name in era, or nil when it does
// not exist there. (A map index with string(b) does not allocate.)
func lookupMethod(name []byte, era eraSet) *methodInfo {
	if m := methods[string(name)]; m != nil && m.eras&era != 0 {
		return m
	}
	return nil
}

// isCacheable reports whether the modern results of method carry caching
// hints.
func isCacheable(method string) bool {
	m := methods[method]
	return m != nil && m.cacheable
}

// offersGate reports whether the session serves the methods gated by the
// capability c: when it was advertised, or when something of the kind is
// registered now (a completion: when a registered prompt or template
// completes).
func (ss *Session) offersGate(c capSet) bool {
	srv := ss.srv
	switch c {
	case capTools:
		return ss.offers(c, len(srv.tools.snapshot().list))
	case capPrompts:
		return ss.offers(c, len(srv.prompts.snapshot().list))
	case capResources:
		return ss.offers(c, len(srv.resources.snapshot().list)+len(srv.templates.snapshot().list)) || srv.linksResults()
	case capCompletions:
		return ss.offers(c, 0) || srv.completes()
	}
	return true
}

// notOffered is method not found for a method whose capability the
// session does not offer.
func notOffered(m *methodInfo) *Error {
	what := "has no " + gateNoun[m.gate]
	if m.gate == capCompletions {
		what = "completes nothing"
	}
	return errorf(CodeMethodNotFound, "method %s not found: this server %s", quote(m.name), what)
}

var gateNoun = map[capSet]string{capTools: "tools", capResources: "resources", capPrompts: "prompts"}

// serveMethod runs m once the checks of its era's handler p passed: the
// capability gate, then the handler. p finishes an answer computed at once
// (started calls are finished by theirs when they return).
//
// With interceptors, a Request describing the call travels in ctx: an
// answer computed at once goes through them here; a method that starts its
// work runs them where its outcome is known (respond for what it refuses
// at once, call.Run for what it starts).
func (ss *Session) serveMethod(ctx context.Context, p protocol, m *methodInfo, id string, params json.RawMessage) {
	req := ss.newRequest(ctx, m, id, params)
	ctx = withRequest(ctx, req)
	if m.gate != 0 && !ss.offersGate(m.gate) {
		ss.respond(ctx, id, nil, notOffered(m))
		return
	}
	if m.start != nil {
		m.start(ss, ctx, id, params)
		return
	}
	var res encoder
	var e *Error
	peer := ss.declaredBy(ctx)
	if req != nil {
		res, e = ss.srv.intercepted(ctx, req, func(context.Context) (encoder, *Error) { return m.answer(ss, peer, params) })
	} else {
		res, e = m.answer(ss, peer, params)
	}
	if e == nil {
		res = p.finish(ss.srv, m, res)
	}
	ss.reply(id, res, e)
}

// One protocol handler per era. The edge of each transport picks the
// handler of a request once, from how the request names its protocol:
// Session.request for stdio and the sessions of NewSession and
// OpenSession, FullServer.Parse for Streamable HTTP (runtime/streamhttp,
// whose modern requests pass CheckModern, checkModern in modern.go, first). What
// the handler dispatches (serveMethod, call.Run) asks no more which era
// the request came from: the handler carries what differs.
type protocol interface {
	// serve checks a request of the era and dispatches it.
	serve(ss *Session, ctx context.Context, id string, method []byte, params json.RawMessage)
	// finish is what an answer the dispatch computed at once becomes.
	finish(srv *Server, m *methodInfo, res encoder) encoder
	// outcome is what a started call answers once its handler returned.
	outcome(c *call, res encoder, e *Error) (encoder, *Error)
}

var (
	legacyEra protocol = legacyProtocol{}
	modernEra protocol = modernProtocol{}
)

// protocolOf picks the handler of a request: modern when its _meta names
// a protocol version (see modernRequest) and the server serves that era,
// else legacy.
func (s *Server) protocolOf(method, params []byte) protocol {
	if !s.cfg.legacyOnly && modernRequest(method, params) {
		return modernEra
	}
	return legacyEra
}

// configErr is what is wrong with options that cannot be checked before
// serving (a toolset selection from a flag): serving fails with it.
func (s *Server) configErr() error {
	if s.toolsets != nil && s.toolsets.err != nil {
		return s.toolsets.err
	}
	return nil
}
