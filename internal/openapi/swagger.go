package openapi

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"gopkg.in/yaml.v3"
)

// fromSwagger converts a Swagger 2.0 description (JSON or YAML) to an
// OpenAPI 3.0 one with kin-openapi's openapi2conv, which Import then reads
// as any other. kin-openapi lives here and nowhere else. What the
// conversion cannot carry over (or carries over differently) is noted;
// what the description gets wrong is an error naming where.
func fromSwagger(data []byte, n *notes) ([]byte, error) {
	var tree yaml.Node
	if err := yaml.Unmarshal(data, &tree); err != nil || len(tree.Content) == 0 {
		return nil, fmt.Errorf("reading the Swagger 2.0 description: %v", err)
	}
	root := tree.Content[0]
	var doc2 openapi2.T
	if err := openapi2.UnmarshalFromData(data, &doc2); err != nil {
		if where := locateTypeError(root, err); where != nil {
			return nil, fmt.Errorf("the Swagger 2.0 description is invalid: %w", where)
		}
		return nil, fmt.Errorf("reading the Swagger 2.0 description: %w", err)
	}
	if err := checkRefs(root); err != nil {
		return nil, fmt.Errorf("the Swagger 2.0 description is invalid: %w", err)
	}
	if err := checkSwagger(&doc2, n); err != nil {
		return nil, fmt.Errorf("the Swagger 2.0 description is invalid: %w", err)
	}
	doc3, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("converting the Swagger 2.0 description to OpenAPI 3: %w", err)
	}
	out, err := json.Marshal(doc3)
	if err != nil {
		return nil, fmt.Errorf("converting the Swagger 2.0 description to OpenAPI 3: %w", err)
	}
	n.add("description: Swagger 2.0, converted to OpenAPI 3.0 by kin-openapi's openapi2conv")
	return keepOrder(root, out), nil
}

// checkSwagger finds what openapi2conv would refuse without saying where
// (two body parameters, body beside formData, an unknown OAuth flow), and
// notes what it converts with a loss. It also makes Swagger 2.0's default
// collectionFormat (csv) explicit on query arrays, which openapi2conv would
// otherwise take for OpenAPI 3's default (form, exploded: repeated
// parameters).
func checkSwagger(doc *openapi2.T, n *notes) error {
	if strings.Contains(doc.Host, "/") {
		return fmt.Errorf("host: %q is not a host name (with an optional port): a scheme goes in schemes, a path in basePath", doc.Host)
	}
	for _, name := range slices.Sorted(maps.Keys(doc.SecurityDefinitions)) {
		s := doc.SecurityDefinitions[name]
		if s == nil || s.Type != "oauth2" {
			continue
		}
		switch s.Flow {
		case "implicit", "accessCode", "password", "application":
		default:
			return fmt.Errorf("securityDefinitions.%s: OAuth2 flow %q is none of implicit, password, application, accessCode", name, s.Flow)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(doc.Parameters)) {
		collectionFormat(doc.Parameters[name], "parameters."+name, n)
	}
	for _, path := range slices.Sorted(maps.Keys(doc.Paths)) {
		item := doc.Paths[path]
		if item == nil {
			continue
		}
		for i, p := range item.Parameters {
			collectionFormat(p, fmt.Sprintf("paths.%s.parameters[%d]", path, i), n)
		}
		for _, method := range methodsInOrder {
			op := item.GetOperation(strings.ToUpper(method))
			if op == nil {
				continue
			}
			where := strings.ToUpper(method) + " " + path
			for _, p := range op.Parameters {
				collectionFormat(p, where+": parameter "+paramName(p), n)
			}
			if err := oneBody(doc, item, op, where); err != nil {
				return err
			}
			if len(op.Schemes) > 0 && !slices.Equal(op.Schemes, doc.Schemes) {
				n.add("%s: schemes %v differ from the description's; OpenAPI 3 has no per-operation schemes, so the server URL is the description's", where, op.Schemes)
			}
		}
	}
	return nil
}

// collectionFormat notes an array parameter whose Swagger 2.0
// serialization has no OpenAPI 3 equivalent, and sets csv where Swagger
// 2.0 implies it.
func collectionFormat(p *openapi2.Parameter, where string, n *notes) {
	if p == nil || p.Ref != "" || p.Type == nil || !p.Type.Is("array") {
		return
	}
	switch p.In {
	case "query":
		switch p.CollectionFormat {
		case "":
			p.CollectionFormat = "csv"
		case "tsv":
			n.add("%s: collectionFormat tsv has no OpenAPI 3 equivalent; sent as repeated parameters (%s=a&%s=b)", where, p.Name, p.Name)
		}
	case "path", "header":
		if f := p.CollectionFormat; f != "" && f != "csv" {
			n.add("%s: collectionFormat %s of a %s parameter has no OpenAPI 3 equivalent; sent comma-separated", where, f, p.In)
		}
	case "formData":
		if p.CollectionFormat != "multi" {
			n.add("%s: collectionFormat %s of a form parameter is not kept by the conversion; sent as repeated fields", where, cmp.Or(p.CollectionFormat, "csv"))
		}
	}
}

// oneBody checks that an operation has at most one body parameter and not
// both a body and form parameters, counting the path item's parameters the
// operation does not override.
func oneBody(doc *openapi2.T, item *openapi2.PathItem, op *openapi2.Operation, where string) error {
	var bodies, forms []string
	seen := map[string]bool{}
	count := func(list openapi2.Parameters) {
		for _, p := range list {
			p = resolveParam(doc, p)
			if p == nil || seen[p.In+" "+p.Name] {
				continue
			}
			seen[p.In+" "+p.Name] = true
			switch p.In {
			case "body":
				bodies = append(bodies, p.Name)
			case "formData":
				forms = append(forms, p.Name)
			}
		}
	}
	count(op.Parameters)
	count(item.Parameters)
	switch {
	case len(bodies) > 1:
		return fmt.Errorf("%s: %d body parameters (%s); Swagger 2.0 allows one", where, len(bodies), strings.Join(bodies, ", "))
	case len(bodies) == 1 && len(forms) > 0:
		return fmt.Errorf("%s: body parameter %s beside form parameters (%s); Swagger 2.0 allows one or the other", where, bodies[0], strings.Join(forms, ", "))
	}
	return nil
}

// resolveParam follows a reference to the description's parameters.
func resolveParam(doc *openapi2.T, p *openapi2.Parameter) *openapi2.Parameter {
	if p != nil && strings.HasPrefix(p.Ref, "#/parameters/") {
		return doc.Parameters[strings.TrimPrefix(p.Ref, "#/parameters/")]
	}
	return p
}

func paramName(p *openapi2.Parameter) string {
	if p.Name == "" && p.Ref != "" {
		return p.Ref
	}
	return p.Name
}

// keepOrder gives the converted description the original's order where
// openapi2conv's maps lost it: paths and definitions (the order of tools
// and types), and every mapping (properties, form fields) whose keys are
// those of a mapping (or of a list of form parameters) in the original.
// Without it the spec would list everything alphabetically.
func keepOrder(oroot *yaml.Node, conv []byte) []byte {
	var c yaml.Node
	if yaml.Unmarshal(conv, &c) != nil || len(c.Content) == 0 {
		return conv
	}
	orders := map[string][]string{}
	var record func(*yaml.Node)
	record = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.MappingNode:
			keys := make([]string, 0, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				keys = append(keys, n.Content[i].Value)
				record(n.Content[i+1])
			}
			sig := signature(keys)
			if _, ok := orders[sig]; !ok {
				orders[sig] = keys
			}
		case yaml.SequenceNode:
			var form []string
			for _, e := range n.Content {
				record(e)
				if in := lookup(e, "in"); in != nil && in.Value == "formData" {
					if name := lookup(e, "name"); name != nil {
						form = append(form, name.Value)
					}
				}
			}
			if sig := signature(form); len(form) > 0 && orders[sig] == nil {
				orders[sig] = form
			}
		}
	}
	croot := c.Content[0]
	record(oroot)
	var apply func(*yaml.Node)
	apply = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.MappingNode:
			if order := orders[signature(mapKeys(n))]; order != nil {
				orderLike(n, order)
			}
			for i := 1; i < len(n.Content); i += 2 {
				apply(n.Content[i])
			}
		case yaml.SequenceNode:
			for _, e := range n.Content {
				apply(e)
			}
		}
	}
	apply(croot)
	// paths and definitions may have gained or lost keys (extensions,
	// schemas made of form parameters): order what the original has.
	if p, cp := lookup(oroot, "paths"), lookup(croot, "paths"); p != nil && cp != nil {
		orderLike(cp, mapKeys(p))
	}
	if d, cs := lookup(oroot, "definitions"), lookup(lookup(croot, "components"), "schemas"); d != nil && cs != nil {
		orderLike(cs, mapKeys(d))
	}
	out, err := yaml.Marshal(&c)
	if err != nil {
		return conv
	}
	return out
}

func signature(keys []string) string {
	s := slices.Clone(keys)
	slices.Sort(s)
	return strings.Join(s, "\x00")
}

func mapKeys(n *yaml.Node) []string {
	keys := make([]string, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		keys = append(keys, n.Content[i].Value)
	}
	return keys
}

// lookup is the value of key in the mapping n, nil when n is no mapping.
func lookup(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	return ymap{N: n}.Get(key)
}

// orderLike puts a mapping's keys in order's order; keys order does not name
// keep their order, after the others.
func orderLike(n *yaml.Node, order []string) {
	rank := make(map[string]int, len(order))
	for i, k := range order {
		rank[k] = i
	}
	type pair struct{ k, v *yaml.Node }
	pairs := make([]pair, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		pairs = append(pairs, pair{n.Content[i], n.Content[i+1]})
	}
	slices.SortStableFunc(pairs, func(a, b pair) int {
		ra, oka := rank[a.k.Value]
		rb, okb := rank[b.k.Value]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	for i, p := range pairs {
		n.Content[2*i], n.Content[2*i+1] = p.k, p.v
	}
}

// walkYAML calls fn on every value of the tree with its place
// (paths./pets.get.parameters[0].name) and its key (nil in a list) until
// fn returns false.
func walkYAML(n *yaml.Node, where string, key *yaml.Node, fn func(where string, key, val *yaml.Node) bool) bool {
	if !fn(where, key, n) {
		return false
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			w := k.Value
			if where != "" {
				w = where + "." + k.Value
			}
			if !walkYAML(n.Content[i+1], w, k, fn) {
				return false
			}
		}
	case yaml.SequenceNode:
		for i, e := range n.Content {
			if !walkYAML(e, fmt.Sprintf("%s[%d]", where, i), nil, fn) {
				return false
			}
		}
	}
	return true
}

// locateTypeError names the place of a value of the wrong type, which
// kin-openapi's decoder reports by its Go field alone ("cannot unmarshal
// number into field Parameter.collectionFormat of type string", as text:
// it rewrites encoding/json's error): the first value under that key of
// that JSON type.
func locateTypeError(root *yaml.Node, err error) error {
	m := typeErrorRE.FindStringSubmatch(err.Error())
	if m == nil {
		return nil
	}
	got, field, want := m[1], m[2][strings.LastIndex(m[2], ".")+1:], m[3]
	var found error
	walkYAML(root, "", nil, func(where string, key, val *yaml.Node) bool {
		if key != nil && key.Value == field && jsonKind(val) == got {
			found = fmt.Errorf("%s (line %d): %s, where Swagger 2.0 has %s", where, val.Line, article(got), goKind(want))
			return false
		}
		return true
	})
	return found
}

var typeErrorRE = regexp.MustCompile(`cannot unmarshal (\w+) into (?:Go )?(?:struct )?field ([\w.$-]+) of type ([^\s,]+)`)

// jsonKind is the JSON type of a YAML value, as encoding/json names it.
func jsonKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	case yaml.AliasNode:
		return jsonKind(n.Alias)
	}
	switch n.Tag {
	case "!!int", "!!float":
		return "number"
	case "!!bool":
		return "bool"
	case "!!null":
		return "null"
	}
	return "string"
}

func article(kind string) string {
	switch kind {
	case "object", "array":
		return "an " + kind
	case "bool":
		return "a boolean"
	}
	return "a " + kind
}

// goKind says what a Go type of kin-openapi's model holds, in JSON's
// words.
func goKind(t string) string {
	t = strings.TrimLeft(t, "*")
	switch {
	case t == "string":
		return "a string"
	case t == "bool":
		return "a boolean"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasPrefix(t, "float"):
		return "a number"
	case t == "openapi3.Types":
		return "a string or a list"
	case strings.HasPrefix(t, "[]"), strings.HasSuffix(t, ".Parameters"), strings.HasSuffix(t, ".SecurityRequirements"), strings.HasSuffix(t, ".Tags"), strings.HasSuffix(t, ".SchemaRefs"):
		return "a list"
	}
	return "an object"
}

// checkRefs requires every $ref to point into the description itself, at
// something that is there: openapi2conv would report a missing one by its
// OpenAPI 3 name, and an external one without where.
func checkRefs(root *yaml.Node) error {
	var found error
	walkYAML(root, "", nil, func(where string, key, val *yaml.Node) bool {
		if key == nil || key.Value != "$ref" || val.Kind != yaml.ScalarNode {
			return true
		}
		ref := val.Value
		switch {
		case !strings.HasPrefix(ref, "#"):
			found = fmt.Errorf("%s (line %d): %q is a reference to another file; mcpgen reads one self-contained description (bundle it first)", where, val.Line, ref)
		case pointer(root, ref[1:]) == nil:
			found = fmt.Errorf("%s (line %d): %q points at nothing in the description", where, val.Line, ref)
		}
		return found == nil
	})
	return found
}

// pointer resolves a JSON pointer (/definitions/Pet) in the tree.
func pointer(root *yaml.Node, p string) *yaml.Node {
	n := root
	if p == "" {
		return n
	}
	if !strings.HasPrefix(p, "/") {
		return nil
	}
	for _, tok := range pointerTokens(p[1:]) {
		switch n.Kind {
		case yaml.MappingNode:
			n = lookup(n, tok)
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil
			}
			n = n.Content[i]
		default:
			return nil
		}
		if n == nil {
			return nil
		}
	}
	return n
}

// pointerTokens are the reference tokens of a JSON pointer written in a
// URI fragment (a/b~1c/d%20e, without its leading /): percent-decoded
// first, then split, then ~1 and ~0 unescaped (RFC 6901, section 6).
func pointerTokens(p string) []string {
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	toks := strings.Split(p, "/")
	for i, tok := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	}
	return toks
}
