package runtime

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// envelope is one JSON-RPC message as read off the wire: each member is the
// raw value, a sub-slice of the message (so the id is echoed byte for byte,
// and an id above 2^53 never goes through float64). A member is absent when
// its slice is empty (a present value never is). Nothing here outlives the
// message: whatever runs asynchronously copies what it needs.
type envelope struct {
	JSONRPC, ID, Method, Params, Result, Error []byte

	method []byte // Method decoded, set by parseMessage
}

// decodeEnvelope parses msg. On failure it returns the error to send back,
// always with a null id: -32700 for text that is not JSON, -32600 for JSON that
// is not a single object (batches were removed in 2025-06-18).
func decodeEnvelope(msg []byte, e *envelope) *Error {
	notObject, err := scanObject(msg, func(key, val []byte) {
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
	case err == errJSONDepth:
		return errorf(CodeInvalidRequest, "invalid request: JSON nested more than %d levels deep", maxDepth)
	case err != nil:
		return errorf(CodeParseError, "parse error: message is not valid JSON")
	case notObject && firstByte(msg) == '[':
		return errorf(CodeInvalidRequest, "invalid request: batches are not supported; send one JSON-RPC message per line")
	case notObject:
		return errorf(CodeInvalidRequest, "invalid request: a message must be a JSON object")
	}
	return nil
}

// validID reports whether raw is a JSON string or an integer literal (no
// fraction, no exponent). null, objects, arrays, booleans and non-integers are
// not valid request ids in MCP.
func validID(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		// The envelope was valid JSON, so the string is well formed, but
		// raw bytes that are not UTF-8 would be echoed into the response.
		return utf8.Valid(raw)
	}
	i := 0
	if raw[0] == '-' {
		i++
	}
	if i == len(raw) {
		return false
	}
	for ; i < len(raw); i++ {
		if raw[i] < '0' || raw[i] > '9' {
			return false
		}
	}
	return true
}

// idKey is the identity of a request id for the in-flight table: the raw
// token, except that a string written with escapes is reduced to its value so
// that a notifications/cancelled spelling it differently still matches.
// Strings keep their quotes, so the string "5" and the number 5 differ.
func idKey(raw string) string {
	if raw[0] != '"' || strings.IndexByte(raw, '\\') < 0 {
		return raw
	}
	var s string
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return raw
	}
	return `"` + s + `"`
}

// methodBytes returns the method of a request as bytes (callers switch on
// string(m), which does not allocate). ok is false when the value is not a
// JSON string.
func methodBytes(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return nil, false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false
	}
	return []byte(s), true
}

// appendResponseHead starts a response; id "" stands for a null id.
func appendResponseHead(dst []byte, id string) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	if id == "" {
		return append(dst, "null"...)
	}
	return append(dst, id...)
}

// appendErrorResponse encodes a complete error response.
func appendErrorResponse(dst []byte, id string, e *Error) []byte {
	dst = appendResponseHead(dst, id)
	dst = append(dst, `,"error":{"code":`...)
	dst = strconv.AppendInt(dst, int64(e.Code), 10)
	dst = append(dst, `,"message":`...)
	dst = appendString(dst, e.Message)
	if e.Data != nil {
		mark := len(dst)
		dst = append(dst, `,"data":`...)
		var err error
		if dst, err = appendValue(dst, e.Data); err != nil {
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
