package streamhttp

import (
	"net/http"

	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Authorizer is the resource-server gate of the transport (the MCP
// authorization spec): runtime.WithAuthorization makes one from an
// AuthConfig. It runs on every request after the Host and Origin checks.
type Authorizer interface {
	// Authenticate verifies r's credentials and returns r with the
	// identity in its context (FullServer.Owner finds it there), or the
	// refusal to answer with.
	Authenticate(r *http.Request) (*http.Request, *Refusal)
	// CheckCall refuses a request whose identity may not make it (a
	// tools/call of a tool whose scopes the token lacks), or returns nil.
	CheckCall(r *http.Request, m transport.Message) *Refusal
	// Mount adds what the gate serves beside the endpoint (its metadata
	// documents) to the mux of ListenAndServe.
	Mount(mux *http.ServeMux)
}

// Refusal is how an Authorizer refuses a request: an HTTP status, a
// WWW-Authenticate challenge or a Retry-After if any, and a JSON-RPC error.
type Refusal struct {
	Status     int
	Challenge  string // WWW-Authenticate
	RetryAfter string
	Error      Error
}

// WithAuthorizer makes every request pass the gate that newGate makes for
// the server (once, in New; its error is New's).
func WithAuthorizer(newGate func(transport.FullServer) (Authorizer, error)) Option {
	return func(c *config) { c.auth = newGate }
}

// write answers the refusal, with id echo.
func (rf *Refusal) write(w http.ResponseWriter, echo string) {
	if rf.Challenge != "" {
		w.Header().Set("WWW-Authenticate", rf.Challenge)
	}
	if rf.RetryAfter != "" {
		w.Header().Set("Retry-After", rf.RetryAfter)
	}
	httpError(w, rf.Status, echo, &rf.Error)
}

// checkOwner answers 403, and returns false, when r's subject is not the
// one that created the session hs: a session id that leaks must not let
// someone else act in the session.
func (h *Handler) checkOwner(w http.ResponseWriter, r *http.Request, hs *httpSession, echo string) bool {
	if owner, ok := h.srv.Owner(r.Context()); ok && owner == hs.owner {
		return true
	}
	httpError(w, http.StatusForbidden, echo, errorf(codeInvalidRequest, "forbidden: this session belongs to another user; initialize a session of your own"))
	return false
}
