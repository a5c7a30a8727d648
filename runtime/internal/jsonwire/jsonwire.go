// Package jsonwire reads and writes the JSON of MCP messages without
// reflection: a one-pass scanner that hands back raw member values, a parser
// into the generic values the schema validator works on, appenders for
// strings and caller-supplied JSON, and the JSON-RPC request id rules. It is
// the hot path of every request; nothing here knows MCP types.
package jsonwire

import "errors"

var (
	// ErrSyntax is returned for text that is not valid JSON.
	ErrSyntax = errors.New("invalid JSON")
	// ErrTooDeep is returned for JSON nested more than MaxDepth levels.
	ErrTooDeep = errors.New("JSON nested too deeply")
)

// MaxDepth bounds nesting so that hostile input cannot exhaust the stack
// (encoding/json uses the same limit).
const MaxDepth = 10000
