package runtime

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"maps"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/sealed"
	"github.com/mcpgen/mcpgen/runtime/requeststate"
)

// Multi round-trip requests (2026-07-28 basic/patterns/mrtr.mdx). A modern
// server never sends requests to the client: a tools/call, prompts/get or
// resources/read that needs the client's input ends with
// {resultType:"input_required", inputRequests:{key:{method, params}},
// requestState}, and the client retries the request (a new id) with
// params.inputResponses {key: result} and the requestState. Handlers are
// written once for both eras: CreateMessage, Elicit and ListRoots block on
// the client in the legacy era; in the modern era, on the first attempt
// they return an error wrapping ErrInputRequired and the request's result
// becomes input_required with every request the handler made; the retry
// runs the handler again, and the same calls, in the same order, return the
// client's answers. Answers of earlier rounds travel in requestState, so a
// handler may ask in several rounds, and several things in one round (ask
// them all before returning).
//
// requestState is the client's to hold and could be altered or replayed:
// it is {id, method, target, expiry, owner, the answers asked for} sealed
// (below) under the server's key, random per Server unless
// WithRequestStateKey sets one (give every replica behind a load balancer
// the same). A retry whose state does not open, has expired, was issued
// for another request or user, or was used already is invalid params.

// ErrInputRequired is wrapped by the error CreateMessage, Elicit and
// ListRoots return in the 2026-07-28 era when the client has not answered
// yet: the handler should return (any error will do); the request is
// answered with input_required, and the client's retry runs it again with
// the answer.
var ErrInputRequired = errors.New("the client's input is required; the request is retried with it")

// defaultStateTTL is how long a requestState is accepted after it is issued.
const defaultStateTTL = 10 * time.Minute

// WithRequestStateKey sets the key that seals the requestState of
// input_required results (AES-256-GCM under a key derived from it with
// HKDF-SHA256; 32 random bytes are right). By
// default each Server draws its own at random, so a retry must reach the
// process that issued the state: servers behind a load balancer share one
// key. A key shorter than 16 bytes is ignored.
func WithRequestStateKey(key []byte) Option {
	return func(c *config) {
		if len(key) >= 16 {
			c.stateKey = append([]byte(nil), key...)
		}
	}
}

// WithRequestStateTTL sets how long the requestState of an input_required
// result is accepted (default 10 minutes). d <= 0 keeps the default.
func WithRequestStateTTL(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.stateTTL = d
		}
	}
}

func newStateKey() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k) // never fails (crypto/rand panics rather)
	return k
}

// The requestState of multi round-trip requests is the client's
// to hold, so it is sealed: encrypted and authenticated (AES-256-GCM,
// package sealed) under a key derived from the server's state key. The
// client learns nothing from it (not the owner, not the answers it carries)
// and cannot alter it. Each state is accepted once: its random id is
// recorded in a RequestStateStore when a retry uses it, and a second use is
// refused, so that an answer the user gave (a confirmation, say) cannot be
// replayed within the state's TTL to run the handler again.

// stateClaims is what a requestState carries, sealed.
type stateClaims struct {
	ID      string                     `json:"i"` // random: single use
	Method  string                     `json:"m"`
	Target  string                     `json:"t"`
	Expires int64                      `json:"e"` // Unix milliseconds
	Owner   string                     `json:"o,omitempty"`
	Answers map[string]json.RawMessage `json:"a,omitempty"`
}

// statePurpose separates the requestState key from any other use of the
// key given to WithRequestStateKey.
const statePurpose = "requestState"

func newStateBox(key []byte) *sealed.Box {
	box, err := sealed.New(key, statePurpose)
	if err != nil {
		panic("runtime: requestState key: " + err.Error()) // AES-256 with a 32-byte derived key cannot fail
	}
	return box
}

func newStateID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand panics rather)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (s *Server) sealState(c *stateClaims) (string, error) {
	payload, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	return s.cfg.stateBox.Seal(payload), nil
}

func (s *Server) openState(state string) (*stateClaims, *Error) {
	payload, err := s.cfg.stateBox.Open(state)
	var c stateClaims
	if err != nil || json.Unmarshal(payload, &c) != nil {
		return nil, errorf(CodeInvalidParams, "invalid params: requestState failed its integrity check (altered, or issued by a server with another key)")
	}
	if time.Now().UnixMilli() > c.Expires {
		return nil, errorf(CodeInvalidParams, "invalid params: requestState has expired; send the request again without it")
	}
	return &c, nil
}

// useState records the first use of c, and refuses any later one.
func (s *Server) useState(ctx context.Context, c *stateClaims) *Error {
	first, err := s.cfg.stateStore.FirstUse(ctx, c.ID, time.UnixMilli(c.Expires))
	if err != nil {
		s.cfg.logger.Warn("runtime: the requestState store failed", "error", err)
		return errorf(CodeInternalError, "internal error: requestState cannot be checked now; retry later")
	}
	if !first {
		return errorf(CodeInvalidParams, "invalid params: requestState was already used (each is accepted once); send the request again without it")
	}
	return nil
}

// Where used requestStates are recorded is package runtime/requeststate;
// these are its names in this package.

// RequestStateStore remembers which requestStates were used, so that each
// is accepted once (requeststate.Store). Replicas behind a load balancer,
// which share a requestState key (WithRequestStateKey), need a store they
// share too, or a state may be used once per replica.
type RequestStateStore = requeststate.Store

// DefaultMaxUsedStates bounds the memory RequestStateStore when
// NewMemoryRequestStateStore is given 0 (requeststate.DefaultMaxUsed).
const DefaultMaxUsedStates = requeststate.DefaultMaxUsed

// NewMemoryRequestStateStore returns a RequestStateStore in memory
// holding at most maxEntries live records (0: DefaultMaxUsedStates)
// (requeststate.NewMemoryStore).
func NewMemoryRequestStateStore(maxEntries int) RequestStateStore {
	return requeststate.NewMemoryStore(maxEntries)
}

// WithRequestStateStore sets where the used requestStates are recorded.
// The default is NewMemoryRequestStateStore(0), private to the server.
func WithRequestStateStore(store RequestStateStore) Option {
	return func(c *config) {
		if store != nil {
			c.stateStore, c.stateStoreSet = store, true
		}
	}
}

// mrtr is the multi-round state of a modern tools/call, prompts/get or
// resources/read: the answers it has, and what its handler asked for.
type mrtr struct {
	method, target string // what the state is bound to
	owner          string // and to whom, with authorization (AuthInfo.owner)

	mu        sync.Mutex
	answers   map[string]json.RawMessage
	asks      int            // requests made by the handler so far, in order
	asked     []string       // their keys: the answers a next round's state keeps
	pending   []inputRequest // asked and not answered
	missing   clientCaps     // asked for without the capability
	capFailed bool           // the handler failed with ErrCapabilityNotSupported
}

type inputRequest struct {
	key, method string
	params      []byte
}

// next keys the handler's next request (named, or numbered in the order
// asked) and returns its answer, if the client gave one.
func (m *mrtr) next(named string) (key string, answer json.RawMessage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	key = named
	if key == "" {
		key = "input-" + strconv.Itoa(m.asks)
	}
	m.asks++
	m.asked = append(m.asked, key)
	return key, m.answers[key]
}

type inputKeyKey struct{}

// WithInputKey returns a context under which CreateMessage, Elicit and
// ListRoots name their request key in the 2026-07-28 era: the key of the
// request in the input_required result's inputRequests, under which the
// client's retry answers it. Without it requests are keyed input-0,
// input-1, … in the order the handler asks. Keys must differ within one
// request (all rounds included). The legacy era, where the client is asked
// directly, ignores it.
func WithInputKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, inputKeyKey{}, key)
}

func inputKey(ctx context.Context) string {
	k, _ := ctx.Value(inputKeyKey{}).(string)
	return k
}

func (m *mrtr) request(key, method string, params []byte) {
	m.mu.Lock()
	m.pending = append(m.pending, inputRequest{key, method, params})
	m.mu.Unlock()
}

func (m *mrtr) lack(need clientCaps) {
	m.mu.Lock()
	m.missing |= need
	m.mu.Unlock()
}

// newMRTR reads the inputResponses and requestState of a modern request
// that may need input. The answers of earlier rounds come from a state
// that verifies (the server issued it, for this request); those of this
// round from inputResponses, which a first attempt may carry too (the
// client answering ahead). Extra keys are ignored by the handler, which
// asks for what it needs.
//
// With authorization, a state is bound to the user it was issued to, like a
// legacy session: another user's token cannot replay its answers.
func (s *Server) newMRTR(ctx context.Context, method *methodInfo, params []byte) (*mrtr, *Error) {
	target, _ := jsonwire.StringMember(params, method.target)
	m := &mrtr{method: method.name, target: target, answers: make(map[string]json.RawMessage)}
	if info, ok := AuthFromContext(ctx); ok {
		m.owner = info.Owner()
	}
	if rawState := jsonwire.Member(params, "requestState"); rawState != nil {
		var state string
		if json.Unmarshal(rawState, &state) != nil {
			return nil, errorf(CodeInvalidParams, `invalid params: "requestState" must be a string`)
		}
		claims, e := s.openState(state)
		if e != nil {
			return nil, e
		}
		if claims.Method != method.name || claims.Target != target {
			return nil, errorf(CodeInvalidParams, "invalid params: requestState was issued for another request (%s %s)", claims.Method, quote(claims.Target))
		}
		if claims.Owner != m.owner {
			return nil, errorf(CodeInvalidParams, "invalid params: requestState was issued to another user; send the request again without it")
		}
		// Used last, so that a state refused above (someone else's
		// replay, say) stays good for its owner.
		if e := s.useState(ctx, claims); e != nil {
			return nil, e
		}
		maps.Copy(m.answers, claims.Answers)
	}
	if raw := jsonwire.Member(params, "inputResponses"); !jsonwire.IsNull(raw) {
		var responses map[string]json.RawMessage
		if jsonwire.FirstByte(raw) != '{' || json.Unmarshal(raw, &responses) != nil {
			return nil, errorf(CodeInvalidParams, `invalid params: "inputResponses" must be an object of results by key`)
		}
		for k, v := range responses {
			if jsonwire.FirstByte(v) != '{' {
				return nil, errorf(CodeInvalidParams, "invalid params: inputResponses[%s] must be a result object", quote(k))
			}
			m.answers[k] = v
		}
	}
	return m, nil
}

// inputRequired is the input_required result of a round whose handler
// asked for what it has not got.
func (s *Server) inputRequired(m *mrtr) (encoder, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	claims := stateClaims{ID: newStateID(), Method: m.method, Target: m.target, Expires: time.Now().Add(s.cfg.stateTTL).UnixMilli(), Owner: m.owner}
	// Only the answers the handler asked for travel on: answers it never
	// asked for would grow the state (and its retry) for nothing.
	for _, key := range m.asked {
		if a, ok := m.answers[key]; ok {
			if claims.Answers == nil {
				claims.Answers = make(map[string]json.RawMessage, len(m.asked))
			}
			claims.Answers[key] = a
		}
	}
	state, err := s.sealState(&claims)
	if err != nil {
		return nil, err
	}
	b := []byte(`{"resultType":"input_required","inputRequests":{`)
	for i, r := range m.pending {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonwire.AppendString(b, r.key)
		b = append(b, `:{"method":`...)
		b = jsonwire.AppendString(b, r.method)
		b = append(b, `,"params":`...)
		b = append(b, r.params...)
		b = append(b, '}')
	}
	b = append(b, `},"requestState":`...)
	b = jsonwire.AppendString(b, state)
	return rawResult(append(b, '}')), nil
}

// missingCapability is -32021 for the capabilities a handler needed.
func missingCapability(need clientCaps) *Error {
	caps := map[string]any{}
	var names []string
	if need&clientSampling != 0 {
		caps["sampling"] = struct{}{}
		names = append(names, "sampling")
	}
	if need&clientRoots != 0 {
		caps["roots"] = struct{}{}
		names = append(names, "roots")
	}
	switch {
	case need&clientElicitURL != 0 && need&clientElicitForm != 0:
		caps["elicitation"] = map[string]any{"form": struct{}{}, "url": struct{}{}}
		names = append(names, "elicitation")
	case need&clientElicitURL != 0:
		caps["elicitation"] = map[string]any{"url": struct{}{}}
		names = append(names, "elicitation.url")
	case need&clientElicitForm != 0:
		caps["elicitation"] = struct{}{}
		names = append(names, "elicitation")
	}
	return &Error{
		Code:    CodeMissingRequiredClientCapability,
		Message: "missing required client capability: this request needs " + strings.Join(names, ", ") + ", which the request's _meta did not declare",
		Data:    map[string]any{"requiredCapabilities": caps},
	}
}

// noteHandlerError records that a modern request's handler failed for
// want of a client capability (its error wraps ErrCapabilityNotSupported):
// the request is answered with -32021, even if it also asked for input,
// since no answer can make it succeed.
func noteHandlerError(ctx context.Context, err error) {
	c := reqFrom(ctx)
	if c == nil || c.mrtr == nil || !errors.Is(err, ErrCapabilityNotSupported) {
		return
	}
	c.mrtr.mu.Lock()
	c.mrtr.capFailed = true
	c.mrtr.mu.Unlock()
}
