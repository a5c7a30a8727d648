package runtime_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
)

// The matrix of lists by scope: for every user × tool, in both eras, a tool
// is listed exactly when its call is not refused — nothing listed is
// refused, nothing refused is listed — and the list names what the user's
// scopes allow.
func TestListsByScopeMatrix(t *testing.T) {
	k := jwttest.TheKeys(t)
	p := serveAuth(t, authServer(runtime.WithListsByScope(), runtime.WithCaching(0, "public")), authConfig(t))
	users := []struct {
		scopes string
		want   []string
	}{
		{"mcp:access", []string{"whoami"}},
		{"mcp:access orders:write", []string{"whoami", "refund"}},
		{"mcp:access payments:write", []string{"whoami"}},
		{"mcp:access orders:write payments:write", []string{"whoami", "refund", "transfer"}},
	}
	tools := []string{"whoami", "refund", "transfer"}
	for _, u := range users {
		token := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("user", u.scopes)))
		t.Run(u.scopes+"/legacy", func(t *testing.T) {
			s := &httpPeer{t: t, url: p.url}
			resp := s.do(http.MethodPost, initializeV2, token...)
			readAll(t, resp)
			s.session = resp.Header.Get("Mcp-Session-Id")
			mustStatus(t, s.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, token...), 202)
			resp, _ = s.call("tools/list", "", token...)
			listed := listedNames(t, parse(t, readAll(t, resp)[0].Data).Result, "tools")
			var callable []string
			for _, tool := range tools {
				resp, _ := s.call("tools/call", `{"name":"`+tool+`","arguments":{}}`, token...)
				msgs := readAll(t, resp)
				if resp.StatusCode == http.StatusOK && parse(t, msgs[0].Data).Error == nil {
					callable = append(callable, tool)
				}
			}
			check(t, listed, callable, u.want)
		})
		t.Run(u.scopes+"/2026-07-28", func(t *testing.T) {
			hdr := map[string]string{"Authorization": token[1]}
			_, _, body := modernPost(t, p.url, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+modernMeta+`}}`, hdr)
			if !strings.Contains(body, `"cacheScope":"private"`) {
				t.Errorf("a list by scope is shared: %s", body)
			}
			listed := listedNames(t, parse(t, body).Result, "tools")
			var callable []string
			for _, tool := range tools {
				status, _, body := modernPost(t, p.url, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`+tool+`","arguments":{},`+modernMeta+`}}`, hdr)
				if status == http.StatusOK && parse(t, body).Error == nil {
					callable = append(callable, tool)
				}
			}
			check(t, listed, callable, u.want)
		})
	}
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
