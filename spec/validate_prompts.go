package spec

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

func (v *validator) prompts() {
	first := map[string]*Prompt{}
	for _, p := range v.s.Prompts {
		if p == nil {
			continue
		}
		if f, dup := first[p.Name]; dup {
			v.errorf(p.Pos, "duplicate prompt %q (first defined at %s)", p.Name, at(v.s.File, f.Pos))
			continue
		}
		first[p.Name] = p
		v.mcpName(p.Pos, "prompt", p.Name)
		if v.skip[p] {
			continue
		}
		// The conformance suite rejects prompts without one.
		v.requiredString(p.Description, p.DescriptionPos, p.Pos, "description", fmt.Sprintf("prompt %q", p.Name))
		v.icons(p.Icons)
		v.meta(p.Meta, p.Pos)
		args := v.promptArguments(p)
		for _, m := range p.Messages {
			v.message(p, m, args)
		}
	}
}

// promptArguments checks the arguments of p and returns them by name.
func (v *validator) promptArguments(p *Prompt) map[string]*PromptArgument {
	args := map[string]*PromptArgument{}
	for _, a := range p.Arguments {
		if a == nil {
			continue
		}
		if f, dup := args[a.Name]; dup {
			v.errorf(orPos(a.Pos, p.Pos), "duplicate argument %q (first defined at %s)", a.Name, at(v.s.File, orPos(f.Pos, p.Pos)))
			continue
		}
		args[a.Name] = a
		if a.Name == "" {
			v.errorf(orPos(a.Pos, p.Pos), "an argument name must not be empty")
		}
		first := map[string]Pos{}
		for i, e := range a.Enum {
			ep := orPos(a.Pos, p.Pos)
			if i < len(a.EnumPos) {
				ep = orPos(a.EnumPos[i], ep)
			}
			if f, dup := first[e]; dup {
				v.errorf(ep, "duplicate enum value %q (first listed at %s)", e, at(v.s.File, f))
				continue
			}
			first[e] = ep
		}
	}
	return args
}

// message checks one declarative message of prompt p.
func (v *validator) message(p *Prompt, m *PromptMessage, args map[string]*PromptArgument) {
	if m == nil || v.skip[m] {
		return
	}
	mp := orPos(m.Pos, p.Pos)
	switch m.Role {
	case "user", "assistant":
	case "":
		v.requiredString(m.Role, m.RolePos, mp, "role", "message")
	default:
		hint := didYouMean(m.Role, audiences)
		if hint == "" {
			hint = "; use user or assistant"
		}
		if m.Role == "system" {
			hint += " (MCP prompt messages have no system role)"
		}
		v.errorf(orPos(m.RolePos, mp), "unknown role %q%s", m.Role, hint)
	}

	var has []string
	text := m.Text != "" || m.TextPos != (Pos{})
	resource := m.Resource != "" || m.ResourcePos != (Pos{})
	for _, c := range []struct {
		key     string
		present bool
	}{{"text", text}, {"resource", resource}, {"image", m.Image != nil}, {"audio", m.Audio != nil}} {
		if c.present {
			has = append(has, c.key)
		}
	}
	switch len(has) {
	case 0:
		v.errorf(mp, "a message needs one of text, resource, image or audio")
	case 1:
	default:
		v.errorf(mp, "a message holds only one of text, resource, image or audio; this one has %s", joinList(has, "and"))
	}

	if text && v.requiredString(m.Text, m.TextPos, mp, "text", "message") {
		v.placeholders(p, m.Text, "text", orPos(m.TextPos, mp), args)
	}
	if resource && v.requiredString(m.Resource, m.ResourcePos, mp, "resource", "message") {
		if pieces, ok := v.placeholders(p, m.Resource, "resource", orPos(m.ResourcePos, mp), args); ok {
			v.messageURI(m.Resource, pieces, orPos(m.ResourcePos, mp))
		}
	}
	v.media(m.Image, "image", mp)
	v.media(m.Audio, "audio", mp)
}

// placeholders checks that text holds only literal text and {{.name}}
// placeholders that name arguments of p.
func (v *validator) placeholders(p *Prompt, text, key string, pos Pos, args map[string]*PromptArgument) ([]promptPiece, bool) {
	pieces, problem := parsePlaceholders(text)
	if problem != "" {
		v.errorf(pos, "%s %s; only {{.name}} placeholders are supported", key, problem)
		return nil, false
	}
	var names []string
	for _, a := range p.Arguments {
		if a != nil {
			names = append(names, a.Name)
		}
	}
	ok := true
	reported := map[string]bool{}
	for _, pc := range pieces {
		if pc.arg == "" || args[pc.arg] != nil || reported[pc.arg] {
			continue
		}
		reported[pc.arg], ok = true, false
		hint := didYouMean(pc.arg, names)
		switch {
		case hint != "":
		case len(names) == 0:
			hint = fmt.Sprintf("; prompt %q has no arguments", p.Name)
		default:
			hint = "; the arguments are " + quoteList(names, "and")
		}
		v.errorf(pos, "placeholder {{.%s}} names no argument%s", pc.arg, hint)
	}
	return pieces, ok
}

// messageURI checks the resource of a message: with its placeholders filled
// in, an absolute URI (whose scheme is written, not a placeholder).
func (v *validator) messageURI(uri string, pieces []promptPiece, p Pos) {
	var lead, filled strings.Builder
	inLead := true
	for _, pc := range pieces {
		if pc.arg != "" {
			filled.WriteString("x")
			inLead = false
			continue
		}
		filled.WriteString(pc.text)
		if inLead {
			lead.WriteString(pc.text)
		}
	}
	if !schemeRE.MatchString(lead.String()) {
		v.errorf(p, "resource %q must start with a URI scheme, such as ticket://{{.id}}", uri)
		return
	}
	if hasSpaceOrControl(filled.String()) {
		v.errorf(p, "resource %q must not hold spaces or control characters; percent-encode them (a space is %%20)", uri)
		return
	}
	if _, err := url.Parse(filled.String()); err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		v.errorf(p, "resource %q is not a valid URI: %v", uri, err)
	}
}

// media checks an inline image or audio of a message.
func (v *validator) media(md *Media, what string, owner Pos) {
	if md == nil || v.skip[md] {
		return
	}
	mp := orPos(md.Pos, owner)
	if len(md.Data) == 0 && !v.skip[&md.Data] {
		if md.DataPos != (Pos{}) {
			v.errorf(md.DataPos, "data must not be empty")
		} else {
			v.errorf(mp, "missing required key %q in %s", "data", what)
		}
	}
	if !v.requiredString(md.MimeType, md.MimeTypePos, mp, "mimeType", what) {
		return
	}
	p := orPos(md.MimeTypePos, mp)
	if mt, ok := v.mimeType(md.MimeType, p); ok && !strings.HasPrefix(mt, what+"/") {
		example := map[string]string{"image": "image/png", "audio": "audio/wav"}[what]
		v.errorf(p, "the mimeType of %s must be %s/…, such as %s, not %q", aOrAn(what), what, example, md.MimeType)
	}
}

func aOrAn(what string) string {
	if what == "image" {
		return "an image"
	}
	return what // "audio"
}
