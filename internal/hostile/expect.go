package hostile

import (
	"bytes"
	"encoding/json"
)

// Expect says how many responses the message msg must get from a session
// (0 or 1) and with which id: the raw id of msg, byte for byte, or nil for
// null. It is the JSON-RPC rules, decided with encoding/json rather than
// the runtime's own scanner:
//
//   - text that is not JSON, JSON that is not an object, an object without
//     "method" that is not a response: one error (with the id when it is
//     valid, else null);
//   - a response (an id and a result or an error, no method): none;
//   - a notification (a method and no id): none;
//   - a request: one response, with its id when it is a string or an
//     integer, else an error with a null id.
//
// One deviation mirrors the runtime on purpose, so that fuzzing goes past a
// known bug (reported, see RELIABILITY.md): "jsonrpc" must be spelled
// exactly "2.0", without escapes.
func Expect(msg []byte) (n int, id json.RawMessage) {
	if !json.Valid(msg) {
		return 1, nil
	}
	if t := bytes.TrimLeft(msg, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return 1, nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil {
		return 1, nil
	}
	rawID, hasID := m["id"]
	if hasID && !validID(rawID) {
		rawID = nil
	}
	method, hasMethod := m["method"]
	if !hasMethod {
		_, hasResult := m["result"]
		_, hasError := m["error"]
		if hasID && (hasResult || hasError) {
			return 0, nil
		}
		return 1, rawID
	}
	if string(m["jsonrpc"]) != `"2.0"` || method[0] != '"' {
		return 1, rawID
	}
	if !hasID {
		return 0, nil
	}
	return 1, rawID
}
