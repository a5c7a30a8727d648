package lint

import (
	"encoding/json"
	"strings"

	"github.com/mcpgen/mcpgen/internal/specschema"
)

// clientDrops reports, for CLIENT_DROPS_TOOL, each tool whose advertised
// input schema a major model API refuses outright, so that the coding
// agent built on it leaves the tool out (or fails its requests) while
// showing the server as connected. Unlike SCHEMA_PROFILE, which checks
// the APIs' strict modes when asked, this runs by default and is about
// what the agents people use send as it is.
//
// What each API refuses at the root of a function's parameters:
//   - Anthropic: input_schema must be type object, without allOf, oneOf
//     or anyOf at the top level. Claude Code 2.1 strips them (and
//     if/then/else) before sending the schema, measured in
//     interop/clients_claude_test.go: the model is not told what the server
//     enforces; earlier versions skipped the tool.
//   - OpenAI: parameters must be type object, without oneOf, anyOf,
//     allOf, enum or not at the top level; Codex passes the schema on.
func (l *linter) clientDrops() {
	for _, t := range l.s.Tools {
		if t.UI.AppOnly() {
			continue // listed only to hosts that show views
		}
		var schema []byte
		switch {
		case t.InputSchema != nil:
			schema = t.InputSchema.JSON
		case t.Input != nil:
			b, reachesGoType := specschema.AdvertisedInput(l.s, t.Input)
			if reachesGoType {
				continue // only reflection knows the schema
			}
			schema = b
		default:
			continue
		}
		var root map[string]json.RawMessage
		if json.Unmarshal(schema, &root) != nil {
			continue
		}
		var typ string
		_ = json.Unmarshal(root["type"], &typ)
		for _, api := range rootRefusals {
			var why []string
			if typ != "object" {
				why = append(why, "its root is not type: object")
			}
			for _, k := range api.keywords {
				if _, ok := root[k]; ok {
					why = append(why, k+" at the top level")
				}
			}
			if len(why) > 0 {
				l.report(owner{disabled: t.LintDisable}, "CLIENT_DROPS_TOOL", t.Pos,
					"tool %q: the %s API refuses its input schema (%s), so %s; keep the root a plain object and move the alternatives into a property, or check them in the handler",
					t.Name, api.api, strings.Join(why, ", "), api.effect)
			}
		}
	}
}

// rootRefusals are the model APIs' refusals at the root of a tool's input
// schema, and what the agent on each does about it.
var rootRefusals = []struct {
	api, effect string
	keywords    []string
}{
	{"Anthropic", "Claude Code strips them before its model sees the schema (2.1; earlier versions dropped the tool while claude mcp list showed the server connected), and the model calls without knowing what the server enforces", []string{"allOf", "oneOf", "anyOf"}},
	{"OpenAI", "Codex's requests that offer the tool fail", []string{"oneOf", "anyOf", "allOf", "enum", "not"}},
}
