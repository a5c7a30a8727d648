package spec

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// LintRuleIDs are the rules of `mcpgen lint`, in the order of the reference.
// The spec names them in `lint.disable` and `x-lint-disable`; package
// internal/lint implements them (its tests check that the two lists agree).
var LintRuleIDs = []string{
	"DESCRIPTION_MISSING",
	"DESCRIPTION_TOO_SHORT",
	"TOOL_NAME_CLIENT_UNSAFE",
	"STRING_UNBOUNDED_ID",
	"OBJECT_OPEN",
	"DESTRUCTIVE_NOT_IDEMPOTENT",
	"DEFAULT_ON_REQUIRED",
	"TOO_MANY_TOOLS",
	"RESOURCE_LIST_LARGE",
	"APP_PERMISSION",
	"APP_WRITE_NOT_IDEMPOTENT",
	"CLIENT_DROPS_TOOL",
	"SCHEMA_PROFILE",
	"PROMPT_OPTIONAL_PLACEHOLDER",
}

// specWideLintRules are about the spec as a whole: they can be disabled in
// lint.disable only, not on one item.
var specWideLintRules = map[string]bool{"TOO_MANY_TOOLS": true, "RESOURCE_LIST_LARGE": true}

// Permissions are the values of a tool's `permission:`.
var Permissions = []string{"allow", "ask", "deny"}

var lintFields = fields[*LintConfig]{
	{key: "disable", doc: "Lint rules that never report, anywhere in the spec.", schema: lintRulesSchema,
		decode: func(d *decoder, l *LintConfig, e entry) { l.Disable, l.DisablePos = d.ruleList(e.value, "disable") }},
	limitField("maxTools", "The most tools before TOO_MANY_TOOLS (default 20).", 20,
		func(l *LintConfig) (*int, *Pos) { return &l.MaxTools, &l.MaxToolsPos }),
	limitField("maxListItems", "The most static resources before RESOURCE_LIST_LARGE (default 50).", 50,
		func(l *LintConfig) (*int, *Pos) { return &l.MaxListItems, &l.MaxListItemsPos }),
}

// limitField is a limit of lint: an integer of at least 1.
func limitField(key, doc string, byDefault int, into func(*LintConfig) (*int, *Pos)) field[*LintConfig] {
	return field[*LintConfig]{key: key, doc: doc, schema: fmt.Sprintf(`{"type":"integer","minimum":1,"default":%d}`, byDefault),
		decode: func(d *decoder, l *LintConfig, e entry) {
			limit, pos := into(l)
			*pos = posOf(e.value)
			if i, ok := d.integer(e.value, key); ok {
				*limit = int(min(i, 1<<31))
				if i < 1 {
					d.errorf(*pos, "%s must be at least 1", key)
				}
			}
		}}
}

// lint decodes the `lint:` section; empty means no settings.
func (d *decoder) lint(n *yaml.Node) *LintConfig {
	if isNull(n) {
		return nil
	}
	m, ok := d.mapping(n, "lint")
	if !ok {
		return nil
	}
	l := &LintConfig{Pos: posOf(n)}
	decodeMapping(d, m, l, lintFields, func(e entry) { d.unknownKey(e, "in lint", lintFields.keys()) })
	return l
}

// ruleList decodes a list of lint rule IDs (checked by the validator).
func (d *decoder) ruleList(n *yaml.Node, key string) ([]string, []Pos) {
	items, ok := d.list(n, key)
	if !ok {
		return nil, nil
	}
	var ids []string
	var pos []Pos
	for _, item := range items {
		if id, ok := d.str(item, "each rule of "+key); ok {
			ids = append(ids, id)
			pos = append(pos, posOf(item))
		}
	}
	return ids, pos
}

// lint checks the rule IDs of lint.disable and of every x-lint-disable, and
// the tools' permissions.
func (v *validator) lint() {
	if l := v.s.Lint; l != nil {
		v.ruleIDs(l.Disable, l.DisablePos, "")
	}
	for _, t := range v.s.Tools {
		if t == nil {
			continue
		}
		v.ruleIDs(t.LintDisable, t.LintDisablePos, fmt.Sprintf("tool %q", t.Name))
		if t.Permission != "" && !slices.Contains(Permissions, t.Permission) {
			v.errorf(orPos(t.PermissionPos, t.Pos), "permission must be allow, ask or deny, not %q%s", t.Permission, didYouMean(t.Permission, Permissions))
		}
	}
	for _, r := range v.s.Resources {
		if r != nil {
			v.ruleIDs(r.LintDisable, r.LintDisablePos, fmt.Sprintf("resource %q", r.Name))
		}
	}
	for _, t := range v.s.ResourceTemplates {
		if t != nil {
			v.ruleIDs(t.LintDisable, t.LintDisablePos, fmt.Sprintf("resource template %q", t.Name))
		}
	}
	for _, p := range v.s.Prompts {
		if p != nil {
			v.ruleIDs(p.LintDisable, p.LintDisablePos, fmt.Sprintf("prompt %q", p.Name))
		}
	}
}

// ruleIDs checks a list of rule IDs; item is "" for lint.disable, else the
// item whose x-lint-disable it is.
func (v *validator) ruleIDs(ids []string, pos []Pos, item string) {
	for i, id := range ids {
		p := top
		if i < len(pos) {
			p = pos[i]
		}
		switch {
		case !slices.Contains(LintRuleIDs, id):
			hint := didYouMean(id, LintRuleIDs)
			for _, r := range LintRuleIDs {
				if hint == "" && len(id) >= 4 && (strings.HasPrefix(r, strings.ToUpper(id)) || strings.HasPrefix(strings.ToUpper(id), r)) {
					hint = fmt.Sprintf("; did you mean %q?", r)
				}
			}
			if hint == "" {
				hint = "; the rules are " + joinList(LintRuleIDs, "and")
			}
			v.errorf(p, "unknown lint rule %q%s", id, hint)
		case item != "" && specWideLintRules[id]:
			v.errorf(p, "%s is about the whole spec, not %s; disable it under lint.disable", id, item)
		}
	}
}
