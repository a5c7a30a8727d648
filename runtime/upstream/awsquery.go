package upstream

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// AWSQuery is how AWS's query protocol (RDS, SQS, SNS, IAM, EC2 and the
// other services whose API takes Action=…&Version=…) names a parameter's
// nested values: every query parameter, and every field of a form body,
// is flattened into name/value pairs, as the AWS SDKs write them:
//
//	a structure's property    Name.Prop=v          (Prop: Names, else the property's own name)
//	a list's item N (from 1)  Name.member.N=v      (member: Members, else "member")
//	a flattened list's item   Name.N=v             (Flattened)
//	a map's entry N           Name.entry.N.key=k&Name.entry.N.value=v (flattened: Name.N.key…)
//
// So Tags, a list of {Key, Value}, is Tags.member.1.Key=k&Tags.member.1.Value=v.
// An empty list and null send nothing.
//
// Each table is keyed by a value's path: the parameter's name on the wire,
// then the names of the properties it goes through, dot-separated (a list's
// items and a map's values are at the path of the list or map itself):
// Filters.Values is the Values property of each item of the list Filters.
type AWSQuery struct {
	// Names are the wire names of nested properties whose name is not
	// their property's (EC2's TagSpecifications.Tags is TagSpecification.N.Tag.N).
	Names map[string]string
	// Members are the item names of lists whose items are not "member".
	Members map[string]string
	// Flattened are the lists and maps sent without the member or entry
	// level.
	Flattened []string
	// Maps are the values that are maps (free keys), not structures.
	Maps []string
}

// AWSQuery sends the request's query parameters and form fields as AWS's
// query protocol names nested values (see AWSQuery); scalars are sent as
// they are.
func (r *Request) AWSQuery(q AWSQuery) { r.aws = &q }

// pairs adds the pairs of v, decoded in order, at key (its name on the
// wire) and path (the table key, see AWSQuery). add gets each value as
// text, not escaped.
func (q *AWSQuery) pairs(add func(key, value string), key, path string, v any) {
	switch x := v.(type) {
	case nil:
	case []any:
		item := "." + q.member(path)
		if slices.Contains(q.Flattened, path) {
			item = ""
		}
		for i, it := range x {
			q.pairs(add, key+item+"."+strconv.Itoa(i+1), path, it)
		}
	case object:
		if slices.Contains(q.Maps, path) {
			entry := ".entry"
			if slices.Contains(q.Flattened, path) {
				entry = ""
			}
			for i, m := range x {
				at := key + entry + "." + strconv.Itoa(i+1)
				add(at+".key", m.key)
				q.pairs(add, at+".value", path, m.value)
			}
			return
		}
		for _, m := range x {
			name := m.key
			if n := q.Names[path+"."+m.key]; n != "" {
				name = n
			}
			q.pairs(add, key+"."+name, path+"."+m.key, m.value)
		}
	default:
		s, _ := scalarJSON(x)
		add(key, s)
	}
}

func (q *AWSQuery) member(path string) string {
	if m := q.Members[path]; m != "" {
		return m
	}
	return "member"
}

// awsFormBody is a JSON object body as form fields, each named as
// AWSQuery says, in the object's order.
func (q *AWSQuery) awsFormBody(jsonText []byte) ([]byte, error) {
	obj, err := formObject(jsonText)
	if err != nil {
		return nil, err
	}
	var pairs []string
	for _, m := range obj {
		q.pairs(func(key, value string) { pairs = append(pairs, url.QueryEscape(key)+"="+url.QueryEscape(value)) }, m.key, m.key, m.value)
	}
	return []byte(strings.Join(pairs, "&")), nil
}
