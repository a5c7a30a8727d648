package runtime

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/sealed"
	"github.com/mcpgen/mcpgen/runtime/requeststate"
)

// Requests from the server to the client (sampling, elicitation, roots): a
// handler asks through its context and blocks until the client answers. The
// session numbers the requests it sends (1, 2, …: a sequence of its own,
// which a client keeps apart from its request ids since these travel the
// other way) and routes each answer to the request waiting for it by that id.

// ErrCapabilityNotSupported is wrapped by the error of CreateMessage, Elicit
// and ListRoots when the client did not declare, at initialize, the
// capability the request needs.
var ErrCapabilityNotSupported = errors.New("client does not support this capability")

// ClientError is the JSON-RPC error a client answered a request with (a user
// who refused to sample, say). It is not an *Error: a tool that returns it
// reports an isError result to the model, not a protocol error.
type ClientError struct {
	Method  string // the request's method, e.g. "sampling/createMessage"
	Code    int
	Message string
	Data    json.RawMessage
}

func (e *ClientError) Error() string {
	return fmt.Sprintf("%s: the client answered with error %d: %s", e.Method, e.Code, e.Message)
}

// clientAnswer is the client's response to a server→client request.
type clientAnswer struct {
	result json.RawMessage
	err    *ClientError // Method is filled in by ask
}

func newClientAnswer(result, errObj json.RawMessage) clientAnswer {
	if len(errObj) == 0 {
		return clientAnswer{result: bytes.Clone(result)}
	}
	var e struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if json.Unmarshal(errObj, &e) != nil {
		e.Code, e.Message = CodeInternalError, "unreadable error object"
	}
	return clientAnswer{err: &ClientError{Code: e.Code, Message: e.Message, Data: e.Data}}
}

// ask sends a request to the client of the request ctx belongs to, after
// checking that the client declared need (capName names it in the error),
// and waits for the answer. If ctx is done first, the client is told with
// notifications/cancelled and ask returns ctx's error; if the session
// ends first, an error.
func ask(ctx context.Context, method string, need clientCaps, capName string, params any) (json.RawMessage, error) {
	c := reqFrom(ctx)
	if c == nil {
		return nil, fmt.Errorf("runtime: %s: ctx is not the context of a request served by a session", method)
	}
	if c.task != nil {
		return c.task.ask(ctx, c, inputKey(ctx), method, need, capName, params)
	}
	if p := c.peerInfo(); p != nil && p.modern {
		return askModern(c, inputKey(ctx), method, need, capName, params)
	}
	return askSession(ctx, c, c.id, method, need, capName, params)
}

// errNoStream: a legacy request to the client found no stream to go on.
var errNoStream = errors.New("no stream open to the client to send the request on")

// askSession is ask in the legacy era: a request to the client on the
// session, on the stream of the client's request rel.
func askSession(ctx context.Context, c *call, rel, method string, need clientCaps, capName string, params any) (json.RawMessage, error) {
	return askOn(ctx, c, func(msg []byte) bool { return c.ss.write(rel, false, msg) }, method, need, capName, params)
}

// askOn is askSession with the request (and its cancellation) handed to
// send, which reports whether it went out.
func askOn(ctx context.Context, c *call, send func(msg []byte) bool, method string, need clientCaps, capName string, params any) (json.RawMessage, error) {
	ss := c.ss
	p := c.peerInfo()
	if ss.noRequests {
		return nil, fmt.Errorf("runtime: %s: a stateless HTTP server cannot send requests to the client", method)
	}
	if p == nil || p.client&need != need {
		return nil, fmt.Errorf("runtime: %s needs the client capability %s: %w", method, capName, ErrCapabilityNotSupported)
	}
	if err := context.Cause(ctx); err != nil {
		return nil, fmt.Errorf("runtime: %s: %w", method, err)
	}
	paramsJSON, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("runtime: %s: encoding params: %w", method, err)
	}
	id := strconv.FormatInt(ss.lastID.Add(1), 10)
	ch := make(chan clientAnswer, 1)
	ss.pendMu.Lock()
	if ss.pending == nil {
		ss.pending = make(map[string]chan clientAnswer)
	}
	ss.pending[id] = ch
	ss.pendMu.Unlock()
	forget := func() {
		ss.pendMu.Lock()
		delete(ss.pending, id)
		ss.pendMu.Unlock()
	}

	msg := make([]byte, 0, 64+len(method)+len(paramsJSON))
	msg = append(msg, `{"jsonrpc":"2.0","id":`...)
	msg = append(msg, id...)
	msg = append(msg, `,"method":"`...)
	msg = append(msg, method...)
	msg = append(msg, `","params":`...)
	msg = append(msg, paramsJSON...)
	msg = append(msg, '}')
	if !send(msg) {
		forget()
		if ss.closed.Load() {
			return nil, fmt.Errorf("runtime: %s: the session is closed", method)
		}
		return nil, fmt.Errorf("runtime: %s: %w", method, errNoStream)
	}
	select {
	case a := <-ch:
		if a.err != nil {
			a.err.Method = method
			return nil, a.err
		}
		return a.result, nil
	case <-ctx.Done():
		forget()
		cancel := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id +
			`,"reason":` + string(jsonwire.AppendString(nil, context.Cause(ctx).Error())) + `}}`
		send([]byte(cancel))
		return nil, fmt.Errorf("runtime: %s: %w", method, context.Cause(ctx))
	case <-ss.done:
		forget()
		return nil, fmt.Errorf("runtime: %s: the session closed before the client answered", method)
	}
}

// decodeAnswer decodes a client's result into v.
func decodeAnswer(method string, result json.RawMessage, v any) error {
	if err := json.Unmarshal(result, v); err != nil {
		return fmt.Errorf("runtime: %s: the client's result is malformed: %v", method, err)
	}
	return nil
}

// SamplingMessage is one message of a sampling conversation.
type SamplingMessage struct {
	Role    string  `json:"role"` // "user" or "assistant"
	Content Content `json:"content"`
}

// CreateMessageRequest asks the client's model for a completion
// (sampling/createMessage).
type CreateMessageRequest struct {
	Messages         []SamplingMessage
	MaxTokens        int // required, > 0
	SystemPrompt     string
	Temperature      *float64
	StopSequences    []string
	ModelPreferences json.RawMessage // {hints, costPriority, speedPriority, intelligencePriority}, or nil
	IncludeContext   string          // "none", "thisServer", "allServers", or ""
	Metadata         json.RawMessage // passed through to the model provider, or nil
}

// CreateMessageResult is the client's completion.
type CreateMessageResult struct {
	Role       string
	Content    json.RawMessage // the raw content block (or blocks) the model produced
	Model      string
	StopReason string // "endTurn", "stopSequence", "maxTokens", or another the client names
}

// CreateMessage asks the client to sample its model (sampling/createMessage)
// on behalf of the request ctx belongs to, and waits for the answer. The
// client must have declared the sampling capability, else the error wraps
// ErrCapabilityNotSupported. A refusal is a *ClientError. When ctx is done
// first the client is told the request is cancelled.
func CreateMessage(ctx context.Context, req *CreateMessageRequest) (*CreateMessageResult, error) {
	const method = "sampling/createMessage"
	if len(req.Messages) == 0 {
		return nil, fmt.Errorf("runtime: %s: no messages", method)
	}
	for i, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return nil, fmt.Errorf("runtime: %s: message %d: role must be \"user\" or \"assistant\", not %s", method, i, quote(m.Role))
		}
		if m.Content == nil {
			return nil, fmt.Errorf("runtime: %s: message %d has no content", method, i)
		}
	}
	if req.MaxTokens <= 0 {
		return nil, fmt.Errorf("runtime: %s: MaxTokens must be positive", method)
	}
	raw, err := ask(ctx, method, clientSampling, "sampling", struct {
		Messages         []SamplingMessage `json:"messages"`
		SystemPrompt     string            `json:"systemPrompt,omitempty"`
		IncludeContext   string            `json:"includeContext,omitempty"`
		Temperature      *float64          `json:"temperature,omitempty"`
		MaxTokens        int               `json:"maxTokens"`
		StopSequences    []string          `json:"stopSequences,omitempty"`
		ModelPreferences json.RawMessage   `json:"modelPreferences,omitempty"`
		Metadata         json.RawMessage   `json:"metadata,omitempty"`
	}{req.Messages, req.SystemPrompt, req.IncludeContext, req.Temperature, req.MaxTokens, req.StopSequences, req.ModelPreferences, req.Metadata})
	if err != nil {
		return nil, err
	}
	var res struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		Model      string          `json:"model"`
		StopReason string          `json:"stopReason"`
	}
	if err := decodeAnswer(method, raw, &res); err != nil {
		return nil, err
	}
	if jsonwire.IsNull(res.Content) {
		return nil, fmt.Errorf("runtime: %s: the client's result has no content", method)
	}
	return &CreateMessageResult{Role: res.Role, Content: res.Content, Model: res.Model, StopReason: res.StopReason}, nil
}

// ElicitRequest asks the user for information (elicitation/create). In form
// mode (Mode "" or "form") the client shows Message and a form for
// RequestedSchema; in URL mode ("url") it offers to open URL, identified by
// ElicitationID, for what must not pass through the client (credentials,
// payments).
type ElicitRequest struct {
	Mode            string
	Message         string
	RequestedSchema json.RawMessage // form mode: {"type":"object","properties":{…}} of primitive properties
	URL             string          // url mode
	ElicitationID   string          // url mode
}

// ElicitResult is the user's answer.
type ElicitResult struct {
	Action  string         // "accept", "decline" or "cancel"
	Content map[string]any // the form's values when accepted (form mode)
}

// Elicit asks the client to elicit information from its user
// (elicitation/create) on behalf of the request ctx belongs to, and waits
// for the answer. The client must have declared the elicitation capability
// for the mode (a bare elicitation:{} means form mode; URL mode needs
// elicitation.url), else the error wraps ErrCapabilityNotSupported. A form's
// RequestedSchema must be an object schema whose properties are primitives
// (string, number, integer, boolean, or an array of enum strings), as MCP
// restricts it; anything else is an error before anything is sent.
func Elicit(ctx context.Context, req *ElicitRequest) (*ElicitResult, error) {
	const method = "elicitation/create"
	var params any
	switch req.Mode {
	case "", "form":
		if err := checkFormSchema(req.RequestedSchema); err != nil {
			return nil, fmt.Errorf("runtime: %s: %w", method, err)
		}
		// mode is left out: it is the default, and 2025-06-18 clients do
		// not know the member.
		params = struct {
			Message         string          `json:"message"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}{req.Message, req.RequestedSchema}
		raw, err := ask(ctx, method, clientElicitForm, "elicitation (form mode)", params)
		return elicitResult(method, raw, err)
	case "url":
		if req.URL == "" || req.ElicitationID == "" {
			return nil, fmt.Errorf("runtime: %s: url mode needs a URL and an ElicitationID", method)
		}
		params = struct {
			Mode          string `json:"mode"`
			Message       string `json:"message"`
			URL           string `json:"url"`
			ElicitationID string `json:"elicitationId"`
		}{"url", req.Message, req.URL, req.ElicitationID}
		raw, err := ask(ctx, method, clientElicitURL, "elicitation.url", params)
		return elicitResult(method, raw, err)
	}
	return nil, fmt.Errorf("runtime: %s: mode must be \"form\" or \"url\", not %s", method, quote(req.Mode))
}

func elicitResult(method string, raw json.RawMessage, err error) (*ElicitResult, error) {
	if err != nil {
		return nil, err
	}
	var res struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if err := decodeAnswer(method, raw, &res); err != nil {
		return nil, err
	}
	switch res.Action {
	case "accept", "decline", "cancel":
	default:
		return nil, fmt.Errorf("runtime: %s: the client answered with action %s; want accept, decline or cancel", method, quote(res.Action))
	}
	return &ElicitResult{Action: res.Action, Content: res.Content}, nil
}

// checkFormSchema checks the restricted schema of a form elicitation: an
// object whose properties are each a string (possibly an enum), a number,
// an integer, a boolean, or a multi-select array of enum strings.
func checkFormSchema(raw json.RawMessage) error {
	var s struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if jsonwire.FirstByte(raw) != '{' || json.Unmarshal(raw, &s) != nil || s.Type != "object" || s.Properties == nil {
		return errors.New(`RequestedSchema must be an object schema: {"type":"object","properties":{…}}`)
	}
	for name, p := range s.Properties {
		var ps struct {
			Type  string `json:"type"`
			Items *struct {
				Enum  []any             `json:"enum"`
				AnyOf []json.RawMessage `json:"anyOf"`
			} `json:"items"`
		}
		if jsonwire.FirstByte(p) != '{' || json.Unmarshal(p, &ps) != nil {
			return fmt.Errorf("RequestedSchema: property %s must be a schema object", quote(name))
		}
		switch ps.Type {
		case "string", "number", "integer", "boolean":
		case "array":
			if ps.Items == nil || len(ps.Items.Enum) == 0 && len(ps.Items.AnyOf) == 0 {
				return fmt.Errorf("RequestedSchema: property %s: an array must be a multi-select of enum items", quote(name))
			}
		default:
			return fmt.Errorf("RequestedSchema: property %s: type must be string, number, integer, boolean or an array of enum strings (forms are flat), not %s", quote(name), quote(ps.Type))
		}
	}
	return nil
}

// Root is a root the client exposes: a directory or file it lets the server
// work in.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// ListRoots asks the client for its roots (roots/list) on behalf of the
// request ctx belongs to, and waits for the answer. The client must have
// declared the roots capability, else the error wraps
// ErrCapabilityNotSupported.
func ListRoots(ctx context.Context) ([]Root, error) {
	const method = "roots/list"
	raw, err := ask(ctx, method, clientRoots, "roots", struct{}{})
	if err != nil {
		return nil, err
	}
	var res struct {
		Roots []Root `json:"roots"`
	}
	if err := decodeAnswer(method, raw, &res); err != nil {
		return nil, err
	}
	return res.Roots, nil
}

// askModern is ask in the 2026-07-28 era: the answer comes from the
// request's retry (above), and until then the request is recorded for
// its input_required result.
func askModern(c *call, named, method string, need clientCaps, capName string, params any) (json.RawMessage, error) {
	m := c.mrtr
	if m == nil {
		return nil, fmt.Errorf("runtime: %s: a %s request cannot ask the client for input; only tools/call, prompts/get and resources/read can", method, c.peer.version)
	}
	if c.peer.client&need != need {
		m.lack(need)
		return nil, fmt.Errorf("runtime: %s needs the client capability %s: %w", method, capName, ErrCapabilityNotSupported)
	}
	key, answer := m.next(named)
	if answer != nil {
		return answer, nil
	}
	paramsJSON, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("runtime: %s: encoding params: %w", method, err)
	}
	m.request(key, method, paramsJSON)
	return nil, fmt.Errorf("runtime: %s: %w", method, ErrInputRequired)
}

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
	// openState accepts a state through the millisecond of its Expires:
	// the record must outlive that millisecond, or a second use within it
	// would find the record expired.
	first, err := s.cfg.stateStore.FirstUse(ctx, c.ID, time.UnixMilli(c.Expires+1))
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

// failed turns a handler's error into the adapter's outcome: an isError result
// with the error's text, or, for an *Error, the error itself (the session
// answers it as a protocol error). A modern request whose handler failed for
// want of a client capability is answered with -32021 all the same.
func failed(ctx context.Context, err error) (*CallToolResult, error) {
	noteHandlerError(ctx, err)
	if _, ok := errors.AsType[*Error](err); ok {
		return nil, err
	}
	return ErrorResult(err.Error()), nil
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
