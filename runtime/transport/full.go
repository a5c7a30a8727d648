package transport

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"
)

// The full seam: what a transport needs beyond Server and Session when it
// routes each message itself before the core sees it, serves many sessions
// (and requests without one), keeps sessions in a store for every replica,
// and lets clients resume streams. Streamable HTTP (runtime/streamhttp) is
// built on it alone; *runtime.Server is a FullServer and the sessions it
// opens with OpenFull are FullSessions.

// The MCP headers of Streamable HTTP, in canonical form.
const (
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderProtocolVersion = "Mcp-Protocol-Version"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	HeaderToolsets        = "Mcp-Toolsets"
)

// FullServer is a Server with everything the core offers a transport.
type FullServer interface {
	Server
	// Parse reads msg under the server's limits on JSON width and depth.
	// A message it refuses gets the error to answer with; the Message's
	// Echo is then the id to answer with ("" for null). (Messages go by
	// value through the seam: a pointer passed to an interface method
	// would cost an allocation per message.)
	Parse(msg []byte) (Message, *Error)
	// OpenFull is OpenSession, with the rest of the session's methods.
	OpenFull(sink Sink, o Options) FullSession
	// TransportConfig is what the server was configured with that a transport
	// reads: stores, versions, the logger.
	TransportConfig() Config
	// Owner is who the request under ctx comes from (the authorized
	// subject; runtime.AuthFromContext), ok false when it has no identity.
	// A session is kept for the owner of its initialize.
	Owner(ctx context.Context) (owner string, ok bool)
	// RequestToolsets reads the toolset selection of an HTTP request (its
	// Mcp-Toolsets header or toolsets query parameter) into its context;
	// an unknown name is an error that says where it was.
	RequestToolsets(r *http.Request) (*http.Request, error)
	// CheckModern checks a modern request (m.Modern) against the HTTP
	// header that carried it (MCP-Protocol-Version, Mcp-Method, Mcp-Name,
	// Mcp-Param-*) and its _meta; a request it refuses gets its error,
	// with the HTTP Status. What it read of the _meta goes to
	// FullSession.DispatchModern.
	CheckModern(header http.Header, m Message) (Peer, *Error)
	// PublishSession sends a message of a shared session to every replica (the
	// server's notification bus); a replica's transport receives it with
	// the function given to SubscribeSessions.
	PublishSession(kind byte, body string)
	// SubscribeSessions calls f with what replicas publish of shared sessions
	// (Bus* kinds), until the returned function is called.
	SubscribeSessions(f func(kind byte, body string)) (stop func())
}

// Kinds of the messages of shared sessions on the bus: the kind, then
// "<session id>\n" and what the kind says.
const (
	BusSession byte = 's' // the session's state changed: the State record follows
	BusAnswer  byte = 'a' // the client answered a request: its id, "\n", then "r" and the result or "e" and the error
	BusEnded   byte = 'e' // the session was deleted
)

// Config is the server's configuration a transport reads.
type Config struct {
	Logger *slog.Logger
	// Events is the event store of WithStore, if any: the default of a
	// transport's own.
	Events EventStore
	// Sessions keeps legacy sessions for every replica; Shared says that
	// a transport should use it (there is a store and a bus to tell the
	// other replicas).
	Sessions SessionStore
	Shared   bool
	// Versions are the protocol revisions served, newest first; Modern
	// those of the 2026-07-28 era and later (requests without a session),
	// none when the server serves only the legacy era.
	Versions, Modern []string
	// Toolsets: the server has toolsets, which a request may select.
	Toolsets bool
}

// Kind is what a well-formed incoming message is.
type Kind uint8

// The kinds of message.
const (
	KindIgnored      Kind = iota // a response whose id is not valid: dropped
	KindRequest                  // method and id
	KindNotification             // method, no id
	KindResponse                 // result or error, and a valid id
)

// Message is an incoming JSON-RPC message as FullServer.Parse read it. Its
// byte fields point into the message parsed: they must not outlive it.
type Message struct {
	Kind Kind
	// Echo is the id to answer with: the message's own when it is valid,
	// "" (null) otherwise.
	Echo string
	// The members, raw; Method is the method decoded.
	JSONRPC, ID, RawMethod, Params, Result, Error []byte
	Method                                        []byte
	// Values is the number of JSON values in the message.
	Values int
	// Modern: a request of the 2026-07-28 era (its _meta names a protocol
	// version, or it is server/discover) that the server serves as such:
	// it comes with no session (FullSession.DispatchModern).
	Modern bool
}

// Error is a JSON-RPC error the core gives a transport to answer with.
type Error struct {
	Code    int
	Message string
	// Data is the error's data, encoded (nil: none).
	Data json.RawMessage
	// Status is the HTTP status that goes with it, where the protocol
	// says (0: the transport decides).
	Status int
}

func (e *Error) Error() string { return e.Message }

// FullSession is a Session with what a routing transport needs.
type FullSession interface {
	Session
	// Dispatch handles a message Parse read (HandleMessage without the
	// parsing).
	Dispatch(ctx context.Context, m Message)
	// DispatchModern dispatches a modern request that CheckModern passed,
	// with what it read of the _meta. The session serves that one request
	// (opened with NoRequests); its context ends the request.
	DispatchModern(ctx context.Context, p Peer, m Message)
	// Ready reports whether the session is initialized.
	Ready() bool
	// Closed reports whether Close was called.
	Closed() bool
	// Version is the protocol revision negotiated ("" before initialize).
	Version() string
	// AssumeInitialized makes the session ready without a handshake at
	// version (the latest served if it is not served): a stateless
	// transport's, whose client initialized another session.
	AssumeInitialized(version string)
	// State is what another replica needs to serve the session.
	State() State
	// Restore makes a session that another replica initialized ready
	// here, with st.
	Restore(st State)
	// Apply takes the changing part of st (log level, subscriptions,
	// toolsets) that another replica saved.
	Apply(st State)
	// Answer hands an answer that another replica received to the request
	// of this session that waits for it here, and reports whether one did.
	Answer(id, result, errObj json.RawMessage) bool
}

// Peer is what a modern request says of its client in its _meta, as
// FullServer.CheckModern read it.
type Peer interface {
	// ProtocolVersion is the revision the request names.
	ProtocolVersion() string
}

// State is the part of a session that replicas share.
type State struct {
	Version      string
	Capabilities json.RawMessage // the client's, as it sent them
	ClientInfo   json.RawMessage // the client's, as the core encodes it
	LogRank      int32
	Subs         []string // resources subscribed to, sorted
	Toolsets     []string // enabled in dynamic mode
}

// SharedSink is the Sink of a session kept in a SessionStore, opened with
// Options.SessionID and Options.Shared.
type SharedSink interface {
	Sink
	// Persist saves the session's state before a change of it is
	// answered; an error is answered to the client instead.
	Persist() *Error
	// Forward sends the client's answer to a request this replica did not
	// send to every replica: the one whose request waits takes it.
	Forward(id, result, errObj json.RawMessage)
}

// RequestKey is the context key under which a transport puts what it knows
// of the request that carried a message (a Request), in the context it
// passes to HandleMessage or Dispatch.
type RequestKey struct{}

// Request is what the core asks of the request that carried a message.
type Request interface {
	// Header is the HTTP request's header (runtime.RequestHeader).
	Header() http.Header
	// HTTPVersion is the HTTP version, as OpenTelemetry writes it ("1.1").
	HTTPVersion() string
	// RunInline reports whether the call may run on the goroutine that
	// dispatched it, which then serves nothing else until it returns; it
	// is true once at most.
	RunInline() bool
}

// EventStore keeps the SSE events of Streamable HTTP sessions, so that a
// client whose stream broke (or was closed by CloseSSEStream) can resume it:
// it comes back with GET and the Last-Event-ID it saw, and gets that
// stream's later events, and only that stream's (resumability, SEP-1699).
// The transport names the streams of a session and numbers each stream's
// events; event ids on the wire are "<stream>_<index>". Configure one with
// runtime.WithEventStore; runtime.NewMemoryEventStore is a store for one
// process. A store shared by several processes (runtime.WithStore,
// runtime/redisstore) resumes a stream on any of them when the sessions
// are shared too (SessionStore).
//
// Its methods may be called concurrently, for different streams.
type EventStore interface {
	// Append stores event index of a stream. For each stream, indices
	// start at 1 and grow by one. Append must copy data if it keeps it.
	Append(ctx context.Context, sessionID, streamID string, index int, data []byte) error
	// After returns the stored events of a stream with an index above
	// index, in order. Events the store has dropped are missing; an
	// unknown stream has none.
	After(ctx context.Context, sessionID, streamID string, index int) ([]StoredEvent, error)
	// SessionClosed forgets the events of a session that ended.
	SessionClosed(ctx context.Context, sessionID string) error
}

// StoredEvent is an event of an EventStore: the index of the event in its
// stream and its data (one JSON-RPC message).
type StoredEvent struct {
	Index int
	Data  []byte
}

// SessionStore keeps legacy Streamable HTTP sessions for every replica.
// state is opaque to it. Its methods may be called concurrently.
type SessionStore interface {
	// Save records state under id, to expire after ttl unless loaded.
	Save(ctx context.Context, id string, state []byte, ttl time.Duration) error
	// Load returns what was saved under id and extends its life to ttl; ok
	// is false for an unknown, expired or deleted id.
	Load(ctx context.Context, id string, ttl time.Duration) (state []byte, ok bool, err error)
	// Delete forgets id.
	Delete(ctx context.Context, id string) error
}
