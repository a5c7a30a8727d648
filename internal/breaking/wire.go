package breaking

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/clientconfig"
	"github.com/mcpgen/mcpgen/internal/specschema"
	"github.com/mcpgen/mcpgen/spec"
)

// wire runs the WIRE rules.
func (d *differ) wire() {
	d.tools()
	d.resources()
	d.templates()
	d.prompts()
}

func (d *differ) tools() {
	newTools := map[string]*spec.Tool{}
	for _, t := range d.new.Tools {
		newTools[t.Name] = t
	}
	oldNames := map[string]bool{}
	for _, t := range d.old.Tools {
		oldNames[t.Name] = true
	}
	for _, ot := range d.old.Tools {
		nt := newTools[ot.Name]
		if nt == nil {
			msg := fmt.Sprintf("tool %q was deleted; clients that call it get an unknown-tool error", ot.Name)
			if to := d.renamedTo(ot, oldNames); len(to) > 0 {
				msg += fmt.Sprintf(" (renamed? %s has the same input and output schemas; clients call tools by name, so a rename breaks them as a deletion does)", strings.Join(to, " and "))
			}
			d.gone("TOOL_NO_DELETE", spec.Pos{}, ot.Pos, "%s", msg)
			continue
		}
		d.toolPermission(ot, nt)
		d.toolScopes(ot, nt)
		if ot.InputSchema != nil || nt.InputSchema != nil {
			d.rawSchema(nt, "inputSchema", ot.InputSchema, nt.InputSchema, ot.Input, nt.Input)
		} else {
			c := &schemaCtx{d: d, tool: nt.Name, dir: input, seen: map[[2]*spec.Schema]bool{}}
			c.compare("", orEmptyObject(ot.Input, ot.Pos), orEmptyObject(nt.Input, nt.Pos), inputAnchor(nt))
		}
		switch {
		case ot.OutputSchema != nil || nt.OutputSchema != nil:
			if nt.OutputSchema == nil && nt.Output == nil {
				d.at("TOOL_OUTPUT_NO_DELETE", nt.Pos, "tool %q no longer declares an output; clients lose its structuredContent", nt.Name)
				break
			}
			d.rawSchema(nt, "outputSchema", ot.OutputSchema, nt.OutputSchema, ot.Output, nt.Output)
		case ot.Output != nil && nt.Output == nil:
			d.at("TOOL_OUTPUT_NO_DELETE", nt.Pos, "tool %q no longer declares an output; clients lose its structuredContent", nt.Name)
		case ot.Output != nil:
			c := &schemaCtx{d: d, tool: nt.Name, dir: output, seen: map[[2]*spec.Schema]bool{}}
			c.compare("", ot.Output, nt.Output, nt.Output.Pos)
		}
	}
}

// orEmptyObject stands for a tool without input: an object with no
// properties, closed, which is what clients are told.
func orEmptyObject(s *spec.Schema, pos spec.Pos) *spec.Schema {
	if s != nil {
		return s
	}
	return &spec.Schema{Pos: pos, Kind: spec.KindObject}
}

func inputAnchor(t *spec.Tool) spec.Pos {
	if t.Input != nil {
		return t.Input.Pos
	}
	return t.Pos
}

var permissionRank = map[string]int{"allow": 0, "ask": 1, "deny": 2}

func (d *differ) toolPermission(ot, nt *spec.Tool) {
	op, np := clientconfig.PermissionOf(ot), clientconfig.PermissionOf(nt)
	if permissionRank[np] <= permissionRank[op] {
		return
	}
	pos := nt.Pos
	switch {
	case nt.PermissionPos != (spec.Pos{}):
		pos = nt.PermissionPos
	case nt.Annotations != nil:
		pos = nt.Annotations.Pos
	}
	d.at("TOOL_PERMISSION_NO_TIGHTEN", pos,
		"tool %q now gets permission %q instead of %q (%s); client settings written before still say %s: run mcpgen config again",
		nt.Name, np, op, clientconfig.PermissionReason(nt), op)
}

// toolScopes reports scopes a tool needs now and did not before: clients
// whose tokens were granted for the old set must step up.
func (d *differ) toolScopes(ot, nt *spec.Tool) {
	was := d.old.ToolScopes(ot)
	var added []string
	for _, s := range d.new.ToolScopes(nt) {
		if !slices.Contains(was, s) {
			added = append(added, strconv.Quote(s))
		}
	}
	if len(added) == 0 {
		return
	}
	pos := nt.Pos
	switch {
	case nt.Scopes.Set:
		pos = nt.Scopes.Pos
	case d.new.Server.Scopes.Set:
		pos = d.new.Server.Scopes.Pos
	}
	d.at("TOOL_SCOPES_NO_ADD", pos, "tool %q now needs the scopes %s; tokens granted before lack them and get 403 insufficient_scope until the client asks for more",
		nt.Name, strings.Join(added, ", "))
}

// rawSchema compares a tool's schemas on the wire when either side is a raw
// JSON Schema: equal after normalization, or reported for review.
// wireOf is the normalized JSON Schema a client sees for a tool's input
// or output: the raw schema, else the typed one, else an empty object.
func wireOf(s *spec.Spec, raw *spec.Value, typed *spec.Schema) any {
	var doc any
	switch {
	case raw != nil:
		doc, _ = specschema.Decode(raw.JSON)
	case typed != nil:
		data, _ := specschema.Wire(s, typed)
		doc, _ = specschema.Decode(data)
	default:
		doc = map[string]any{"type": "object", "additionalProperties": false}
	}
	return specschema.Normalize(doc, func(n string) string { return n })
}

// renamedTo names the added tools (in the new spec, absent from the old)
// that have the deleted tool's input and output schemas, as a client sees
// them: likely the same tool renamed. A tool that declares neither input
// nor output matches nothing: its schema says too little.
func (d *differ) renamedTo(gone *spec.Tool, oldNames map[string]bool) []string {
	declares := func(t *spec.Tool) bool {
		return t.Input != nil || t.Output != nil || t.InputSchema != nil || t.OutputSchema != nil
	}
	if !declares(gone) {
		return nil
	}
	in, out := wireOf(d.old, gone.InputSchema, gone.Input), wireOf(d.old, gone.OutputSchema, gone.Output)
	var names []string
	for _, t := range d.new.Tools {
		if oldNames[t.Name] || !declares(t) {
			continue
		}
		if reflect.DeepEqual(in, wireOf(d.new, t.InputSchema, t.Input)) && reflect.DeepEqual(out, wireOf(d.new, t.OutputSchema, t.Output)) {
			names = append(names, strconv.Quote(t.Name))
		}
	}
	return names
}

func (d *differ) rawSchema(nt *spec.Tool, key string, oldRaw, newRaw *spec.Value, oldTyped, newTyped *spec.Schema) {
	if reflect.DeepEqual(wireOf(d.old, oldRaw, oldTyped), wireOf(d.new, newRaw, newTyped)) {
		return
	}
	pos := nt.Pos
	switch {
	case newRaw != nil:
		pos = newRaw.Pos
	case newTyped != nil:
		pos = newTyped.Pos
	}
	d.at("TOOL_RAW_SCHEMA_SAME", pos, "the %s of tool %q changed and is (or was) a raw JSON Schema; mcpgen cannot tell whether clients still fit it, so review the change", key, nt.Name)
}

// mimeType is what clients are told a resource's contents are: the
// declared mimeType, else what the runtime sends for its content kind.
func mimeType(declared string, c *spec.Content) string {
	if declared != "" {
		return declared
	}
	if c != nil {
		switch c.Kind {
		case spec.ContentBinary:
			return "application/octet-stream"
		case spec.ContentJSON:
			return "application/json"
		case spec.ContentContents:
			return "(set by the handler)"
		}
	}
	return "text/plain"
}

func (d *differ) resources() {
	byName, byURI := map[string]*spec.Resource{}, map[string]*spec.Resource{}
	for _, r := range d.new.Resources {
		byName[r.Name] = r
		byURI[r.URI] = r
	}
	for _, or := range d.old.Resources {
		nr := byName[or.Name]
		if nr == nil {
			nr = byURI[or.URI] // renamed, same uri: clients read by uri
		}
		if nr == nil {
			d.gone("RESOURCE_NO_DELETE", spec.Pos{}, or.Pos, "resource %q (%s) was deleted; clients that read it get not-found", or.Name, or.URI)
			continue
		}
		if or.URI != nr.URI {
			d.at("RESOURCE_SAME_URI", orPos(nr.URIPos, nr.Pos), "the uri of resource %q changed from %s to %s; clients that read or subscribed to the old one get not-found", nr.Name, or.URI, nr.URI)
		}
		if om, nm := mimeType(or.MimeType, or.Content), mimeType(nr.MimeType, nr.Content); om != nm {
			d.at("RESOURCE_SAME_MIME_TYPE", orPos(nr.MimeTypePos, nr.Pos), "the mimeType of resource %q changed from %s to %s", nr.Name, om, nm)
		}
	}
}

func orPos(p, fallback spec.Pos) spec.Pos {
	if p == (spec.Pos{}) {
		return fallback
	}
	return p
}

func (d *differ) templates() {
	byName := map[string]*spec.ResourceTemplate{}
	for _, t := range d.new.ResourceTemplates {
		byName[t.Name] = t
	}
	for _, ot := range d.old.ResourceTemplates {
		nt := byName[ot.Name]
		if nt == nil {
			d.gone("RESOURCE_TEMPLATE_NO_DELETE", spec.Pos{}, ot.Pos, "resource template %q (%s) was deleted; clients that read its URIs get not-found", ot.Name, ot.URITemplate)
			continue
		}
		d.templateVariables(ot, nt)
		if om, nm := mimeType(ot.MimeType, ot.Content), mimeType(nt.MimeType, nt.Content); om != nm {
			d.at("RESOURCE_SAME_MIME_TYPE", orPos(nt.MimeTypePos, nt.Pos), "the mimeType of resource template %q changed from %s to %s", nt.Name, om, nm)
		}
	}
}

func (d *differ) templateVariables(ot, nt *spec.ResourceTemplate) {
	oOpt, nOpt := queryVariables(ot.URITemplate), queryVariables(nt.URITemplate)
	newVars := map[string]*spec.Variable{}
	for _, v := range nt.Variables {
		newVars[v.Name] = v
	}
	oldVars := map[string]bool{}
	changed := false
	for _, ov := range ot.Variables {
		oldVars[ov.Name] = true
		nv := newVars[ov.Name]
		if nv == nil {
			changed = true
			d.gone("RESOURCE_TEMPLATE_SAME_VARIABLES", orPos(nt.URITemplatePos, nt.Pos), ov.Pos,
				"variable %q of resource template %q was deleted; URIs that set it no longer match", ov.Name, nt.Name)
			continue
		}
		if !oOpt[ov.Name] && nOpt[ov.Name] {
			continue // a path variable that became optional still matches
		}
		c := &schemaCtx{d: d, template: nt.Name, dir: input, seen: map[[2]*spec.Schema]bool{}}
		c.compare(ov.Name, ov.Schema, nv.Schema, nv.Pos)
	}
	for _, nv := range nt.Variables {
		if !oldVars[nv.Name] && !nOpt[nv.Name] {
			changed = true
			d.at("RESOURCE_TEMPLATE_SAME_VARIABLES", nv.Pos, "resource template %q has a new path variable %q; URIs built from the old template no longer match", nt.Name, nv.Name)
		}
	}
	if !changed && stripQuery(ot.URITemplate) != stripQuery(nt.URITemplate) {
		d.at("RESOURCE_TEMPLATE_SAME_URI_TEMPLATE", orPos(nt.URITemplatePos, nt.Pos),
			"the uriTemplate of resource template %q changed from %s to %s; URIs built from the old one no longer match", nt.Name, ot.URITemplate, nt.URITemplate)
	}
}

// queryVariables are the variables of {?…} and {&…} expressions, which a
// URI may leave out.
func queryVariables(t string) map[string]bool {
	out := map[string]bool{}
	for _, expr := range expressions(t) {
		if expr != "" && (expr[0] == '?' || expr[0] == '&') {
			for _, v := range strings.Split(expr[1:], ",") {
				v, _, _ = strings.Cut(strings.TrimSuffix(v, "*"), ":")
				out[v] = true
			}
		}
	}
	return out
}

func expressions(t string) []string {
	var out []string
	for {
		open := strings.IndexByte(t, '{')
		if open < 0 {
			return out
		}
		end := strings.IndexByte(t[open:], '}')
		if end < 0 {
			return out
		}
		out = append(out, t[open+1:open+end])
		t = t[open+end+1:]
	}
}

// stripQuery removes the optional query expressions of a template.
func stripQuery(t string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(t, '{')
		if open < 0 {
			b.WriteString(t)
			return b.String()
		}
		end := strings.IndexByte(t[open:], '}')
		if end < 0 {
			b.WriteString(t)
			return b.String()
		}
		expr := t[open+1 : open+end]
		b.WriteString(t[:open])
		if expr == "" || (expr[0] != '?' && expr[0] != '&') {
			b.WriteString(t[open : open+end+1])
		}
		t = t[open+end+1:]
	}
}

func (d *differ) prompts() {
	byName := map[string]*spec.Prompt{}
	for _, p := range d.new.Prompts {
		byName[p.Name] = p
	}
	for _, op := range d.old.Prompts {
		np := byName[op.Name]
		if np == nil {
			d.gone("PROMPT_NO_DELETE", spec.Pos{}, op.Pos, "prompt %q was deleted; clients that get it receive an error", op.Name)
			continue
		}
		newArgs := map[string]*spec.PromptArgument{}
		for _, a := range np.Arguments {
			newArgs[a.Name] = a
		}
		oldArgs := map[string]*spec.PromptArgument{}
		for _, oa := range op.Arguments {
			oldArgs[oa.Name] = oa
			na := newArgs[oa.Name]
			if na == nil {
				d.gone("PROMPT_ARG_NO_DELETE", np.Pos, oa.Pos, "argument %q of prompt %q was deleted; clients that pass it are refused", oa.Name, np.Name)
				continue
			}
			if na.Required && !oa.Required {
				d.at("PROMPT_ARG_NO_NEW_REQUIRED", na.Pos, "argument %q of prompt %q is now required; clients that leave it out are refused", na.Name, np.Name)
			}
			d.promptEnum(np, oa, na)
		}
		for _, na := range np.Arguments {
			if oldArgs[na.Name] == nil && na.Required {
				d.at("PROMPT_ARG_NO_NEW_REQUIRED", na.Pos, "prompt %q has a new required argument %q; clients that leave it out are refused", np.Name, na.Name)
			}
		}
	}
}

func (d *differ) promptEnum(np *spec.Prompt, oa, na *spec.PromptArgument) {
	what := fmt.Sprintf("argument %q of prompt %q", na.Name, np.Name)
	switch {
	case len(na.Enum) == 0:
	case len(oa.Enum) == 0:
		d.at("BOUND_NO_TIGHTEN", na.Pos, "%s is now restricted to %s", what, strings.Join(na.Enum, ", "))
	default:
		for i, v := range oa.Enum {
			if !slices.Contains(na.Enum, v) {
				p := oa.Pos
				if i < len(oa.EnumPos) {
					p = oa.EnumPos[i]
				}
				d.gone("ENUM_VALUE_NO_DELETE", na.Pos, p, "%s no longer accepts %q", what, v)
			}
		}
	}
}
