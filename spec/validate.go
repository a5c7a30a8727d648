package spec

import (
	"encoding/json"
	"fmt"
	"go/token"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Validate runs the semantic checks alone, on a spec built in Go (tests,
// tools that assemble specs). Load runs the same checks after decoding, so a
// spec Load accepts passes Validate too.
func Validate(s *Spec) Diagnostics {
	return validate(s, nil).Sort()
}

// validator holds the state of one validation: the findings, the named types
// by name, and the compiled patterns.
type validator struct {
	s     *Spec
	skip  map[any]bool // elements the decoder could not build; see decoder.skip
	diags Diagnostics

	types     map[string]*NamedType
	typeNames []string // in file order, for did-you-mean
	patterns  map[*Schema]*regexp.Regexp
	seen      map[*Schema]bool // guards against schemas built in Go that contain themselves
	// placed are the schemas holding a keyword that has a place
	// (Keyword.place), for placements.
	placed map[*Keyword][]*Schema
}

func validate(s *Spec, skip map[any]bool) Diagnostics {
	v := &validator{
		s:        s,
		skip:     skip,
		types:    map[string]*NamedType{},
		patterns: map[*Schema]*regexp.Regexp{},
		seen:     map[*Schema]bool{},
		placed:   map[*Keyword][]*Schema{},
	}
	if v.skip[s] {
		return nil // the file is not a mapping: nothing else can be said
	}
	v.version()
	v.server()
	v.goOptions()
	v.namedTypes()
	v.tools()
	v.uriCollisions(v.resources(), v.resourceTemplates())
	v.cachingHints()
	v.mcpHeaders()
	v.placements()
	v.prompts()
	v.toolsets()
	v.lint()
	v.scopes()
	v.upstream()
	v.cycles()
	return v.diags
}

func (v *validator) errorf(p Pos, format string, args ...any) {
	v.diags = append(v.diags, Diagnostic{File: v.s.File, Pos: p, Message: fmt.Sprintf(format, args...)})
}

// top is where findings about a missing top-level key go.
var top = Pos{Line: 1, Column: 1}

func (v *validator) version() {
	switch {
	case v.s.Version == 0 && v.s.VersionPos == (Pos{}):
		v.errorf(top, `missing required key "mcpgen" (the spec format version; write mcpgen: 1)`)
	case v.s.Version != 1:
		v.errorf(v.s.VersionPos, "mcpgen must be 1, the only version of the spec format")
	}
}

// requiredString checks a required string: present (else "missing required
// key" at the owner) and not blank (else at the value).
func (v *validator) requiredString(val string, valPos, ownerPos Pos, key, owner string) bool {
	switch {
	case strings.TrimSpace(val) != "":
		return true
	case valPos != (Pos{}):
		v.errorf(valPos, "%s must be a non-empty string", key)
	default:
		v.errorf(ownerPos, "missing required key %q in %s", key, owner)
	}
	return false
}

func (v *validator) server() {
	srv := &v.s.Server
	if v.skip[srv] {
		return
	}
	if srv.Pos == (Pos{}) && srv.Name == "" && srv.Version == "" && srv.NamePos == (Pos{}) && srv.VersionPos == (Pos{}) {
		v.errorf(top, `missing required key "server" (write server: {name: …, version: …})`)
		return
	}
	v.requiredString(srv.Name, srv.NamePos, srv.Pos, "name", "server")
	v.requiredString(srv.Version, srv.VersionPos, srv.Pos, "version", "server")
	if srv.WebsiteURL != "" && !isHTTPURL(srv.WebsiteURL) {
		v.errorf(orPos(srv.WebsiteURLPos, srv.Pos), "websiteUrl must be an absolute http(s) URL, such as https://example.com")
	}
	if srv.SchemaProfile != "" && !slices.Contains(SchemaProfiles, srv.SchemaProfile) {
		v.errorf(orPos(srv.SchemaProfilePos, srv.Pos), "schemaProfile %q is not a profile: use one of %s", srv.SchemaProfile, strings.Join(SchemaProfiles, ", "))
	}
	if x := srv.InjectedArguments; x != "" && !slices.Contains(InjectedArgumentPolicies, x) {
		v.errorf(orPos(srv.InjectedArgumentsPos, srv.Pos), "injectedArguments %q%s", x, orHint(didYouMean(x, InjectedArgumentPolicies), ": use drop or reject"))
	}
	v.icons(srv.Icons)
	if v.s.SearchExposed() {
		for _, t := range v.s.Tools {
			if slices.Contains(SearchToolNames, t.Name) {
				v.errorf(t.Pos, "tool %q has the name of a tool that exposure: search lists in place of the tools (%s); rename it", t.Name, strings.Join(SearchToolNames, ", "))
			}
		}
	}
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https")) && u.Host != ""
}

func orPos(p, fallback Pos) Pos {
	if p == (Pos{}) {
		return fallback
	}
	return p
}

func (v *validator) icons(icons []*Icon) {
	for _, icon := range icons {
		if icon == nil || v.skip[icon] {
			continue
		}
		if v.requiredString(icon.Src, icon.SrcPos, icon.Pos, "src", "icon") {
			// MCP: "an HTTP/HTTPS URL or a data: URI".
			u, err := url.Parse(icon.Src)
			if err != nil || !(isHTTPURL(icon.Src) || strings.EqualFold(u.Scheme, "data")) {
				v.errorf(orPos(icon.SrcPos, icon.Pos), "icon src must be an http(s) URL or a data: URI")
			}
		}
		if icon.Theme != "" && icon.Theme != "light" && icon.Theme != "dark" {
			v.errorf(orPos(icon.ThemePos, icon.Pos), "theme must be light or dark, not %q", icon.Theme)
		}
	}
}

func (v *validator) goOptions() {
	g := &v.s.Go
	if v.skip[g] {
		return
	}
	if g.Pos == (Pos{}) && g.Package == "" && g.PackagePos == (Pos{}) {
		v.errorf(top, `missing required key "go" (the Go options; write go: {package: name})`)
		return
	}
	if v.requiredString(g.Package, g.PackagePos, g.Pos, "package", "go") {
		p := orPos(g.PackagePos, g.Pos)
		switch {
		case token.IsKeyword(g.Package):
			v.errorf(p, "package %q is a Go keyword; choose another name", g.Package)
		case !token.IsIdentifier(g.Package) || g.Package == "_":
			v.errorf(p, "package %q is not a valid Go package name; use letters, digits and _, starting with a letter (such as ordersmcp)", g.Package)
		}
	}
	// The output directory is joined to the spec's directory: it must be
	// relative, and written the same way on every OS.
	if o := g.Output; o != "" && !isRelativeSlashPath(o) {
		v.errorf(orPos(g.OutputPos, g.Pos), "output must be a relative path with forward slashes, such as internal/mcp")
	}
	if c := g.Client; c != "" {
		p := orPos(g.ClientPos, g.Pos)
		name := g.ClientPackage()
		switch {
		case !isRelativeSlashPath(c):
			v.errorf(p, "client must be true or a relative path with forward slashes, such as ordersclient")
		case !token.IsIdentifier(name) || token.IsKeyword(name) || name == "_":
			v.errorf(p, "client %q: the package is named after the directory's last element, and %q is not a Go package name; use letters, digits and _", c, name)
		case path.Clean(c) == path.Clean(orDot(g.Output)):
			v.errorf(p, "client %q is the server package's directory; the client needs its own (such as %sclient)", c, g.Package)
		}
	}
}

// isRelativeSlashPath reports whether p is a relative path with forward
// slashes: not absolute, no backslash, no drive letter.
func isRelativeSlashPath(p string) bool {
	return !path.IsAbs(p) && !strings.Contains(p, `\`) && !(len(p) >= 2 && p[1] == ':')
}

func orDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

var (
	typeNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
	toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)
)

func (v *validator) namedTypes() {
	for _, nt := range v.s.Types {
		if nt == nil {
			continue
		}
		if first, dup := v.types[nt.Name]; dup {
			v.errorf(nt.Pos, "duplicate type %q (first defined at %s)", nt.Name, at(v.s.File, first.Pos))
			continue
		}
		v.types[nt.Name] = nt
		v.typeNames = append(v.typeNames, nt.Name)
		if !typeNameRE.MatchString(nt.Name) {
			v.errorf(nt.Pos, "type name %q must be a letter followed by letters, digits or _", nt.Name)
		}
	}
	for _, nt := range v.s.Types {
		if nt != nil && v.types[nt.Name] == nt {
			v.schema(nt.Schema)
		}
	}
}

func (v *validator) tools() {
	first := map[string]*Tool{}
	for _, t := range v.s.Tools {
		if t == nil {
			continue
		}
		if f, dup := first[t.Name]; dup {
			v.errorf(t.Pos, "duplicate tool %q (first defined at %s)", t.Name, at(v.s.File, f.Pos))
			continue
		}
		first[t.Name] = t
		if !toolNameRE.MatchString(t.Name) {
			v.errorf(t.Pos, "tool name %q must be 1 to 64 letters, digits, '_', '-' or '.'", t.Name)
		}
		if v.skip[t] {
			continue
		}
		// Clients and the conformance suite reject tools without one.
		v.requiredString(t.Description, t.DescriptionPos, t.Pos, "description", fmt.Sprintf("tool %q", t.Name))
		if t.Input != nil {
			v.schema(t.Input)
			v.toolInput(t.Input)
		}
		if t.Output != nil {
			v.schema(t.Output)
		}
		v.rawSchemas(t)
		v.idempotency(t)
		v.resultBudget(t)
		v.httpBinding(t)
		v.icons(t.Icons)
		if t.Meta != nil && !isJSONObject(t.Meta.JSON) {
			v.errorf(orPos(t.Meta.Pos, t.Pos), "_meta must be a mapping")
		}
		v.toolUI(t)
	}
}

func isJSONObject(b []byte) bool {
	b = []byte(strings.TrimSpace(string(b)))
	return json.Valid(b) && len(b) > 0 && b[0] == '{'
}

// toolInput checks that the arguments are an object: MCP's inputSchema is
// always `type: object`, and absent input already means "no arguments".
func (v *validator) toolInput(in *Schema) {
	if v.skip[in] {
		return
	}
	if in.Nullable {
		v.errorf(orPos(in.Fields["nullable"], in.Pos), "input cannot be nullable; leave input out for a tool without arguments")
	}
	target, nt := v.resolve(in)
	if target == nil || v.skip[target] {
		return // an unknown or circular $ref, reported on its own
	}
	switch {
	case target.Kind == KindObject && nt != nil && target.Nullable:
		v.errorf(in.Pos, "input cannot be nullable, but type %q is nullable", nt.Name)
	case target.Kind == KindObject:
	case nt != nil:
		v.errorf(in.Pos, "input must be an object, but type %q is %s", nt.Name, kindPhrase(target.Kind))
	default:
		v.errorf(in.Pos, "input must be an object schema (with properties) or a $ref to an object type, not %s", kindPhrase(target.Kind))
	}
}

// resolve follows $refs to the schema they end at, and the named type it
// belongs to (nil for s itself). It returns nil for an unknown name or a
// loop of $refs.
func (v *validator) resolve(s *Schema) (*Schema, *NamedType) {
	var nt *NamedType
	for range len(v.s.Types) + 1 {
		if s == nil || s.Kind != KindRef {
			return s, nt
		}
		nt = v.types[s.Ref]
		if nt == nil {
			return nil, nil
		}
		s = nt.Schema
	}
	return nil, nil
}

// kindPhrase names a kind with its article, as in "type X is a string".
func kindPhrase(k Kind) string {
	switch k {
	case KindInteger, KindArray, KindObject:
		return "an " + string(k)
	case KindAny:
		return "any"
	case KindGoType:
		return "a Go type"
	case KindRef:
		return "a $ref"
	}
	return "a " + string(k)
}
