package runtime

import (
	"fmt"
	"strconv"
)

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
