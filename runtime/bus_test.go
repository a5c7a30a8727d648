package runtime_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// Two servers (two replicas) on one bus: a change on either reaches the
// client of the other, once; lists registered before a server serves
// notify nobody.
func TestNotificationBusAcrossServers(t *testing.T) {
	bus := runtime.NewMemoryBus()
	replica := func() *runtime.Server {
		srv := runtime.NewServer(testInfo(), runtime.WithNotificationBus(bus))
		srv.AddTool(echoTool("echo"))
		srv.AddResource(textResource("watched://r"))
		return srv
	}
	a, b := replica(), replica()
	c := serve(t, a)
	c.initialize()
	jsonEqual(t, `{}`, c.result("resources/subscribe", map[string]any{"uri": "watched://r"}))
	serve(t, b).initialize() // b serves: its changes go on the bus

	b.NotifyResourceUpdated("watched://r")
	if got := c.recv(); got != updated("watched://r") {
		t.Fatalf("update on the other replica: got %s", got)
	}
	a.NotifyResourceUpdated("watched://r")
	if got := c.recv(); got != updated("watched://r") {
		t.Fatalf("update on the same replica: got %s", got)
	}
	b.AddTool(echoTool("echo2"))
	if got := c.recv(); got != toolsChanged {
		t.Fatalf("tool added on the other replica: got %s", got)
	}
	// Each arrived once: the next message is the answer to a ping.
	c.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":"p","result":{}}` {
		t.Errorf("after the notifications: got %s, want the ping's answer (a notification came twice?)", got)
	}
}
