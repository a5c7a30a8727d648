package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/golden/refs"
)

// TestImportMCP runs mcpgen import mcp as a user would: over Streamable
// HTTP with a header, writing a spec that generates; then the usage errors.
func TestImportMCP(t *testing.T) {
	srv := refs.NewServer(refs.UnimplementedHandler{})
	h := srv.HTTPHandler()
	var requests, withHeader int
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		if r.Header.Get("Authorization") == "Bearer t0k" {
			withHeader++
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	dir := t.TempDir()
	code, stdout, stderr := run(t, dir, "import", "mcp", "-H", "Authorization: Bearer t0k", "-package", "refsmcp", ts.URL)
	if code != ExitOK || !strings.Contains(stderr, "0 raw schemas; written to mcpgen.yaml") {
		t.Fatalf("import: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if requests == 0 || withHeader != requests {
		t.Errorf("the -H header came with %d of %d requests", withHeader, requests)
	}
	if code, _, stderr := run(t, dir, "generate"); code != ExitOK {
		data, _ := os.ReadFile(filepath.Join(dir, "mcpgen.yaml"))
		t.Fatalf("generate the imported spec: exit %d\n%s\n%s", code, stderr, data)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"import", "mcp"}, "needs the server"},
		{[]string{"import", "mcp", "server.js"}, "write -- server.js"},
		{[]string{"import", "mcp", "-H", "nocolon", ts.URL}, "'Name: value'"},
		{[]string{"import", "mcp", "-H", "A: b", "--", "node", "x.js"}, "stdio server"},
		{[]string{"import", "mcp", ts.URL}, "mcpgen.yaml exists; pass -force"},
	} {
		if code, _, stderr := run(t, dir, c.args...); code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, want %d and %q:\n%s", c.args, code, ExitUsage, c.want, stderr)
		}
	}
	code, _, stderr = run(t, dir, "import", "mcp", "-o", "-", "--", "sh", "-c", "exit 7")
	if code == ExitOK || !strings.Contains(stderr, "initialize") || !strings.Contains(stderr, "exit status 7") {
		t.Errorf("a server that exits: exit %d\n%s", code, stderr)
	}
}

// A server that does not answer in time: the error says how to wait longer.
func TestImportMCPTimeoutNamesFlag(t *testing.T) {
	code, _, stderr := run(t, t.TempDir(), "import", "mcp", "-timeout", "300ms", "-o", "-", "--", "sleep", "30")
	if code == 0 || !strings.Contains(stderr, "no answer within -timeout 300ms") || !strings.Contains(stderr, "pass -timeout 10m") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}
