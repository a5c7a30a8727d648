package streamhttp

import (
	"net/http"
	"time"
)

// Caps on legacy sessions (WithMaxSessions, WithMaxSessionsPerSubject).
// Each session costs memory until it is deleted or idles out (30 minutes by
// default), and a client can initialize without end. When a cap is reached,
// the new session takes the place of the one idle the longest (no request
// in progress, no stream open), which is ended: its client gets 404 on its
// next request and initializes again, as the spec tells it to. Eviction
// rather than refusal, because refusal would let one client that floods
// initialize lock every other client out until the idle timeout, while
// eviction costs a well-behaved client one initialize. Only when every
// session in the way is busy is the initialize refused: 503 for the
// server's cap, 429 for a subject's.

const (
	defaultMaxSessions           = 10000
	defaultMaxSessionsPerSubject = 100
)

// admit makes room for a session of owner ("" without authorization)
// before its initialize is served; false when it answered the refusal.
func (h *Handler) admit(w http.ResponseWriter, owner, echo string) bool {
	h.mu.Lock()
	victim, full := h.makeRoomLocked(owner)
	h.mu.Unlock()
	if victim != nil {
		h.endSession(victim)
	}
	switch full {
	case fullServer:
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, echo, errorf(codeInvalidRequest,
			"too many sessions: this server has its maximum of %d sessions open, each serving a request; retry later", h.cfg.maxSessions))
		return false
	case fullSubject:
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusTooManyRequests, echo, errorf(codeInvalidRequest,
			"too many sessions: this token's subject has its maximum of %d sessions open, each serving a request; end one (DELETE) or retry later", h.cfg.maxSessionsPerSubject))
		return false
	}
	return true
}

type sessionsFull int

const (
	roomMade sessionsFull = iota
	fullServer
	fullSubject
)

// makeRoomLocked, with h.mu held, forgets the session idle the longest
// among owner's (when owner has as many as it may) or among all (when the
// server has); the caller ends it once h.mu is released. It reports which
// cap is full when no session in the way is idle.
func (h *Handler) makeRoomLocked(owner string) (*httpSession, sessionsFull) {
	var full sessionsFull
	switch {
	case owner != "" && h.perOwner[owner] >= h.cfg.maxSessionsPerSubject:
		full = fullSubject
	case len(h.sessions) >= h.cfg.maxSessions:
		full, owner = fullServer, ""
	default:
		return nil, roomMade
	}
	var victim *httpSession
	var oldest time.Time
	for _, hs := range h.sessions {
		if owner != "" && hs.owner != owner {
			continue
		}
		hs.mu.Lock()
		idle, seen := hs.active == 0, hs.lastSeen
		hs.mu.Unlock()
		if idle && (victim == nil || seen.Before(oldest)) {
			victim, oldest = hs, seen
		}
	}
	if victim == nil {
		return nil, full
	}
	h.forgetLocked(victim)
	return victim, roomMade
}

// forgetLocked stops serving hs's id (h.mu held).
func (h *Handler) forgetLocked(hs *httpSession) {
	if h.sessions[hs.id] != hs {
		return
	}
	delete(h.sessions, hs.id)
	if hs.owner != "" {
		if h.perOwner[hs.owner]--; h.perOwner[hs.owner] == 0 {
			delete(h.perOwner, hs.owner)
		}
	}
}

// WithMaxSessions caps the legacy sessions a handler keeps at once
// (default 10,000; an idle session holds about 1.5 KiB of heap, 15 MiB at
// the cap, as BenchmarkIdleSessionMemory measures). An initialize beyond it
// ends the session idle the longest, whose client gets 404 and initializes
// again; when every session is serving a request it is refused with 503
// Service Unavailable and Retry-After. n < 1 keeps the default.
func WithMaxSessions(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxSessions = n
		}
	}
}

// WithMaxSessionsPerSubject caps the sessions one authenticated subject
// (WithAuthorization: the token's sub, or its client_id) keeps at once
// (default 100): an initialize beyond it ends that subject's session idle
// the longest, or, when each is serving a request, is refused with 429 Too
// Many Requests and Retry-After. Without authorization there is no subject
// and only WithMaxSessions applies. n < 1 keeps the default.
func WithMaxSessionsPerSubject(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxSessionsPerSubject = n
		}
	}
}
