package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// Injected arguments: some MCP clients add a parameter of their own to
// every tool's schema before they hand it to their model, and send it back
// in tools/call when the model sets it. Gemini CLI adds wait_for_previous
// (a boolean that orders its parallel tool calls). A tool whose input
// schema is closed (additionalProperties: false, as every generated one)
// would refuse such a call with "unknown property", so by default the
// runtime drops these arguments before the tool sees them, when the tool's
// schema does not declare a property of that name, and logs it at debug
// level. The arguments the tool validates are then exactly the ones its
// advertised schema describes. Only the names below are dropped: any other
// unknown argument is still refused, so a model's typo is still reported.

// injectedArguments are the top-level arguments known clients add to every
// tool call, and who adds them.
var injectedArguments = []struct{ name, client string }{
	{"wait_for_previous", "Gemini CLI"},
}

// InjectedArgumentNames lists the arguments WithInjectedArguments is
// about: the ones known clients add to every tool call.
func InjectedArgumentNames() []string {
	out := make([]string, len(injectedArguments))
	for i, a := range injectedArguments {
		out[i] = a.name
	}
	return out
}

// InjectedArguments is what a server does with a client-injected argument
// that the tool does not declare.
type InjectedArguments int

const (
	// DropInjected removes it before the tool sees the arguments (the
	// default; spec: server.injectedArguments: drop).
	DropInjected InjectedArguments = iota
	// RejectInjected leaves it, so a closed schema refuses the call as it
	// refuses any unknown argument (spec: injectedArguments: reject).
	RejectInjected
)

// WithInjectedArguments sets what happens to the arguments that known
// clients add to every tool call (InjectedArgumentNames) when the tool does
// not declare them: DropInjected (the default) or RejectInjected.
func WithInjectedArguments(p InjectedArguments) Option {
	return func(c *config) { c.injected = p }
}

// undeclaredInjected lists the injected arguments that the input schema
// does not declare among its top-level properties: the ones to drop.
func undeclaredInjected(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s) // a schema without properties declares none
	var out []string
	for _, a := range injectedArguments {
		if _, ok := s.Properties[a.name]; !ok {
			out = append(out, a.name)
		}
	}
	return out
}

// dropInjected returns args without the members named in drop, logging
// each one dropped; args itself when it has none of them.
func (s *Server) dropInjected(ctx context.Context, tool string, drop []string, args json.RawMessage) json.RawMessage {
	if s.cfg.injected != DropInjected || len(drop) == 0 || jsonwire.FirstByte(args) != '{' {
		return args
	}
	if !slices.ContainsFunc(drop, func(name string) bool { return bytes.Contains(args, []byte(name)) }) {
		return args // the fast path: no member can have the name
	}
	out := []byte{'{'}
	dropped := false
	if _, err := jsonwire.ScanObject(args, func(key, val []byte) { // key comes unquoted
		if slices.Contains(drop, string(key)) {
			dropped = true
			s.cfg.logger.DebugContext(ctx, "runtime: dropped an argument the client adds to every tool call", "tool", tool, "argument", string(key), "client", injectedBy(string(key)))
			return
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(jsonwire.AppendString(out, string(key)), ':'), val...)
	}); err != nil || !dropped {
		return args
	}
	return append(out, '}')
}

func injectedBy(name string) string {
	for _, a := range injectedArguments {
		if a.name == name {
			return a.client
		}
	}
	return ""
}
