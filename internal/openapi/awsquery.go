package openapi

import (
	"maps"
	"slices"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	"gopkg.in/yaml.v3"
)

// AWS's query protocol (RDS, SQS, SNS, IAM, CloudFormation…) and EC2's
// variant of it, as APIs.guru's descriptions of them say it (converted
// from the AWS SDK's models by aws2openapi): each operation is a path
// "/#Action=Name" whose Action and Version are query parameters, a GET
// with every input property a query parameter, a POST with a text/xml
// body of the input structure. On the wire both send name/value pairs,
// the POST as a form body (application/x-www-form-urlencoded), nested
// values named as runtime/upstream's AWSQuery writes them. The
// description's xml objects carry the names: a list's items'
// xml.name names them (Tags.Tag.1; default member), a list or map with
// xml.wrapped: false is flattened (no member or entry level), a
// property's xml.name is its wire name. EC2's protocol flattens every
// list and capitalizes each name.

// awsNote says what the import did with AWS's query protocol, and what
// it could not.
const awsNote = "AWS query protocol: %d operations (/#Action=…) bound as AWS takes them (awsQuery): a GET's parameters " +
	"and a POST's form body as name/value pairs (Tags.member.1.Key=…), nested names from the description's xml names; " +
	"a GET whose action does not read (Describe…, List…, Get…) is annotated as the POST it also is; " +
	"a map's entries go as key and value, as the description names no others (SQS takes Name and Value: edit awsQuery " +
	"or the handler); AWS's answers are XML, returned as text; AWS Signature Version 4 is no upstream.auth kind: " +
	"point baseUrlEnv at a signing proxy or an endpoint that does not check it"

// awsProtocol is "query" or "ec2" for an operation of AWS's query
// protocol, "" for any other.
func (im *importer) awsProtocol(o operation) string {
	if awsAction(o.path) == "" {
		return ""
	}
	if im.awsEC2 {
		return "ec2"
	}
	return "query"
}

// awsMethod is the method whose semantics an operation's annotations
// follow: AWS's query protocol takes every action by GET as well as POST,
// so a GET is read-only only when its action reads (Describe…, List…,
// Get…, as AWS names them); any other is taken as the POST it also is.
func (im *importer) awsMethod(o operation) string {
	if im.awsProtocol(o) == "" || !strings.EqualFold(o.method, "get") {
		return o.method
	}
	action := awsAction(o.path)
	for _, verb := range []string{"Describe", "List", "Get"} {
		if strings.HasPrefix(action, verb) {
			return o.method
		}
	}
	return "post"
}

// awsAction is the action a path's fragment names (/#Action=AddTags,
// ImportExport's /#Operation=CancelJob&Action=CancelJob), "" for none.
func awsAction(path string) string {
	_, frag, ok := strings.Cut(path, "#")
	if !ok {
		return ""
	}
	for _, kv := range strings.Split(frag, "&") {
		if action, ok := strings.CutPrefix(kv, "Action="); ok {
			return action
		}
	}
	return ""
}

// isAWSEC2 reports whether the description is of Amazon EC2, whose query
// protocol differs (its info says the provider and service).
func isAWSEC2(info *base.Info) bool {
	if info == nil || info.Extensions == nil {
		return false
	}
	provider, service := info.Extensions.GetOrZero("x-providerName"), info.Extensions.GetOrZero("x-serviceName")
	return provider != nil && service != nil && provider.Value == "amazonaws.com" && service.Value == "ec2"
}

// awsTables are the names a binding's awsQuery mapping writes.
type awsTables struct {
	names, members map[string]string
	flattened      []string
	maps           []string
	ec2            bool
}

// node is the awsQuery mapping, or nil when every value has the defaults
// and nothing is nested: an empty mapping still says the protocol, so it
// is written whenever the operation is AWS's.
func (t *awsTables) node() *yaml.Node {
	m := newMap()
	table := func(key string, names map[string]string) {
		if len(names) == 0 {
			return
		}
		n := newMap()
		for _, k := range slices.Sorted(maps.Keys(names)) {
			n.Set(k, str(names[k]))
		}
		m.Set(key, flow(n))
	}
	table("names", t.names)
	table("members", t.members)
	if len(t.flattened) > 0 {
		m.Set("flattened", flowList(t.flattened))
	}
	if len(t.maps) > 0 {
		m.Set("maps", flowList(t.maps))
	}
	return flow(m)
}

func flowList(items []string) *yaml.Node {
	n := strList(items)
	n.Style = yaml.FlowStyle
	return n
}

// awsShape is a schema as AWS's descriptions write a member: allOf of a
// $ref to the shape and a part with the member's xml name (and
// description). It returns the shape and the xml name.
func awsShape(sp *base.SchemaProxy) (*base.Schema, string) {
	if sp == nil {
		return nil, ""
	}
	s := sp.Schema()
	if s == nil {
		return nil, ""
	}
	name := ""
	if s.XML != nil {
		name = s.XML.Name
	}
	if len(s.AllOf) == 0 {
		return s, name
	}
	var shape *base.Schema
	for _, part := range s.AllOf {
		ps := part.Schema()
		if ps == nil {
			continue
		}
		if ps.XML != nil && ps.XML.Name != "" && name == "" {
			name = ps.XML.Name
		}
		types, _ := typesOf(ps)
		if shape == nil && (len(types) > 0 || ps.Items != nil || ps.Properties != nil || ps.AdditionalProperties != nil || part.IsReference()) {
			shape = ps
		}
	}
	if shape == nil {
		shape = s
	}
	return shape, name
}

// unwrapped reports whether s says xml.wrapped: false (the SDK's
// flattened), written rather than defaulted.
func unwrapped(s *base.Schema) bool {
	if s == nil || s.XML == nil || s.XML.Wrapped {
		return false
	}
	low := s.XML.GoLow()
	return low != nil && !low.Wrapped.IsEmpty()
}

// wire is the name a member is sent under: its xml name (EC2 capitalizes
// it), else its own; a flattened list of the query protocol is named by
// its items, as the SDKs send it (SQS's Entries go as
// SendMessageBatchRequestEntry.1.Id).
func (t *awsTables) wire(name, xmlName string, shape *base.Schema) string {
	w := name
	if xmlName != "" {
		w = xmlName
	}
	if t.ec2 {
		return capitalize(w)
	}
	if shape != nil && isArray(shape) && unwrapped(shape) && shape.Items != nil && shape.Items.IsA() {
		if _, item := awsShape(shape.Items.A); item != "" {
			return item
		}
	}
	return w
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func isArray(s *base.Schema) bool {
	types, _ := typesOf(s)
	return slices.Contains(types, "array") || (len(types) == 0 && s.Items != nil)
}

// walk records the names of the value at path, of shape s, and of what it
// holds; seen stops at a shape that holds itself.
func (t *awsTables) walk(path string, s *base.Schema, seen []*base.Schema) {
	if s == nil || len(seen) > 12 || slices.Contains(seen, s) {
		return
	}
	seen = append(seen, s)
	switch {
	case isArray(s):
		if t.ec2 || unwrapped(s) {
			t.flattened = append(t.flattened, path)
		}
		if s.Items == nil || !s.Items.IsA() {
			return
		}
		item, name := awsShape(s.Items.A)
		if !t.ec2 && !unwrapped(s) && name != "" && name != "member" {
			t.members[path] = name
		}
		t.walk(path, item, seen)
	case s.Properties != nil && s.Properties.Len() > 0:
		for prop, ps := range s.Properties.FromOldest() {
			shape, xmlName := awsShape(ps)
			if w := t.wire(prop, xmlName, shape); w != prop {
				t.names[path+"."+prop] = w
			}
			t.walk(path+"."+prop, shape, seen)
		}
	case s.AdditionalProperties != nil && s.AdditionalProperties.IsA():
		t.maps = append(t.maps, path)
		if unwrapped(s) {
			t.flattened = append(t.flattened, path)
		}
		vs, _ := awsShape(s.AdditionalProperties.A)
		t.walk(path, vs, seen)
	}
}

// bodyField is the wire name of the body's property prop, whose names it
// records: the body's shape is the input structure.
func (t *awsTables) bodyField(body *base.Schema, prop string) string {
	if body == nil || body.Properties == nil {
		return prop
	}
	shape, xmlName := awsShape(body.Properties.GetOrZero(prop))
	w := t.wire(prop, xmlName, shape)
	t.walk(w, shape, nil)
	return w
}
