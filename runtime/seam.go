package runtime

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// The seam to transports (package runtime/transport): a Server opens
// sessions for any transport through the same exported methods the
// built-in ones use.
var (
	_ transport.Server  = (*Server)(nil)
	_ transport.Session = (*Session)(nil)
)

// Start readies the server for a transport: it reports a configuration the
// server cannot serve with (a toolset option naming no toolset, say), and
// subscribes to the notification bus (WithStore, WithNotificationBus)
// once. The built-in transports call it; a transport of your own calls it
// before it opens sessions.
func (s *Server) Start() error {
	if err := s.configErr(); err != nil {
		return err
	}
	s.startBus()
	return nil
}

// Limits are the bounds a transport applies while reading: the maximum
// message size (WithMaxMessageSize) and the graceful shutdown's grace
// (WithStdioShutdownTimeout).
func (s *Server) Limits() transport.Limits {
	return transport.Limits{MaxMessageSize: s.cfg.maxMessageSize, ShutdownGrace: s.cfg.stdioShutdown}
}

// OpenSession starts a session whose outgoing messages go to sink, for a
// transport that says what it carries in o; the result is a *Session. It
// is NewSession for a transport that routes messages by request (as
// Streamable HTTP does) or that cannot carry requests to the client.
func (s *Server) OpenSession(sink transport.Sink, o transport.Options) transport.Session {
	var out outlet = sinkOutlet{sink}
	if f, ok := sink.(transport.SinkFunc); ok {
		out = sendFunc(f)
	}
	ss := s.newSession(out)
	ss.transport, ss.noRequests, ss.detached, ss.id, ss.inlineCall = o.Name, o.NoRequests, o.Detached, o.SessionID, o.InlineCalls
	if o.Shared {
		ss.openShared(sink)
	}
	return ss
}

// RefuseTooLarge answers a message its transport did not read whole
// because it exceeds the maximum message size (with id null: the id was
// never read).
func (ss *Session) RefuseTooLarge() {
	ss.sendError("", errorf(CodeInvalidRequest, "invalid request: message exceeds the maximum size of %d bytes", ss.srv.cfg.maxMessageSize))
}

// sinkOutlet is a transport's Sink as the session's outlet.
type sinkOutlet struct{ transport.Sink }

func (o sinkOutlet) send(rel string, final bool, msg []byte) bool { return o.Send(rel, final, msg) }
func (o sinkOutlet) abandon(rel string)                           { o.Abandon(rel) }
func (o sinkOutlet) closeStream(rel string)                       { o.CloseStream(rel) }
func (o sinkOutlet) close()                                       { o.Close() }

// The full seam (transport.FullServer, transport.FullSession): what a
// transport that routes messages itself uses, Streamable HTTP
// (runtime/streamhttp) first of all.
var (
	_ transport.FullServer  = (*Server)(nil)
	_ transport.FullSession = (*Session)(nil)
)

// Parse reads msg into m under the server's JSON limits
// (WithMaxJSONValues, WithMaxObjectMembers) and tells its era.
func (s *Server) Parse(msg []byte) (m transport.Message, _ *transport.Error) {
	var env envelope
	kind, echo, e := parseMessage(msg, &env, s.cfg.json)
	m = transport.Message{
		Kind: transport.Kind(kind), Echo: echo,
		JSONRPC: env.JSONRPC, ID: env.ID, RawMethod: env.Method, Params: env.Params, Result: env.Result, Error: env.Error,
		Method: env.method, Values: env.values,
	}
	if e != nil {
		return m, transportError(e, 0)
	}
	m.Modern = kind == kindRequest && s.protocolOf(env.method, env.Params) == modernEra
	return m, nil
}

// transportError is e for a transport to answer with, its data encoded
// (unencodable data is dropped, as appendErrorResponse does).
func transportError(e *Error, status int) *transport.Error {
	te := &transport.Error{Code: e.Code, Message: e.Message, Status: status}
	if e.Data != nil {
		if data, err := jsonwire.AppendValue(nil, e.Data); err == nil {
			te.Data = data
		}
	}
	return te
}

// envelopeOf is the envelope m was parsed from.
func envelopeOf(m *transport.Message) envelope {
	return envelope{JSONRPC: m.JSONRPC, ID: m.ID, Method: m.RawMethod, Params: m.Params, Result: m.Result, Error: m.Error, method: m.Method, values: m.Values}
}

// OpenFull is OpenSession, as a transport.FullSession.
func (s *Server) OpenFull(sink transport.Sink, o transport.Options) transport.FullSession {
	return s.OpenSession(sink, o).(*Session)
}

// TransportConfig is what a transport reads of the server's configuration.
func (s *Server) TransportConfig() transport.Config {
	c := transport.Config{
		Logger:   s.cfg.logger,
		Events:   s.cfg.events,
		Sessions: s.cfg.sessions,
		Shared:   s.cfg.sessions != nil && s.cfg.bus != nil,
		Versions: supportedVersions,
		Toolsets: s.toolsets != nil,
	}
	if !s.cfg.legacyOnly {
		c.Modern = modernVersions
	}
	return c
}

// Owner is the owner of the identity AuthFromContext finds in ctx.
func (s *Server) Owner(ctx context.Context) (string, bool) {
	info, ok := AuthFromContext(ctx)
	if !ok || info == nil {
		return "", false
	}
	return info.Owner(), true
}

// RequestToolsets reads an HTTP request's toolset selection into its
// context (WithToolsets, HeaderToolsets).
func (s *Server) RequestToolsets(r *http.Request) (*http.Request, error) {
	return s.withRequestToolsets(r)
}

// PublishSession sends a message of a shared session on the notification bus.
func (s *Server) PublishSession(kind byte, body string) { s.publish(kind, body) }

// busListener is a transport's function for the bus messages of shared
// sessions.
type busListener struct{ f func(kind byte, body string) }

// SubscribeSessions calls f with the bus messages of shared sessions.
func (s *Server) SubscribeSessions(f func(kind byte, body string)) (stop func()) {
	l := &busListener{f}
	s.busListeners.add(l)
	return func() { s.busListeners.remove(l) }
}

// Dispatch handles a message Parse read.
func (ss *Session) Dispatch(ctx context.Context, m transport.Message) {
	env := envelopeOf(&m)
	ss.dispatch(ctx, msgKind(m.Kind), &env)
}

// CheckModern checks a modern request against its HTTP header and _meta.
func (s *Server) CheckModern(header http.Header, m transport.Message) (transport.Peer, *transport.Error) {
	env := envelopeOf(&m)
	peer, status, e := s.checkModern(header, &env)
	if e != nil {
		return nil, transportError(e, status)
	}
	return peer, nil
}

// ProtocolVersion is the revision a modern request names.
func (p *peerInfo) ProtocolVersion() string { return p.version }

// DispatchModern dispatches under ctx a modern request CheckModern passed.
func (ss *Session) DispatchModern(ctx context.Context, p transport.Peer, m transport.Message) {
	env := envelopeOf(&m)
	ss.dispatchModern(&modernCtx{Context: ctx, peer: p.(*peerInfo)}, &env)
}

// Ready reports whether the session is initialized.
func (ss *Session) Ready() bool { return ss.ready.Load() }

// Closed reports whether the session was closed.
func (ss *Session) Closed() bool { return ss.closed.Load() }

// Version is the negotiated protocol revision, "" before initialize.
func (ss *Session) Version() string {
	if p := ss.peer.Load(); p != nil {
		return p.version
	}
	return ""
}

// AssumeInitialized makes the session ready at version without a
// handshake.
func (ss *Session) AssumeInitialized(version string) { ss.initStateless(version) }

// State is what another replica needs to serve the session.
func (ss *Session) State() transport.State {
	st := transport.State{LogRank: ss.logLevel.Load()}
	if p := ss.peer.Load(); p != nil {
		st.Version, st.Capabilities = p.version, p.capabilities
		if p.hasClientInfo {
			st.ClientInfo, _ = json.Marshal(&p.clientInfo)
		}
	}
	ss.subMu.Lock()
	for uri := range ss.subs {
		st.Subs = append(st.Subs, uri)
	}
	ss.subMu.Unlock()
	slices.Sort(st.Subs)
	if x := ss.srv.toolsets; x != nil {
		st.Toolsets = x.names(toolsetSet(ss.enabledToolsets.Load()))
	}
	return st
}

// Restore makes ready a session that another replica initialized.
func (ss *Session) Restore(st transport.State) {
	pi := &peerInfo{version: st.Version}
	if len(st.Capabilities) > 0 {
		pi.capabilities = st.Capabilities
		pi.client = parseClientCaps(st.Capabilities)
	}
	if len(st.ClientInfo) > 0 && string(st.ClientInfo) != "null" && json.Unmarshal(st.ClientInfo, &pi.clientInfo) == nil {
		pi.hasClientInfo = true
	}
	_, pi.caps = ss.srv.capabilities()
	ss.peer.Store(pi)
	ss.ready.Store(true)
	ss.Apply(st)
	ss.srv.sessions.add(ss)
	ss.out.start()
}

// Apply takes the changing part of st: log level, subscriptions, toolsets.
func (ss *Session) Apply(st transport.State) {
	ss.logLevel.Store(st.LogRank)
	subs := make(map[string]struct{}, len(st.Subs))
	for _, uri := range st.Subs {
		subs[uri] = struct{}{}
	}
	ss.subMu.Lock()
	ss.subs = subs
	ss.subMu.Unlock()
	if x := ss.srv.toolsets; x != nil {
		// Names the index no longer has (a replica of another version) are dropped.
		var set toolsetSet
		for _, n := range st.Toolsets {
			if i, ok := x.byName[n]; ok {
				set |= 1 << i
			}
		}
		if old := toolsetSet(ss.enabledToolsets.Swap(uint64(set))); old != set {
			ss.out.listChanged(x.kinds(old ^ set)) // enabled on another replica
		}
	}
}

// Answer hands an answer another replica received to the request waiting
// for it here.
func (ss *Session) Answer(id, result, errObj json.RawMessage) bool {
	return ss.answer(id, result, errObj)
}

// openShared gives a session opened with Options.Shared its link to the
// store: its requests to the client are numbered from a random start, so
// that two replicas never use the same id.
func (ss *Session) openShared(sink transport.Sink) {
	if sh, ok := sink.(transport.SharedSink); ok {
		ss.shared = sh
		ss.lastID.Store(rand.Int64N(1 << 50))
	}
}
