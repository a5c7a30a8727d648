package otelmcp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// TestOutcomeCancelledOnlyForRequests: error.type cancelled is for a
// request whose context ended; a notification (no id) has no outcome to
// fail, whenever its context ends.
func TestOutcomeCancelledOnlyForRequests(t *testing.T) {
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	call := &runtime.Request{Method: "tools/call", ID: json.RawMessage(`9`)}
	note := &runtime.Request{Method: "notifications/progress"}
	if got := outcomeAttributes(ended, call, nil, nil); len(got) != 1 || got[0].Value.AsString() != errorTypeCancelled {
		t.Errorf("a cancelled request: %v, want error.type %s", got, errorTypeCancelled)
	}
	if got := outcomeAttributes(ended, note, nil, nil); got != nil {
		t.Errorf("a notification whose context ended: %v, want no outcome", got)
	}
	if got := outcomeAttributes(context.Background(), call, &runtime.CallToolResult{}, nil); got != nil {
		t.Errorf("a request that succeeded: %v", got)
	}
}
