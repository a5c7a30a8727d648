package otelmcp

import (
	"fmt"
	"testing"

	"go.opentelemetry.io/otel/attribute"

	"github.com/mcpgen/mcpgen/runtime"
)

// TestRouteCacheBounded: tool names come from clients, so a client calling
// ever new names (a memory DoS) fills the route cache to maxCached and no
// further; calls past it still get their route. Failures are cached by
// their attributes' names and values: two outcomes that differ only in a
// value are two entries, each with its own value.
func TestRouteCacheBounded(t *testing.T) {
	in := New()
	for i := range 2 * maxCached {
		req := &runtime.Request{Method: "tools/call", Target: fmt.Sprintf("tool-%d", i), ProtocolVersion: "2025-11-25", Transport: runtime.TransportHTTP}
		r := in.route(req)
		if r == nil || r.name != "tools/call "+req.Target {
			t.Fatalf("call %d: route %+v", i, r)
		}
		in.failed(r, []attribute.KeyValue{attribute.String("error.type", fmt.Sprint(i))})
	}
	n := 0
	in.routes.m.Range(func(_, _ any) bool { n++; return true })
	if n > maxCached || in.routes.size > maxCached {
		t.Errorf("%d routes cached (%d counted), the most is %d", n, in.routes.size, maxCached)
	}

	in = New()
	r := in.route(&runtime.Request{Method: "tools/call", Target: "t", Transport: runtime.TransportHTTP})
	a := in.failed(r, []attribute.KeyValue{attribute.String("error.type", "tool_error")})
	b := in.failed(r, []attribute.KeyValue{attribute.String("error.type", "-32602")})
	if a == b {
		t.Error("two outcomes with one attribute name and two values share a record option")
	}
	if again := in.failed(r, []attribute.KeyValue{attribute.String("error.type", "tool_error")}); again != a {
		t.Error("the same outcome is not cached")
	}
}

// TestRouteCacheIgnoresOtherTargets: only tools/call and prompts/get name
// their target in the route; the URIs of resources/read, which clients
// choose too, share one cached route.
func TestRouteCacheIgnoresOtherTargets(t *testing.T) {
	in := New()
	for i := range 100 {
		r := in.route(&runtime.Request{Method: "resources/read", Target: fmt.Sprintf("file:///f%d", i), ProtocolVersion: "2025-11-25", Transport: runtime.TransportHTTP})
		if r == nil || r.name != "resources/read" {
			t.Fatalf("read %d: route %+v", i, r)
		}
	}
	if in.routes.size != 1 {
		t.Errorf("%d routes cached for reads of 100 URIs, want 1", in.routes.size)
	}
}
