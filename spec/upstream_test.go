package spec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const petTool = `tools:
  get_pet:
    description: Get a pet.
    input:
      properties:
        petId: {type: integer}
        tags: {type: array, items: {type: string}}
        trace: {type: string}
        name: {type: string}
      required: [petId]
`

// TestUpstreamAndBindings loads good and bad upstream sections and http
// bindings and compares every finding, as TestLoadDiagnostics does.
func TestUpstreamAndBindings(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"good", `upstream:
  baseUrl: https://api.example.com/v1
  baseUrlEnv: PET_BASE_URL
  timeout: 5s
  maxResponseBytes: 1000
  auth: {clientCredentials: {tokenUrl: https://auth.example.com/token, clientIdEnv: ID, clientSecretEnv: SECRET, scopes: [read]}}
` + petTool + `    http:
      method: POST
      path: /pets/{petId}
      params:
        petId: {in: path}
        tags: {in: query, explode: false}
        trace: {in: header, name: X-Trace}
        name: {in: body}
`, nil},
		{"bad upstream", `upstream:
  baseUrl: /api/v3
  timeout: -1s
  auth: {apiKey: {in: body, name: k, env: 'A-B'}, bearer: {env: T}}
`, []string{
			`mcpgen.yaml:5:12: upstream baseUrl must be an absolute http(s) URL, such as https://api.example.com/v1, not "/api/v3"`,
			`mcpgen.yaml:6:12: timeout must be a positive duration such as 30s or 2m, not "-1s"`,
			`mcpgen.yaml:7:9: upstream.auth needs exactly one of apiKey, bearer or clientCredentials`,
			`mcpgen.yaml:7:23: an API key goes in a header, query or cookie, not "body"`,
			`mcpgen.yaml:7:43: env must name an environment variable (letters, digits and _), not "A-B"`,
		}},
		{"binding without upstream", petTool + `    http: {method: GET, path: '/pets/{petId}', params: {petId: {in: path}, tags: {in: query}, trace: {in: header}, name: {in: query}}}
`, []string{
			`mcpgen.yaml:14:11: tool "get_pet" has an http binding but the spec has no upstream section: add upstream: {baseUrl: https://…}`,
		}},
		{"bad binding", `upstream: {baseUrl: 'https://api.example.com'}
` + petTool + `    http:
      method: get
      path: /pets/{id}/{other
      params:
        petId: {in: path}
        tags: {in: header, explode: true}
        nmae: {in: query}
        trace: {in: body}
      body: trace
`, []string{
			`mcpgen.yaml:16:7: input property "name" of tool "get_pet" has no place in its http binding: add it under params (in: path, query, header, cookie or body)`,
			`mcpgen.yaml:16:15: HTTP method "get" in the http binding of tool "get_pet" must be written in capitals: GET`,
			`mcpgen.yaml:17:13: the path of the http binding of tool "get_pet" has an unbalanced { or }: "/pets/{id}/{other"`,
			`mcpgen.yaml:20:37: param "tags" in the http binding of tool "get_pet": explode applies to query parameters only`,
			`mcpgen.yaml:21:9: "nmae" in the http binding of tool "get_pet" is not a property of the tool's input; did you mean "name"?`,
			`mcpgen.yaml:22:21: param "trace" in the http binding of tool "get_pet" is in: body, but body: "trace" is the whole body already`,
			`mcpgen.yaml:23:13: body "trace" of the http binding of tool "get_pet" is also listed under params: a property goes to one place`,
		}},
		{"bad form", `upstream: {baseUrlEnv: API_URL}
tools:
  send:
    description: Send.
    input:
      properties:
        items: {type: array, items: {type: string}}
        filter: {properties: {a: {type: string}}}
    http:
      method: POST
      path: /send
      form: true
      body: items
      params:
        filter: {in: header, style: deepObject}
`, []string{
			`mcpgen.yaml:15:13: the http binding of tool "send" sends a form, whose body must be an object, but body "items" is an array`,
			`mcpgen.yaml:18:37: param "filter" in the http binding of tool "send": style deepObject applies to query parameters only`,
		}},
		{"body encodings", `upstream: {baseUrlEnv: API_URL}
tools:
  send:
    description: Send.
    input:
      properties:
        text: {type: integer}
        n: {type: integer}
    http:
      method: POST
      path: /send
      body: text
      contentType: text/plain
      multipart: true
      params:
        n: {in: query}
  raw:
    description: Raw.
    input:
      properties:
        n: {type: integer}
    http:
      method: POST
      path: /raw
      contentType: 'text plain'
      params:
        n: {in: query}
`, []string{
			`mcpgen.yaml:16:20: the http binding of tool "send" has a contentType and sends a form or multipart: choose one`,
			`mcpgen.yaml:16:20: the http binding of tool "send" sends body "text" as text/plain, so it must be a string, not an integer`,
			`mcpgen.yaml:17:18: the http binding of tool "send" sends multipart, whose body must be an object, but body "text" is an integer`,
			`mcpgen.yaml:28:20: contentType of the http binding of tool "raw" must be a media type such as text/plain, not "text plain"`,
			`mcpgen.yaml:28:20: the http binding of tool "raw" has a contentType but no body: name the string property sent as the body (body: NAME)`,
		}},
		{"awsQuery", `upstream: {baseUrlEnv: API_URL}
tools:
  tag:
    description: Tag.
    input:
      properties:
        Action: {type: string}
        Tags: {type: array, items: {properties: {Key: {type: string}, Value: {type: string}}}}
        Attributes: {type: map, values: {type: string}}
    http:
      method: GET
      path: /
      params:
        Action: {in: query}
        Tags: {in: query}
        Attributes: {in: query, name: Attribute}
      awsQuery: {members: {Tags: Tag}, flattened: [Attribute], maps: [Attribute]}
  post:
    description: Post.
    input:
      properties:
        Tags: {type: array, items: {properties: {Key: {type: string}}}}
        n: {type: integer}
    http:
      method: POST
      path: /
      params:
        Tags: {in: body}
        n: {in: query, style: pipeDelimited}
      awsQuery: {names: {Tag.Key: K}, members: {Tags: ''}, colour: 1}
`, []string{
			`mcpgen.yaml:32:31: param "n" in the http binding of tool "post": style does not apply with awsQuery, which names every query parameter AWS's way`,
			`mcpgen.yaml:33:17: the http binding of tool "post" speaks awsQuery, whose body is a form: add form: true`,
			`mcpgen.yaml:33:26: awsQuery path "Tag.Key" of the http binding of tool "post" does not start at a query parameter or form field (by its wire name)`,
			`mcpgen.yaml:33:55: awsQuery members: the name of "Tags" is empty`,
			`mcpgen.yaml:33:60: unknown key "colour" in awsQuery`,
		}},
		{"styles", `upstream: {baseUrlEnv: API_URL}
tools:
  find:
    description: Find.
    input:
      properties:
        words: {type: array, items: {type: string}}
        color: {properties: {R: {type: integer}}}
        deep: {properties: {R: {properties: {x: {type: integer}}}}}
        id: {type: string}
    http:
      method: GET
      path: /find
      params:
        words: {in: query, style: pipeDelimited}
        color: {in: query, style: spaceDelimited, explode: false}
        deep: {in: query, style: matrix}
        id: {in: header, style: spaceDelimited}
`, []string{
			`mcpgen.yaml:20:20: query parameter "deep" in the http binding of tool "find" is an object; only strings, numbers, booleans, arrays of them, unions of those and objects of scalars can be sent there (style: deepObject sends nested values; or put it in: body)`,
			`mcpgen.yaml:20:34: style must be form, spaceDelimited, pipeDelimited or deepObject, not "matrix"`,
			`mcpgen.yaml:21:33: param "id" in the http binding of tool "find": style spaceDelimited applies to query parameters only`,
		}},
		{"bad places", `upstream: {baseUrlEnv: API_URL}
tools:
  find:
    description: Find.
    input:
      properties:
        owner: {type: string}
        filter: {type: object, properties: {a: {type: object}}}
        ids: {type: array, items: {type: array, items: {type: string}}}
    http:
      method: GET
      path: /owners/{owner}/{repo}
      params:
        owner: {in: path}
        filter: {in: query}
        ids: {in: cookie}
`, []string{
			`mcpgen.yaml:15:13: {repo} in the path of the http binding of tool "find" is not filled: add params: {repo: {in: path}} for a required input property`,
			`mcpgen.yaml:17:21: path parameter "owner" in the http binding of tool "find" must be a required property: a path cannot leave it out`,
			`mcpgen.yaml:18:22: query parameter "filter" in the http binding of tool "find" is an object; only strings, numbers, booleans, arrays of them, unions of those and objects of scalars can be sent there (style: deepObject sends nested values; or put it in: body)`,
			`mcpgen.yaml:19:19: cookie parameter "ids" in the http binding of tool "find" is an array; only strings, numbers, booleans, arrays of them and unions of those can be sent there (put it in: body)`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, diags := Load("mcpgen.yaml", []byte(base+c.src))
			var got []string
			for _, d := range diags {
				got = append(got, d.String())
			}
			if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\nsource:\n%s", diff, numbered(base+c.src))
			}
		})
	}
}
