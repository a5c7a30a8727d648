package streamhttp_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/streamhttp"
)

// TestMaxBodyBytesEdge checks WithMaxBodyBytes at its edge: a body of
// exactly the maximum is served, one byte more gets 413, with a
// Content-Length and chunked.
func TestMaxBodyBytesEdge(t *testing.T) {
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	n := int64(len(init))
	for _, tc := range []struct {
		name    string
		max     int64
		chunked bool
		status  int
	}{
		{"exactly the maximum", n, false, 200},
		{"one byte over", n - 1, false, 413},
		{"chunked, exactly the maximum", n, true, 200},
		{"chunked, one byte over", n - 1, true, 413},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"})
			h, err := streamhttp.New(srv, streamhttp.WithMaxBodyBytes(tc.max))
			if err != nil {
				t.Fatal(err)
			}
			req := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(init))
			if tc.chunked {
				req.ContentLength = -1
			}
			req.Header["Accept"] = []string{"application/json, text/event-stream"}
			req.Header["Content-Type"] = []string{"application/json"}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != tc.status {
				t.Errorf("status %d, want %d; body %s", w.Code, tc.status, w.Body)
			}
		})
	}
}
