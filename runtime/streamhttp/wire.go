package streamhttp

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/bufpool"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/safetext"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// What the transport writes itself: JSON-RPC errors for what it refuses
// before the core sees a message, with the codes of runtime's codec.go.

// Error is a JSON-RPC error the transport answers with.
type Error = transport.Error

const (
	codeInvalidRequest = -32600
	codeInvalidParams  = -32602
	codeInternalError  = -32603
	codeHeaderMismatch = -32020 // runtime.codeHeaderMismatch
)

// codeSessionGone marks, internally, an error that is a 404: the session
// ended meanwhile.
const codeSessionGone = 1

func errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

func quote(s string) string { return safetext.Quote(s) }

const maxQuoted = safetext.MaxLen

func sanitize(s string, limit int) string { return safetext.Sanitize(s, limit) }

// The methods the transport tells apart.
const (
	methodInitialize        = "initialize"
	methodSubscriptionsOpen = "subscriptions/listen"
)

// httpError answers with status and a JSON-RPC error (id "" is null).
func httpError(w http.ResponseWriter, status int, id string, e *Error) {
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	bp := bufpool.Get()
	b := appendErrorResponse(*bp, id, e)
	_, _ = w.Write(b)
	*bp = b
	bufpool.Put(bp)
}

// appendErrorResponse encodes an error response as the core does.
func appendErrorResponse(dst []byte, id string, e *Error) []byte {
	dst = jsonwire.AppendResponseHead(dst, id)
	dst = append(dst, `,"error":{"code":`...)
	dst = strconv.AppendInt(dst, int64(e.Code), 10)
	dst = append(dst, `,"message":`...)
	dst = jsonwire.AppendString(dst, e.Message)
	if e.Data != nil {
		dst = append(dst, `,"data":`...)
		dst = append(dst, e.Data...)
	}
	return append(dst, "}}"...)
}
