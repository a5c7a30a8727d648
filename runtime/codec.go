package runtime

import (
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
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
