package runtime

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// Cursors are opaque to clients (pagination.mdx). Ours is the offset of the
// next item behind a prefix, base64url-encoded: cheap, stateless (so any
// replica can serve the next page), and the prefix lets a later format be
// told apart.
const cursorPrefix = "mcpgen/1:"

func encodeCursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.Itoa(offset)))
}

// pageStart reads the cursor of a list request's params ({cursor?}) and
// returns the offset to list from. A cursor this server did not issue, or one
// past the end, is invalid params (-32602).
func pageStart(params json.RawMessage, n int) (int, *Error) {
	if jsonwire.IsNull(params) {
		return 0, nil
	}
	if jsonwire.FirstByte(params) != '{' {
		return 0, errorf(CodeInvalidParams, "invalid params: expected an object with an optional cursor")
	}
	var p struct {
		Cursor json.RawMessage `json:"cursor"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return 0, errorf(CodeInvalidParams, "invalid params: %s", quote(err.Error()))
	}
	if jsonwire.IsNull(p.Cursor) {
		return 0, nil
	}
	var c string
	if err := json.Unmarshal(p.Cursor, &c); err != nil {
		return 0, errorf(CodeInvalidParams, `invalid params: "cursor" must be a string`)
	}
	invalid := errorf(CodeInvalidParams, "invalid cursor %s: pass the nextCursor of a previous page, or no cursor for the first page", quote(c))
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, invalid
	}
	digits, ok := strings.CutPrefix(string(b), cursorPrefix)
	if !ok {
		return 0, invalid
	}
	off, err := strconv.Atoi(digits)
	if err != nil || off <= 0 || off > n {
		return 0, invalid
	}
	return off, nil
}
