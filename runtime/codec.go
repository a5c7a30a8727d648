package runtime

import (
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/safetext"
)

// envelope is one JSON-RPC message as read off the wire: each member is the
// raw value, a sub-slice of the message (so the id is echoed byte for byte,
// and an id above 2^53 never goes through float64). A member is absent when
// its slice is empty (a present value never is). Nothing here outlives the
// message: whatever runs asynchronously copies what it needs.
type envelope struct {
	JSONRPC, ID, Method, Params, Result, Error []byte

	method []byte // Method decoded, set by parseMessage
	values int    // the JSON values in the message, set by parseMessage
}

// decodeEnvelope parses msg. On failure it returns the error to send back,
// always with a null id: -32700 for text that is not JSON, -32600 for JSON that
// is not a single object (batches were removed in 2025-06-18).
func decodeEnvelope(msg []byte, e *envelope) *Error {
	notObject, err := jsonwire.ScanObject(msg, func(key, val []byte) {
		switch string(key) {
		case "jsonrpc":
			e.JSONRPC = val
		case "id":
			e.ID = val
		case "method":
			e.Method = val
		case "params":
			e.Params = val
		case "result":
			e.Result = val
		case "error":
			e.Error = val
		}
	})
	switch {
	case err == jsonwire.ErrTooDeep:
		return errorf(CodeInvalidRequest, "invalid request: JSON nested more than %d levels deep", jsonwire.MaxDepth)
	case err != nil:
		return errorf(CodeParseError, "parse error: message is not valid JSON")
	case notObject && jsonwire.FirstByte(msg) == '[':
		return errorf(CodeInvalidRequest, "invalid request: batches are not supported; send one JSON-RPC message per line")
	case notObject:
		return errorf(CodeInvalidRequest, "invalid request: a message must be a JSON object")
	}
	return nil
}

// appendErrorResponse encodes a complete error response.
func appendErrorResponse(dst []byte, id string, e *Error) []byte {
	dst = jsonwire.AppendResponseHead(dst, id)
	dst = append(dst, `,"error":{"code":`...)
	dst = strconv.AppendInt(dst, int64(e.Code), 10)
	dst = append(dst, `,"message":`...)
	dst = jsonwire.AppendString(dst, e.Message)
	if e.Data != nil {
		mark := len(dst)
		dst = append(dst, `,"data":`...)
		var err error
		if dst, err = jsonwire.AppendValue(dst, e.Data); err != nil {
			dst = dst[:mark] // unencodable data is dropped, the error still goes out
		}
	}
	return append(dst, "}}"...)
}

// encoder is a result that knows how to append its JSON encoding.
type encoder interface {
	appendJSON(dst []byte) ([]byte, error)
}

// rawResult is an already encoded, compact JSON result.
type rawResult []byte

func (r rawResult) appendJSON(dst []byte) ([]byte, error) { return append(dst, r...), nil }

// Bounds on the work one message can cause before any map is built
// (issue 22, item 4). Decoding JSON into maps costs about 250 bytes of heap
// per object member, so 300,000 members in a 3.5 MB message cost 75 MB and
// most of a second; the message's size alone does not bound that. Every
// message is counted first (one pass over its bytes, no allocation) and
// refused when it holds too many values or too wide an object. Over HTTP,
// messages with many values also take one of a few slots while they are
// served (WithMaxLargeRequests), so that the server's memory is bounded
// whatever number of them arrive at once.

const (
	defaultMaxJSONValues    = 100_000
	defaultMaxObjectMembers = 10_000
)

// jsonLimits bound the shape of one incoming message.
type jsonLimits struct {
	values  int // values in the whole message (WithMaxJSONValues)
	members int // members of any one object (WithMaxObjectMembers)
}

// checkWidth counts msg's values and refuses it beyond the limits; it
// returns the count.
func (l jsonLimits) checkWidth(msg []byte) (int, *Error) {
	values, widest := jsonwire.Width(msg, l.values, l.members)
	switch {
	case widest > l.members:
		return values, errorf(CodeInvalidRequest, "invalid request: an object in the message has more than %d members, the most this server accepts (WithMaxObjectMembers)", l.members)
	case values > l.values:
		return values, errorf(CodeInvalidRequest, "invalid request: the message holds more than %d JSON values, the most this server accepts (WithMaxJSONValues)", l.values)
	}
	return values, nil
}

// WithMaxJSONValues caps the JSON values one incoming message may hold:
// objects, arrays, strings, numbers and literals, each member and item
// counted (default 100,000). A message holding more is refused with an
// invalid-request error (400 over HTTP) before anything is built from it.
// n < 1 keeps the default.
func WithMaxJSONValues(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.json.values = n
		}
	}
}

// WithMaxObjectMembers caps the members of any one JSON object in an
// incoming message (default 10,000): tool arguments, inputResponses, _meta
// and the rest alike. A message with a wider object is refused with an
// invalid-request error (400 over HTTP) before any map is built from it.
// n < 1 keeps the default.
func WithMaxObjectMembers(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.json.members = n
		}
	}
}

// JSON-RPC and MCP error codes (schema 2025-11-25).
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeResourceNotFound = -32002
)

// Error is a JSON-RPC error. A handler that returns an *Error (or an error
// wrapping one) gets a protocol error response instead of an isError result;
// use it only for malformed requests, never for failures a model could fix.
type Error struct {
	Code    int
	Message string
	Data    any // marshalled as "data" when non-nil
}

func (e *Error) Error() string {
	return "jsonrpc error " + strconv.Itoa(e.Code) + ": " + e.Message
}

// errorf builds an *Error; the format arguments are the caller's business to
// cap (see quote).
func errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// NotImplementedError is what generated Unimplemented handlers return, as a
// *NotImplementedError (like *Error and *ClientError, it implements error
// with a pointer receiver, so errors.As finds it with a
// **NotImplementedError target). It becomes an isError result (the model
// learns the tool cannot be used), not a protocol error.
type NotImplementedError struct {
	Kind string // "tool", "resource", "prompt"…
	Name string
}

func (e *NotImplementedError) Error() string {
	kind := e.Kind
	if kind == "" {
		kind = "handler"
	}
	return kind + " " + quote(e.Name) + " is not implemented"
}

// Short names for package safetext, which makes peer-supplied text safe to
// echo in errors and logs.

const maxQuoted = safetext.MaxLen

func quote(s string) string { return safetext.Quote(s) }

func sanitize(s string, limit int) string { return safetext.Sanitize(s, limit) }
