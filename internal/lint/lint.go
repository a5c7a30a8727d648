// Package lint checks a valid spec for what makes an MCP server hard for
// clients and models to use well: missing or thin descriptions, tool names
// some clients refuse, loose input schemas, destructive tools that are not
// safe to retry, and lists too long for a model's context. It also
// estimates what each tool and prompt costs in context tokens.
//
// Every rule has a stable ID (Rules) and can be turned off in the spec:
// lint.disable for the whole spec, x-lint-disable on one item.
package lint

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/internal/findings"
	"github.com/mcpgen/mcpgen/internal/naming"
	"github.com/mcpgen/mcpgen/spec"
)

// Options override the spec's lint section; zero values leave it be.
type Options struct {
	MaxTools     int
	MaxListItems int
	// Profile names a model API (specschema.Profiles) whose limits
	// SCHEMA_PROFILE checks the tools' input schemas against; "" means
	// the spec's server.schemaProfile, if any.
	Profile string
}

// Result is what Lint found, sorted by position, and the context budget.
type Result struct {
	Findings []findings.Finding
	Budget   *Budget
}

// Lint checks a spec that spec.Load accepted.
func Lint(s *spec.Spec, opts Options) Result {
	l := &linter{
		s:        s,
		disabled: map[string]bool{},
		types:    map[string]*spec.NamedType{},
		pending:  map[pendingKey]*pending{},
	}
	maxTools, maxItems := DefaultMaxTools, DefaultMaxListItems
	if c := s.Lint; c != nil {
		for _, id := range c.Disable {
			l.disabled[id] = true
		}
		if c.MaxTools > 0 {
			maxTools = c.MaxTools
		}
		if c.MaxListItems > 0 {
			maxItems = c.MaxListItems
		}
	}
	if opts.MaxTools > 0 {
		maxTools = opts.MaxTools
	}
	if opts.MaxListItems > 0 {
		maxItems = opts.MaxListItems
	}
	for _, nt := range s.Types {
		l.types[nt.Name] = nt
	}

	for _, t := range s.Tools {
		o := owner{disabled: t.LintDisable}
		l.description(o, t.Description, t.DescriptionPos, t.Pos, fmt.Sprintf("tool %q", t.Name), true)
		l.toolName(o, t)
		l.destructive(o, t)
		l.appWrite(o, t)
		if t.Input != nil {
			l.walk(o, t.Input, fmt.Sprintf("the input of tool %q", t.Name), map[*spec.Schema]bool{})
		}
		if t.InputSchema != nil {
			l.rawInput(o, t)
		}
	}
	for _, r := range s.Resources {
		o := owner{disabled: r.LintDisable}
		l.description(o, r.Description, spec.Pos{}, r.Pos, fmt.Sprintf("resource %q", r.Name), true)
		l.appPermissions(o, r)
	}
	for _, t := range s.ResourceTemplates {
		o := owner{disabled: t.LintDisable}
		l.description(o, t.Description, spec.Pos{}, t.Pos, fmt.Sprintf("resource template %q", t.Name), true)
	}
	for _, p := range s.Prompts {
		o := owner{disabled: p.LintDisable}
		l.description(o, p.Description, p.DescriptionPos, p.Pos, fmt.Sprintf("prompt %q", p.Name), true)
		for _, a := range p.Arguments {
			l.description(o, a.Description, spec.Pos{}, a.Pos, fmt.Sprintf("argument %q of prompt %q", a.Name, p.Name), false)
		}
		l.optionalPlaceholders(o, p)
	}
	profile := opts.Profile
	if profile == "" {
		profile = s.Server.SchemaProfile
	}
	l.schemaProfile(profile)
	l.clientDrops()
	if listed := listedTools(s); len(listed) > maxTools { // search exposure lists three tools, whatever their number
		l.report(owner{}, "TOO_MANY_TOOLS", listed[maxTools].Pos,
			"%d tools listed, more than %d (lint.maxTools): every tool's definition is in the model's context on every turn; merge related tools, split the server, or set exposure: search on the server or on toolsets", len(listed), maxTools)
	}
	if n := len(s.Resources); n > maxItems {
		l.report(owner{}, "RESOURCE_LIST_LARGE", s.Resources[maxItems].Pos,
			"%d static resources, more than %d (lint.maxListItems): resources/list is read whole; expose the long tail through a resource template", n, maxItems)
	}

	var out []findings.Finding
	for _, k := range l.order {
		if p := l.pending[k]; p.enabled {
			out = append(out, p.f)
		}
	}
	return Result{Findings: findings.NonNil(findings.Sort(out)), Budget: Estimate(s)}
}

type linter struct {
	s        *spec.Spec
	disabled map[string]bool // lint.disable
	types    map[string]*spec.NamedType
	// A finding about a schema of a named type may be reached from several
	// tools: it is reported unless every one of them disables its rule.
	pending map[pendingKey]*pending
	order   []pendingKey
}

// owner is the item (tool, resource, template, prompt) a finding is about,
// with its x-lint-disable list; the zero owner is the spec as a whole.
type owner struct {
	disabled []string
}

type pendingKey struct {
	rule string
	pos  spec.Pos
	msg  string
}

type pending struct {
	f       findings.Finding
	enabled bool
}

func (l *linter) report(o owner, rule string, pos spec.Pos, format string, args ...any) {
	if l.disabled[rule] {
		return
	}
	msg := fmt.Sprintf(format, args...)
	k := pendingKey{rule, pos, msg}
	p := l.pending[k]
	if p == nil {
		p = &pending{f: findings.Finding{Rule: rule, File: l.s.File, Line: pos.Line, Column: pos.Column, Message: msg}}
		l.pending[k] = p
		l.order = append(l.order, k)
	}
	if !slices.Contains(o.disabled, rule) {
		p.enabled = true
	}
}

// description checks a description: item descriptions (tools, resources,
// templates, prompts) need 3 words and 20 characters, those of properties
// and arguments 2 words and 8 characters.
func (l *linter) description(o owner, text string, textPos, ownerPos spec.Pos, what string, item bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		l.report(o, "DESCRIPTION_MISSING", ownerPos, "%s has no description; the model decides from it when and how to use it", what)
		return
	}
	minWords, minChars := 2, 8
	if item {
		minWords, minChars = 3, 20
	}
	words, chars := len(strings.Fields(text)), len([]rune(text))
	if words < minWords || chars < minChars {
		if textPos == (spec.Pos{}) {
			textPos = ownerPos
		}
		l.report(o, "DESCRIPTION_TOO_SHORT", textPos,
			"the description of %s is too short (%d word%s, %d character%s; at least %d and %d): say what it is for, and when to use it",
			what, words, plural(words), chars, plural(chars), minWords, minChars)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// claudeNameLimit is the longest mcp__server__tool name Claude Code accepts
// (model APIs take tool names of at most 64 characters).
const claudeNameLimit = 64

func (l *linter) toolName(o owner, t *spec.Tool) {
	var why []string
	if strings.Contains(t.Name, ".") {
		why = append(why, "it has a dot, which model APIs refuse in tool names (^[a-zA-Z0-9_-]{1,64}$)")
	}
	if strings.IndexFunc(t.Name, unicode.IsUpper) >= 0 {
		why = append(why, "it has upper-case letters, which some clients fold; use snake_case")
	}
	if full := ClaudeToolName(l.s.Server.Name, t.Name); len(full) > claudeNameLimit {
		why = append(why, fmt.Sprintf("Claude Code calls it %s, %d characters, over the limit of %d; shorten the tool or server name",
			full, len(full), claudeNameLimit))
	}
	if len(why) > 0 {
		l.report(o, "TOOL_NAME_CLIENT_UNSAFE", t.Pos, "tool name %q is unsafe for some clients: %s", t.Name, strings.Join(why, "; "))
	}
}

// ClaudeToolName is the name Claude Code gives an MCP tool: mcp__, the
// server name with every character outside [A-Za-z0-9_-] replaced by _,
// __, and the tool name likewise.
func ClaudeToolName(server, tool string) string {
	return "mcp__" + claudeSafe(server) + "__" + claudeSafe(tool)
}

func claudeSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '_'
	}, s)
}

func (l *linter) destructive(o owner, t *spec.Tool) {
	a := t.Annotations
	if a == nil || a.DestructiveHint == nil || !*a.DestructiveHint {
		return
	}
	if a.IdempotentHint != nil && *a.IdempotentHint || t.Idempotency != nil {
		return
	}
	if in := l.resolve(t.Input); in != nil {
		for _, p := range in.Properties {
			if isIdempotencyKey(p.Name) {
				return
			}
		}
	}
	l.report(o, "DESTRUCTIVE_NOT_IDEMPOTENT", t.Pos,
		"tool %q is destructive but not idempotent: clients and models retry, so add an idempotency_key input (and say idempotentHint: true)", t.Name)
}

func isIdempotencyKey(name string) bool {
	for _, w := range naming.Words(name) {
		switch strings.ToLower(w) {
		case "idempotency", "idempotent", "dedup", "deduplication":
			return true
		}
	}
	return false
}

// resolve follows $refs to the schema they end at (nil when unknown).
func (l *linter) resolve(s *spec.Schema) *spec.Schema {
	for i := 0; s != nil && s.Kind == spec.KindRef && i <= len(l.types); i++ {
		nt := l.types[s.Ref]
		if nt == nil {
			return nil
		}
		s = nt.Schema
	}
	return s
}

// walk checks an input schema and everything inside it. what names the
// schema in messages; a named type's parts are named after the type.
func (l *linter) walk(o owner, s *spec.Schema, what string, seen map[*spec.Schema]bool) {
	if s == nil {
		return
	}
	if s.Kind == spec.KindRef {
		nt := l.types[s.Ref]
		if nt == nil {
			return
		}
		l.walk(o, nt.Schema, fmt.Sprintf("type %q", nt.Name), seen)
		return
	}
	if seen[s] {
		return
	}
	seen[s] = true
	switch s.Kind {
	case spec.KindObject:
		switch {
		case s.IsFreeObject():
			l.report(o, "OBJECT_OPEN", s.Pos,
				"%s is any object ({type: object} without properties), so a misspelt or invented key is ignored instead of refused", what)
		case s.AdditionalProperties:
			pos := s.Pos
			if p, ok := s.Fields["additionalProperties"]; ok {
				pos = p
			}
			said := "true"
			switch s.OpenAs {
			case spec.OpenUnsaid:
				said = "null"
			case spec.OpenEmpty:
				said = "{}"
			}
			l.report(o, "OBJECT_OPEN", pos,
				"%s accepts unknown keys (additionalProperties: %s), so a misspelt or invented argument is ignored instead of refused", what, said)
		}
		for _, p := range s.Properties {
			pwhat := fmt.Sprintf("property %q of %s", p.Name, what)
			desc, descPos := p.Schema.Description, p.Schema.FieldValues["description"]
			if desc == "" {
				if r := l.resolve(p.Schema); r != nil {
					desc = r.Description
				}
			}
			l.description(o, desc, descPos, p.Pos, pwhat, false)
			l.unboundedID(o, p, pwhat)
			l.defaultOnRequired(o, p, pwhat)
			l.walk(o, p.Schema, pwhat, seen)
		}
	case spec.KindArray:
		l.walk(o, s.Items, "the items of "+what, seen)
	case spec.KindMap:
		l.walk(o, s.Values, "the values of "+what, seen)
	case spec.KindUnion:
		for i, v := range s.Variants {
			l.walk(o, v, fmt.Sprintf("variant %d of %s", i+1, what), seen)
		}
	}
}

// appWrite reports a tool an MCP App view may call that may write and has
// no idempotency key: a view's retries and double clicks would act twice.
func (l *linter) appWrite(o owner, t *spec.Tool) {
	u := t.UI
	if u == nil || len(u.Visibility) > 0 && !slices.Contains(u.Visibility, "app") {
		return
	}
	if a := t.Annotations; a != nil && a.ReadOnlyHint != nil && *a.ReadOnlyHint || t.Idempotency != nil {
		return
	}
	if in := l.resolve(t.Input); in != nil {
		for _, p := range in.Properties {
			if p.Required && spec.IsIdempotencyKeyName(p.Name) {
				return
			}
		}
	}
	l.report(o, "APP_WRITE_NOT_IDEMPOTENT", u.Pos,
		"tool %q can be called from an MCP App view and may write (it is not readOnlyHint: true), but has no idempotency key (idempotency: {key: idempotency_key}, or a required input property idempotency_key): a retried click acts twice", t.Name)
}

// idWords are the last words of names that hold identifiers.
var idWords = map[string]bool{
	"id": true, "ids": true, "key": true, "keys": true, "slug": true, "slugs": true,
	"code": true, "codes": true, "sku": true, "skus": true, "email": true, "emails": true,
	"url": true, "urls": true, "uri": true, "uris": true, "uuid": true, "uuids": true,
}

// IsIdentifierName reports whether a property name says it holds an
// identifier: its last word is id, key, slug, code, sku, email, url, uri or
// uuid, or their plural (order_id, customerId, sku, callback_url).
func IsIdentifierName(name string) bool {
	words := naming.Words(name)
	return len(words) > 0 && idWords[strings.ToLower(words[len(words)-1])]
}

func (l *linter) unboundedID(o owner, p *spec.Property, what string) {
	if !IsIdentifierName(p.Name) {
		return
	}
	s := l.resolve(p.Schema)
	if s != nil && s.Kind == spec.KindArray {
		s = l.resolve(s.Items)
	}
	if s == nil || s.Kind != spec.KindString {
		return
	}
	if s.Pattern != "" || len(s.Enum) > 0 || s.Format != "" || s.MaxLength != nil {
		return
	}
	l.report(o, "STRING_UNBOUNDED_ID", p.Pos,
		"%s looks like an identifier but takes any string; add a pattern, an enum, a format or a maxLength", what)
}

// defaultOnRequired reports a default the runtime can never apply: it fills
// in only what a client leaves out, and a required property cannot be.
func (l *linter) defaultOnRequired(o owner, p *spec.Property, what string) {
	if !p.Required || p.Schema.Default == nil {
		return
	}
	pos := p.Pos
	if kp, ok := p.Schema.Fields["default"]; ok {
		pos = kp
	}
	l.report(o, "DEFAULT_ON_REQUIRED", pos,
		"%s is required and has a default, which is never applied (a call without it is refused); drop the default or make the property optional", what)
}

// appPermissions reports each browser permission an MCP App view asks for.
func (l *linter) appPermissions(o owner, r *spec.Resource) {
	if r.UI == nil {
		return
	}
	for i, p := range r.UI.Permissions {
		pos := r.UI.Pos
		if i < len(r.UI.PermissionsPos) {
			pos = r.UI.PermissionsPos[i]
		}
		l.report(o, "APP_PERMISSION", pos, "MCP App view %q asks for the %s permission; remove it unless the view cannot do its task without it", r.Name, p)
	}
}

// listedTools are the tools tools/list shows when every toolset is served:
// none with server.exposure: search; else those in no toolset with
// exposure: search, or also in one that lists its tools.
func listedTools(s *spec.Spec) []*spec.Tool {
	if s.Server.Exposure == "search" {
		return nil
	}
	var out []*spec.Tool
	for _, t := range s.Tools {
		searched, listed := false, false
		for _, ts := range s.Toolsets {
			if slices.Contains(ts.Tools, t.Name) {
				searched = searched || ts.Exposure == "search"
				listed = listed || ts.Exposure != "search"
			}
		}
		if listed || !searched {
			out = append(out, t)
		}
	}
	return out
}

// optionalPlaceholders reports each placeholder of a declarative message
// that names an optional argument: prompt arguments have no default, so an
// argument the client leaves out is filled in as "".
func (l *linter) optionalPlaceholders(o owner, p *spec.Prompt) {
	optional := map[string]bool{}
	for _, a := range p.Arguments {
		if a != nil && !a.Required {
			optional[a.Name] = true
		}
	}
	for i, m := range p.Messages {
		for _, part := range []struct {
			text   string
			pos    spec.Pos
			format string
		}{
			{m.Text, m.TextPos, "the text of message %d of prompt %q holds {{.%s}}, an optional argument: when a client leaves it out, the text reads with a gap; make %q required, or word the message so that it reads well without it"},
			{m.Resource, m.ResourcePos, "the resource URI of message %d of prompt %q holds {{.%s}}, an optional argument: when a client leaves it out, the URI read has an empty part; make %q required"},
		} {
			pos := part.pos
			if pos == (spec.Pos{}) {
				pos = m.Pos
			}
			for _, name := range spec.Placeholders(part.text) {
				if !optional[name] {
					continue
				}
				l.report(o, "PROMPT_OPTIONAL_PLACEHOLDER", pos, part.format, i+1, p.Name, name, name)
			}
		}
	}
}
