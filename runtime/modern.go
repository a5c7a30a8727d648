package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/mcpheader"
	"github.com/mcpgen/mcpgen/runtime/logging"
)

// The modern era (2026-07-28, basic/versioning.mdx): no handshake; every
// request names its protocol revision and the client's capabilities in
// params._meta and is served on its own, statelessly. A dual-era server
// selects the era from how the client opens: initialize selects the legacy
// era for the connection, a request whose _meta carries
// io.modelcontextprotocol/protocolVersion is served in the modern era. Both
// go through the same dispatch core and the same handlers; what differs is
// where the client's version and capabilities come from (the request, not
// the session), the methods served, and the shape of results and errors.

// modernVersions are the revisions served per request, newest first:
// what server/discover lists and -32022 names. The legacy revisions are
// not among them: a client cannot pick them in _meta, it initializes.
var modernVersions = []string{"2026-07-28"}

// Error codes of 2026-07-28 (basic/index.mdx §Error Codes).
const (
	// CodeHeaderMismatch: an HTTP header (MCP-Protocol-Version, Mcp-Method,
	// Mcp-Name) is missing or disagrees with the body.
	CodeHeaderMismatch = -32020
	// CodeMissingRequiredClientCapability: the request needs a client
	// capability its _meta did not declare; data.requiredCapabilities.
	CodeMissingRequiredClientCapability = -32021
	// CodeUnsupportedProtocolVersion: the request's protocol version is not
	// served; data {supported, requested}.
	CodeUnsupportedProtocolVersion = -32022
)

// The _meta keys of 2026-07-28.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// noLogging is peerInfo.logRank when a modern request asked for no logs:
// servers MUST NOT send log messages without io.modelcontextprotocol/logLevel.
const noLogging = int32(logging.Silent)

// modernCtx is the context a modern request is dispatched under: the
// transport's context and what the request's _meta says about the client.
// Session.start hands peer to the call, so that ClientCapabilities,
// ProtocolVersion, Log and the requests to the client read the request's
// own declarations.
type modernCtx struct {
	context.Context
	peer *peerInfo
	mrtr *mrtr    // the multi-round state of a request that may need input
	req  *Request // for the interceptors; nil without
}

// modernRequest reports whether a request is to be served in the modern era:
// its params._meta carries io.modelcontextprotocol/protocolVersion, or it
// is server/discover (which exists only there; without the _meta it gets
// the modern era's invalid params).
func modernRequest(method, params []byte) bool {
	if string(method) == methodDiscover {
		return true
	}
	// Cheap test first: a legacy request pays one substring search.
	if !bytes.Contains(params, []byte(metaProtocolVersion)) {
		return false
	}
	meta := jsonwire.Member(params, "_meta")
	if jsonwire.FirstByte(meta) != '{' {
		return false
	}
	return jsonwire.Member(meta, metaProtocolVersion) != nil
}

// modernPeer reads what a modern request's _meta says about the client:
// the errors are the spec's (-32602 for a required member missing,
// -32022 for a version not served).
func (s *Server) modernPeer(params []byte) (*peerInfo, *Error) {
	var meta []byte
	if jsonwire.FirstByte(params) == '{' {
		meta = jsonwire.Member(params, "_meta")
	}
	if jsonwire.FirstByte(meta) != '{' {
		return nil, errorf(CodeInvalidParams, `invalid params: params._meta must carry %s and %s`, quote(metaProtocolVersion), quote(metaClientCapabilities))
	}
	var version, caps, info, level []byte
	if _, err := jsonwire.ScanObject(meta, func(k, val []byte) {
		switch string(k) {
		case metaProtocolVersion:
			version = val
		case metaClientCapabilities:
			caps = val
		case metaClientInfo:
			info = val
		case metaLogLevel:
			level = val
		}
	}); err != nil {
		return nil, errorf(CodeInvalidParams, `invalid params: "_meta" must be a JSON object`)
	}
	var v string
	if len(version) == 0 || version[0] != '"' || json.Unmarshal(version, &v) != nil || v == "" {
		return nil, errorf(CodeInvalidParams, `invalid params: _meta[%s] is required: a protocol version string`, quote(metaProtocolVersion))
	}
	if !slices.Contains(modernVersions, v) {
		return nil, unsupportedVersion(v)
	}
	if jsonwire.FirstByte(caps) != '{' {
		return nil, errorf(CodeInvalidParams, `invalid params: _meta[%s] is required: an object`, quote(metaClientCapabilities))
	}
	pi := &peerInfo{version: v, modern: true, logRank: noLogging}
	pi.capabilities = bytes.Clone(caps)
	pi.client = parseClientCaps(pi.capabilities)
	if jsonwire.FirstByte(info) == '{' && json.Unmarshal(info, &pi.clientInfo) == nil {
		pi.hasClientInfo = true
	}
	if len(level) > 0 {
		var l LogLevel
		if json.Unmarshal(level, &l) != nil || l.Rank() < 0 {
			return nil, errorf(CodeInvalidParams, `invalid params: _meta[%s] must be one of debug, info, notice, warning, error, critical, alert, emergency`, quote(metaLogLevel))
		}
		pi.logRank = int32(l.Rank())
	}
	pi.caps = s.capSet()
	return pi, nil
}

// unsupportedVersion is -32022 for a request asking for version v.
func unsupportedVersion(v string) *Error {
	return &Error{
		Code:    CodeUnsupportedProtocolVersion,
		Message: "unsupported protocol version " + quote(v) + "; this server serves " + quote(modernVersions[0]) + " per request, and earlier revisions after initialize",
		Data: struct {
			Supported []string `json:"supported"`
			Requested string   `json:"requested"`
		}{modernVersions, v},
	}
}

// serveModern dispatches a modern request. The client's declarations are
// in ctx.peer; the session's handshake state plays no part.
func (ss *Session) serveModern(ctx *modernCtx, id string, method []byte, params json.RawMessage) {
	m := lookupMethod(method, eraModern)
	if m == nil {
		ss.refuse(ctx, id, method, params, modernMethodNotFound(string(method)))
		return
	}
	params = ss.srv.directCall(method, params)
	if m.inputRounds && jsonwire.FirstByte(params) == '{' {
		var e *Error
		if ctx.mrtr, e = ss.srv.newMRTR(ctx, m, params); e != nil {
			ss.refuse(ctx, id, method, params, e)
			return
		}
	}
	ss.serveMethod(ctx, modernEra, m, id, params)
}

// modernProtocol serves 2026-07-28: each request declares its client in
// its _meta, and every result carries the modern form (modern.go).
type modernProtocol struct{}

func (modernProtocol) serve(ss *Session, ctx context.Context, id string, method []byte, params json.RawMessage) {
	p, e := ss.srv.modernPeer(params)
	if e != nil {
		ss.refuse(ctx, id, method, params, e)
		return
	}
	ss.serveModern(&modernCtx{Context: ctx, peer: p}, id, method, params)
}

func (modernProtocol) finish(srv *Server, m *methodInfo, res encoder) encoder {
	return srv.modernResult(m.name, res)
}

func (modernProtocol) outcome(c *call, res encoder, e *Error) (encoder, *Error) {
	return c.modernOutcome(res, e)
}

// modernMethodNotFound is method not found in the modern era, which says
// so when the method was removed in 2026-07-28 (initialize, ping,
// logging/setLevel, resources/subscribe and unsubscribe).
func modernMethodNotFound(method string) *Error {
	if m := methods[method]; m != nil && m.eras&eraLegacy != 0 {
		return errorf(CodeMethodNotFound, "method %s not found: it does not exist in protocol revision %s", quote(method), modernVersions[0])
	}
	return errorf(CodeMethodNotFound, "method %s not found", quote(method))
}

// modernError turns an error into its modern-era form: resource not found
// is invalid params (with the same data.uri) from 2026-07-28 on.
func modernError(e *Error) *Error {
	if e != nil && e.Code == CodeResourceNotFound {
		e2 := *e
		e2.Code = CodeInvalidParams
		return &e2
	}
	return e
}

// discover answers server/discover.
func (s *Server) discover() encoder {
	caps, _ := s.capabilities()
	caps = s.withExtensions(caps)
	b := append([]byte(`{"supportedVersions":`), `["`+modernVersions[0]+`"]`...)
	b = append(b, `,"capabilities":`...)
	b = append(b, caps...)
	if s.cfg.instructions != "" {
		b = append(b, `,"instructions":`...)
		b = jsonwire.AppendString(b, s.cfg.instructions)
	}
	return rawResult(append(b, '}'))
}

// modernResult adds to a result what every modern result carries:
// resultType, the caching hints of a cacheable method, and the server's
// identity in _meta.
func (s *Server) modernResult(method string, res encoder) encoder {
	var cache *CacheHint
	if isCacheable(method) {
		cache = s.cacheFor(method)
		if pc, ok := res.(perClientResult); ok && pc.perClient() && cache.Scope != "private" {
			cache = &CacheHint{TTL: cache.TTL, Scope: "private"} // another client may see another list
		}
	}
	return modernEncoder{inner: res, srv: s, cache: cache}
}

// perClientResult is a result that depends on the client's declared
// capabilities (a list with a capability-gated item, context.go): a
// shared cache must not serve it to another client.
type perClientResult interface{ perClient() bool }

type modernEncoder struct {
	inner encoder
	srv   *Server
	cache *CacheHint // the caching hints it carries; nil: none
}

func (m modernEncoder) appendJSON(dst []byte) ([]byte, error) {
	start := len(dst)
	b, err := m.inner.appendJSON(dst)
	if err != nil {
		return b, err
	}
	obj := b[start:]
	metaAt := -1 // offset in obj of the '{' of a top-level _meta object
	var hasType, hasServerInfo bool
	if _, err := jsonwire.ScanObject(obj, func(k, val []byte) {
		switch string(k) {
		case "_meta":
			if len(val) > 0 && val[0] == '{' {
				metaAt = cap(obj) - cap(val)
				hasServerInfo = jsonwire.Member(val, metaServerInfo) != nil
			}
		case "resultType":
			hasType = true
		}
	}); err != nil || len(obj) < 2 || obj[len(obj)-1] != '}' {
		return b, jsonwire.ErrSyntax
	}
	info := m.srv.infoJSON()
	if metaAt >= 0 && !hasServerInfo {
		at := start + metaAt + 1
		tail := bytes.Clone(b[at:])
		b = append(b[:at], `"`+metaServerInfo+`":`...)
		b = append(b, info...)
		if jsonwire.FirstByte(tail) != '}' {
			b = append(b, ',')
		}
		b = append(b, tail...)
	}
	b = b[:len(b)-1] // the closing brace
	sep := func() {
		if t := bytes.TrimRight(b[start:], " \t\r\n"); t[len(t)-1] != '{' {
			b = append(b, ',')
		}
	}
	if !hasType {
		sep()
		b = append(b, `"resultType":"complete"`...)
	}
	if m.cache != nil {
		sep()
		b = append(b, `"ttlMs":`...)
		b = strconv.AppendInt(b, m.cache.TTL.Milliseconds(), 10)
		b = append(b, `,"cacheScope":`...)
		b = jsonwire.AppendString(b, m.cache.Scope)
	}
	if metaAt < 0 {
		sep()
		b = append(b, `"_meta":{"`+metaServerInfo+`":`...)
		b = append(b, info...)
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// checkModern checks a modern POST's HTTP headers against its body
// (FullServer.CheckModern), in this order, and says what status a failure
// is answered with: MCP-Protocol-Version against the _meta version (400
// with -32020), the _meta (400 with -32602 or -32022), the method (404 with
// -32601), the other headers and a tool's Mcp-Param-* headers (400 with
// -32020). The rules are package mcpheader's.
func (s *Server) checkModern(header http.Header, env *envelope) (*peerInfo, int, *Error) {
	if err := mcpheader.CheckMetaVersion(header, env.Params, metaProtocolVersion); err != nil {
		return nil, http.StatusBadRequest, headerMismatch(err)
	}
	peer, e := s.modernPeer(env.Params)
	if e != nil {
		return nil, http.StatusBadRequest, e
	}
	m := lookupMethod(env.method, eraModern)
	if m == nil {
		return nil, http.StatusNotFound, modernMethodNotFound(string(env.method))
	}
	if err := mcpheader.Check(header, m.name, m.target, peer.version, env.Params); err != nil {
		return nil, http.StatusBadRequest, headerMismatch(err)
	}
	if string(env.method) == methodToolsCall { // x-mcp-header: a tool's own Mcp-Param-* headers
		name, _ := jsonwire.StringMember(env.Params, "name")
		// an unknown tool is answered by tools/call itself
		if te := s.tools.snapshot().byKey[name]; te != nil && len(te.headers) > 0 {
			if err := mcpheader.CheckParams(header, env.Params, te.headers); err != nil {
				return nil, http.StatusBadRequest, headerMismatch(err)
			}
		}
	}
	return peer, 0, nil
}

func headerMismatch(err error) *Error { return &Error{Code: CodeHeaderMismatch, Message: err.Error()} }

// Caching hints of the 2026-07-28 era (CacheableResult): the results of
// server/discover, the lists and resources/read carry ttlMs, how long a
// client may reuse them, and cacheScope, whether a shared cache may serve
// them to other clients ("public") or only to the client that asked
// ("private"). WithCaching sets the server's default; WithMethodCaching one
// method's; a Resource or ResourceTemplate its own reads'. The legacy era
// has no such fields.

// CacheHint is how long (TTL, sent in whole milliseconds; < 0 counts as 0)
// and for whom (Scope: "public", or "private", which any other value counts
// as) a client may reuse a result.
type CacheHint struct {
	TTL   time.Duration
	Scope string
}

// normalized is h as it goes on the wire.
func (h CacheHint) normalized() *CacheHint {
	h.TTL = max(h.TTL, 0)
	if h.Scope != "public" {
		h.Scope = "private"
	}
	return &h
}

// WithMethodCaching sets the caching hints of one method's results, over
// WithCaching's: method is "server/discover", "tools/list", "prompts/list",
// "resources/list", "resources/templates/list" or "resources/read" (a
// Resource's or ResourceTemplate's own Cache wins for its reads). Other
// methods carry no hints, and are ignored.
func WithMethodCaching(method string, h CacheHint) Option {
	return func(c *config) {
		if !isCacheable(method) {
			return
		}
		if c.cacheByMethod == nil {
			c.cacheByMethod = make(map[string]*CacheHint)
		}
		c.cacheByMethod[method] = h.normalized()
	}
}

// cacheFor is the hint of a cacheable method's results.
func (s *Server) cacheFor(method string) *CacheHint {
	if h := s.cfg.cacheByMethod[method]; h != nil {
		return h
	}
	return s.cacheDefault
}

// ownCache is the normalized copy of a Resource's or template's Cache.
func ownCache(h *CacheHint) *CacheHint {
	if h == nil {
		return nil
	}
	return h.normalized()
}
