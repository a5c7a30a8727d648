// Package openapi imports an OpenAPI 3.0 or 3.1 description (or a Swagger
// 2.0 one, converted to OpenAPI 3.0 first: see fromSwagger) into an mcpgen
// spec: one tool per selected operation, components as named types. The
// spec is a starting point a person curates and reviews, so the importer
// writes only what the spec language can hold and notes everything it had
// to leave out or rename. The OpenAPI parser (pb33f/libopenapi) lives here
// and nowhere else.
package openapi

import (
	"fmt"
	"net/http"
	"regexp"
	"runtime"
	"slices"
	"strings"

	oyaml "github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
	"github.com/pb33f/libopenapi/utils"
	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/internal/naming"
)

// Options select the operations to import and name the server.
type Options struct {
	// Tags, Paths and Operations select operations (any match selects;
	// none given selects all). Paths are globs where * matches any run of
	// characters ("/repos/*/issues*"); Operations match an operationId or
	// the tool name.
	Tags, Paths, Operations []string
	// ExcludeTags, ExcludePaths and ExcludeOperations drop operations the
	// selection took.
	ExcludeTags, ExcludePaths, ExcludeOperations []string
	// ServerName and Package override the names derived from info.title.
	ServerName, Package string
	// Output is go.output, the directory of the generated code ("": the
	// spec's own).
	Output string
}

// Result is an imported spec and what the importer had to decide.
type Result struct {
	YAML []byte
	// Tools maps each tool name to the operation it came from ("GET /pets").
	Tools map[string]string
	// Operations is the number of operations in the description.
	Operations int
	// Tags counts the imported tools per tag, in order of appearance.
	Tags  []TagCount
	Notes []string
	// Changes is what a re-import found changed upstream and kept of the
	// person's curation (Reimport only).
	Changes []string
	lock    *Lock
}

// TagCount is how many tools came from operations with one tag.
type TagCount struct {
	Tag   string
	Count int
}

func (r *Result) countTags(tags []string) {
	if len(tags) == 0 {
		tags = []string{"(untagged)"}
	}
	for _, t := range tags {
		i := slices.IndexFunc(r.Tags, func(tc TagCount) bool { return tc.Tag == t })
		if i < 0 {
			r.Tags = append(r.Tags, TagCount{Tag: t})
			i = len(r.Tags) - 1
		}
		r.Tags[i].Count++
	}
}

type notes struct{ list []string }

func (n *notes) add(format string, args ...any) {
	n.list = append(n.list, fmt.Sprintf(format, args...))
}

// methodsInOrder are the HTTP methods OpenAPI names, in its order.
var methodsInOrder = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// Import converts an OpenAPI 3.x or Swagger 2.0 description (JSON or YAML)
// to a spec.
func Import(data []byte, opts Options) (*Result, error) {
	doc, err := libopenapi.NewDocumentWithConfiguration(data, &datamodel.DocumentConfiguration{})
	if err != nil {
		return nil, fmt.Errorf("reading the OpenAPI description: %w", err)
	}
	// The version decides, not a mention of "swagger" (an OpenAPI 3.0
	// description converted from Swagger says so in info.x-origin).
	var swagger notes
	if v := doc.GetVersion(); strings.HasPrefix(v, "2") || doc.GetSpecInfo().SpecType == utils.OpenApi2 {
		if v != "2.0" {
			return nil, fmt.Errorf("swagger: %q is not a version mcpgen reads (Swagger 2.0, OpenAPI 3.0 and 3.1)", v)
		}
		conv, err := fromSwagger(data, &swagger)
		if err != nil {
			return nil, err
		}
		if doc, err = libopenapi.NewDocumentWithConfiguration(conv, &datamodel.DocumentConfiguration{}); err != nil {
			return nil, fmt.Errorf("reading the converted Swagger 2.0 description: %w", err)
		}
	}
	model, err := doc.BuildV3Model()
	if model == nil {
		return nil, fmt.Errorf("reading the OpenAPI description: %w", err)
	}
	im := &importer{opts: opts, doc: &model.Model, res: &Result{Tools: map[string]string{}}, notes: swagger}
	im.awsEC2 = isAWSEC2(model.Model.Info)
	im.conv = &converter{typeNames: map[string]string{}, notes: &im.notes, names: newNameSet(1 << 10),
		targets: hoistTargets(model.Index), hoisted: map[*oyaml.Node]*hoisted{}, hoistedByName: map[string]*hoisted{}}
	if err != nil {
		// libopenapi reports problems it could work around (a circular
		// reference it cannot resolve, a missing $ref) but still builds.
		for _, e := range unwrap(err) {
			im.notes.add("description: %v", e)
		}
	}
	out, err := im.run()
	if err != nil {
		return nil, err
	}
	im.res.YAML = out
	im.res.Notes = im.notes.list
	return im.res, nil
}

// unwrap lists the errors of a joined error, or err alone.
func unwrap(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

type importer struct {
	opts  Options
	doc   *v3.Document
	conv  *converter
	notes notes
	res   *Result
	// opSecurity are the security requirements of the selected
	// operations, for the upstream auth.
	opSecurity [][]*base.SecurityRequirement
	// awsEC2: the description is Amazon EC2's (awsquery.go); awsOps
	// counts the operations of AWS's query protocol, for one note.
	awsEC2 bool
	awsOps int
}

// operation is one operation of the description, with its path item.
type operation struct {
	method, path string
	item         *v3.PathItem
	op           *v3.Operation
}

func (o operation) String() string { return strings.ToUpper(o.method) + " " + o.path }

func (im *importer) run() ([]byte, error) {
	im.nameTypes()
	tools := newMap()
	names := newNameSet(maxToolName)
	// A tool's Go method Client would clash with UpstreamHandler's field
	// Client (authentiq.io's operation "client").
	names.used["Client"] = true
	if im.doc.Paths != nil && im.doc.Paths.PathItems != nil {
		for path, item := range im.doc.Paths.PathItems.FromOldest() {
			ops := item.GetOperations()
			for _, method := range methodsInOrder {
				op := ops.GetOrZero(method)
				if op == nil {
					continue
				}
				im.res.Operations++
				o := operation{method: method, path: path, item: item, op: op}
				x := xmcp(op)
				if !im.selected(o, x) {
					continue
				}
				name := x.name
				if name != "" && !toolNameRE.MatchString(name) {
					im.notes.add("%s: x-mcp name %q is not a tool name (letters, digits, _ . -); named %q", o, name, snake(name))
					name = snake(name)
				}
				if name == "" {
					name = toolName(o)
				}
				short := shorten(name, maxToolName)
				got, renamed := names.take(short)
				switch {
				case renamed && naming.Exported(short) == "Client":
					im.notes.add("%s: tool name %q would be the Go method Client, the generated UpstreamHandler's field; named %q", o, short, got)
				case renamed:
					im.notes.add("%s: tool name %q is taken; named %q", o, short, got)
				case short != name:
					im.notes.add("%s: tool name %q is longer than %d characters; named %q", o, name, maxToolName, got)
				}
				im.res.Tools[got] = o.String()
				im.res.countTags(op.Tags)
				tools.Set(got, im.tool(o, got, x))
				// The operation stays with the tool when a person renames it
				// (see Reimport).
				tools.N.Content[len(tools.N.Content)-2].HeadComment = provenance + o.String()
			}
		}
	}
	if tools.Len() == 0 {
		return nil, fmt.Errorf("no operation selected (the description has %d)", im.res.Operations)
	}
	types := im.types(tools)
	im.notes.add(annotationsNote)
	if im.awsOps > 0 {
		im.notes.add(awsNote, im.awsOps)
	}
	info := im.doc.Info
	upstream := im.upstreamNode(envPrefix(im.serverName(info)))
	// The parsed description is most of the memory (GitHub's: ~380 MB);
	// let it go before the spec is encoded, so the two never add up: the
	// converter's and the security requirements' references into it too
	// (Graph's: 190 MB of libopenapi's nodes were still held by them).
	im.doc, im.conv, im.opSecurity = nil, nil, nil
	runtime.GC()
	return im.write(info, upstream, types, tools)
}

// toolNameRE is MCP's (and the spec's) tool name, length aside.
var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// toolName is the operationId in snake_case, else method and path words
// (get_pets_pet_id).
func toolName(o operation) string {
	if n := snake(o.op.OperationId); n != "" {
		return n
	}
	return snake(o.method + " " + o.path)
}

// x-mcp on an operation: false (or {exclude: true}) leaves it out, true (or
// {include: true}) takes it whatever the selection; name and description
// replace the derived ones.
type xmcpExt struct {
	include, exclude  bool
	name, description string
	hints             []hint // readOnlyHint, destructiveHint, idempotentHint
}

type hint struct {
	key   string
	value bool
}

func xmcp(op *v3.Operation) xmcpExt {
	var x xmcpExt
	if op.Extensions == nil {
		return x
	}
	n := op.Extensions.GetOrZero("x-mcp")
	if n == nil {
		return x
	}
	if n.Tag == "!!bool" {
		x.include, x.exclude = n.Value == "true", n.Value == "false"
		return x
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1].Value
		switch k {
		case "include":
			x.include = v == "true"
		case "exclude":
			x.exclude = v == "true"
		case "name":
			x.name = v
		case "description":
			x.description = v
		case "readOnlyHint", "destructiveHint", "idempotentHint":
			if v == "true" || v == "false" {
				x.hints = append(x.hints, hint{k, v == "true"})
			}
		}
	}
	return x
}

func (im *importer) selected(o operation, x xmcpExt) bool {
	if x.exclude {
		return false
	}
	if x.include {
		return true
	}
	o2 := im.opts
	matchOp := func(list []string) bool {
		return slices.Contains(list, o.op.OperationId) || slices.Contains(list, toolName(o))
	}
	matchPath := func(list []string) bool {
		return slices.ContainsFunc(list, func(g string) bool { return glob(g, o.path) })
	}
	matchTag := func(list []string) bool {
		return slices.ContainsFunc(o.op.Tags, func(t string) bool { return slices.Contains(list, t) })
	}
	if len(o2.Tags)+len(o2.Paths)+len(o2.Operations) > 0 && !matchTag(o2.Tags) && !matchPath(o2.Paths) && !matchOp(o2.Operations) {
		return false
	}
	return !matchTag(o2.ExcludeTags) && !matchPath(o2.ExcludePaths) && !matchOp(o2.ExcludeOperations)
}

// glob matches s against a pattern where * is any run of characters.
func glob(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}

// nameTypes gives every component schema a spec type name: its Go
// spelling (simple-user → SimpleUser), unique.
func (im *importer) nameTypes() {
	schemas := im.componentSchemas()
	names := im.conv.names
	inline := inlineTypeNames(schemas, im.conv.targets)
	im.conv.inlineNames = inline
	for name := range schemas.KeysFromOldest() {
		t := naming.Exported(name)
		if t == "" || !(t[0] >= 'A' && t[0] <= 'Z') {
			t = "T" + t
		}
		if owner, ok := inline[t]; ok {
			im.notes.add("components.schemas.%s: %s is a Go name gen makes for %s; named %sType", name, t, owner, t)
			t += "Type"
		}
		got, renamed := names.take(t)
		if renamed {
			got = strings.ReplaceAll(got, "_", "")
			im.notes.add("components.schemas.%s: type name %s is taken; named %s", name, t, got)
		}
		im.conv.typeNames[name] = got
	}
}

// inlineTypeNames are the Go names gen makes from the components' own
// names: the types of inline enums, consts, unions and objects of their
// properties (Owner + Property) and the constants of enums (Type + Value), mapped to the
// component they come from. A component of such a name would collide. A
// property that other schemas refer to is not inline but a type of its own
// (see hoist.go), named as gen would name it inline.
func inlineTypeNames(schemas *orderedmap.Map[string, *base.SchemaProxy], shared map[*oyaml.Node]string) map[string]string {
	out := map[string]string{}
	constants := func(prefix string, s *base.Schema, owner string) {
		for _, v := range s.Enum {
			out[prefix+naming.Exported(v.Value)] = owner
		}
	}
	for name, sp := range schemas.FromOldest() {
		s := sp.Schema()
		if s == nil {
			continue
		}
		owner := naming.Exported(name)
		constants(owner, s, name)
		if s.Properties == nil {
			continue
		}
		for prop, p := range s.Properties.FromOldest() {
			if p.IsReference() {
				continue
			}
			if low := p.GoLow(); low != nil && shared[low.GetValueNode()] != "" {
				continue
			}
			if ps := p.Schema(); ps != nil && (len(ps.Enum) > 0 || ps.Const != nil || isUnion(ps) || (ps.Properties != nil && ps.Properties.Len() > 0)) {
				out[owner+naming.Exported(prop)] = name
				constants(owner+naming.Exported(prop), ps, name)
			}
		}
	}
	return out
}

// isUnion reports whether gen makes a union type of a schema: more than
// one variant (or type) besides null.
func isUnion(s *base.Schema) bool {
	variants := 0
	for _, list := range [][]*base.SchemaProxy{s.OneOf, s.AnyOf} {
		for _, v := range list {
			if vs := v.Schema(); v.IsReference() || vs == nil || !slices.Equal(vs.Type, []string{"null"}) {
				variants++
			}
		}
	}
	types, _ := typesOf(s)
	return variants > 1 || len(types) > 1
}

// tool converts one operation.
func (im *importer) tool(o operation, name string, x xmcpExt) *yaml.Node {
	t := newMap()
	op := o.op
	summary := strings.TrimSpace(op.Summary)
	desc := strings.TrimSpace(op.Description)
	if x.description != "" {
		desc = x.description
	}
	if summary != "" {
		t.Set("title", str(summary))
	}
	switch {
	case desc != "":
		t.Set("description", str(desc))
	case summary != "":
		t.Set("description", str(summary))
	default:
		t.Set("description", str(o.String()))
	}
	t.Set("annotations", flow(annotations(im.awsMethod(o), x)))
	for _, h := range x.hints {
		im.notes.add("%s: %s: %v from its x-mcp", o, h.key, h.value)
	}
	in, b := im.input(o, name)
	if in.Len() > 0 {
		t.Set("input", in.N)
	}
	if out, ok := im.output(o, name); ok {
		t.Set("output", flow(out))
	}
	b.checkPath(o.path)
	if b.why != "" {
		im.notes.add("%s: no http binding (%s): implement tool %q by hand", o, b.why, name)
	} else {
		t.Set("http", b.httpNode(o))
	}
	im.opSecurity = append(im.opSecurity, op.Security)
	return t.N
}

// annotations follow HTTP's method semantics (RFC 9110 §9.2): GET, HEAD
// and OPTIONS are safe (read-only); PUT and DELETE are idempotent; every
// method that is not safe is destructive, as MCP assumes of a tool that
// is not read-only, unless the operation's x-mcp says otherwise (a POST
// that only searches: x-mcp: {destructiveHint: false}).
func annotations(method string, x xmcpExt) ymap {
	a := newMap()
	readOnly := false
	switch strings.ToUpper(method) {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		readOnly = true
		a.Set("readOnlyHint", boolean(true))
	case http.MethodPut, http.MethodDelete:
		a.Set("readOnlyHint", boolean(false))
		a.Set("destructiveHint", boolean(true))
		a.Set("idempotentHint", boolean(true))
	default:
		a.Set("readOnlyHint", boolean(false))
		a.Set("destructiveHint", boolean(true))
	}
	for _, h := range x.hints {
		if h.key == "readOnlyHint" && h.value && !readOnly {
			a.Del("destructiveHint")
			a.Del("idempotentHint")
		}
		a.Set(h.key, boolean(h.value))
	}
	a.Set("openWorldHint", boolean(true))
	return a
}

// annotationsNote says how the importer decided the tools' hints.
const annotationsNote = "annotations: from each operation's method: GET, HEAD and OPTIONS read-only; PUT and DELETE idempotent; " +
	"every other method destructive (MCP's assumption for a tool that is not read-only: a POST may delete); " +
	"an operation's x-mcp readOnlyHint, destructiveHint or idempotentHint overrides"

// input merges the parameters (path, query, header, cookie) and the JSON
// body's properties into one object, and says where each goes in the
// request. A body property whose name a parameter already has is renamed
// body_NAME; a body that is not an object is the property "body".
func (im *importer) input(o operation, tool string) (ymap, *binding) {
	where := "tools." + tool + ".input"
	props := newMap()
	goNames := map[string]string{}
	var required []string
	source := map[string]string{} // input property → where it comes from
	b := &binding{}
	if proto := im.awsProtocol(o); proto != "" {
		b.aws = &awsTables{names: map[string]string{}, members: map[string]string{}, ec2: proto == "ec2"}
		im.awsOps++
	}
	add := func(name string, sch ymap, req bool, from string) bool {
		orig := name
		if g := naming.Exported(name); goNames[g] != "" || g == "" {
			name = from + "_" + snake(name)
			first := goNames[g]
			im.notes.add("%s: %s %q clashes with the %s %q; input property named %q", o, describeIn(from), orig, describeIn(source[first]), first, name)
		}
		source[name] = from
		if !im.conv.addProperty(props, goNames, name, sch, where) {
			if from == "path" || req {
				b.cannot("%s %q has no input property", describeIn(from), orig)
			}
			return false
		}
		if req {
			required = append(required, name)
		}
		return true
	}
	// Operation parameters override path item ones of the same name and place.
	params := map[string]*v3.Parameter{}
	var order []string
	for _, list := range [][]*v3.Parameter{o.item.Parameters, o.op.Parameters} {
		for _, p := range list {
			if p == nil {
				continue
			}
			key := p.In + ":" + p.Name
			if _, ok := params[key]; !ok {
				order = append(order, key)
			}
			params[key] = p
		}
	}
	for _, key := range order {
		p := im.contentScalar(o, params[key])
		sch := im.conv.schema(p.Schema, where+"."+p.Name, 0)
		im.textParam(o, p, sch)
		if d := strings.TrimSpace(p.Description); d != "" && sch.Get("description") == nil && sch.Get("$ref") == nil {
			sch.Set("description", str(d))
		}
		if !slices.Contains([]string{"path", "query", "header", "cookie"}, p.In) {
			b.cannot("parameter %q is in %q", p.Name, p.In)
		} else if why := paramShape(p); why != "" && (b.aws == nil || p.In != "query") {
			b.cannot("%s %q %s", describeIn(p.In), p.Name, why)
		}
		if add(p.Name, sch, p.In == "path" || (p.Required != nil && *p.Required), p.In) {
			pl := placement{prop: props.N.Content[len(props.N.Content)-2].Value, in: p.In, wire: p.Name}
			switch {
			case p.In == "query" && b.aws != nil:
				shape, _ := awsShape(p.Schema)
				pl.wire = b.aws.wire(p.Name, "", shape)
				b.aws.walk(pl.wire, shape, nil)
			case p.In == "query":
				pl.style, pl.explode = queryStyle(p)
			}
			b.params = append(b.params, pl)
		}
	}
	if rb := o.op.RequestBody; rb != nil && rb.Content != nil {
		media, why := im.bodyMedia(o, rb.Content, b)
		switch {
		case media == nil:
			im.notes.add("%s: request body has no media type mcpgen can send (%s): %s; left out", o, strings.Join(keys(rb.Content), ", "), why)
			b.cannot("its request body is %s", why)
		case b.contentType != "":
			// A string sent as it is.
			text := newMap()
			text.Set("type", str("string"))
			if s := media.Schema; s != nil && s.Schema() != nil && strings.TrimSpace(s.Schema().Description) != "" {
				text.Set("description", str(strings.TrimSpace(s.Schema().Description)))
			} else {
				text.Set("description", str("The request body, sent as "+b.contentType+"."))
			}
			if add("body", text, rb.Required != nil && *rb.Required, "body") {
				b.body = props.N.Content[len(props.N.Content)-2].Value
			}
		case media.Schema != nil:
			body := im.conv.schema(media.Schema, where+".body", 0)
			bodyRequired := rb.Required != nil && *rb.Required
			if ref := body.Get("$ref"); ref != nil {
				if s := media.Schema.Schema(); s != nil && s.Properties != nil && s.Properties.Len() > 0 && len(s.AllOf) == 0 {
					body = im.conv.inline(media.Schema, where+".body", 0)
				}
			}
			if bp := body.Get("properties"); bp != nil {
				req := map[string]bool{}
				if r := body.Get("required"); r != nil && bodyRequired {
					for _, n := range r.Content {
						req[n.Value] = true
					}
				}
				for i := 0; i+1 < len(bp.Content); i += 2 {
					wire := bp.Content[i].Value
					if slices.Contains(b.files, wire) {
						fileProp(ymap{N: bp.Content[i+1]})
					}
					if add(wire, ymap{N: bp.Content[i+1]}, req[wire], "body") {
						pl := placement{prop: props.N.Content[len(props.N.Content)-2].Value, in: "body", wire: wire}
						if b.aws != nil {
							pl.wire = b.aws.bodyField(media.Schema.Schema(), wire)
						}
						b.params = append(b.params, pl)
					}
				}
			} else if add("body", body, bodyRequired, "body") {
				b.body = props.N.Content[len(props.N.Content)-2].Value
			}
		}
	}
	in := newMap()
	if props.Len() == 0 {
		return in, b
	}
	in.Set("properties", props.N)
	if len(required) > 0 {
		in.Set("required", strList(required))
	}
	return in, b
}

// describeIn names where an input property comes from, for notes.
func describeIn(in string) string {
	if in == "body" {
		return "body property"
	}
	return in + " parameter"
}

// output is the schema of the first 2xx response with JSON content.
func (im *importer) output(o operation, tool string) (ymap, bool) {
	if o.op.Responses == nil || o.op.Responses.Codes == nil {
		return ymap{}, false
	}
	for code, r := range o.op.Responses.Codes.FromOldest() {
		if !strings.HasPrefix(code, "2") || r == nil || r.Content == nil {
			continue
		}
		media := jsonMedia(r.Content)
		if media == nil || media.Schema == nil {
			continue
		}
		return im.conv.schema(media.Schema, "tools."+tool+".output", 0), true
	}
	return ymap{}, false
}
