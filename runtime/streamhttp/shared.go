package streamhttp

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Legacy sessions (2025-11-25 and earlier) shared by replicas. With a
// SessionStore and a NotificationBus (WithStore gives both), a session is a
// record in the store, and each replica that serves one of its requests
// keeps a local copy of it:
//
//   - initialize saves the record (negotiated version, client capabilities
//     and info, log level, owner, subscriptions) with the idle timeout as
//     its TTL; every request loads it again, which extends the TTL, so the
//     session expires in the store when no replica served it for that long;
//   - logging/setLevel and resources/(un)subscribe save it before they
//     answer, and publish it on the bus, so that the replica holding the
//     client's GET stream (which delivers its notifications) knows;
//   - an answer to a server→client request (elicitation, sampling, roots)
//     that reaches another replica than the one waiting for it goes over
//     the bus to it; the ids of such requests, and the numbers of streams,
//     start at random so that two replicas never give the same one;
//   - DELETE deletes the record and tells every replica to drop its copy;
//     a replica dropping its copy (idle, shutdown) leaves the record.
//
// Change notifications reach a session only through the replica holding its
// GET stream; the standalone stream's events are not stored (each replica
// would number them on its own).

// sessionRecord is the state of a shared session, as saved.
type sessionRecord struct {
	Version      string          `json:"version"`
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	ClientInfo   json.RawMessage `json:"clientInfo,omitempty"`
	LogRank      int32           `json:"logRank"`
	Owner        string          `json:"owner,omitempty"`
	Subs         []string        `json:"subscriptions,omitempty"`
	Toolsets     []string        `json:"toolsets,omitempty"` // enabled in dynamic mode (toolsets.go)
}

// sessionStoreTimeout bounds one operation on the session store, on top of
// the store's own timeout.
const sessionStoreTimeout = 5 * time.Second

// shared reports whether the handler keeps its sessions in the store.
func (h *Handler) shared() bool { return h.conf.Shared && !h.cfg.stateless }

// share makes hs a copy of a shared session: its stream numbers start at
// random (the core does the same for its request ids), its standalone
// stream stores nothing.
func (h *Handler) share(hs *httpSession) {
	hs.lastStream = int(rand.Int64N(1 << 40))
	hs.standalone.storing = false
}

// Persist saves the session's state before a change of it is answered
// (transport.SharedSink).
func (hs *httpSession) Persist() *Error { return hs.save() }

func (hs *httpSession) save() *Error {
	h := hs.h
	b, err := json.Marshal(hs.record())
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), sessionStoreTimeout)
		err = h.conf.Sessions.Save(ctx, hs.id, b, h.cfg.idleTimeout)
		cancel()
	}
	if err != nil {
		h.log.Error("runtime: session store failed", "op", "Save", "error", err)
		return errorf(codeInternalError, "internal error: the session store failed, the change is not kept; retry later")
	}
	h.srv.PublishSession(transport.BusSession, hs.id+"\n"+string(b))
	return nil
}

// keepAlive extends the life of the record while this replica serves the
// session a long request or stream.
func (hs *httpSession) keepAlive() {
	h := hs.h
	ctx, cancel := context.WithTimeout(context.Background(), sessionStoreTimeout)
	defer cancel()
	if _, _, err := h.conf.Sessions.Load(ctx, hs.id, h.cfg.idleTimeout); err != nil {
		h.log.Warn("runtime: session store failed", "op", "Load", "error", err)
	}
}

// Forward sends the client's answer to every replica: the one whose
// request waits for it takes it (transport.SharedSink).
func (hs *httpSession) Forward(id, result, errObj json.RawMessage) {
	kind, payload := "r", result
	if len(errObj) > 0 {
		kind, payload = "e", errObj
	}
	hs.h.srv.PublishSession(transport.BusAnswer, hs.id+"\n"+string(id)+"\n"+kind+string(payload))
}

func (hs *httpSession) record() sessionRecord {
	st := hs.ss.State()
	return sessionRecord{
		Version: st.Version, Capabilities: st.Capabilities, ClientInfo: st.ClientInfo,
		LogRank: st.LogRank, Owner: hs.owner, Subs: st.Subs, Toolsets: st.Toolsets,
	}
}

// state is the part of rec the core keeps.
func (rec *sessionRecord) state() transport.State {
	return transport.State{
		Version: rec.Version, Capabilities: rec.Capabilities, ClientInfo: rec.ClientInfo,
		LogRank: rec.LogRank, Subs: rec.Subs, Toolsets: rec.Toolsets,
	}
}

// apply takes the changing part of rec: log level, subscriptions, toolsets.
func (hs *httpSession) apply(rec *sessionRecord) { hs.ss.Apply(rec.state()) }

// sharedSession returns the local copy of session id, made from the store
// if there is none, after loading the record (which keeps it alive). It
// answers 404 for a session the store does not have, and 503 when the
// store cannot tell.
func (h *Handler) sharedSession(w http.ResponseWriter, r *http.Request, id, echo string) *httpSession {
	ctx, cancel := context.WithTimeout(r.Context(), sessionStoreTimeout)
	state, ok, err := h.conf.Sessions.Load(ctx, id, h.cfg.idleTimeout)
	cancel()
	h.mu.Lock()
	hs := h.sessions[id]
	h.mu.Unlock()
	var rec sessionRecord
	if err == nil && ok {
		err = json.Unmarshal(state, &rec)
	}
	switch {
	case err != nil:
		h.log.Error("runtime: session store failed", "op", "Load", "error", err)
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, echo, errorf(codeInternalError, "service unavailable: the session store failed; retry later"))
		return nil
	case !ok:
		if hs != nil {
			h.endSession(hs)
		}
		httpError(w, http.StatusNotFound, echo, errorf(codeInvalidRequest, "session not found: it ended or expired; initialize a new one"))
		return nil
	case hs != nil:
		hs.apply(&rec)
		return hs
	}
	return h.adopt(id, &rec)
}

// adopt makes a local copy of a session another replica initialized.
func (h *Handler) adopt(id string, rec *sessionRecord) *httpSession {
	hs := h.newSessionWithID(id)
	hs.owner = rec.Owner
	hs.ss.Restore(rec.state())
	h.mu.Lock()
	if other := h.sessions[id]; other != nil { // adopted meanwhile by another request
		h.mu.Unlock()
		hs.ss.Close()
		other.apply(rec)
		return other
	}
	h.mu.Unlock()
	if !h.register(hs) {
		hs.ss.Close()
	}
	return hs
}

// fromBus handles what another replica (or this one) said of a shared
// session.
func (h *Handler) fromBus(kind byte, body string) {
	id, rest, _ := strings.Cut(body, "\n")
	h.mu.Lock()
	hs := h.sessions[id]
	h.mu.Unlock()
	if hs == nil {
		return
	}
	switch kind {
	case transport.BusSession:
		var rec sessionRecord
		if json.Unmarshal([]byte(rest), &rec) == nil {
			hs.apply(&rec)
		}
	case transport.BusAnswer:
		reqID, answer, _ := strings.Cut(rest, "\n")
		if answer == "" {
			return
		}
		payload := json.RawMessage(answer[1:])
		if answer[0] == 'e' {
			hs.ss.Answer(json.RawMessage(reqID), nil, payload)
		} else {
			hs.ss.Answer(json.RawMessage(reqID), payload, nil)
		}
	case transport.BusEnded:
		h.endSession(hs)
	}
}

// endEverywhere ends a shared session (DELETE): the record goes, and every
// replica drops its copy.
func (h *Handler) endEverywhere(w http.ResponseWriter, hs *httpSession) bool {
	ctx, cancel := context.WithTimeout(context.Background(), sessionStoreTimeout)
	err := h.conf.Sessions.Delete(ctx, hs.id)
	cancel()
	if err != nil {
		h.log.Error("runtime: session store failed", "op", "Delete", "error", err)
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, "", errorf(codeInternalError, "service unavailable: the session store failed, the session is not ended; retry later"))
		return false
	}
	if h.cfg.store != nil {
		if err := h.cfg.store.SessionClosed(context.Background(), hs.id); err != nil {
			h.log.Warn("runtime: event store", "op", "SessionClosed", "error", err)
		}
	}
	h.srv.PublishSession(transport.BusEnded, hs.id)
	h.endSession(hs)
	return true
}
