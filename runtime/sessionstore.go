package runtime

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"
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

// sessionRecord is the state of a shared session, as saved.
type sessionRecord struct {
	Version      string          `json:"version"`
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	ClientInfo   *Implementation `json:"clientInfo,omitempty"`
	LogRank      int32           `json:"logRank"`
	Owner        string          `json:"owner,omitempty"`
	Subs         []string        `json:"subscriptions,omitempty"`
	Toolsets     []string        `json:"toolsets,omitempty"` // enabled in dynamic mode (toolsets.go)
}

// sessionStoreTimeout bounds one operation on the session store, on top of
// the store's own timeout.
const sessionStoreTimeout = 5 * time.Second

// sharedSession is the link of a local copy to the store.
type sharedSession struct{ hs *httpSession }

// shared reports whether the handler keeps its sessions in the store.
func (h *httpHandler) shared() bool {
	return h.srv.cfg.sessions != nil && h.srv.cfg.bus != nil && !h.cfg.stateless
}

// share makes hs a copy of a shared session: its request ids and stream
// numbers start at random, its standalone stream stores nothing.
func (h *httpHandler) share(hs *httpSession) {
	hs.ss.shared = &sharedSession{hs}
	hs.ss.lastID.Store(rand.Int64N(1 << 50))
	hs.lastStream = int(rand.Int64N(1 << 40))
	hs.standalone.storing = false
}

// persist saves the session's state, if it is shared, before a change of
// it is answered.
func (ss *Session) persist() *Error {
	if ss.shared == nil {
		return nil
	}
	return ss.shared.save()
}

func (sh *sharedSession) save() *Error {
	hs := sh.hs
	h := hs.h
	b, err := json.Marshal(hs.record())
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), sessionStoreTimeout)
		err = h.srv.cfg.sessions.Save(ctx, hs.id, b, h.cfg.idleTimeout)
		cancel()
	}
	if err != nil {
		h.srv.cfg.logger.Error("runtime: session store failed", "op", "Save", "error", err)
		return errorf(CodeInternalError, "internal error: the session store failed, the change is not kept; retry later")
	}
	h.srv.publish(busSession, hs.id+"\n"+string(b))
	return nil
}

// keepAlive extends the life of the record while this replica serves the
// session a long request or stream.
func (sh *sharedSession) keepAlive() {
	h := sh.hs.h
	ctx, cancel := context.WithTimeout(context.Background(), sessionStoreTimeout)
	defer cancel()
	if _, _, err := h.srv.cfg.sessions.Load(ctx, sh.hs.id, h.cfg.idleTimeout); err != nil {
		h.srv.cfg.logger.Warn("runtime: session store failed", "op", "Load", "error", err)
	}
}

// forwardAnswer sends the client's answer to every replica: the one whose
// request waits for it takes it.
func (sh *sharedSession) forwardAnswer(id, result, errObj json.RawMessage) {
	kind, payload := "r", result
	if len(errObj) > 0 {
		kind, payload = "e", errObj
	}
	sh.hs.h.srv.publish(busAnswer, sh.hs.id+"\n"+string(id)+"\n"+kind+string(payload))
}

func (hs *httpSession) record() sessionRecord {
	ss := hs.ss
	rec := sessionRecord{Owner: hs.owner, LogRank: ss.logLevel.Load()}
	if p := ss.peer.Load(); p != nil {
		rec.Version, rec.Capabilities = p.version, p.capabilities
		if p.hasClientInfo {
			ci := p.clientInfo
			rec.ClientInfo = &ci
		}
	}
	ss.subMu.Lock()
	for uri := range ss.subs {
		rec.Subs = append(rec.Subs, uri)
	}
	ss.subMu.Unlock()
	slices.Sort(rec.Subs)
	if x := hs.h.srv.toolsets; x != nil {
		rec.Toolsets = x.names(toolsetSet(ss.enabledToolsets.Load()))
	}
	return rec
}

// apply takes the changing part of rec: log level and subscriptions.
func (hs *httpSession) apply(rec *sessionRecord) {
	hs.ss.logLevel.Store(rec.LogRank)
	subs := make(map[string]struct{}, len(rec.Subs))
	for _, uri := range rec.Subs {
		subs[uri] = struct{}{}
	}
	hs.ss.subMu.Lock()
	hs.ss.subs = subs
	hs.ss.subMu.Unlock()
	if x := hs.h.srv.toolsets; x != nil {
		// Names the index no longer has (a replica of another version) are dropped.
		var set toolsetSet
		for _, n := range rec.Toolsets {
			if i, ok := x.byName[n]; ok {
				set |= 1 << i
			}
		}
		if old := toolsetSet(hs.ss.enabledToolsets.Swap(uint64(set))); old != set {
			hs.ss.out.listChanged(x.kinds(old ^ set)) // enabled on another replica
		}
	}
}

// sharedSession returns the local copy of session id, made from the store
// if there is none, after loading the record (which keeps it alive). It
// answers 404 for a session the store does not have, and 503 when the
// store cannot tell.
func (h *httpHandler) sharedSession(w http.ResponseWriter, r *http.Request, id, echo string) *httpSession {
	ctx, cancel := context.WithTimeout(r.Context(), sessionStoreTimeout)
	state, ok, err := h.srv.cfg.sessions.Load(ctx, id, h.cfg.idleTimeout)
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
		h.srv.cfg.logger.Error("runtime: session store failed", "op", "Load", "error", err)
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, echo, errorf(CodeInternalError, "service unavailable: the session store failed; retry later"))
		return nil
	case !ok:
		if hs != nil {
			h.endSession(hs)
		}
		httpError(w, http.StatusNotFound, echo, errorf(CodeInvalidRequest, "session not found: it ended or expired; initialize a new one"))
		return nil
	case hs != nil:
		hs.apply(&rec)
		return hs
	}
	return h.adopt(id, &rec)
}

// adopt makes a local copy of a session another replica initialized.
func (h *httpHandler) adopt(id string, rec *sessionRecord) *httpSession {
	hs := h.newSessionWithID(id)
	hs.owner = rec.Owner
	pi := &peerInfo{version: rec.Version}
	if len(rec.Capabilities) > 0 {
		pi.capabilities = rec.Capabilities
		pi.client = parseClientCaps(rec.Capabilities)
	}
	if rec.ClientInfo != nil {
		pi.clientInfo, pi.hasClientInfo = *rec.ClientInfo, true
	}
	_, pi.caps = h.srv.capabilities()
	hs.ss.peer.Store(pi)
	hs.ss.ready.Store(true)
	hs.apply(rec)
	h.srv.sessions.add(hs.ss)
	hs.ss.out.start()
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
func (h *httpHandler) fromBus(kind byte, body string) {
	id, rest, _ := strings.Cut(body, "\n")
	h.mu.Lock()
	hs := h.sessions[id]
	h.mu.Unlock()
	if hs == nil {
		return
	}
	switch kind {
	case busSession:
		var rec sessionRecord
		if json.Unmarshal([]byte(rest), &rec) == nil {
			hs.apply(&rec)
		}
	case busAnswer:
		reqID, answer, _ := strings.Cut(rest, "\n")
		if answer == "" {
			return
		}
		payload := json.RawMessage(answer[1:])
		if answer[0] == 'e' {
			hs.ss.answer(json.RawMessage(reqID), nil, payload)
		} else {
			hs.ss.answer(json.RawMessage(reqID), payload, nil)
		}
	case busEnded:
		h.endSession(hs)
	}
}

// endEverywhere ends a shared session (DELETE): the record goes, and every
// replica drops its copy.
func (h *httpHandler) endEverywhere(w http.ResponseWriter, hs *httpSession) bool {
	ctx, cancel := context.WithTimeout(context.Background(), sessionStoreTimeout)
	err := h.srv.cfg.sessions.Delete(ctx, hs.id)
	cancel()
	if err != nil {
		h.srv.cfg.logger.Error("runtime: session store failed", "op", "Delete", "error", err)
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, "", errorf(CodeInternalError, "service unavailable: the session store failed, the session is not ended; retry later"))
		return false
	}
	if h.cfg.store != nil {
		if err := h.cfg.store.SessionClosed(context.Background(), hs.id); err != nil {
			h.srv.cfg.logger.Warn("runtime: event store", "op", "SessionClosed", "error", err)
		}
	}
	h.srv.publish(busEnded, hs.id)
	h.endSession(hs)
	return true
}
