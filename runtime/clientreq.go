package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
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

// clientCaps are the client capabilities that requests to the client need.
type clientCaps uint8

const (
	clientSampling clientCaps = 1 << iota
	clientElicitForm
	clientElicitURL
	clientRoots
)

// parseClientCaps reads the capabilities object of initialize. An
// elicitation object without modes means form mode (backwards compatible
// with 2025-06-18, where there was only form).
func parseClientCaps(raw json.RawMessage) clientCaps {
	var p struct {
		Sampling    json.RawMessage `json:"sampling"`
		Roots       json.RawMessage `json:"roots"`
		Elicitation json.RawMessage `json:"elicitation"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return 0
	}
	var cc clientCaps
	if jsonwire.FirstByte(p.Sampling) == '{' {
		cc |= clientSampling
	}
	if jsonwire.FirstByte(p.Roots) == '{' {
		cc |= clientRoots
	}
	if jsonwire.FirstByte(p.Elicitation) == '{' {
		var modes struct{ Form, URL json.RawMessage }
		_ = json.Unmarshal(p.Elicitation, &modes)
		if jsonwire.FirstByte(modes.Form) == '{' || jsonwire.FirstByte(modes.URL) != '{' {
			cc |= clientElicitForm
		}
		if jsonwire.FirstByte(modes.URL) == '{' {
			cc |= clientElicitURL
		}
	}
	return cc
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
// request's retry (see mrtr.go), and until then the request is recorded for
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
