package hostile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Caps on what the server may send back, whatever it was sent: hostile
// input must never be echoed unbounded. The runtime quotes at most 100
// bytes of any peer-supplied string and lists at most 50 violations; the
// caps leave room for that and for the fixed text around it.
const (
	// MaxErrorMessage caps error.message of a JSON-RPC error.
	MaxErrorMessage = 4 << 10
	// MaxErrorData caps error.data (resource-not-found carries the URI,
	// which the runtime bounds at 8 KiB before it looks templates up).
	MaxErrorData = 9 << 10
	// MaxToolErrorText caps the text of an isError tool result (up to 50
	// violations, each with a JSON pointer and a sentence).
	MaxToolErrorText = 16 << 10
)

// Message is one JSON-RPC message the server sent, checked by Parse.
type Message struct {
	Raw    []byte
	ID     json.RawMessage // as sent, byte for byte; nil when absent
	Method string          // requests and notifications
	Params json.RawMessage
	Result json.RawMessage // responses: exactly one of Result and Error
	Error  *RPCError
}

// RPCError is the error member of a response.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// IsResponse reports whether m answers a request.
func (m *Message) IsResponse() bool { return m.Method == "" }

// ToolError returns the text of an isError tool result, and whether m is
// one.
func (m *Message) ToolError() (string, bool) {
	var r struct {
		IsError bool `json:"isError"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if m.Result == nil || json.Unmarshal(m.Result, &r) != nil || !r.IsError {
		return "", false
	}
	var b bytes.Buffer
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String(), true
}

func (m *Message) String() string {
	const max = 300
	if len(m.Raw) > max {
		return fmt.Sprintf("%s… (%d bytes)", m.Raw[:max], len(m.Raw))
	}
	return string(m.Raw)
}

// Parse checks that raw is one well-formed message as a server may send
// it, and decodes it: valid UTF-8, valid JSON, no raw line break (stdio
// frames messages by lines), an object with "jsonrpc":"2.0", and either a
// request or notification (a string method; params an object when
// present) or a response (an id that is null, a string or an integer,
// and exactly one of result (an object) and error ({code: integer,
// message: string, data?})). Error messages, error data and isError texts
// must be within the caps above.
func Parse(raw []byte) (*Message, error) {
	if !utf8.Valid(raw) {
		return nil, fmt.Errorf("not valid UTF-8: %s", clip(raw))
	}
	if bytes.ContainsAny(raw, "\n\r") {
		return nil, fmt.Errorf("contains a raw line break: %s", clip(raw))
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("not valid JSON: %s", clip(raw))
	}
	var env struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if bytes.TrimSpace(raw)[0] != '{' {
		return nil, fmt.Errorf("not a JSON object: %s", clip(raw))
	}
	if err := strictUnmarshal(raw, &env); err != nil {
		return nil, fmt.Errorf("%v: %s", err, clip(raw))
	}
	if env.JSONRPC == nil || *env.JSONRPC != "2.0" {
		return nil, fmt.Errorf(`"jsonrpc" is not "2.0": %s`, clip(raw))
	}
	m := &Message{Raw: bytes.Clone(raw), ID: env.ID}
	if env.Method != nil {
		if env.Result != nil || env.Error != nil {
			return nil, fmt.Errorf("a request or notification with a result or an error: %s", clip(raw))
		}
		if *env.Method == "" {
			return nil, fmt.Errorf("empty method: %s", clip(raw))
		}
		if env.Params != nil && env.Params[0] != '{' {
			return nil, fmt.Errorf("params is not an object: %s", clip(raw))
		}
		if env.ID != nil && !validID(env.ID) {
			return nil, fmt.Errorf("a request with an invalid id: %s", clip(raw))
		}
		m.Method, m.Params = *env.Method, env.Params
		return m, nil
	}
	if env.ID == nil {
		return nil, fmt.Errorf("neither a method nor an id: %s", clip(raw))
	}
	if string(env.ID) != "null" && !validID(env.ID) {
		return nil, fmt.Errorf("a response with an invalid id: %s", clip(raw))
	}
	if (env.Result == nil) == (env.Error == nil) {
		return nil, fmt.Errorf("a response needs exactly one of result and error: %s", clip(raw))
	}
	if env.Result != nil {
		if env.Result[0] != '{' {
			return nil, fmt.Errorf("result is not an object: %s", clip(raw))
		}
		m.Result = env.Result
		if text, ok := m.ToolError(); ok {
			if len(text) > MaxToolErrorText {
				return nil, fmt.Errorf("isError text of %d bytes (cap %d): %s", len(text), MaxToolErrorText, clip(raw))
			}
			if c, ok := controlChar(text, true); ok {
				return nil, fmt.Errorf("isError text with the raw control character %U (peer text must be escaped): %s", c, clip(raw))
			}
		}
		return m, nil
	}
	var e struct {
		Code    *json.Number    `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := strictUnmarshal(env.Error, &e); err != nil || e.Code == nil || e.Message == nil {
		return nil, fmt.Errorf("error is not {code, message, data?}: %s", clip(raw))
	}
	code, err := e.Code.Int64()
	if err != nil {
		return nil, fmt.Errorf("error code is not an integer: %s", clip(raw))
	}
	m.Error = &RPCError{Code: int(code), Message: *e.Message, Data: e.Data}
	if len(m.Error.Message) > MaxErrorMessage {
		return nil, fmt.Errorf("error message of %d bytes (cap %d): %s", len(m.Error.Message), MaxErrorMessage, clip(raw))
	}
	if c, ok := controlChar(m.Error.Message, false); ok {
		return nil, fmt.Errorf("error message with the raw control character %U (one line, peer text escaped): %s", c, clip(raw))
	}
	if len(m.Error.Data) > MaxErrorData {
		return nil, fmt.Errorf("error data of %d bytes (cap %d): %s", len(m.Error.Data), MaxErrorData, clip(raw))
	}
	return m, nil
}

// controlChar returns the first control character of s (C0, DEL, C1, and
// the line and paragraph separators U+2028 and U+2029), if any; newline
// allows '\n' (isError texts list violations one per line).
func controlChar(s string, newline bool) (rune, bool) {
	for _, r := range s {
		if r == '\n' && newline {
			continue
		}
		if r < 0x20 || r >= 0x7f && r < 0xa0 || r == '\u2028' || r == '\u2029' {
			return r, true
		}
	}
	return 0, false
}

// strictUnmarshal is json.Unmarshal that refuses duplicate or differently
// cased keys at the top level of an object, which encoding/json would
// quietly merge: a server's message must be unambiguous.
func strictUnmarshal(raw []byte, v any) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return err
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		if seen[key] {
			return fmt.Errorf("duplicate key %q", key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	return json.Unmarshal(raw, v)
}

// validID reports whether raw is a string or an integer literal.
func validID(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		return utf8.Valid(raw) // the runtime refuses ids it could not echo as UTF-8
	}
	s := raw
	if s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func clip(b []byte) string {
	const max = 300
	if len(b) > max {
		return fmt.Sprintf("%q… (%d bytes)", b[:max], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// BadMessage is what a client returns for something the server sent that
// Parse refuses: reading can go on after it.
type BadMessage struct{ Err error }

func (b *BadMessage) Error() string { return "bad message from the server: " + b.Err.Error() }
func (b *BadMessage) Unwrap() error { return b.Err }

// ErrTimeout is returned when the server does not answer in time.
var ErrTimeout = errors.New("hostile: timed out waiting for the server")
