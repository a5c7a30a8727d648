package gen_test

import (
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/golden/idempotency"
	"github.com/mcpgen/mcpgen/runtime"
)

// TestIdempotencyRegistered checks that the spec's idempotency keys reach
// the runtime: with its ttl, or 0 for the runtime's default.
func TestIdempotencyRegistered(t *testing.T) {
	srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"})
	idempotency.Register(srv, idempotency.UnimplementedHandler{})
	want := map[string]runtime.Idempotency{
		"send_message": {Key: "idempotency_key"},
		"transfer":     {Key: "request_key", TTL: 90 * time.Minute},
	}
	for _, tool := range srv.Tools() {
		if tool.Idempotency == nil || *tool.Idempotency != want[tool.Name] {
			t.Errorf("tool %s: Idempotency %+v, want %+v", tool.Name, tool.Idempotency, want[tool.Name])
		}
	}
}
