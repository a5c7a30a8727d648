package gen_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	gated "github.com/mcpgen/mcpgen/golden/requires"
	"github.com/mcpgen/mcpgen/runtime"
)

// The generated code of golden/requires lists its gated items only to a
// client that declared what they need: in initialize (legacy) and in a
// request's _meta (2026-07-28).
func TestGeneratedRequires(t *testing.T) {
	capable := `{"roots":{},"sampling":{},"elicitation":{},"tasks":{},"extensions":{"io.modelcontextprotocol/ui":{},"io.modelcontextprotocol/tasks":{}}}`
	want := map[string][2]int{ // bare, capable
		"tools/list": {1, 4}, "resources/list": {1, 2}, "resources/templates/list": {0, 1}, "prompts/list": {0, 1},
	}
	field := map[string]string{"tools/list": "tools", "resources/list": "resources", "resources/templates/list": "resourceTemplates", "prompts/list": "prompts"}
	for i, caps := range []string{`{}`, capable} {
		for _, era := range []string{"legacy", "modern"} {
			srv := runtime.NewServer(runtime.Implementation{Name: "gated", Version: "1"})
			gated.Register(srv, gated.UnimplementedHandler{})
			var mu sync.Mutex
			var last json.RawMessage
			ss := srv.NewSession(func(msg []byte) {
				var r struct{ Result json.RawMessage }
				_ = json.Unmarshal(msg, &r)
				mu.Lock()
				last = r.Result
				mu.Unlock()
			})
			ctx := context.Background()
			params := `{}`
			if era == "legacy" {
				ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"t","version":"1"}}}`))
			} else {
				params = `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}}`
			}
			for method, n := range want {
				ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
				mu.Lock()
				var r map[string]json.RawMessage
				_ = json.Unmarshal(last, &r)
				mu.Unlock()
				var items []json.RawMessage
				_ = json.Unmarshal(r[field[method]], &items)
				if len(items) != n[i] {
					t.Errorf("%s, client capabilities %s: %s lists %d, want %d", era, caps, method, len(items), n[i])
				}
			}
			ss.Close()
		}
	}
}
