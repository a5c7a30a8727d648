package runtime_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
)

// rpcFunc sends one request and returns its response, nil when the HTTP
// layer refused it (a 401 or 403).
type rpcFunc func(method, params string) *response

// The matrix of lists by scope: for every user × tool, in both eras, a tool
// is listed exactly when its call is not refused — nothing listed is
// refused, nothing refused is listed — and the list names what the user's
// scopes allow. With search exposure the same holds of what search_tools
// finds and describe_tools describes, and of call_tool.
func TestListsByScopeMatrix(t *testing.T) {
	for _, exposure := range []runtime.ToolExposure{runtime.ExposeAll, runtime.ExposeSearch} {
		name := map[runtime.ToolExposure]string{runtime.ExposeAll: "all", runtime.ExposeSearch: "search"}[exposure]
		t.Run(name, func(t *testing.T) { listsByScopeMatrix(t, exposure) })
	}
}

func listsByScopeMatrix(t *testing.T, exposure runtime.ToolExposure) {
	k := jwttest.TheKeys(t)
	cfg := authConfig(t)
	cfg.Scopes = nil // the server needs no scope, so a token without any gets in
	p := serveAuth(t, authServer(runtime.WithListsByScope(), runtime.WithCaching(0, "public"), runtime.WithToolExposure(exposure)), cfg)
	users := []struct {
		scopes string
		want   []string
	}{
		{"", []string{"whoami"}}, // no scope: only what needs none
		{"mcp:access", []string{"whoami"}},
		{"mcp:access orders:write", []string{"whoami", "refund"}},
		{"mcp:access payments:write", []string{"whoami"}},
		{"mcp:access orders:write payments:write", []string{"whoami", "refund", "transfer"}},
	}
	for _, u := range users {
		token := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("user", u.scopes)))
		t.Run(cmpOr(u.scopes, "none")+"/legacy", func(t *testing.T) {
			s := &httpPeer{t: t, url: p.url}
			resp := s.do(http.MethodPost, initializeV2, token...)
			readAll(t, resp)
			s.session = resp.Header.Get("Mcp-Session-Id")
			mustStatus(t, s.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, token...), 202)
			checkMatrix(t, exposure, u.want, func(method, params string) *response {
				if params == "" {
					params = "{}"
				}
				resp, _ := s.call(method, params, token...)
				msgs := readAll(t, resp)
				if resp.StatusCode != http.StatusOK {
					return nil
				}
				r := parse(t, msgs[len(msgs)-1].Data)
				return &r
			})
		})
		t.Run(cmpOr(u.scopes, "none")+"/2026-07-28", func(t *testing.T) {
			hdr := map[string]string{"Authorization": token[1]}
			checkMatrix(t, exposure, u.want, func(method, params string) *response {
				params = strings.TrimSuffix(cmpOr(params, "{}"), "}")
				if params != "{" {
					params += ","
				}
				status, _, body := modernPost(t, p.url, `{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+modernMeta+`}}`, hdr)
				if status != http.StatusOK {
					return nil
				}
				if method == "tools/list" && !strings.Contains(body, `"cacheScope":"private"`) {
					t.Errorf("a list by scope is shared: %s", body)
				}
				r := parse(t, body)
				return &r
			})
		})
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// matrixTools are the tools of authServer.
var matrixTools = []string{"whoami", "refund", "transfer"}

// checkMatrix checks one user in one era: what is listed (or found and
// described, with search exposure) is what is callable, and is want.
func checkMatrix(t *testing.T, exposure runtime.ToolExposure, want []string, rpc rpcFunc) {
	t.Helper()
	listed := listedNames(t, rpc("tools/list", "").Result, "tools")
	call := func(name string) *response {
		return rpc("tools/call", `{"name":"`+name+`","arguments":{}}`)
	}
	if exposure == runtime.ExposeSearch {
		if !slices.Equal(listed, []string{"search_tools", "describe_tools", "call_tool"}) {
			t.Fatalf("tools/list with search exposure: %v", listed)
		}
		found := structuredNames(t, rpc("tools/call", `{"name":"search_tools","arguments":{"query":"who am i refund transfer","limit":50}}`))
		slices.SortFunc(found, func(a, b string) int { return slices.Index(matrixTools, a) - slices.Index(matrixTools, b) })
		described := structuredNames(t, rpc("tools/call", `{"name":"describe_tools","arguments":{"names":["whoami","refund","transfer"]}}`))
		if !slices.Equal(found, described) {
			t.Errorf("search_tools found %v, describe_tools described %v: they must agree", found, described)
		}
		listed = found
		call = func(name string) *response {
			return rpc("tools/call", `{"name":"call_tool","arguments":{"name":"`+name+`","arguments":{}}}`)
		}
	}
	var callable []string
	for _, tool := range matrixTools {
		if r := call(tool); r != nil && r.Error == nil {
			callable = append(callable, tool)
		}
	}
	check(t, listed, callable, want)
}

// structuredNames reads the tool names of a search_tools or describe_tools
// result (describe_tools' tools are tools/list entries).
func structuredNames(t *testing.T, r *response) []string {
	t.Helper()
	if r == nil || r.Error != nil {
		t.Fatalf("search tool refused: %+v", r)
	}
	var res struct {
		IsError           bool
		StructuredContent struct{ Tools []struct{ Name string } }
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatalf("%s: %v", r.Result, err)
	}
	var names []string
	for _, tool := range res.StructuredContent.Tools {
		names = append(names, tool.Name)
	}
	return names
}

func check(t *testing.T, listed, callable, want []string) {
	t.Helper()
	if !slices.Equal(listed, callable) {
		t.Errorf("listed %v, callable %v: they must agree", listed, callable)
	}
	if !slices.Equal(listed, want) {
		t.Errorf("listed %v, want %v", listed, want)
	}
}

// TestListsByScopeHiddenIsUnknown: with lists by scope, a call of a tool
// the caller's scopes refuse is answered exactly as a call of a tool that
// does not exist (status, challenge, JSON-RPC error), in both eras and
// through call_tool: the answer does not tell that the tool exists.
// Without lists by scope it stays a 403 insufficient_scope naming the
// scopes (step-up).
func TestListsByScopeHiddenIsUnknown(t *testing.T) {
	k := jwttest.TheKeys(t)
	token := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("user", "mcp:access")))
	type answer struct {
		status    int
		challenge string
		body      string
	}
	serveEras := func(t *testing.T, opts ...runtime.Option) map[string]func(params string) answer {
		p := serveAuth(t, authServer(opts...), authConfig(t))
		s := &httpPeer{t: t, url: p.url}
		resp := s.do(http.MethodPost, initializeV2, token...)
		readAll(t, resp)
		s.session = resp.Header.Get("Mcp-Session-Id")
		mustStatus(t, s.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, token...), 202)
		return map[string]func(params string) answer{
			"legacy": func(params string) answer {
				resp, _ := s.call("tools/call", params, token...)
				msgs := readAll(t, resp)
				var body string
				if len(msgs) > 0 {
					body = msgs[len(msgs)-1].Data
				}
				return answer{resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body}
			},
			"2026-07-28": func(params string) answer {
				status, h, body := modernPost(t, p.url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+strings.TrimSuffix(params, "}")+`,`+modernMeta+`}}`,
					map[string]string{"Authorization": token[1]})
				return answer{status, h.Get("WWW-Authenticate"), body}
			},
		}
	}
	normalize := func(a answer, name string) answer {
		a.body = strings.ReplaceAll(a.body, name, "NAME")
		a.body = regexp.MustCompile(`"id":\d+`).ReplaceAllString(a.body, `"id":N`)
		return a
	}
	for _, exposure := range []runtime.ToolExposure{runtime.ExposeAll, runtime.ExposeSearch} {
		call := `{"name":"%s","arguments":{}}`
		if exposure == runtime.ExposeSearch {
			call = `{"name":"call_tool","arguments":{"name":"%s","arguments":{}}}`
		}
		for era, rpc := range serveEras(t, runtime.WithListsByScope(), runtime.WithToolExposure(exposure)) {
			hidden := normalize(rpc(fmt.Sprintf(call, "refund")), "refund")
			unknown := normalize(rpc(fmt.Sprintf(call, "nosuch")), "nosuch")
			if hidden != unknown {
				t.Errorf("exposure %d, %s: a hidden tool is answered\n%+v\nan unknown one\n%+v", exposure, era, hidden, unknown)
			}
		}
	}
	for era, rpc := range serveEras(t) {
		a := rpc(`{"name":"refund","arguments":{}}`)
		if a.status != http.StatusForbidden || !strings.Contains(a.challenge, `error="insufficient_scope"`) || !strings.Contains(a.challenge, "orders:write") {
			t.Errorf("%s without lists by scope: %+v, want 403 insufficient_scope naming orders:write", era, a)
		}
	}
}
