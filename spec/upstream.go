package spec

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Upstream is the `upstream:` section: the HTTP API that tools with an
// `http:` binding call (runtime/upstream). Secrets are never written in the
// spec: the auth names environment variables.
//
//	upstream:
//	  baseUrl: https://petstore3.swagger.io/api/v3
//	  baseUrlEnv: PETSTORE_BASE_URL
//	  timeout: 30s
//	  auth: {apiKey: {in: header, name: api_key, env: PETSTORE_API_KEY}}
type Upstream struct {
	Pos        Pos
	BaseURL    string
	BaseURLPos Pos
	// BaseURLEnv names an environment variable that, when set, replaces
	// BaseURL at run time.
	BaseURLEnv string
	// Timeout bounds each call; 0 when absent (runtime/upstream's default).
	Timeout time.Duration
	// MaxResponseBytes bounds an answer's body; 0 when absent.
	MaxResponseBytes int64
	Auth             *UpstreamAuth
}

// UpstreamAuth is `upstream.auth`: exactly one of its kinds.
type UpstreamAuth struct {
	Pos               Pos
	APIKey            *APIKeyAuth
	Bearer            *BearerAuth
	ClientCredentials *ClientCredentialsAuth
}

// APIKeyAuth sends a key from the environment in a header, query parameter
// or cookie.
type APIKeyAuth struct {
	Pos   Pos
	In    string // "header", "query" or "cookie"
	InPos Pos
	Name  string
	Env   string
}

// BearerAuth sends "Authorization: Bearer" with a token from the
// environment.
type BearerAuth struct {
	Pos Pos
	Env string
}

// ClientCredentialsAuth gets a token with OAuth 2.0 client credentials.
type ClientCredentialsAuth struct {
	Pos             Pos
	TokenURL        string
	TokenURLPos     Pos
	ClientIDEnv     string
	ClientSecretEnv string
	Scopes          []string
}

// HTTPBinding is a tool's `http:` mapping: the upstream request a call of
// the tool becomes. Gen writes the call; the handler need not.
//
//	http:
//	  method: GET
//	  path: /pet/{petId}
//	  params: {petId: {in: path}, X-Trace: {in: header}}
type HTTPBinding struct {
	Pos       Pos
	Method    string
	MethodPos Pos
	Path      string
	PathPos   Pos
	// Params place the input's properties, in the order written.
	Params []*HTTPParam
	// Body names the property whose value is the whole JSON body; ""
	// makes the properties placed `in: body` the body's properties.
	Body    string
	BodyPos Pos
	// Form sends the body as application/x-www-form-urlencoded, nested
	// values deepObject style, instead of JSON.
	Form    bool
	FormPos Pos
	// Multipart sends the body as multipart/form-data: each property a
	// part (a scalar as text, a list one part per item, an object as JSON).
	Multipart    bool
	MultipartPos Pos
	// ContentType sends the body property, a string, as it is with this
	// Content-Type (text/plain, application/xml…) instead of JSON.
	ContentType    string
	ContentTypePos Pos
	// AWSQuery, when set, sends the query parameters and form fields as
	// AWS's query protocol names nested values (Tags.member.1.Key=…).
	AWSQuery *AWSQueryNames
}

// AWSQueryNames is a binding's `awsQuery:` mapping: the names AWS's query
// protocol gives nested values where they are not its defaults (see
// runtime/upstream's AWSQuery). Each table is keyed by a value's path:
// the parameter's wire name, then the properties it goes through
// (Filters.Values), a list's items and a map's values at the list's or
// map's own path.
type AWSQueryNames struct {
	Pos       Pos
	Names     map[string]string // nested properties' wire names
	Members   map[string]string // lists' item names (default member)
	Flattened []string          // lists and maps sent without the member or entry level
	Maps      []string          // values that are maps (free keys), sent as entry.N.key/value
	// PathPos holds the position of each path written, for messages.
	PathPos map[string]Pos
}

// HTTPParam places one input property in the request.
type HTTPParam struct {
	Pos      Pos // of the key
	Property string
	In       string // one of HTTPParamPlaces
	InPos    Pos
	// Name is the name on the wire (the header's, the query
	// parameter's, …); "" means the property's.
	Name string
	// Explode is false for a query array or object sent as one value
	// (?tag=a,b); nil and true repeat the name for an array and send an
	// object's properties as parameters of their own (OpenAPI's default
	// for form style). spaceDelimited and pipeDelimited default to false.
	Explode    *bool
	ExplodePos Pos
	// Style is a query parameter's OpenAPI style: "" or "form";
	// "spaceDelimited" and "pipeDelimited" (an array or object joined with
	// a space or |); "deepObject" (name[key]=value, objects and arrays,
	// nested). runtime/upstream's Style shows each on an example.
	Style    string
	StylePos Pos
}

// Exploded reports whether the parameter is sent exploded: as written, else
// true for form style (OpenAPI's default) and false for the delimited ones.
func (p *HTTPParam) Exploded() bool {
	if p.Explode != nil {
		return *p.Explode
	}
	return p.Style != "spaceDelimited" && p.Style != "pipeDelimited"
}

// WireName is the name the parameter has in the request.
func (p *HTTPParam) WireName() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Property
}

// HTTPMethods are the methods a binding may use.
var HTTPMethods = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH"}

// HTTPParamPlaces are where a binding may put an input property.
var HTTPParamPlaces = []string{"path", "query", "header", "cookie", "body"}

// apiKeyPlaces are where an API key may go.
var apiKeyPlaces = []string{"header", "query", "cookie"}

const (
	envSchema      = `{"type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_]*$"}`
	durationSchema = `{"type":"string","pattern":"^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$"}`
)

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// envName reads the name of an environment variable.
func (d *decoder) envName(n *yaml.Node, key string) string {
	s, ok := d.str(n, key)
	if ok && !envNameRE.MatchString(s) {
		d.errorf(posOf(n), "%s must name an environment variable (letters, digits and _), not %q", key, s)
	}
	return s
}

var upstreamFields = fields[*Upstream]{
	{key: "baseUrl", doc: "The API's absolute http(s) URL; a binding's path is appended to it.", schema: `{"type":"string","pattern":"^[Hh][Tt][Tt][Pp][Ss]?://"}`,
		decode: func(d *decoder, u *Upstream, e entry) {
			u.BaseURL, _ = d.str(e.value, "baseUrl")
			u.BaseURLPos = posOf(e.value)
		}},
	{key: "baseUrlEnv", doc: "An environment variable that, when set, replaces baseUrl at run time (such as PETSTORE_BASE_URL).", schema: envSchema,
		decode: func(d *decoder, u *Upstream, e entry) { u.BaseURLEnv = d.envName(e.value, "baseUrlEnv") }},
	{key: "timeout", doc: "How long one upstream call may take: a Go duration such as 30s (default 30s).", schema: durationSchema,
		decode: func(d *decoder, u *Upstream, e entry) {
			u.Timeout, _ = d.positiveDuration(e.value, "timeout", "30s or 2m")
		}},
	{key: "maxResponseBytes", doc: "The largest answer body read, in bytes (default 10485760, 10 MiB); a larger one fails the call.", schema: `{"type":"integer","minimum":1}`,
		decode: func(d *decoder, u *Upstream, e entry) {
			if n, ok := d.integer(e.value, "maxResponseBytes"); ok {
				if n < 1 {
					d.errorf(posOf(e.value), "maxResponseBytes must be at least 1, not %d", n)
					return
				}
				u.MaxResponseBytes = n
			}
		}},
	{key: "auth", doc: "How the server authenticates to the API, as itself (never with the MCP client's token): one of apiKey, bearer, clientCredentials, with secrets read from environment variables.", schema: defRef("UpstreamAuth"),
		decode: func(d *decoder, u *Upstream, e entry) { u.Auth = d.upstreamAuth(e.value) }},
}

func (d *decoder) upstream(n *yaml.Node) *Upstream {
	m, ok := d.mapping(n, "upstream")
	if !ok {
		return nil
	}
	u := &Upstream{Pos: posOf(n)}
	decodeMapping(d, m, u, upstreamFields, func(e entry) { d.unknownKey(e, "in upstream", upstreamFields.keys()) })
	return u
}

var upstreamAuthFields = fields[*UpstreamAuth]{
	{key: "apiKey", doc: "An API key from an environment variable, sent in a header, query parameter or cookie.", schema: defRef("APIKeyAuth"),
		decode: func(d *decoder, a *UpstreamAuth, e entry) { a.APIKey = d.apiKeyAuth(e.value) }},
	{key: "bearer", doc: "A bearer token from an environment variable, sent as Authorization: Bearer.", schema: defRef("BearerAuth"),
		decode: func(d *decoder, a *UpstreamAuth, e entry) { a.Bearer = d.bearerAuth(e.value) }},
	{key: "clientCredentials", doc: "OAuth 2.0 client credentials: a token from tokenUrl, kept until it expires.", schema: defRef("ClientCredentialsAuth"),
		decode: func(d *decoder, a *UpstreamAuth, e entry) { a.ClientCredentials = d.clientCredentialsAuth(e.value) }},
}

func (d *decoder) upstreamAuth(n *yaml.Node) *UpstreamAuth {
	m, ok := d.mapping(n, "auth")
	if !ok {
		return nil
	}
	a := &UpstreamAuth{Pos: posOf(n)}
	decodeMapping(d, m, a, upstreamAuthFields, func(e entry) { d.unknownKey(e, "in upstream.auth", upstreamAuthFields.keys()) })
	kinds := 0
	for _, set := range []bool{a.APIKey != nil, a.Bearer != nil, a.ClientCredentials != nil} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		d.errorf(a.Pos, "upstream.auth needs exactly one of %s", joinList(upstreamAuthFields.keys(), "or"))
	}
	return a
}

var apiKeyAuthFields = fields[*APIKeyAuth]{
	{key: "in", required: true, doc: "Where the key goes: header, query or cookie (required).", schema: stringEnum(apiKeyPlaces),
		decode: func(d *decoder, a *APIKeyAuth, e entry) {
			a.In, _ = d.str(e.value, "in")
			a.InPos = posOf(e.value)
		}},
	{key: "name", required: true, doc: "The header's, query parameter's or cookie's name (required).", schema: nonEmptyString,
		decode: func(d *decoder, a *APIKeyAuth, e entry) { a.Name, _ = d.str(e.value, "name") }},
	{key: "env", required: true, doc: "The environment variable holding the key (required).", schema: envSchema,
		decode: func(d *decoder, a *APIKeyAuth, e entry) { a.Env = d.envName(e.value, "env") }},
}

func (d *decoder) apiKeyAuth(n *yaml.Node) *APIKeyAuth {
	m, ok := d.mapping(n, "apiKey")
	if !ok {
		return nil
	}
	a := &APIKeyAuth{Pos: posOf(n)}
	decodeMapping(d, m, a, apiKeyAuthFields, func(e entry) { d.unknownKey(e, "in upstream.auth.apiKey", apiKeyAuthFields.keys()) })
	return a
}

var bearerAuthFields = fields[*BearerAuth]{
	{key: "env", required: true, doc: "The environment variable holding the token (required).", schema: envSchema,
		decode: func(d *decoder, b *BearerAuth, e entry) { b.Env = d.envName(e.value, "env") }},
}

func (d *decoder) bearerAuth(n *yaml.Node) *BearerAuth {
	m, ok := d.mapping(n, "bearer")
	if !ok {
		return nil
	}
	b := &BearerAuth{Pos: posOf(n)}
	decodeMapping(d, m, b, bearerAuthFields, func(e entry) { d.unknownKey(e, "in upstream.auth.bearer", bearerAuthFields.keys()) })
	return b
}

var clientCredentialsAuthFields = fields[*ClientCredentialsAuth]{
	{key: "tokenUrl", required: true, doc: "The OAuth token endpoint: an absolute http(s) URL (required).", schema: `{"type":"string","pattern":"^[Hh][Tt][Tt][Pp][Ss]?://"}`,
		decode: func(d *decoder, c *ClientCredentialsAuth, e entry) {
			c.TokenURL, _ = d.str(e.value, "tokenUrl")
			c.TokenURLPos = posOf(e.value)
		}},
	{key: "clientIdEnv", required: true, doc: "The environment variable holding the client id (required).", schema: envSchema,
		decode: func(d *decoder, c *ClientCredentialsAuth, e entry) { c.ClientIDEnv = d.envName(e.value, "clientIdEnv") }},
	{key: "clientSecretEnv", required: true, doc: "The environment variable holding the client secret (required).", schema: envSchema,
		decode: func(d *decoder, c *ClientCredentialsAuth, e entry) {
			c.ClientSecretEnv = d.envName(e.value, "clientSecretEnv")
		}},
	{key: "scopes", doc: "The scopes to ask for.", schema: listOf(stringSchema),
		decode: func(d *decoder, c *ClientCredentialsAuth, e entry) {
			items, _ := d.list(e.value, "scopes")
			for _, it := range items {
				if s, ok := d.str(it, "each scope"); ok {
					c.Scopes = append(c.Scopes, s)
				}
			}
		}},
}

func (d *decoder) clientCredentialsAuth(n *yaml.Node) *ClientCredentialsAuth {
	m, ok := d.mapping(n, "clientCredentials")
	if !ok {
		return nil
	}
	c := &ClientCredentialsAuth{Pos: posOf(n)}
	decodeMapping(d, m, c, clientCredentialsAuthFields, func(e entry) {
		d.unknownKey(e, "in upstream.auth.clientCredentials", clientCredentialsAuthFields.keys())
	})
	return c
}

var httpBindingFields = fields[*HTTPBinding]{
	{key: "method", required: true, doc: "The HTTP method: GET, PUT, POST, DELETE, OPTIONS, HEAD or PATCH (required).", schema: stringEnum(HTTPMethods),
		decode: func(d *decoder, h *HTTPBinding, e entry) {
			h.Method, _ = d.str(e.value, "method")
			h.MethodPos = posOf(e.value)
		}},
	{key: "path", required: true, doc: "The path after the upstream's baseUrl, with {name} for each path parameter, such as /pets/{petId} (required).", schema: `{"type":"string","pattern":"^/"}`,
		decode: func(d *decoder, h *HTTPBinding, e entry) {
			h.Path, _ = d.str(e.value, "path")
			h.PathPos = posOf(e.value)
		}},
	{key: "params", doc: "Where each input property goes: its name → {in: path|query|header|cookie|body, name, explode}. Every property but body's is listed.", schema: mapOf(defRef("HTTPParam")),
		decode: func(d *decoder, h *HTTPBinding, e entry) { h.Params = d.httpParams(e.value) }},
	{key: "body", doc: "The input property whose value is the whole JSON body. Absent: the properties placed in: body make up a JSON object body.", schema: nonEmptyString,
		decode: func(d *decoder, h *HTTPBinding, e entry) {
			h.Body, _ = d.str(e.value, "body")
			h.BodyPos = posOf(e.value)
		}},
	{key: "form", doc: "Send the body as application/x-www-form-urlencoded instead of JSON: each property a field, nested objects and arrays deepObject style (metadata[plan]=pro, expand[0]=x).", schema: flagSchema,
		decode: func(d *decoder, h *HTTPBinding, e entry) {
			h.FormPos = posOf(e.value)
			h.Form, _ = d.boolean(e.value, "form")
		}},
	{key: "multipart", doc: "Send the body as multipart/form-data instead of JSON: each property a part (a scalar as text, a list one part per item, an object as JSON).", schema: flagSchema,
		decode: func(d *decoder, h *HTTPBinding, e entry) {
			h.MultipartPos = posOf(e.value)
			h.Multipart, _ = d.boolean(e.value, "multipart")
		}},
	{key: "contentType", doc: "Send the body property, a string, as it is with this Content-Type (text/plain, application/xml, text/css…) instead of JSON. Needs body.", schema: `{"type":"string","pattern":"^[!#$%&'*+.^_` + "`" + `|~0-9A-Za-z-]+/[!#$%&'*+.^_` + "`" + `|~0-9A-Za-z-]+$"}`,
		decode: func(d *decoder, h *HTTPBinding, e entry) {
			h.ContentTypePos = posOf(e.value)
			h.ContentType, _ = d.str(e.value, "contentType")
		}},
	{key: "awsQuery", doc: "Speak AWS's query protocol (RDS, SQS, SNS, IAM, EC2…): every query parameter and form field whose value is a list or object is sent as name/value pairs, as the AWS SDKs write them: Tags.member.1.Key=k, Filter.1.Name=n (flattened), Attributes.entry.1.key=k (a map). Its tables name what differs from those defaults.", schema: defRef("AWSQuery"),
		decode: func(d *decoder, h *HTTPBinding, e entry) { h.AWSQuery = d.awsQuery(e.value) }},
}

var awsQueryFields = fields[*AWSQueryNames]{
	{key: "names", doc: "Nested properties whose wire name is not the property's: path → name (TagSpecification.Tags: Tag). A path is the parameter's wire name, then the properties it goes through, dot-separated; a list's items and a map's values are at the list's or map's path.", schema: mapOf(nonEmptyString),
		decode: func(d *decoder, q *AWSQueryNames, e entry) { q.Names = d.awsNames(q, e.value, "names") }},
	{key: "members", doc: "Lists whose items are not named member: path → item name (Tags: Tag sends Tags.Tag.1.Key=…).", schema: mapOf(nonEmptyString),
		decode: func(d *decoder, q *AWSQueryNames, e entry) { q.Members = d.awsNames(q, e.value, "members") }},
	{key: "flattened", doc: "Lists and maps sent without the member or entry level (Filter.1.Name=…, Attribute.1.key=…), by path.", schema: `{"type":"array","uniqueItems":true,"items":{"type":"string","minLength":1}}`,
		decode: func(d *decoder, q *AWSQueryNames, e entry) { q.Flattened = d.awsPaths(q, e.value, "flattened") }},
	{key: "maps", doc: "Values that are maps (free keys), not structures, by path: sent as Name.entry.N.key=k&Name.entry.N.value=v.", schema: `{"type":"array","uniqueItems":true,"items":{"type":"string","minLength":1}}`,
		decode: func(d *decoder, q *AWSQueryNames, e entry) { q.Maps = d.awsPaths(q, e.value, "maps") }},
}

func (d *decoder) awsQuery(n *yaml.Node) *AWSQueryNames {
	m, ok := d.mapping(n, "awsQuery")
	if !ok {
		return nil
	}
	q := &AWSQueryNames{Pos: posOf(n), PathPos: map[string]Pos{}}
	decodeMapping(d, m, q, awsQueryFields, func(e entry) { d.unknownKey(e, "in awsQuery", awsQueryFields.keys()) })
	return q
}

// awsNames decodes a table of path → name.
func (d *decoder) awsNames(q *AWSQueryNames, n *yaml.Node, key string) map[string]string {
	m, ok := d.mapping(n, key)
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, e := range d.entries(m, "path") {
		if s, ok := d.str(e.value, key+" of "+e.key); ok {
			if s == "" {
				d.errorf(posOf(e.value), "awsQuery %s: the name of %q is empty", key, e.key)
			}
			out[e.key] = s
			q.PathPos[e.key] = posOf(e.keyNode)
		}
	}
	return out
}

// awsPaths decodes a list of paths.
func (d *decoder) awsPaths(q *AWSQueryNames, n *yaml.Node, key string) []string {
	paths, poss := d.stringList(n, key)
	for i, p := range paths {
		q.PathPos[p] = poss[i]
	}
	return paths
}

func (d *decoder) httpBinding(n *yaml.Node, tool string) *HTTPBinding {
	m, ok := d.mapping(n, "http")
	if !ok {
		return nil
	}
	h := &HTTPBinding{Pos: posOf(n)}
	decodeMapping(d, m, h, httpBindingFields, func(e entry) {
		d.unknownKey(e, fmt.Sprintf("in the http binding of tool %q", tool), httpBindingFields.keys())
	})
	return h
}

var httpParamFields = fields[*HTTPParam]{
	{key: "in", required: true, doc: "Where the property goes: path, query, header, cookie or body (required).", schema: stringEnum(HTTPParamPlaces),
		decode: func(d *decoder, p *HTTPParam, e entry) {
			p.In, _ = d.str(e.value, "in")
			p.InPos = posOf(e.value)
		}},
	{key: "name", doc: "The name on the wire, when it is not the property's (a header's X-Request-ID for the property request_id).", schema: nonEmptyString,
		decode: func(d *decoder, p *HTTPParam, e entry) { p.Name, _ = d.str(e.value, "name") }},
	{key: "explode", doc: "For a query array or object: false sends one value (?tag=a,b; ?color=R,100,G,200); true repeats the name (?tag=a&tag=b) and sends an object's properties as parameters (?R=100&G=200). Default: true for form style, false for spaceDelimited and pipeDelimited.", schema: booleanSchema,
		decode: func(d *decoder, p *HTTPParam, e entry) {
			p.ExplodePos = posOf(e.value)
			if b, ok := d.boolean(e.value, "explode"); ok {
				p.Explode = &b
			}
		}},
	{key: "style", doc: "A query parameter's OpenAPI style: form (the default: ?tag=a,b unexploded), spaceDelimited (?tag=a%20b), pipeDelimited (?tag=a%7Cb), or deepObject (an object or array, sent as name[key]=value and name[0]=value, nested).", schema: stringEnum(httpParamStyles),
		decode: func(d *decoder, p *HTTPParam, e entry) {
			p.StylePos = posOf(e.value)
			if p.Style, _ = d.str(e.value, "style"); p.Style != "" && !slices.Contains(httpParamStyles, p.Style) {
				d.errorf(p.StylePos, "style must be form, spaceDelimited, pipeDelimited or deepObject, not %q", p.Style)
			}
		}},
}

// httpParamStyles are the styles a query parameter may have.
var httpParamStyles = []string{"form", "spaceDelimited", "pipeDelimited", "deepObject"}

func (d *decoder) httpParams(n *yaml.Node) []*HTTPParam {
	m, ok := d.mapping(n, "params")
	if !ok {
		return nil
	}
	var out []*HTTPParam
	for _, e := range d.entries(m, "param") {
		p := &HTTPParam{Pos: posOf(e.keyNode), Property: e.key}
		pm, ok := d.mapping(e.value, fmt.Sprintf("param %q", e.key))
		if !ok {
			continue
		}
		decodeMapping(d, pm, p, httpParamFields, func(pe entry) {
			d.unknownKey(pe, fmt.Sprintf("in param %q", e.key), httpParamFields.keys())
		})
		out = append(out, p)
	}
	return out
}

// upstream checks the upstream section: where the API is, and credentials
// that name their environment variables.
func (v *validator) upstream() {
	u := v.s.Upstream
	if u == nil {
		return
	}
	if u.BaseURL != "" && !isHTTPURL(u.BaseURL) {
		v.errorf(orPos(u.BaseURLPos, u.Pos), "upstream baseUrl must be an absolute http(s) URL, such as https://api.example.com/v1, not %q", u.BaseURL)
	}
	if u.BaseURL == "" && u.BaseURLEnv == "" {
		v.errorf(u.Pos, "upstream needs baseUrl, baseUrlEnv or both: where the API is")
	}
	a := u.Auth
	if a == nil {
		return
	}
	if k := a.APIKey; k != nil {
		if k.In == "" || k.Name == "" || k.Env == "" {
			v.errorf(k.Pos, "upstream.auth.apiKey needs in, name and env, e.g. {in: header, name: X-API-Key, env: API_KEY}")
		}
		if k.In != "" && !slices.Contains(apiKeyPlaces, k.In) {
			v.errorf(orPos(k.InPos, k.Pos), "an API key goes in a header, query or cookie, not %q", k.In)
		}
	}
	if b := a.Bearer; b != nil && b.Env == "" {
		v.errorf(b.Pos, "upstream.auth.bearer needs env: the environment variable holding the token")
	}
	if c := a.ClientCredentials; c != nil {
		if c.TokenURL == "" || c.ClientIDEnv == "" || c.ClientSecretEnv == "" {
			v.errorf(c.Pos, "upstream.auth.clientCredentials needs tokenUrl, clientIdEnv and clientSecretEnv")
		}
		if c.TokenURL != "" && !isHTTPURL(c.TokenURL) {
			v.errorf(orPos(c.TokenURLPos, c.Pos), "tokenUrl must be an absolute http(s) URL, not %q", c.TokenURL)
		}
	}
}

// httpBinding checks that a tool's binding places every input property
// once, in a place that can carry its value, and fills every {name} of the
// path.
func (v *validator) httpBinding(t *Tool) {
	h := t.HTTP
	if h == nil {
		return
	}
	where := fmt.Sprintf("the http binding of tool %q", t.Name)
	if v.s.Upstream == nil {
		v.errorf(h.Pos, "tool %q has an http binding but the spec has no upstream section: add upstream: {baseUrl: https://…}", t.Name)
	}
	if t.InputSchema != nil || t.OutputSchema != nil {
		v.errorf(h.Pos, "%s needs input: and output:, not inputSchema: or outputSchema: (the generated call encodes and decodes typed values)", where)
	}
	switch {
	case h.Method == "":
		v.errorf(h.Pos, "%s needs a method, such as GET", where)
	case slices.Contains(HTTPMethods, strings.ToUpper(h.Method)) && h.Method != strings.ToUpper(h.Method):
		v.errorf(orPos(h.MethodPos, h.Pos), "HTTP method %q in %s must be written in capitals: %s", h.Method, where, strings.ToUpper(h.Method))
	case !slices.Contains(HTTPMethods, h.Method):
		v.errorf(orPos(h.MethodPos, h.Pos), "unknown HTTP method %q in %s; use one of %s", h.Method, where, joinList(HTTPMethods, "or"))
	}
	pathOK := false
	var pathVars []string
	switch {
	case h.Path == "":
		v.errorf(h.Pos, "%s needs a path, such as /pets/{petId}", where)
	case !strings.HasPrefix(h.Path, "/"):
		v.errorf(orPos(h.PathPos, h.Pos), "the path of %s must start with /, not %q", where, h.Path)
	default:
		if pathVars, pathOK = templateVars(h.Path); !pathOK {
			v.errorf(orPos(h.PathPos, h.Pos), "the path of %s has an unbalanced { or }: %q", where, h.Path)
		}
	}

	props := map[string]*Property{}
	var names []string
	if t.Input != nil {
		if obj, _ := v.resolve(t.Input); obj != nil && obj.Kind == KindObject {
			for _, p := range obj.Properties {
				props[p.Name] = p
				names = append(names, p.Name)
			}
		}
	}
	placed := map[string]bool{}
	inPath := map[string]bool{}
	for _, p := range h.Params {
		prop := props[p.Property]
		if prop == nil {
			v.errorf(p.Pos, "%q in %s is not a property of the tool's input%s", p.Property, where, didYouMean(p.Property, names))
			continue
		}
		placed[p.Property] = true
		if p.In == "" {
			v.errorf(p.Pos, "param %q in %s needs in: path, query, header, cookie or body", p.Property, where)
			continue
		}
		if !slices.Contains(HTTPParamPlaces, p.In) {
			v.errorf(orPos(p.InPos, p.Pos), "param %q in %s: in must be path, query, header, cookie or body, not %q", p.Property, where, p.In)
			continue
		}
		if p.Style != "" && h.AWSQuery != nil {
			v.errorf(orPos(p.StylePos, p.Pos), "param %q in %s: style does not apply with awsQuery, which names every query parameter AWS's way", p.Property, where)
		}
		if p.Style != "" && p.In != "query" {
			v.errorf(orPos(p.StylePos, p.Pos), "param %q in %s: style %s applies to query parameters only", p.Property, where, p.Style)
		}
		if p.Explode != nil && p.In != "query" {
			v.errorf(orPos(p.ExplodePos, p.Pos), "param %q in %s: explode applies to query parameters only", p.Property, where)
		}
		if p.In == "body" {
			if h.Body != "" {
				v.errorf(orPos(p.InPos, p.Pos), "param %q in %s is in: body, but body: %q is the whole body already", p.Property, where, h.Body)
			}
			continue
		}
		s, _ := v.resolve(prop.Schema)
		if s == nil {
			continue // an unknown $ref, reported on its own
		}
		switch {
		case p.In == "path":
			inPath[p.WireName()] = true
			if !v.sendable(s, false) {
				v.errorf(orPos(p.InPos, p.Pos), "path parameter %q in %s must be a string, integer, number or boolean, not %s", p.Property, where, kindPhrase(s.Kind))
			}
			if !prop.Required {
				v.errorf(orPos(p.InPos, p.Pos), "path parameter %q in %s must be a required property: a path cannot leave it out", p.Property, where)
			}
			if pathOK && !slices.Contains(pathVars, p.WireName()) {
				v.errorf(orPos(p.InPos, p.Pos), "path parameter %q in %s has no {%s} in the path %q", p.Property, where, p.WireName(), h.Path)
			}
		case p.Style == "deepObject" || (h.AWSQuery != nil && p.In == "query"): // anything JSON can say
		case p.In == "query" && v.flatObject(s): // its properties as text (runtime/upstream's Style)
		case !v.sendable(s, true) && p.In == "query":
			v.errorf(orPos(p.InPos, p.Pos), "query parameter %q in %s is %s; only strings, numbers, booleans, arrays of them, unions of those and objects of scalars can be sent there (style: deepObject sends nested values; or put it in: body)", p.Property, where, kindPhrase(s.Kind))
		case !v.sendable(s, true):
			v.errorf(orPos(p.InPos, p.Pos), "%s parameter %q in %s is %s; only strings, numbers, booleans, arrays of them and unions of those can be sent there (put it in: body)", p.In, p.Property, where, kindPhrase(s.Kind))
		}
	}
	for _, name := range pathVars {
		if !inPath[name] {
			v.errorf(orPos(h.PathPos, h.Pos), "{%s} in the path of %s is not filled: add params: {%s: {in: path}} for a required input property", name, where, name)
		}
	}
	if h.Body != "" {
		if props[h.Body] == nil {
			v.errorf(orPos(h.BodyPos, h.Pos), "body %q of %s is not a property of the tool's input%s", h.Body, where, didYouMean(h.Body, names))
		} else if placed[h.Body] {
			v.errorf(orPos(h.BodyPos, h.Pos), "body %q of %s is also listed under params: a property goes to one place", h.Body, where)
		}
		placed[h.Body] = true
	}
	v.bodyEncoding(h, where, props)
	v.awsQuery(h, where)
	if h.Form && h.Body != "" && props[h.Body] != nil {
		if s, _ := v.resolve(props[h.Body].Schema); s != nil && s.Kind != KindObject && s.Kind != KindMap && s.Kind != KindAny {
			v.errorf(orPos(h.FormPos, h.Pos), "%s sends a form, whose body must be an object, but body %q is %s", where, h.Body, kindPhrase(s.Kind))
		}
	}
	for _, name := range names {
		if !placed[name] {
			v.errorf(h.Pos, "input property %q of tool %q has no place in its http binding: add it under params (in: path, query, header, cookie or body)", name, t.Name)
		}
	}
}

// bodyEncoding checks that a binding asks for one body encoding that fits
// its body: form or multipart an object, contentType a string body.
func (v *validator) bodyEncoding(h *HTTPBinding, where string, props map[string]*Property) {
	if h.Form && h.Multipart {
		v.errorf(orPos(h.MultipartPos, h.Pos), "%s sends a form and multipart: choose one", where)
	}
	if h.Multipart && h.Body != "" && props[h.Body] != nil {
		if s, _ := v.resolve(props[h.Body].Schema); s != nil && s.Kind != KindObject && s.Kind != KindMap && s.Kind != KindAny {
			v.errorf(orPos(h.MultipartPos, h.Pos), "%s sends multipart, whose body must be an object, but body %q is %s", where, h.Body, kindPhrase(s.Kind))
		}
	}
	if h.ContentType == "" {
		return
	}
	at := orPos(h.ContentTypePos, h.Pos)
	if !contentTypeRE.MatchString(h.ContentType) {
		v.errorf(at, "contentType of %s must be a media type such as text/plain, not %q", where, h.ContentType)
	}
	if h.Form || h.Multipart {
		v.errorf(at, "%s has a contentType and sends a form or multipart: choose one", where)
	}
	if h.Body == "" {
		v.errorf(at, "%s has a contentType but no body: name the string property sent as the body (body: NAME)", where)
	} else if props[h.Body] != nil {
		if s, _ := v.resolve(props[h.Body].Schema); s != nil && s.Kind != KindString {
			v.errorf(at, "%s sends body %q as %s, so it must be a string, not %s", where, h.Body, h.ContentType, kindPhrase(s.Kind))
		}
	}
}

// awsQuery checks that an awsQuery binding sends its body, if any, as a
// form, and that each path of its tables starts at a query parameter or
// form field.
func (v *validator) awsQuery(h *HTTPBinding, where string) {
	q := h.AWSQuery
	if q == nil {
		return
	}
	if (h.Body != "" || slices.ContainsFunc(h.Params, func(p *HTTPParam) bool { return p.In == "body" })) && !h.Form {
		v.errorf(q.Pos, "%s speaks awsQuery, whose body is a form: add form: true", where)
	}
	roots := map[string]bool{}
	for _, p := range h.Params {
		if p.In == "query" || p.In == "body" {
			roots[p.WireName()] = true
		}
	}
	var paths []string
	for p := range q.PathPos {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		root, _, _ := strings.Cut(p, ".")
		if !roots[root] {
			v.errorf(q.PathPos[p], "awsQuery path %q of %s does not start at a query parameter or form field (by its wire name)", p, where)
		}
	}
}

var contentTypeRE = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// flatObject reports whether s is an object whose declared values are
// scalars (its properties, or a map's values): a query parameter can send
// it in any style. Values it does not declare (additionalProperties, a
// map of any) are checked when the call is made: runtime/upstream refuses
// a nested one, naming it.
func (v *validator) flatObject(s *Schema) bool {
	s, _ = v.resolve(s)
	switch {
	case s == nil:
		return true
	case s.Kind == KindMap:
		vs, _ := v.resolve(s.Values)
		return vs == nil || vs.Kind == KindAny || v.sendable(vs, false)
	case s.Kind != KindObject:
		return false
	}
	for _, p := range s.Properties {
		if !v.sendable(p.Schema, false) {
			return false
		}
	}
	return true
}

// sendable reports whether a value of s can be sent as parameter text: a
// scalar, an array of scalars (when lists is set), or a union of those
// (runtime/upstream sends the variant that is set).
func (v *validator) sendable(s *Schema, lists bool) bool {
	s, _ = v.resolve(s)
	switch {
	case s == nil:
		return true // an unknown $ref, reported on its own
	case isScalarKind(s.Kind):
		return true
	case s.Kind == KindArray && lists:
		it, _ := v.resolve(s.Items)
		return it == nil || isScalarKind(it.Kind)
	case s.Kind == KindUnion:
		for _, variant := range s.Variants {
			if !v.sendable(variant, lists) {
				return false
			}
		}
		return true
	}
	return false
}

// templateVars lists the {name}s of a path template; false when a brace is
// not closed or is nested.
func templateVars(path string) ([]string, bool) {
	var out []string
	for {
		open, end := strings.IndexByte(path, '{'), strings.IndexByte(path, '}')
		if open < 0 && end < 0 {
			return out, true
		}
		if open < 0 || end < open {
			return nil, false
		}
		name := path[open+1 : end]
		if name == "" || strings.ContainsRune(name, '{') {
			return nil, false
		}
		out = append(out, name)
		path = path[end+1:]
	}
}
