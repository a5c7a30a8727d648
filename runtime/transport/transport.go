// Package transport is the seam between the MCP core (package runtime) and
// the transports that carry its messages: stdio (package runtime/stdio),
// Streamable HTTP (runtime/streamhttp), the in-memory pair for tests
// (runtime/inmemory), and any transport of your own (a WebSocket, say). It holds interfaces and plain
// data only, and imports nothing of the runtime, so that a transport
// depends on the seam and not on the core: *runtime.Server is a Server,
// and the sessions it opens are Sessions.
//
// A transport's life with the core is short to tell:
//
//  1. Start the server once (Server.Start): it checks the configuration
//     and joins the notification bus, if any.
//  2. For each client connection, OpenSession with a Sink, where the
//     session's outgoing messages go (responses, notifications, requests
//     to the client), and Options saying what the transport can carry.
//  3. Hand each incoming JSON-RPC message to Session.HandleMessage. It
//     returns once the message is dispatched; the answers come to the Sink,
//     possibly from other goroutines.
//  4. At end of input, EndSubscriptions and Wait; to shut down gracefully,
//     Drain; in any case Close, after which the Sink is not called again.
//
// A transport that reads messages before it knows their session (to route
// them, or to serve a request without one) uses the full seam of full.go:
// FullServer.Parse reads a message once and FullSession.Dispatch handles
// it; FullServer.CheckModern checks a 2026-07-28 request against the
// headers that carried it; State, Restore and Apply move a session between
// replicas through a SessionStore and the bus (PublishSession,
// SubscribeSessions, SharedSink); a Request in the context (RequestKey)
// tells the core the HTTP header and version, and whether a call may run
// inline; EventStore keeps streams for resumption. Streamable HTTP
// (runtime/streamhttp) uses nothing else: it cannot import the core, which
// imports it.
//
// Everything the built-in transports do goes through these methods.
package transport

import (
	"context"
	"time"
)

// Server is what the core offers a transport.
type Server interface {
	// Start checks the server's configuration (an error the server could
	// not serve with) and starts what it shares with other replicas. It
	// may be called many times; the work is done once.
	Start() error
	// OpenSession starts the session of one client connection, whose
	// outgoing messages go to sink. The transport must Close it.
	OpenSession(sink Sink, o Options) Session
	// Limits are the bounds the server was configured with, which a
	// transport applies while reading.
	Limits() Limits
}

// Limits are the server's bounds that a transport applies.
type Limits struct {
	// MaxMessageSize is the largest incoming message, in bytes; a longer
	// one is refused with Session.RefuseTooLarge.
	MaxMessageSize int
	// ShutdownGrace is how long a graceful shutdown lets calls in flight
	// finish (WithStdioShutdownTimeout); 0: none was asked for.
	ShutdownGrace time.Duration
}

// Options say what a transport can carry and how it names itself.
type Options struct {
	// Name is the transport as interceptors see it (Request.Transport):
	// "stdio", "http", or a name of your own; "" for none.
	Name string
	// NoRequests: the transport cannot carry requests from the server to
	// the client (no stream back), so CreateMessage, Elicit and ListRoots
	// fail at once instead of waiting for an answer that cannot come.
	NoRequests bool
	// Detached: the calls of the session do not end with the context
	// their message was handled under, only with Close (or their own
	// deadline). A transport whose one context lasts the whole session
	// (stdio) saves registering every call with it.
	Detached bool
	// SessionID is the session's id where the transport gives it one
	// (Mcp-Session-Id): hooks and interceptors see it, and a shared
	// session's tasks belong to it.
	SessionID string
	// Shared: the session is kept in a SessionStore for every replica;
	// its Sink is a SharedSink, and its requests to the client are
	// numbered from a random start so that replicas never collide.
	Shared bool
	// InlineCalls, when set, makes HandleMessage run a call on the
	// caller's goroutine to its end (its answer sent) instead of handing it
	// to a goroutine of its own, which costs a large share of a small call.
	// HandleMessage calls InlineCalls on that goroutine as such a call
	// begins: the point where the call would otherwise have left for its
	// own goroutine, after which nothing of the message is ordered with the
	// next ones (what comes before, initialize or a list, say, is). From
	// then on the transport must be ready to go on reading on another
	// goroutine, when the call takes long or sends something before its
	// answer (a request to the client it waits for, progress, a
	// subscription's acknowledgement: Send with a rel and final false), or
	// that call's cancellation, the answers it waits for and every later
	// message would wait behind it. Package runtime/stdio does (its reader).
	InlineCalls func()
}

// Sink receives a session's outgoing messages, one complete JSON-RPC
// message per Send, without a trailing newline. It is called from the
// goroutines that finish requests and send notifications, possibly at the
// same time, and must not retain msg after it returns.
type Sink interface {
	// Send delivers msg. rel is the raw id of the client request msg
	// belongs to: final marks its response, and the other messages with a
	// rel were sent while serving it (progress, logging, requests to the
	// client). rel is "" for a message that belongs to no request
	// (list_changed, resources/updated). Send reports whether msg went
	// anywhere: a request to the client that cannot reach it fails at once.
	Send(rel string, final bool, msg []byte) bool
	// Abandon says that request rel ends without a response (cancelled).
	Abandon(rel string)
	// CloseStream ends the stream of request rel early, where the
	// transport has such streams and can resume them; others do nothing.
	CloseStream(rel string)
	// Close releases senders waiting on the transport: the session is
	// closing and sends nothing more.
	Close()
}

// SinkFunc is a Sink with one stream for everything: each message goes to
// the function, whatever request it belongs to.
type SinkFunc func(msg []byte)

// Send calls f and reports that msg went out.
func (f SinkFunc) Send(_ string, _ bool, msg []byte) bool { f(msg); return true }

// Abandon does nothing: one stream has nothing to end.
func (SinkFunc) Abandon(string) {}

// CloseStream does nothing.
func (SinkFunc) CloseStream(string) {}

// Close does nothing.
func (SinkFunc) Close() {}

// Session is the protocol state of one client connection, as the core
// gives it to its transport.
type Session interface {
	// HandleMessage handles one incoming JSON-RPC message and returns once
	// it is dispatched (see runtime.Session.HandleMessage), or, with
	// Options.InlineCalls, once the call it starts is answered. It does
	// not retain msg (a call copies what it keeps, also when it runs
	// inline) and may be called concurrently.
	HandleMessage(ctx context.Context, msg []byte)
	// RefuseTooLarge answers a message the transport did not read whole
	// because it exceeds Limits.MaxMessageSize (with id null: its id was
	// never read).
	RefuseTooLarge()
	// CallsInFlight reports whether calls of the session are running, so
	// that a writer can wait a moment for their answers to batch them.
	CallsInFlight() bool
	// EndSubscriptions answers the session's subscriptions/listen
	// requests, which would otherwise last until cancelled: a transport
	// calls it when no more input will come, before Wait.
	EndSubscriptions()
	// StopCalls makes the session refuse calls from now on (error -32000:
	// the server is shutting down); notifications and answers to the
	// server's requests are still handled.
	StopCalls()
	// Drain is StopCalls, and returns a channel closed once no call is in
	// flight: a graceful shutdown waits on it for as long as it grants.
	Drain() <-chan struct{}
	// Wait blocks until every call in flight has returned and been
	// answered.
	Wait()
	// Close ends the session: calls in flight are cancelled, later
	// messages are ignored, and once it returns the Sink is never called
	// again.
	Close()
}
