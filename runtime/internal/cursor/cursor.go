// Package cursor is the pagination of list results (pagination.mdx): the
// cursor of the next page, and the offset a list request's cursor names.
// Which lists are paged, and how long a page is, are package runtime's.
package cursor

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/safetext"
)

// Cursors are opaque to clients. Ours is the offset of the next item behind
// a prefix, base64url-encoded: cheap, stateless (so any replica can serve
// the next page), and the prefix lets a later format be told apart.
const prefix = "mcpgen/1:"

// Encode returns the cursor of the page that starts at offset.
func Encode(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(prefix + strconv.Itoa(offset)))
}

// Start reads the cursor of a list request's params ({cursor?}) of a list
// of n items and returns the offset to list from. A cursor this server did
// not issue, or one past the end, is an error, whose text is the message of
// the invalid-params error (-32602) the request gets.
func Start(params json.RawMessage, n int) (int, error) {
	if jsonwire.IsNull(params) {
		return 0, nil
	}
	if jsonwire.FirstByte(params) != '{' {
		return 0, errors.New("invalid params: expected an object with an optional cursor")
	}
	var p struct {
		Cursor json.RawMessage `json:"cursor"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return 0, errors.New("invalid params: " + safetext.Quote(err.Error()))
	}
	if jsonwire.IsNull(p.Cursor) {
		return 0, nil
	}
	var c string
	if err := json.Unmarshal(p.Cursor, &c); err != nil {
		return 0, errors.New(`invalid params: "cursor" must be a string`)
	}
	invalid := errors.New("invalid cursor " + safetext.Quote(c) + ": pass the nextCursor of a previous page, or no cursor for the first page")
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, invalid
	}
	digits, ok := strings.CutPrefix(string(b), prefix)
	if !ok {
		return 0, invalid
	}
	off, err := strconv.Atoi(digits)
	if err != nil || off <= 0 || off > n {
		return 0, invalid
	}
	return off, nil
}
