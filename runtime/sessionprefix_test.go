package runtime_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// TestHTTPSessionIDPrefix: with WithSessionIDPrefix every session id starts
// with the replica's tag and still carries 128 random bits; the whole id,
// tag included, names the session, so the same random part under another
// replica's tag is an unknown session (404).
func TestHTTPSessionIDPrefix(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("echo"))
	p := serveHTTP(t, srv, runtime.WithSessionIDPrefix("r2."))

	p.initialize(`{}`)
	random, ok := strings.CutPrefix(p.session, "r2.")
	if !ok || len(random) < 22 {
		t.Fatalf("session id %q: want r2. then at least 128 random bits", p.session)
	}
	jsonEqual(t, `{"content":[{"type":"text","text":"{\"a\":1}"}]}`, p.result("tools/call", `{"name":"echo","arguments":{"a":1}}`))

	for _, other := range []string{"r1." + random, random} {
		resp := p.do(http.MethodPost, `{"jsonrpc":"2.0","id":9,"method":"ping"}`, "Mcp-Session-Id", other)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("POST with session id %q (another tag): %d, want 404", other, resp.StatusCode)
		}
	}

	second := serveHTTP(t, srv, runtime.WithSessionIDPrefix("r2."))
	second.initialize(`{}`)
	if second.session == p.session || !strings.HasPrefix(second.session, "r2.") {
		t.Errorf("two sessions: %q and %q, want distinct ids with the tag", p.session, second.session)
	}
}

// TestHTTPSessionIDPrefixInvalid: a prefix that a session id cannot carry
// is refused when the option is made, with a message naming the byte.
func TestHTTPSessionIDPrefixInvalid(t *testing.T) {
	for prefix, want := range map[string]string{
		"r 1":                   "byte 1 (0x20) is not visible ASCII",
		"r1\n":                  "byte 2 (0x0a) is not visible ASCII",
		"réplica":               "byte 1 (0xc3) is not visible ASCII",
		strings.Repeat("r", 65): "longer than 64 characters",
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, "runtime.WithSessionIDPrefix") || !strings.Contains(msg, want) {
					t.Errorf("WithSessionIDPrefix(%q) panicked with %q, want %q", prefix, msg, want)
				}
			}()
			runtime.WithSessionIDPrefix(prefix)
		}()
	}
}
