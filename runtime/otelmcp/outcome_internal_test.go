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

// TestResourceURIOfEveryResourceRequest: a resources/* span carries the
// URI the request acts on: read's target, subscribe's and unsubscribe's
// params.uri; other methods none.
func TestResourceURIOfEveryResourceRequest(t *testing.T) {
	params := json.RawMessage(`{"uri":"test://r/1"}`)
	for _, c := range []struct {
		req  runtime.Request
		want string
	}{
		{runtime.Request{Method: "resources/read", Target: "test://r/1", Params: params}, "test://r/1"},
		{runtime.Request{Method: "resources/subscribe", Params: params}, "test://r/1"},
		{runtime.Request{Method: "resources/unsubscribe", Params: params}, "test://r/1"},
		{runtime.Request{Method: "tools/call", Target: "t", Params: params}, ""},
	} {
		if got := resourceURI(&c.req); got != c.want {
			t.Errorf("%s: mcp.resource.uri %q, want %q", c.req.Method, got, c.want)
		}
	}
}
